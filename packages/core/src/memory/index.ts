/**
 * `@hireport/core/memory`: the storage contract in memory, for tests and demos.
 *
 * ```ts
 * import { memoryStorage } from "@hireport/core/memory";
 * const api = createPublicApi({ storage: memoryStorage(), publicBaseUrl, fileTokenSecret });
 * ```
 *
 * The second group of exports is for packages that add stores over the same data (as
 * `@hireport/webhooks/memory` adds the webhook store): the state, its access and the row helpers
 * the memory stores share.
 */

export type { StateAccess } from "./access";
export { copy, toStored } from "./copy";
export { createEventDeliveryStore, deleteDeliveries } from "./event-delivery-store";
export { type MemoryFileStoreOptions, memoryFileStore } from "./file-store";
export { createdList, createdPage, newestCreatedFirst, oldestFirst } from "./keyset";
export { type ExtendedMemoryStorage, extendMemoryStorage, type MemoryStorage, memoryStorage } from "./memory-storage";
export type { MemoryRawReads } from "./raw-reads";
export { insertNew, ownRow, patchOwnRow } from "./rows";
export type { MemoryState, StoredAttempt, TableName, Tables } from "./state";
