/**
 * `@hireport/webhooks/memory`: core's memory storage with the webhook store, for tests and demos.
 *
 * ```ts
 * import { memoryWebhookStorage } from "@hireport/webhooks/memory";
 * const storage = memoryWebhookStorage();
 * const api = createPublicApi({ storage, publicBaseUrl, fileTokenSecret });
 * const dispatcher = createWebhookDispatcher({ storage });
 * ```
 */
import { type ExtendedMemoryStorage, extendMemoryStorage } from "@hireport/core/memory";
import type { WebhookStore } from "../store/webhook-store";
import { createMemoryWebhookStore } from "./memory-webhook-store";

/** `memoryStorage()` of `@hireport/core/memory` with the webhook store, in and out of its transactions. */
export type MemoryWebhookStorage = ExtendedMemoryStorage<{ webhooks: WebhookStore }>;

/**
 * `memoryStorage()` of `@hireport/core/memory` with the webhook store over the same data: the
 * deliveries the outbox inserts are the ones the dispatcher claims, and the webhook store's writes
 * commit and roll back with the core stores' in `transaction`. Each call returns a new, empty
 * storage.
 */
export function memoryWebhookStorage(): MemoryWebhookStorage {
  return extendMemoryStorage((access) => ({ webhooks: createMemoryWebhookStore(access) }));
}
