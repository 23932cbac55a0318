import type { Storage } from "@hireport/core";
import type { StorageStores } from "@hireport/core/storage";
import type { WebhookStore } from "./webhook-store";

/** Core's stores with the webhook store, as seen outside and inside a transaction. */
export interface WebhookStorageStores extends StorageStores {
  webhooks: WebhookStore;
}

/**
 * A core {@link Storage} that also holds the webhook store, in and out of its transactions: what
 * the dispatcher, the endpoint manager and the delivery log run on. `kyselyWebhookStorage()` of
 * `@hireport/kysely/webhooks` is one; `memoryWebhookStorage()` of `@hireport/webhooks/memory` is one in
 * memory. The `webhooks` store MUST work on the same data as `eventDeliveries` (the deliveries the
 * outbox inserts are the ones the dispatcher claims).
 */
export interface WebhookStorage extends Storage, WebhookStorageStores {
  /** {@link Storage.transaction}, with the webhook store on `tx` too. */
  transaction<T>(fn: (tx: WebhookStorageStores) => Promise<T>): Promise<T>;
}
