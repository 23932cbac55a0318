/**
 * `@hireport/core/memory`: the storage contract in memory, for tests and demos.
 *
 * ```ts
 * import { memoryStorage } from "@hireport/core/memory";
 * const api = createPublicApi({ storage: memoryStorage(), publicBaseUrl, fileTokenSecret });
 * ```
 */

export { type MemoryFileStoreOptions, memoryFileStore } from "./file-store";
export { type MemoryStorage, memoryStorage } from "./memory-storage";
export type { MemoryRawReads } from "./raw-reads";
