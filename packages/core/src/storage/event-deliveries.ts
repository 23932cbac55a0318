import type { EventDelivery, EventType, WebhookSubscription } from "../model/domain";

/**
 * The part of the webhook data that core's own code reaches: the outbox's fan-out (an event's
 * deliveries, written with the event) and retention (finished deliveries purged). Endpoints are
 * managed, and deliveries claimed, sent and listed, through the `WebhookStore` of
 * `@hireport/webhooks`, which a storage with webhooks implements over the same tables. Its records
 * (`WebhookEndpointRecord`, `DeliveryRecord`) extend the shapes here.
 */
export interface EventDeliveryStore {
  /**
   * Active and paused endpoints of the company subscribed to `type` (paused ones queue events),
   * newest first: core's `subscribesTo`. Disabled endpoints MUST NOT be returned.
   */
  listSubscribedEndpoints(companyId: string, type: EventType): Promise<WebhookSubscription[]>;
  /**
   * Called in the transaction of the event: one pending delivery per subscribed endpoint. MUST
   * store every field as given, the lease fields included: a delivery inserted with a
   * `leaseToken` and a `leaseExpiresAt` is held under that token (no claim returns it before the
   * lease passes, and recording an attempt or releasing it accepts the token), as a test send
   * needs. MUST accept an empty list.
   */
  insertDeliveries(records: readonly EventDelivery[]): Promise<void>;
  /**
   * Deletes finished deliveries and their attempts created before `before`. With `limit`, MUST
   * delete at most that many deliveries (a batch of retention; the oldest first). Returns how many
   * deliveries went.
   */
  purgeDeliveries(before: Date, limit?: number): Promise<number>;
}
