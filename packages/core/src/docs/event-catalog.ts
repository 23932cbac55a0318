/**
 * The webhook events as a receiver's developer reads them: what each type means, the JSON Schema of
 * its envelope and an example body. The schema is the envelope's zod schema (the one the OpenAPI
 * document publishes) narrowed to the type and converted with `z.toJSONSchema`; the example is the
 * envelope `eventPayload` writes around a Job from `jobWire` or an Application from
 * `applicationWire`, their declared fields at their examples or defaults (`exampleRecord`). Nothing
 * of a schema is written twice.
 */
import * as z from "zod";
import { eventPayload } from "../events/events";
import { APPLICATION_FIELDS } from "../fields/application";
import { CANDIDATE_FIELDS } from "../fields/candidate";
import { exampleRecord } from "../fields/field";
import { JOB_FIELDS } from "../fields/job";
import { type AnyEventType, type ApplicationRecord, EVENT_TYPES, type JobRecord } from "../model/domain";
import { eventEnvelopeSchema, testEventEnvelopeSchema } from "../schemas/common";
import { applicationWire } from "../wire/generated/application-wire";
import { jobWire } from "../wire/generated/job-wire";
import type { ApplicationWire } from "../wire/serialize";

/** What each event type means: the OpenAPI document's webhooks and the console's event catalog say it. */
export const EVENT_DESCRIPTIONS: Readonly<Record<AnyEventType, string>> = {
  "application.created":
    "A new application arrived (from the application, the public jobs page, or POST /applications).",
  "application.updated": "An application changed, for example its stage.",
  "job.created": "A job was added.",
  "job.updated": "A job changed.",
  "job.closed": "A job was closed or filled.",
  "webhook.test": "A test sent on request from the endpoint's page, to check that the receiver answers.",
};

/** One event type of {@link eventCatalog}. */
export interface EventCatalogEntry {
  type: AnyEventType;
  description: string;
  /** The JSON Schema (draft 2020-12) of the envelope of this type, self-contained. */
  schema: Record<string, unknown>;
  /** An example envelope of this type, as a receiver gets it (parsed JSON). */
  example: Record<string, unknown>;
}

const EXAMPLE_TIME = new Date("2026-03-31T09:30:00.000Z");
const EXAMPLE_COMPANY = "co_acme";
const EXAMPLE_EVENT = "evt_01j9x2k3m4n5p6q7r8s9t0v1w2";
const EXAMPLE_JOB = "job_01j9x2k3m4n5p6q7r8s9t0v1w2";

/** An active Job as `jobWire` returns it: every declared field at its example, or its default. */
function exampleJob(type: AnyEventType) {
  const closed = type === "job.closed";
  const job = {
    ...exampleRecord(JOB_FIELDS),
    id: EXAMPLE_JOB,
    companyId: EXAMPLE_COMPANY,
    reference: "JOB-1042",
    status: closed ? "closed" : "active",
    hidden: false,
    applicationsCount: type === "job.created" ? 0 : 12,
    createdAt: EXAMPLE_TIME,
    updatedAt: EXAMPLE_TIME,
    closedAt: closed ? EXAMPLE_TIME : null,
    publishedAt: EXAMPLE_TIME,
  } satisfies JobRecord;
  return jobWire(job, closed ? null : `https://careers.example.com/jobs/${EXAMPLE_JOB}`);
}

/**
 * An Application as returned to an API client: every declared field at its example, or its
 * default, with its candidate's; its stage by the event, an answer to the example job's question.
 */
function exampleApplication(type: AnyEventType): ApplicationWire {
  const application = {
    ...exampleRecord(APPLICATION_FIELDS),
    id: "app_01j9x2k3m4n5p6q7r8s9t0v1w2",
    companyId: EXAMPLE_COMPANY,
    jobId: EXAMPLE_JOB,
    jobTitle: "Senior Backend Engineer",
    reference: "APP-20931",
    candidate: exampleRecord(CANDIDATE_FIELDS),
    stage: type === "application.created" ? "new" : "shortlisted",
    appliedAt: EXAMPLE_TIME,
    updatedAt: EXAMPLE_TIME,
    answers: [
      {
        questionId: "right_to_work",
        label: "Do you have the right to work in the UK?",
        type: "yes_no",
        value: true,
        text: "Yes",
      },
    ],
  } satisfies ApplicationRecord;
  return applicationWire(application, null);
}

/** The zod schema of the envelope of `type`: its variant of the envelope union, `type` narrowed to it. */
export function eventEnvelopeSchemaOf(type: AnyEventType): z.ZodType {
  if (type === "webhook.test") return testEventEnvelopeSchema;
  const variant = eventEnvelopeSchema.options.find((option) =>
    (option.shape.type.options as readonly string[]).includes(type),
  );
  if (!variant) throw new Error(`hireport: the envelope schema has no variant for ${type}`);
  return variant.extend({ type: z.literal(type) });
}

function exampleData(type: AnyEventType): unknown {
  if (type === "webhook.test") return { endpoint_id: "we_01j9x2k3m4n5p6q7r8s9t0v1w2" };
  return type.startsWith("job.") ? exampleJob(type) : exampleApplication(type);
}

/**
 * Every event type a receiver may get (the kinds of `EVENT_TYPES`, then `webhook.test`), each with
 * its description, the JSON Schema of its envelope and an example envelope. Built on each call.
 */
export function eventCatalog(): EventCatalogEntry[] {
  const types: AnyEventType[] = [...EVENT_TYPES, "webhook.test"];
  return types.map((type) => ({
    type,
    description: EVENT_DESCRIPTIONS[type],
    schema: z.toJSONSchema(eventEnvelopeSchemaOf(type), { io: "output" }) as Record<string, unknown>,
    example: JSON.parse(
      eventPayload({
        id: EXAMPLE_EVENT,
        type,
        createdAt: EXAMPLE_TIME,
        companyId: EXAMPLE_COMPANY,
        data: exampleData(type),
      }),
    ) as Record<string, unknown>,
  }));
}
