/** The `api_version` of every envelope: core's, re-exported. */

export { API_VERSION } from "@hireport/core/extend";
export { webhookEndpointsApi } from "./api/endpoint-routes";
export {
  webhookAttemptSchema,
  webhookDeliverySchema,
  webhookEndpointCreateBodySchema,
  webhookEndpointPatchBodySchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from "./api/endpoint-wire";
export type {
  DeliveryListOptions,
  DeliveryLog,
  DeliveryPage,
  RecoverOptions,
  RecoverResult,
  WebhookDelivery,
  WebhookDeliveryDetails,
  WebhookDeliveryWithAttempts,
} from "./delivery/deliveries";
export { buildSignatureHeader } from "./delivery/delivery-request";
export type { DeliveryResult, RunResult } from "./delivery/delivery-runner";
export {
  createWebhookDispatcher,
  type PurgeOptions,
  type RunOnceOptions,
  type TestSendResult,
  type WebhookDispatcher,
} from "./dispatcher/dispatcher";
export type { DispatcherHealthOptions, ResolvedDispatcherHealth } from "./dispatcher/health";
export {
  DEFAULT_RETRY_SCHEDULE_MS,
  type ResolvedDispatcherOptions,
  type RetentionRunner,
  type WebhookDispatcherOptions,
} from "./dispatcher/options";
export type {
  AttemptFigures,
  EndpointHourStats,
  EndpointStats,
  EndpointStatsOptions,
} from "./endpoints/endpoint-stats";
export { type EndpointStopInput, endpointUpdate } from "./endpoints/endpoint-stops";
export type { WebhookEndpoint } from "./endpoints/endpoint-view";
export type {
  CreateEndpointInput,
  EndpointManager,
  EndpointWithSecret,
  UpdateEndpointInput,
} from "./endpoints/endpoints";
export { type AddressPolicy, type AddressVerdict, createAddressPolicy } from "./network/address-policy";
export { RESPONSE_BODY_LIMIT } from "./network/sender";
export { BlockedAddressError, type HostResolver } from "./network/ssrf-guard";
export {
  type JwksHandlerOptions,
  type JwksOptions,
  type JwksSource,
  jwksHandler,
  type WebhookJwk,
  type WebhookJwks,
} from "./signing/jwks";
export {
  type ReencryptOptions,
  type ReencryptResult,
  type SecretEncryptionKey,
  SecretKeyError,
} from "./signing/secret-encryption";
export { type AttemptStatsBucket, type AttemptStatsQuery, MAX_ATTEMPT_STATS_BUCKETS } from "./store/attempt-stats";
export {
  THROTTLE_WINDOW_MS,
  type ThrottleCount,
  throttleAfter,
  throttleAllowance,
  throttleWindowStart,
} from "./store/endpoint-throttle";
export {
  type ClaimedDelivery,
  type DeliveryAttemptRecord,
  type DeliveryRecord,
  WEBHOOK_SIGNATURE_SCHEMES,
  type WebhookEndpointRecord,
  type WebhookSecret,
  type WebhookSignatureScheme,
  type WebhookStopReason,
} from "./store/webhook-records";
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
