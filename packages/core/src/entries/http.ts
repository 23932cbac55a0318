/**
 * `@hireport/core/http`: for framework adapters and pages served beside the API. The request and
 * response contract, the Fetch bridge, header and body helpers, the health answer, request
 * tracing, and the route table with the OpenAPI document built from it.
 */

export type { FetchContext, HandlerSettings, HeaderBag, QueryBag } from "../base/http-types";
export { mediaTypeOf, toSearchParams } from "../base/request-parts";
export type { RefusalReason, RequestOutcome, RequestSource, RequestSurface, RequestTelemetry } from "../base/telemetry";
export { buildOpenApiDocument, type OpenApiDocumentOptions } from "../docs/openapi";
export {
  type ApiExtension,
  type ExtensionRoute,
  extensionRoute,
  querySpec,
} from "../http/extension";
export { clientIp, createFetchHandler, isEmptyBody, toWebResponse } from "../http/fetch-bridge";
export { frameOptionsHeader } from "../http/frame-options";
export type { HandlerContext, HandlerResult } from "../http/handlers";
export {
  answerHealth,
  DEFAULT_HEALTH_TIMEOUT_MS,
  type HealthCheckDetails,
  HealthCheckFailure,
  type HealthCheckResult,
  type HealthRunOptions,
  type HealthSource,
  runHealthChecks,
  sanitizeHealthError,
} from "../http/health";
export { readBytes } from "../http/read-bytes";
export { type SpanNotes, traceRequest } from "../http/request-telemetry";
export { type OperationId, type QuerySpec, ROUTES, type RouteSpec } from "../http/routes";
