/**
 * `@hireport/kysely/testing`: the `inspect` the conformance suites of `@hireport/core/testing` and
 * `@hireport/webhooks/testing` need, for a Kysely storage (hireport's tables, and a host's own
 * domain tables through `domain`). Plain functions: nothing here loads vitest.
 */
export {
  type DomainTablesInspector,
  type KyselyConformanceInspectorOptions,
  kyselyConformanceInspector,
} from "./inspector";
