/**
 * The ten endpoints of spec section 4 as data: method, path, permission, schemas and statuses. The
 * request pipeline matches requests against this table and the OpenAPI document is built from it.
 */
import type * as z from "zod";
import type { Scope } from "./domain";
import { applicationCreateBodySchema, applicationPatchBodySchema } from "./schemas/application";
import {
  applicationPageSchema,
  applicationResponseSchema,
  jobPageSchema,
  jobResponseSchema,
  meSchema,
} from "./schemas/common";
import { jobCreateBodySchema, jobPatchBodySchema } from "./schemas/job";
import { applicationListQuerySchema, jobListQuerySchema } from "./schemas/query";

/** Operation ids of the public API, as in the OpenAPI document. */
export type OperationId =
  | "getMe"
  | "listJobs"
  | "createJob"
  | "getJob"
  | "updateJob"
  | "closeJob"
  | "listApplications"
  | "createApplication"
  | "getApplication"
  | "updateApplication";

/** One endpoint of the public API. */
export interface RouteSpec {
  operationId: OperationId;
  method: "GET" | "POST" | "PATCH";
  /** Path template below the API root, `{id}` for the path parameter: `/jobs/{id}`. */
  path: string;
  /** Permission required; null when any valid key may call it (GET /me). */
  scope: Scope | null;
  summary: string;
  description?: string;
  /** Strict schema of the query parameters (strings in, typed values out). */
  query?: z.ZodType;
  /** Schema of the JSON body (422 on failure). */
  body?: z.ZodType;
  /** Schema of the success body. */
  response: z.ZodType;
  successStatus: 200 | 201;
  /** Every error status this endpoint may answer with, ascending. */
  errorStatuses: readonly number[];
}

const PAGING =
  "Newest first. When has_more is true, pass next_cursor as cursor to get the next page; cursors are opaque and only valid with the same filters. To keep a copy in step, set updated_since to the time of your last successful sync, or use webhooks.";

/** The ten endpoints of spec section 4, in the spec's order. */
export const ROUTES: readonly RouteSpec[] = Object.freeze([
  {
    operationId: "getMe",
    method: "GET",
    path: "/me",
    scope: null,
    summary: "The calling key, its company and its limits",
    description: "Any valid key may call it, whatever its permissions.",
    response: meSchema,
    successStatus: 200,
    errorStatuses: [401, 429, 500],
  },
  {
    operationId: "listJobs",
    method: "GET",
    path: "/jobs",
    scope: "jobs:read",
    summary: "List jobs",
    description: PAGING,
    query: jobListQuerySchema,
    response: jobPageSchema,
    successStatus: 200,
    errorStatuses: [400, 401, 403, 404, 429, 500],
  },
  {
    operationId: "createJob",
    method: "POST",
    path: "/jobs",
    scope: "jobs:write",
    summary: "Create a job",
    description:
      "Only title is required. A job is created as a draft unless status is sent; an active job appears on the public jobs page, the search-engine listing and the job-board feed. Emits job.created.",
    body: jobCreateBodySchema,
    response: jobResponseSchema,
    successStatus: 201,
    errorStatuses: [400, 401, 403, 404, 409, 413, 422, 429, 500],
  },
  {
    operationId: "getJob",
    method: "GET",
    path: "/jobs/{id}",
    scope: "jobs:read",
    summary: "Get a job",
    response: jobResponseSchema,
    successStatus: 200,
    errorStatuses: [401, 403, 404, 429, 500],
  },
  {
    operationId: "updateJob",
    method: "PATCH",
    path: "/jobs/{id}",
    scope: "jobs:write",
    summary: "Change a job",
    description:
      "Only the fields sent are changed; null clears salary_min, salary_max, closing_date, start_date and positions. Sending status active, draft or paused reopens a closed job. Emits job.updated.",
    body: jobPatchBodySchema,
    response: jobResponseSchema,
    successStatus: 200,
    errorStatuses: [400, 401, 403, 404, 413, 422, 429, 500],
  },
  {
    operationId: "closeJob",
    method: "POST",
    path: "/jobs/{id}/close",
    scope: "jobs:write",
    summary: "Close a job",
    description:
      "No body. The job leaves the public jobs page and the job-board feed; emits job.closed. Closing a closed job answers 200 with the job unchanged and emits nothing.",
    response: jobResponseSchema,
    successStatus: 200,
    errorStatuses: [401, 403, 404, 409, 429, 500],
  },
  {
    operationId: "listApplications",
    method: "GET",
    path: "/applications",
    scope: "applications:read",
    summary: "List applications",
    description: PAGING,
    query: applicationListQuerySchema,
    response: applicationPageSchema,
    successStatus: 200,
    errorStatuses: [400, 401, 403, 404, 429, 500],
  },
  {
    operationId: "createApplication",
    method: "POST",
    path: "/applications",
    scope: "applications:write",
    summary: "Add a candidate to a job",
    description:
      "The same e-mail address (compared trimmed and case-insensitive) may apply to the same job once every 30 days, whatever the stage of the earlier application; a repeat within 30 days answers 409 duplicate. The new application starts in stage new. Its scores.ai_match is advice for a person, never a decision. Emits application.created.",
    body: applicationCreateBodySchema,
    response: applicationResponseSchema,
    successStatus: 201,
    errorStatuses: [400, 401, 403, 404, 409, 413, 422, 429, 500],
  },
  {
    operationId: "getApplication",
    method: "GET",
    path: "/applications/{id}",
    scope: "applications:read",
    summary: "Get an application",
    description: "Includes the candidate's contact details and a short-lived link to the CV.",
    response: applicationResponseSchema,
    successStatus: 200,
    errorStatuses: [401, 403, 404, 429, 500],
  },
  {
    operationId: "updateApplication",
    method: "PATCH",
    path: "/applications/{id}",
    scope: "applications:write",
    summary: "Move an application or add a note",
    description:
      "Every move between the 14 stages is allowed and recorded in the history with the key's name; a PATCH to the current stage changes nothing. A note is added to the recruiter notes. Emits application.updated when something changed.",
    body: applicationPatchBodySchema,
    response: applicationResponseSchema,
    successStatus: 200,
    errorStatuses: [400, 401, 403, 404, 413, 422, 429, 500],
  },
]);
