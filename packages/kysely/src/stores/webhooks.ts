import type { WebhookStore } from "@hireport/webhooks";
import type { StoreContext } from "../context";
import { createEventDeliveryStore } from "./event-deliveries";
import { createAttemptStatsMethods } from "./webhook-attempt-stats";
import { createAttemptMethods } from "./webhook-attempts";
import { createClaimMethods } from "./webhook-claims";
import { createDeliveryMethods } from "./webhook-deliveries";
import { createEndpointMethods } from "./webhook-endpoints";

/**
 * Webhook endpoints, deliveries and attempts: core's fan-out and purge (the event-delivery store),
 * the host's side, the dispatcher's claims and its attempts.
 */
export function createWebhookStore(ctx: StoreContext): WebhookStore {
  return {
    ...createEventDeliveryStore(ctx),
    ...createEndpointMethods(ctx),
    ...createDeliveryMethods(ctx),
    ...createClaimMethods(ctx),
    ...createAttemptMethods(ctx),
    ...createAttemptStatsMethods(ctx),
  };
}
