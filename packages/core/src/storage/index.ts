/**
 * The storage contract. `@hireport/core` never talks to a database: it calls these interfaces.
 * `@hireport/kysely` implements them on SQLite, Postgres and MySQL/MariaDB; `@hireport/core/memory`
 * implements them in memory for tests; a host may implement them over its own tables and prove it
 * with the conformance suite of `@hireport/core/testing`.
 *
 * Webhook endpoints, deliveries and attempts are the `WebhookStore` of `@hireport/webhooks` (with
 * its own conformance suite, `@hireport/webhooks/testing`): core reaches only the narrow part it
 * needs, `eventDeliveries` (the outbox's fan-out and retention's purge).
 *
 * Rules written MUST are checked by that suite. Unless a method says otherwise:
 * - one method per business write (`applications.create`, `keys.admit`, `events.append`): a
 *   storage that can do one in fewer statements does so inside its implementation; core's
 *   portable versions (`admitInSteps`, `appendInSteps`, `createApplicationInSteps`, `eraseInSteps`)
 *   serve storages with nothing faster;
 * - every method that takes a `companyId` MUST scope reads and writes to it: a record of another
 *   company is treated exactly like a missing one (methods keyed by a globally unique id alone,
 *   such as `events.get` or `keys.touch`, serve the dispatcher and hosts);
 * - ids compare in binary (code-unit) order wherever they break ties, whatever the collation;
 * - times compare as instants: a key is expired when `expiresAt <= now`, a window has ended when
 *   `resetAt <= now`, a lock or a record has passed when its time `<= now`;
 * - batch methods (`appendMany`, `eventDeliveries.insertDeliveries`) MUST accept an empty list;
 * - `Date` values MUST round-trip with millisecond precision, in UTC, on every database;
 * - arrays of strings MUST round-trip exactly (order, duplicates, non-ASCII text);
 * - methods called on the `tx` of {@link Storage.transaction} MUST run inside that transaction.
 */
import type { ApplicationStore } from "./applications";
import type { AuditStore } from "./audit";
import type { CandidateStore } from "./candidates";
import type { ChangeStore } from "./changes";
import type { CompanyStore } from "./companies";
import type { EventDeliveryStore } from "./event-deliveries";
import type { EventStore } from "./events";
import type { IdempotencyStore } from "./idempotency";
import type { JobIndexStore } from "./job-index";
import type { JobStore } from "./jobs";
import type { KeyStore } from "./keys";
import type { RateLimitStore } from "./rate-limits";
import type { UsageStore } from "./usage";

export type * from "./applications";
export type * from "./audit";
export type * from "./candidates";
export type * from "./changes";
export type * from "./common";
export type * from "./companies";
export type * from "./domain-stores";
export type * from "./event-deliveries";
export type * from "./events";
export type * from "./files";
export type * from "./idempotency";
export type * from "./job-index";
export type * from "./jobs";
export type * from "./keys";
export type * from "./rate-limits";
export type * from "./usage";

/** The stores, as seen outside and inside a transaction. */
export interface StorageStores {
  companies: CompanyStore;
  keys: KeyStore;
  jobs: JobStore;
  applications: ApplicationStore;
  events: EventStore;
  rateLimits: RateLimitStore;
  usage: UsageStore;
  idempotency: IdempotencyStore;
  eventDeliveries: EventDeliveryStore;
  audit: AuditStore;
  candidates: CandidateStore;
  /** The job-indexing outbox: jobs marked in their change's transaction, and each search-engine service's last notice. */
  jobIndex: JobIndexStore;
  /**
   * What the change detector reads, for a storage whose jobs and applications are a product's own
   * tables (`declaredDomain` of `@hireport/kysely`). @default none: no change detection
   */
  changes?: ChangeStore;
}

export interface Storage extends StorageStores {
  /**
   * Runs `fn` in one transaction. Everything done through `tx` MUST commit together when `fn`
   * resolves, and MUST roll back entirely when it rejects (the error is rethrown unchanged).
   * Inside `fn`, use only `tx`: calling the storage itself may wait for the transaction forever.
   */
  transaction<T>(fn: (tx: StorageStores) => Promise<T>): Promise<T>;
}
