/**
 * Query parameters of the list endpoints (docs/api-reference.md, GET /jobs and GET /applications). The schemas take the raw strings of
 * the query and output typed values; `parseJobListQuery` and `parseApplicationListQuery` add the
 * checks no schema can make (repeated parameters) and turn `updated_since` into a `Date`.
 */
import * as z from "zod";
import type { QueryBag } from "../base/http-types";
import { idString, LIMITS } from "../fields/value-schemas";
import {
  APPLICATION_STAGES,
  type ApplicationStage,
  EVENT_TYPES,
  type EventType,
  JOB_LIST_FILTERS,
  type JobListFilter,
} from "../model/domain";
import { parseQuery } from "./validation";

const limitMessage = `Must be a whole number from ${LIMITS.pageMin} to ${LIMITS.pageMax}, such as ${LIMITS.pageDefault}.`;

/** `limit`: digits only, then an integer from 1 to 100; 25 when absent. */
export const limitParam = z
  .string()
  .regex(/^[0-9]{1,6}$/, { error: limitMessage })
  .transform(Number)
  .pipe(z.int().min(LIMITS.pageMin, { error: limitMessage }).max(LIMITS.pageMax, { error: limitMessage }))
  .default(LIMITS.pageDefault)
  .meta({ description: `Page size, ${LIMITS.pageMin} to ${LIMITS.pageMax}.` });

/** `cursor`: the `next_cursor` of the previous page, passed back unchanged. */
export const cursorParam = z
  .string()
  .min(1, { error: "Must not be empty: pass the next_cursor of the previous page, or leave cursor out." })
  .max(LIMITS.cursor, { error: `Must be at most ${LIMITS.cursor} characters: pass next_cursor unchanged.` })
  .optional()
  .meta({ description: "The next_cursor of the previous page, unchanged. Cursors are opaque." });

const updatedSinceMessage =
  "Must be a date (2026-03-31, meaning midnight UTC) or a date-time with Z or an offset (2026-03-31T09:30:00Z, 2026-03-31T10:30:00%2B01:00 with the + encoded as %2B).";

/** `updated_since`: a date (midnight UTC) or a date-time with Z or an offset. */
const updatedSinceParam = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: updatedSinceMessage })
  .optional()
  .meta({
    description:
      "Only records changed at or after this time: a date (YYYY-MM-DD, midnight UTC) or a date-time with Z or an offset (converted to UTC). Set it to the time of your last successful sync to keep a copy in step.",
  });

function enumMessage(values: readonly string[]): string {
  return `Must be one of: ${values.join(", ")}.`;
}

/** Raw query of GET /jobs. Unknown parameters are refused. */
export const jobListQuerySchema = z.strictObject({
  status: z
    .enum(JOB_LIST_FILTERS, { error: enumMessage(JOB_LIST_FILTERS) })
    .default("all")
    .meta({ description: "open: active jobs; closed; draft; all (paused jobs appear only under all)." }),
  limit: limitParam,
  cursor: cursorParam,
  updated_since: updatedSinceParam,
});

/** Raw query of GET /applications. Unknown parameters are refused. */
export const applicationListQuerySchema = z.strictObject({
  job_id: idString()
    .optional()
    .meta({ description: "Only applications to this job; a job of another company answers 404." }),
  stage: z
    .enum(APPLICATION_STAGES, { error: enumMessage(APPLICATION_STAGES) })
    .optional()
    .meta({ description: "Only applications in this stage." }),
  limit: limitParam,
  cursor: cursorParam,
  updated_since: updatedSinceParam,
});

const typeListMessage = `Must be one or more of ${EVENT_TYPES.join(", ")}, separated by commas (type=job.created,job.closed).`;

/** One event type, as a pattern (the dots escaped). */
const EVENT_TYPE_PATTERN = `(?:${EVENT_TYPES.map((type) => type.replace(".", "\\.")).join("|")})`;

/** `type` of GET /events: one event type or several, comma-separated (a repeat counts once). */
const eventTypesParam = z
  .string()
  .regex(new RegExp(`^${EVENT_TYPE_PATTERN}(?:,${EVENT_TYPE_PATTERN})*$`), { error: typeListMessage })
  .optional()
  .meta({
    description: `Only events of these types, comma-separated (type=job.created,job.closed): ${EVENT_TYPES.join(", ")}. Without it, every type the key may read. A type the key may not read answers 403 missing_scope.`,
  });

/** `created_since` of GET /events: as `updated_since`. */
const createdSinceParam = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: updatedSinceMessage })
  .optional()
  .meta({
    description:
      "Only events created at or after this time: a date (YYYY-MM-DD, midnight UTC) or a date-time with Z or an offset. Events older than the feed's window (30 days unless the service says otherwise) are not served whatever this says.",
  });

/** Raw query of GET /events. Unknown parameters are refused. */
export const eventListQuerySchema = z.strictObject({
  type: eventTypesParam,
  created_since: createdSinceParam,
  limit: limitParam,
  cursor: cursorParam,
});

/** Parsed query of GET /events. */
export interface EventListParams {
  /** The types asked for; undefined: every type the key may read. */
  types?: EventType[];
  createdSince?: Date;
  limit: number;
  cursor?: string;
}

/**
 * Parses the query of GET /events.
 * @throws HireportError `bad_request` naming the parameter: unknown, repeated or invalid.
 */
export function parseEventListQuery(query: QueryBag | URLSearchParams): EventListParams {
  const raw = parseQuery(eventListQuerySchema, query);
  const result: EventListParams = { limit: raw.limit };
  if (raw.type !== undefined) result.types = [...new Set(raw.type.split(",") as EventType[])];
  if (raw.created_since !== undefined) result.createdSince = updatedSinceToDate(raw.created_since);
  if (raw.cursor !== undefined) result.cursor = raw.cursor;
  return result;
}

/** Parsed query of GET /jobs. */
export interface JobListParams {
  status: JobListFilter;
  limit: number;
  cursor?: string;
  updatedSince?: Date;
}

/** Parsed query of GET /applications. */
export interface ApplicationListParams {
  jobId?: string;
  stage?: ApplicationStage;
  limit: number;
  cursor?: string;
  updatedSince?: Date;
}

/** `2026-03-31` is midnight UTC; a date-time keeps its instant (an offset is converted to UTC). */
export function updatedSinceToDate(value: string): Date {
  return new Date(value.length === 10 ? `${value}T00:00:00.000Z` : value);
}

/**
 * Parses the query of GET /jobs.
 * @throws HireportError `bad_request` naming the parameter: unknown, repeated or invalid.
 */
export function parseJobListQuery(query: QueryBag | URLSearchParams): JobListParams {
  const raw = parseQuery(jobListQuerySchema, query);
  const result: JobListParams = { status: raw.status, limit: raw.limit };
  if (raw.cursor !== undefined) result.cursor = raw.cursor;
  if (raw.updated_since !== undefined) result.updatedSince = updatedSinceToDate(raw.updated_since);
  return result;
}

/**
 * Parses the query of GET /applications.
 * @throws HireportError `bad_request` naming the parameter: unknown, repeated or invalid.
 */
export function parseApplicationListQuery(query: QueryBag | URLSearchParams): ApplicationListParams {
  const raw = parseQuery(applicationListQuerySchema, query);
  const result: ApplicationListParams = { limit: raw.limit };
  if (raw.job_id !== undefined) result.jobId = raw.job_id;
  if (raw.stage !== undefined) result.stage = raw.stage;
  if (raw.cursor !== undefined) result.cursor = raw.cursor;
  if (raw.updated_since !== undefined) result.updatedSince = updatedSinceToDate(raw.updated_since);
  return result;
}
