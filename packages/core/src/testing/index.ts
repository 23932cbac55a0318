/**
 * `@hireport/core/testing`: the storage conformance suite and the black-box HTTP suite for
 * adapters. Needs vitest (an optional peer dependency of `@hireport/core`).
 */

// For the conformance suites of other packages (`@hireport/webhooks/testing`): the context every
// test reaches and the records they store.
export { ConformanceContext, conformanceHooks } from "./context";
export {
  type FileStoreConformanceInstance,
  type FileStoreConformanceTarget,
  runFileStoreConformance,
} from "./file-store-conformance";
export {
  applicationEvent,
  DAY,
  farPast,
  HOUR,
  MINUTE,
  makeApplication,
  makeApplicationWrite,
  makeAttempt,
  makeCompany,
  makeDelivery,
  makeEndpoint,
  makeEvent,
  makeJob,
  makeKey,
  makeUsage,
  newId,
  now,
  orderedIds,
  parallel,
  randomHex,
  SECOND,
  shift,
  TRICKY_STRINGS,
  withTitle,
} from "./fixtures";
export { type HandlerSuiteServer, type HandlerSuiteTarget, runHandlerSuite } from "./handler-suite";
export { type HttpSuiteServer, type HttpSuiteTarget, runHttpSuite } from "./http-suite";
export { runDomainConformance } from "./run-domain-conformance";
export { runStorageConformance } from "./run-storage-conformance";
export type { ConformanceInspector, ConformanceInstance, ConformanceTarget } from "./types";
