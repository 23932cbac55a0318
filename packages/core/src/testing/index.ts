/**
 * `@hireport/core/testing`: the storage conformance suite and the black-box HTTP suite for
 * adapters. Needs vitest (an optional peer dependency of `@hireport/core`).
 */
export {
  type FileStoreConformanceInstance,
  type FileStoreConformanceTarget,
  runFileStoreConformance,
} from "./file-store-conformance";
export { type HandlerSuiteServer, type HandlerSuiteTarget, runHandlerSuite } from "./handler-suite";
export { type HttpSuiteServer, type HttpSuiteTarget, runHttpSuite } from "./http-suite";
export { runDomainConformance } from "./run-domain-conformance";
export { runStorageConformance } from "./run-storage-conformance";
export type { ConformanceInspector, ConformanceInstance, ConformanceTarget } from "./types";
