/** The `api_version` of every envelope: core's, re-exported. */

export type { WebhookSignatureScheme } from "@hireport/core";
export { API_VERSION } from "@hireport/core";
export { type AddressPolicy, type AddressVerdict, createAddressPolicy } from "./address-policy";
export type {
  DeliveryListOptions,
  DeliveryLog,
  DeliveryPage,
  RecoverOptions,
  RecoverResult,
  WebhookDelivery,
  WebhookDeliveryDetails,
  WebhookDeliveryWithAttempts,
} from "./deliveries";
export { buildSignatureHeader } from "./delivery-request";
export type { DeliveryResult, RunResult } from "./delivery-runner";
export {
  createWebhookDispatcher,
  type PurgeOptions,
  type RunOnceOptions,
  type TestSendResult,
  type WebhookDispatcher,
} from "./dispatcher";
export type { AttemptFigures, EndpointHourStats, EndpointStats, EndpointStatsOptions } from "./endpoint-stats";
export { type EndpointStopInput, endpointUpdate } from "./endpoint-stops";
export type { WebhookEndpoint } from "./endpoint-view";
export type { CreateEndpointInput, EndpointManager, EndpointWithSecret, UpdateEndpointInput } from "./endpoints";
export type { DispatcherHealthOptions, ResolvedDispatcherHealth } from "./health";
export {
  type JwksHandlerOptions,
  type JwksOptions,
  type JwksSource,
  jwksHandler,
  type WebhookJwk,
  type WebhookJwks,
} from "./jwks";
export {
  DEFAULT_RETRY_SCHEDULE_MS,
  type ResolvedDispatcherOptions,
  type RetentionRunner,
  type WebhookDispatcherOptions,
} from "./options";
export {
  type ReencryptOptions,
  type ReencryptResult,
  type SecretEncryptionKey,
  SecretKeyError,
} from "./secret-encryption";
export { RESPONSE_BODY_LIMIT } from "./sender";
export { BlockedAddressError, type HostResolver } from "./ssrf-guard";
export { type AttemptStatsBucket, type AttemptStatsQuery, MAX_ATTEMPT_STATS_BUCKETS } from "./store/attempt-stats";
export {
  THROTTLE_WINDOW_MS,
  type ThrottleCount,
  throttleAfter,
  throttleAllowance,
  throttleWindowStart,
} from "./store/endpoint-throttle";
export type { WebhookStorage, WebhookStorageStores } from "./store/webhook-storage";
export type {
  AttemptOutcome,
  AttemptToRecord,
  ClaimOptions,
  DeliveryListQuery,
  DueDeliveryStats,
  DueDeliveryStatsQuery,
  EndpointPatch,
  EndpointStatusChange,
  EndpointUpdate,
  RecordAttemptResult,
  RecoverQuery,
  WebhookStore,
} from "./store/webhook-store";
