/**
 * The API's types, all taken from `./generated/openapi.ts`: the OpenAPI document of
 * `@hireport/core`, built from the zod schemas the server validates with, turned into TypeScript
 * by openapi-typescript. Nothing here is written by hand but the names.
 */
import type { components, operations, paths } from "./generated/openapi";

export type { components, operations, paths };

/**
 * The operations this client calls: the eleven endpoints of docs/api-reference.md, Endpoints, and
 * the webhook endpoints a host serves when it mounts `@hireport/webhooks`'s routes.
 */
export type ApiOperationId =
  | "getMe"
  | "listJobs"
  | "createJob"
  | "getJob"
  | "updateJob"
  | "closeJob"
  | "listApplications"
  | "createApplication"
  | "getApplication"
  | "updateApplication"
  | "listEvents"
  | "listWebhookEndpoints"
  | "createWebhookEndpoint"
  | "getWebhookEndpoint"
  | "updateWebhookEndpoint"
  | "deleteWebhookEndpoint"
  | "rotateWebhookEndpointSecret"
  | "pauseWebhookEndpoint"
  | "resumeWebhookEndpoint"
  | "testWebhookEndpoint"
  | "listWebhookDeliveries"
  | "resendWebhookDelivery"
  | "getEventSample";

/** The JSON body an operation takes. */
export type RequestBody<K extends ApiOperationId> = operations[K] extends {
  requestBody: { content: { "application/json": infer B } };
}
  ? B
  : never;

/** The JSON body of an operation's success answer (200 or 201). */
export type SuccessBody<K extends ApiOperationId> = operations[K]["responses"] extends {
  200: { content: { "application/json": infer R } };
}
  ? R
  : operations[K]["responses"] extends { 201: { content: { "application/json": infer R } } }
    ? R
    : never;

/** The query parameters an operation takes. */
export type QueryParams<K extends ApiOperationId> = NonNullable<operations[K]["parameters"]["query"]>;

/** A job as returned. */
export type Job = components["schemas"]["Job"];
/** An application as returned (personal data: your company is its controller). */
export type Application = components["schemas"]["Application"];
/** The candidate inside a returned application. */
export type Candidate = components["schemas"]["Candidate"];
/** What GET /me answers: the key, its company and its limits. */
export type Me = components["schemas"]["Me"]["data"];
/** The body of POST /jobs: only `title` is required. */
export type JobInput = RequestBody<"createJob">;
/** The body of PATCH /jobs/{id}: any JobInput field; null clears the clearable ones. */
export type JobPatchInput = RequestBody<"updateJob">;
/** The body of POST /applications: `job_id` and the candidate's `name` and `email` are required. */
export type ApplicationInput = RequestBody<"createApplication">;
/** The candidate as sent in POST /applications. */
export type CandidateInput = ApplicationInput["candidate"];
/** The body of PATCH /applications/{id}: stage, note, tags, starred, all optional. */
export type ApplicationPatchInput = RequestBody<"updateApplication">;
/** A job's status. */
export type JobStatus = Job["status"];
/** One of the 14 application stages. */
export type ApplicationStage = Application["stage"];
/** A webhook delivery's body (verify its signature first). */
export type EventEnvelope = components["schemas"]["EventEnvelope"];
/** One entry of `fields` in a 422 answer. */
export type FieldError = components["schemas"]["FieldError"];
/** A stable error code of the API (`rate_limited`, `missing_scope`, `duplicate`, …). */
export type ErrorCode = components["schemas"]["Error"]["error"]["code"];
/** A permission a key may hold. */
export type Scope = Me["key"]["scopes"][number];

/** A webhook endpoint (a subscription) as returned: never its secret. */
export type WebhookEndpoint = components["schemas"]["WebhookEndpoint"];
/** A webhook endpoint with its signing secret: what create and rotateSecret return, the only time it is shown. */
export type WebhookEndpointWithSecret = components["schemas"]["WebhookEndpointWithSecret"];
/** The body of POST /webhook-endpoints: `{ url, events }`, or REST Hooks `{ target_url, event }`. */
export type WebhookEndpointInput = RequestBody<"createWebhookEndpoint">;
/** The body of PATCH /webhook-endpoints/{id}: the fields sent change. */
export type WebhookEndpointPatchInput = RequestBody<"updateWebhookEndpoint">;
/** A delivery of an event to an endpoint, with its attempts. */
export type WebhookDelivery = components["schemas"]["WebhookDelivery"];
/** The query of GET /webhook-endpoints/{id}/deliveries. */
export type WebhookDeliveryListParams = QueryParams<"listWebhookDeliveries">;
/** What POST /webhook-endpoints/{id}/test answers: the result, the delivery and its attempt. */
export type WebhookTestResult = SuccessBody<"testWebhookEndpoint">["data"];
/** A subscribable event kind. */
export type EventType = WebhookEndpoint["events"][number];

/** A page of a list: newest first; pass `next_cursor` as `cursor` for the next one. */
export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** `updated_since` as the API takes it (a date or a date-time string), or a `Date`. */
type WithSince<Q> = Omit<Q, "updated_since"> & { updated_since?: string | Date | undefined };

/** Query of GET /jobs: `status`, `limit` (1 to 100), `cursor`, `updated_since`. */
export type JobListParams = WithSince<QueryParams<"listJobs">>;
/** Query of GET /events: `type` (comma-separated), `created_since`, `limit` (1 to 100), `cursor`. */
export type EventListParams = QueryParams<"listEvents">;
/** Query of GET /applications: `job_id`, `stage`, `limit` (1 to 100), `cursor`, `updated_since`. */
export type ApplicationListParams = WithSince<QueryParams<"listApplications">>;
