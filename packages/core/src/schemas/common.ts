/**
 * Shapes shared by every endpoint: the error body, pages, single records,
 * GET /me (2.8), the webhook event envelope (2.9), and the path and header parameters.
 */
import * as z from "zod";
import { ERROR_STATUS, type ErrorCode } from "../base/errors";
import { idString, utcDateTime } from "../fields/value-schemas";
import { SCOPES } from "../model/domain";
import { applicationSchema } from "./application";
import { jobSchema } from "./job";

/** Every error code the API answers with, in the order of `ERROR_STATUS`. */
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** The error codes answered with one HTTP status (`codesForStatus(429)` is rate_limited and daily_limit). */
export function codesForStatus(status: number): ErrorCode[] {
  return ERROR_CODES.filter((code) => ERROR_STATUS[code] === status);
}

/** One entry of the `fields` list of a 422 body. */
export const fieldErrorSchema = z
  .strictObject({
    field: z
      .string()
      .meta({ description: "Dotted path of the field; list items by index.", examples: ["candidate.email"] }),
    message: z.string().meta({ examples: ["Must be a valid e-mail address, such as ada@example.com."] }),
  })
  .meta({ description: "What is wrong with one field and how to fix it." });

/** The `error` object inside an error body. */
export const errorObjectSchema = z.strictObject({
  code: z
    .enum(ERROR_CODES)
    .meta({ description: "Stable, machine-readable error code (see Errors in the API reference)." }),
  message: z.string().meta({ description: "What went wrong and what to do, in plain English." }),
  fields: z
    .array(fieldErrorSchema)
    .optional()
    .meta({ description: "422 invalid only: one entry per field to fix (at most 100)." }),
  required_scope: z
    .enum(SCOPES)
    .optional()
    .meta({ description: "403 missing_scope only: the permission the key lacks." }),
  existing_id: z
    .string()
    .optional()
    .meta({ description: "409 duplicate only: id of the earlier application of the same e-mail to the same job." }),
});

/** The error body (docs/api-reference.md#errors): `{ error: { code, message, ... } }`. */
export const errorBodySchema = z
  .strictObject({ error: errorObjectSchema })
  .meta({ description: "Every error answer has this shape." });

/** The 422 body: `error.fields` is always present. */
export const validationErrorBodySchema = z
  .strictObject({
    error: z.strictObject({
      code: z.literal("invalid"),
      message: errorObjectSchema.shape.message,
      fields: z.array(fieldErrorSchema).min(1).max(100),
    }),
  })
  .meta({ description: "The body was JSON but broke the schema; error.fields tells what to fix." });

/** The 403 body: `error.required_scope` names the missing permission. */
export const missingScopeErrorBodySchema = z
  .strictObject({
    error: z.strictObject({
      code: z.literal("missing_scope"),
      message: errorObjectSchema.shape.message,
      required_scope: z.enum(SCOPES).meta({ description: "The permission the key lacks." }),
    }),
  })
  .meta({ description: "The key is valid but lacks the permission in error.required_scope." });

/** A page of results, newest first, with an opaque cursor to the next page. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.strictObject({
    data: z.array(item).meta({ description: "Newest first." }),
    has_more: z.boolean().meta({ description: "True when another page follows." }),
    next_cursor: z.string().nullable().meta({
      description: "Opaque: pass it as `cursor` to get the next page; null on the last page.",
    }),
  });
}

/** A single-record answer: `{ data: item }`. */
export function singleSchema<T extends z.ZodType>(item: T) {
  return z.strictObject({ data: item });
}

/** A page of jobs. */
export const jobPageSchema = pageSchema(jobSchema).meta({ description: "A page of jobs, newest first." });
/** A page of applications. */
export const applicationPageSchema = pageSchema(applicationSchema).meta({
  description: "A page of applications, newest first.",
});
/** `{ data: Job }`. */
export const jobResponseSchema = singleSchema(jobSchema);
/** `{ data: Application }`. */
export const applicationResponseSchema = singleSchema(applicationSchema);

/** The body of GET /me: `{ data: { company, key, limits } }`. */
export const meSchema = z
  .strictObject({
    data: z.strictObject({
      company: z.strictObject({ id: z.string(), name: z.string() }),
      key: z.strictObject({
        id: z.string(),
        name: z.string(),
        scopes: z.array(z.enum(SCOPES)).meta({
          description: "The key's permissions, implied read permissions included (jobs:write includes jobs:read).",
        }),
      }),
      limits: z.strictObject({
        per_minute: z
          .int()
          .min(0)
          .meta({ description: "Requests per minute for this key.", examples: [120] }),
        per_day: z
          .int()
          .min(0)
          .meta({ description: "Requests per UTC day for this key.", examples: [20000] }),
      }),
    }),
  })
  .meta({ description: "The key making the request, its company and its limits." });

const envelopeFields = {
  id: z
    .string()
    .regex(/^evt_/)
    .meta({ description: "Event id; use it to drop repeats.", examples: ["evt_01j9x2k3m4n5p6q7r8s9t0v1w2"] }),
  created_at: utcDateTime(),
  company_id: z.string(),
  api_version: z.literal("1.0"),
} as const;

/** The webhook event envelope (docs/api-reference.md#the-envelope): job events carry a Job, application events an Application. */
export const eventEnvelopeSchema = z
  .discriminatedUnion("type", [
    z.strictObject({
      ...envelopeFields,
      type: z.enum(["job.created", "job.updated", "job.closed"]),
      data: jobSchema,
    }),
    z.strictObject({
      ...envelopeFields,
      type: z.enum(["application.created", "application.updated"]),
      data: applicationSchema,
    }),
  ])
  .meta({
    description:
      "Body of a webhook delivery. Events may arrive more than once or out of order: drop repeats by id, keep the version with the newest data.updated_at.",
  });

/** A page of GET /events: envelopes oldest first, and a cursor to keep even on the last page. */
export const eventPageSchema = z
  .strictObject({
    data: z.array(eventEnvelopeSchema).meta({
      description: "Oldest first (in the order the events were committed): the envelopes the webhooks carry.",
    }),
    has_more: z
      .boolean()
      .meta({ description: "True when another page follows now: ask again at once with next_cursor." }),
    next_cursor: z.string().nullable().meta({
      description:
        "Opaque: pass it as `cursor` to get the events after this page. Unlike other lists it is given on the last page too: keep it and ask again later for the events that follow. Null only when the feed has had no event yet.",
    }),
  })
  .meta({ description: "A page of events, oldest first." });

/** The body of the test event sent from the application (`webhook.test`). */
export const testEventEnvelopeSchema = z.strictObject({
  ...envelopeFields,
  type: z.literal("webhook.test"),
  data: z.strictObject({ endpoint_id: z.string() }),
});

/** The path parameter `id` of /jobs/{id} and /applications/{id}. */
export const idParamSchema = idString().meta({ description: "The record's id." });

/** The optional `Idempotency-Key` header of POST requests. */
export const idempotencyKeySchema = z
  .string()
  .min(1)
  .max(255)
  .meta({
    description:
      "Any unique string, such as a UUID. A repeat with the same key within 24 hours replays the first answer; the same key with a different body answers 422.",
    examples: ["5f0c1d9e-8c7a-4f3b-9a51-2b6f4c1e8d20"],
  });
