/**
 * `@hireport/core/testing`: the storage conformance suite and the black-box HTTP suite for
 * adapters. Needs vitest (an optional peer dependency of `@hireport/core`).
 *
 * The storage, domain and file-store suites may run on a database or store that holds a host's
 * data and their own earlier runs, and leave it as they found it. Every test keeps to companies
 * with random ids and reads only its own rows; after the last test the storage suites delete every
 * row they wrote through `inspect.removeRows` and check that none is left, and the file-store
 * suite deletes its files. What they touch beyond their own rows:
 * - the methods that see every company (the purges, `jobIndex.sweep` and `pending`, the retention
 *   list) are called only with times before `FAR_PAST_END` (1 January 2000): they delete events,
 *   usage entries and daily counts, audit entries, rate-limit counters and idempotency records of
 *   any company dated before 2000, and mark for indexing jobs whose public notice closed before
 *   2000, so a database whose real data goes back that far must not run them;
 * - the file-store suite's `purgeUnfinished` runs up to the present and cuts off any upload under
 *   way, and it counts unfinished pieces of the whole store: nothing else may upload meanwhile.
 */

export type {
  ConformanceInspector,
  ConformanceInstance,
  ConformanceRows,
  ConformanceTarget,
} from "../storage/conformance";
// For the conformance suites of other packages (`@hireport/webhooks/testing`): the context every
// test reaches and the records they store.
export { ConformanceContext, conformanceHooks } from "./context";
export {
  type FileStoreConformanceInstance,
  type FileStoreConformanceTarget,
  runFileStoreConformance,
} from "./file-store-conformance";
export {
  ancientPast,
  applicationEvent,
  DAY,
  FAR_PAST_END,
  farPast,
  HOUR,
  MINUTE,
  makeApplication,
  makeApplicationWrite,
  makeCompany,
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
