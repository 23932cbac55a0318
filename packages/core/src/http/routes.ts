/**
 * The eleven endpoints of docs/api-reference.md (Endpoints) as data: method, path, permission, schemas and statuses. The
 * request pipeline matches requests against this table and the OpenAPI document is built from it.
 */
import * as z from "zod";
import type { QueryBag } from "../base/http-types";
import type { Scope } from "../model/domain";
import { applicationCreateBodySchema, applicationPatchBodySchema } from "../schemas/application";
import {
  applicationPageSchema,
  applicationResponseSchema,
  eventPageSchema,
  jobPageSchema,
  jobResponseSchema,
  meSchema,
} from "../schemas/common";
import { jobCreateBodySchema, jobPatchBodySchema } from "../schemas/job";
import {
  applicationListQuerySchema,
  eventListQuerySchema,
  jobListQuerySchema,
  parseApplicationListQuery,
  parseEventListQuery,
  parseJobListQuery,
} from "../schemas/query";
import { parseQuery } from "../schemas/validation";

/** Path of the document itself, below the API root; served without a key. */
export const OPENAPI_PATH = "/openapi.json";

/** Path of the HTML reference rendered from the document, below the API root; served without a key. */
export const REFERENCE_PATH = "/reference";

/** The query of a route: its strict schema (documented in OpenAPI) and the parser built on it. */
export interface QuerySpec<Q> {
  /** Strict schema of the query parameters (strings in, typed values out). */
  schema: z.ZodType;
  /** @throws HireportError `bad_request` (400) naming the parameter: unknown, repeated or invalid. */
  parse(query: QueryBag | URLSearchParams | undefined): Q;
}

/** The query of a route that takes no parameters: any parameter is 400 naming it. */
const NO_QUERY: QuerySpec<Record<string, never>> = {
  schema: z.strictObject({}),
  parse: (query) => parseQuery(NO_QUERY.schema, query) as Record<string, never>,
};

/** One endpoint of the public API. `Q` and `B` are the typed query and body its handler receives. */
export interface RouteSpec<Q = unknown, B = unknown> {
  operationId: string;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Path template below the API root, `{id}` for the path parameter: `/jobs/{id}`. */
  path: string;
  /** Permission required; null when any valid key may call it (GET /me), or when `anyOfScopes` says. */
  scope: Scope | null;
  /**
   * With `scope` null: the key needs at least one of these (GET /events: each event type needs its
   * own read permission, which the handler checks). @default none: `scope` alone decides
   */
  anyOfScopes?: readonly Scope[];
  summary: string;
  description?: string;
  /**
   * The OpenAPI tag the operation is listed under. @default by its path: Key, Jobs, Applications or
   * Events
   */
  tag?: string;
  /** The query parameters: validated before the handler runs (400 on failure). */
  query: QuerySpec<Q>;
  /** Schema of the JSON body: validated before the handler runs (422 on failure); none for bodiless routes. */
  body: z.ZodType<B> | null;
  /** Schema of the success body. */
  response: z.ZodType;
  successStatus: 200 | 201;
  /**
   * Every error status this endpoint may answer with, ascending: what the pipeline, the router and
   * the body reader can answer on this route (test/openapi-statuses.test.ts provokes each one), plus
   * the statuses docs/api-reference.md lists for it (404 on GET /jobs and POST /jobs, which hireport never answers
   * there: the key's company always exists). On every route: 400 (an unknown query parameter), 401, 405
   * (another method on the same path), 429, 500 and 503 (the API is closing); 403 where a permission
   * is needed; 413 and 422 where there is a body; 409 and 422 on POST (Idempotency-Key).
   */
  errorStatuses: readonly number[];
}

const PAGING =
  "Newest first. When has_more is true, pass next_cursor as cursor to get the next page; cursors are opaque and only valid with the same filters. To keep a copy in step, set updated_since to the time of your last successful sync, or use webhooks.";

function route<const Id extends string, Q, B>(
  spec: RouteSpec<Q, B> & { operationId: Id },
): RouteSpec<Q, B> & { operationId: Id } {
  return Object.freeze(spec);
}

/** The eleven endpoints by operation id, in the order of docs/api-reference.md, Endpoints. */
export const ROUTE_TABLE = Object.freeze({
  getMe: route({
    operationId: "getMe",
    method: "GET",
    path: "/me",
    scope: null,
    summary: "The calling key, its company and its limits",
    description: "Any valid key may call it, whatever its permissions.",
    query: NO_QUERY,
    body: null,
    response: meSchema,
    successStatus: 200,
    errorStatuses: [400, 401, 405, 429, 500, 503],
  }),
  listJobs: route({
    operationId: "listJobs",
    method: "GET",
    path: "/jobs",
    scope: "jobs:read",
    summary: "List jobs",
    description: PAGING,
    query: { schema: jobListQuerySchema, parse: (query) => parseJobListQuery(query ?? {}) },
    body: null,
    response: jobPageSchema,
    successStatus: 200,
    errorStatuses: [400, 401, 403, 404, 405, 429, 500, 503],
  }),
  createJob: route({
    operationId: "createJob",
    method: "POST",
    path: "/jobs",
    scope: "jobs:write",
    summary: "Create a job",
    description:
      "Only title is required. A job is created as a draft unless status is sent; an active job appears on the public jobs page, the search-engine listing and the job-board feed. Emits job.created.",
    body: jobCreateBodySchema,
    query: NO_QUERY,
    response: jobResponseSchema,
    successStatus: 201,
    errorStatuses: [400, 401, 403, 404, 405, 409, 413, 422, 429, 500, 503],
  }),
  getJob: route({
    operationId: "getJob",
    method: "GET",
    path: "/jobs/{id}",
    scope: "jobs:read",
    summary: "Get a job",
    query: NO_QUERY,
    body: null,
    response: jobResponseSchema,
    successStatus: 200,
    errorStatuses: [400, 401, 403, 404, 405, 429, 500, 503],
  }),
  updateJob: route({
    operationId: "updateJob",
    method: "PATCH",
    path: "/jobs/{id}",
    scope: "jobs:write",
    summary: "Change a job",
    description:
      "Only the fields sent are changed; null clears salary_min, salary_max, closing_date, start_date and positions. Sending status active, draft or paused reopens a closed job. Emits job.updated.",
    body: jobPatchBodySchema,
    query: NO_QUERY,
    response: jobResponseSchema,
    successStatus: 200,
    errorStatuses: [400, 401, 403, 404, 405, 413, 422, 429, 500, 503],
  }),
  closeJob: route({
    operationId: "closeJob",
    method: "POST",
    path: "/jobs/{id}/close",
    scope: "jobs:write",
    summary: "Close a job",
    description:
      "No body. The job leaves the public jobs page and the job-board feed; emits job.closed. Closing a closed job answers 200 with the job unchanged and emits nothing.",
    query: NO_QUERY,
    body: null,
    response: jobResponseSchema,
    successStatus: 200,
    errorStatuses: [400, 401, 403, 404, 405, 409, 422, 429, 500, 503],
  }),
  listApplications: route({
    operationId: "listApplications",
    method: "GET",
    path: "/applications",
    scope: "applications:read",
    summary: "List applications",
    description: PAGING,
    query: { schema: applicationListQuerySchema, parse: (query) => parseApplicationListQuery(query ?? {}) },
    body: null,
    response: applicationPageSchema,
    successStatus: 200,
    errorStatuses: [400, 401, 403, 404, 405, 429, 500, 503],
  }),
  createApplication: route({
    operationId: "createApplication",
    method: "POST",
    path: "/applications",
    scope: "applications:write",
    summary: "Add a candidate to a job",
    description:
      "The same e-mail address (compared trimmed and case-insensitive) may apply to the same job once every 30 days, whatever the stage of the earlier application; a repeat within 30 days answers 409 duplicate. A closed job takes no candidates: 422 invalid, with error.fields naming job_id (the job is closed); draft and paused jobs take them (the company's own systems may source for unpublished jobs). The new application starts in stage new. Its scores.ai_match is advice for a person, never a decision. Emits application.created.",
    body: applicationCreateBodySchema,
    query: NO_QUERY,
    response: applicationResponseSchema,
    successStatus: 201,
    errorStatuses: [400, 401, 403, 404, 405, 409, 413, 422, 429, 500, 503],
  }),
  getApplication: route({
    operationId: "getApplication",
    method: "GET",
    path: "/applications/{id}",
    scope: "applications:read",
    summary: "Get an application",
    description: "Includes the candidate's contact details and a short-lived link to the CV.",
    query: NO_QUERY,
    body: null,
    response: applicationResponseSchema,
    successStatus: 200,
    errorStatuses: [400, 401, 403, 404, 405, 429, 500, 503],
  }),
  updateApplication: route({
    operationId: "updateApplication",
    method: "PATCH",
    path: "/applications/{id}",
    scope: "applications:write",
    summary: "Move an application or add a note",
    description:
      "Every move between the 14 stages is allowed and recorded in the history with the key's name; a PATCH to the current stage changes nothing. A note is added to the recruiter notes. Emits application.updated when something changed.",
    body: applicationPatchBodySchema,
    query: NO_QUERY,
    response: applicationResponseSchema,
    successStatus: 200,
    errorStatuses: [400, 401, 403, 404, 405, 413, 422, 429, 500, 503],
  }),
  listEvents: route({
    operationId: "listEvents",
    method: "GET",
    path: "/events",
    scope: null,
    anyOfScopes: ["jobs:read", "applications:read"],
    summary: "List events",
    description:
      "The envelopes the webhooks carry, oldest first (in the order they were committed), for a system that cannot receive webhooks. A key sees the job events when it has jobs:read, the application events when it has applications:read; a type it cannot read answers 403. Keep next_cursor, given on the last page too, and ask again with it later: following it from the start, you get every event once, with no gaps. Events are served for the feed's window (30 days unless the service says otherwise); a cursor from a page read longer ago than the window answers 410 cursor_expired. Events of an erased candidate read as erased, as their webhooks do.",
    query: { schema: eventListQuerySchema, parse: (query) => parseEventListQuery(query ?? {}) },
    body: null,
    response: eventPageSchema,
    successStatus: 200,
    errorStatuses: [400, 401, 403, 405, 410, 429, 500, 503],
  }),
});

/** Operation ids of the public API, as in the OpenAPI document. */
export type OperationId = keyof typeof ROUTE_TABLE;

/** The typed query a route's handler receives. */
export type RouteQuery<K extends OperationId> = (typeof ROUTE_TABLE)[K] extends RouteSpec<infer Q, unknown> ? Q : never;

/** The typed body a route's handler receives (`undefined` for bodiless routes). */
export type RouteBody<K extends OperationId> =
  (typeof ROUTE_TABLE)[K] extends RouteSpec<unknown, infer B>
    ? (typeof ROUTE_TABLE)[K]["body"] extends null
      ? undefined
      : B
    : never;

/** The eleven endpoints, in the order of docs/api-reference.md, Endpoints: what the router and the OpenAPI document walk. */
export const ROUTES: readonly RouteSpec[] = Object.freeze(Object.values(ROUTE_TABLE) as RouteSpec[]);
