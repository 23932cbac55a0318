/**
 * `@hireport/webhooks/testing`: the conformance suite of the webhook store. Needs vitest (an
 * optional peer dependency of `@hireport/webhooks`).
 */
export { makeAttempt, makeDelivery, makeEndpoint } from "./fixtures";
export { runWebhookStoreConformance } from "./run-webhook-store-conformance";
export type { WebhookConformanceInstance, WebhookConformanceTarget } from "./types";
