export { type AddressPolicy, type AddressVerdict, createAddressPolicy } from "./address-policy";
export type {
  DeliveryListOptions,
  DeliveryLog,
  DeliveryPage,
  WebhookDelivery,
  WebhookDeliveryDetails,
  WebhookDeliveryWithAttempts,
} from "./deliveries";
export type { DeliveryResult, RunResult } from "./delivery-runner";
export {
  createWebhookDispatcher,
  type PurgeOptions,
  type RunOnceOptions,
  type TestSendResult,
  type WebhookDispatcher,
} from "./dispatcher";
export type { WebhookEndpoint } from "./endpoint-view";
export type { CreateEndpointInput, EndpointManager, EndpointWithSecret, UpdateEndpointInput } from "./endpoints";
export { DEFAULT_RETRY_SCHEDULE_MS, type ResolvedDispatcherOptions, type WebhookDispatcherOptions } from "./options";
export { RESPONSE_BODY_LIMIT } from "./sender";
export { buildSignatureHeader } from "./signature";
export { BlockedAddressError, type HostResolver } from "./ssrf-guard";
export { API_VERSION } from "./test-event";
