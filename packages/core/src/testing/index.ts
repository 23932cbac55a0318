/**
 * `@hireport/core/testing`: the storage conformance suite. Needs vitest (an optional peer
 * dependency of `@hireport/core`).
 */
export { runStorageConformance } from "./run-storage-conformance";
export type { ConformanceInspector, ConformanceInstance, ConformanceTarget } from "./types";
