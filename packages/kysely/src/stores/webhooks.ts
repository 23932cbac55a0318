import type { WebhookStore } from "@hireport/webhooks";
import type { StoreContext } from "../context";
import { createAttemptStatsMethods } from "./webhook-attempt-stats";
import { createAttemptMethods } from "./webhook-attempts";
import { createClaimMethods } from "./webhook-claims";
import { createDeliveryMethods } from "./webhook-deliveries";
import { createEndpointMethods } from "./webhook-endpoints";

/** Webhook endpoints, deliveries and attempts: the host's side, the dispatcher's claims and its attempts. */
export function createWebhookStore(ctx: StoreContext): WebhookStore {
  return {
    ...createEndpointMethods(ctx),
    ...createDeliveryMethods(ctx),
    ...createClaimMethods(ctx),
    ...createAttemptMethods(ctx),
    ...createAttemptStatsMethods(ctx),
  };
}
