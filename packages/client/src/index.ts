/**
 * @hireport/client: a typed client of the hireport public Jobs and Applications API (v1) and its
 * webhook endpoints (where the host mounts them), on
 * `fetch` only (Node 20+, Deno, Bun, Workers). Types come from the API's own OpenAPI document.
 */
export {
  type ApplicationsResource,
  createClient,
  type EventsResource,
  type HireportClient,
  type JobsResource,
  type ListAllParams,
  type WebhookEndpointsResource,
} from "./client";
export { type CallDescription, type ClientErrorCode, HireportApiError, HireportNetworkError } from "./errors";
export { type EventFeedOptions, EventFeedRun } from "./events-feed";
export { type SyncOptions, SyncRun } from "./paging";
export type {
  CallOptions,
  ClientOptions,
  PatchOptions,
  PostOptions,
  ResponseEvent,
  RetryEvent,
} from "./transport";
export type * from "./types";
