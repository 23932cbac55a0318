/**
 * The webhook events as a receiver's developer reads them: what each type means, the JSON Schema of
 * its envelope and an example body. The schema is the envelope's zod schema (the one the OpenAPI
 * document publishes) narrowed to the type and converted with `z.toJSONSchema`; the example is the
 * envelope `eventPayload` writes around a Job from `jobWire` (the declared fields at their
 * defaults and examples) or an example Application. Nothing of a schema is written twice.
 */
import * as z from "zod";
import { eventPayload } from "../events/events";
import { jobWire } from "../fields/generated/job-wire";
import { JOB_FIELDS, jobFieldDefaults } from "../fields/job";
import { type AnyEventType, EVENT_TYPES, type JobRecord } from "../model/domain";
import type { ApplicationWire } from "../model/serialize";
import { eventEnvelopeSchema, testEventEnvelopeSchema } from "../schemas/common";

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

/** The first `examples` value of a field's schema, when it has the type of the field's default. */
function exampleOf(schema: z.ZodType, fallback: unknown): unknown {
  const example = (schema.meta()?.examples as unknown[] | undefined)?.[0];
  if (example === undefined || Array.isArray(example) !== Array.isArray(fallback)) return fallback;
  return Array.isArray(fallback) || typeof example === typeof fallback ? example : fallback;
}

/** An active Job as `jobWire` returns it: every declared field at its example, or its default. */
function exampleJob(type: AnyEventType) {
  const defaults = jobFieldDefaults() as unknown as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(JOB_FIELDS)) fields[name] = exampleOf(spec.input, defaults[name]);
  const closed = type === "job.closed";
  const job = {
    ...(fields as unknown as JobRecord),
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

/** An Application as returned to an API client. */
function exampleApplication(type: AnyEventType): ApplicationWire {
  return {
    id: "app_01j9x2k3m4n5p6q7r8s9t0v1w2",
    reference: "APP-20931",
    job_id: EXAMPLE_JOB,
    job_title: "Senior Backend Engineer",
    candidate: {
      name: "Ada Lovelace",
      email: "ada@example.com",
      phone: "+44 20 7946 0000",
      location: "London",
      linkedin_url: "",
      current_title: "Analyst",
      skills: ["TypeScript", "PostgreSQL"],
    },
    cover_letter: "",
    resume_url: null,
    stage: type === "application.created" ? "new" : "shortlisted",
    source: "careers-site",
    scores: { ai_match: 82, overall: null },
    tags: [],
    starred: false,
    human_review_requested: false,
    applied_at: EXAMPLE_TIME.toISOString(),
    updated_at: EXAMPLE_TIME.toISOString(),
    erased_at: null,
    answers: [
      {
        question_id: "right_to_work",
        label: "Do you have the right to work in the UK?",
        type: "yes_no",
        value: true,
        text: "Yes",
      },
    ],
    knocked_out: false,
  };
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
