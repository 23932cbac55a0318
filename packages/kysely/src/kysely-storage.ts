import type { StorageStores } from "@hireport/core";
import type { WebhookStorage, WebhookStorageStores } from "@hireport/webhooks";
import type { Kysely } from "kysely";
import { createContext, type Db, type StoreContext } from "./context";
import { detectDialect, strategyFor } from "./dialects/detect";
import type { DialectKind } from "./dialects/types";
import { type DomainFactory, domainScope } from "./domain-scope";
import { createApplicationStore } from "./stores/applications";
import { createAuditStore } from "./stores/audit";
import { createCandidateStore } from "./stores/candidates";
import { createCompanyStore } from "./stores/companies";
import { createEventStore } from "./stores/events";
import { createIdempotencyStore } from "./stores/idempotency";
import { createJobIndexStore } from "./stores/job-index";
import { createJobStore } from "./stores/jobs";
import { createKeyStore } from "./stores/keys";
import { createRateLimitStore } from "./stores/rate-limits";
import { createUsageStore } from "./stores/usage";
import { createWebhookStore } from "./stores/webhooks";
import { runTransaction } from "./transactions";

export interface KyselyStorageOptions<DB> {
  /**
   * The host's Kysely instance, on Postgres (`pg`), MySQL/MariaDB (`mysql2`) or SQLite
   * (`better-sqlite3`). hireport only touches its own tables and routines; run `migrateToLatest`
   * (or your migrator and `installRoutines`) first.
   */
  db: Kysely<DB>;
  /**
   * Prefix of every hireport table and routine. Use the same value for the migrations.
   * @default "hireport_"
   */
  tablePrefix?: string;
  /**
   * Postgres only: whether the rate-limit counter statement, which runs on every request, waits for
   * its commit to reach the disk. Off, it commits with `synchronous_commit = off` for that one
   * statement (set with `set_config(…, true)`, so nothing leaks into the pool's session): a crash of
   * the database server may forget the last few counts, which can admit a few requests more in that
   * window; no other write of hireport is affected.
   * @default false
   */
  durableRateLimits?: boolean;
  /**
   * The SQL dialect, for third-party Kysely dialects whose adapter does not extend one of Kysely's
   * own (`PostgresAdapter`, `MysqlAdapter`, `SqliteAdapter`, of this copy of Kysely or, recognised by
   * class name and `supportsReturning`, of another). When given it wins over detection.
   * Use the same value for the migrations.
   * @default found from the Kysely instance's adapter (an unknown adapter is an error)
   */
  dialect?: DialectKind;
  /**
   * A second Kysely instance, on a read replica of `db`'s database (same dialect, same schema and
   * `tablePrefix`; the migrations run on `db` only), for the reads that may lag behind the caller's
   * own last write: `jobs.list` (`GET /jobs`, `api.jobs.list`, the careers site's public listing),
   * `applications.list` (`GET /applications`, `api.applications.list`), and the reads by id that
   * ask for it (`jobs.get`/`applications.get` with `replica`: `GET /jobs/{id}`,
   * `GET /applications/{id}`), a miss there read again on `db`. Everything else stays on `db`: key
   * admission and rate limits, the usage log, idempotency, every write and the reads that decide
   * it, and every read inside a transaction (`storage.transaction`, or a storage made on a Kysely
   * transaction). A client may then miss its own newest job or application in a list, or see a
   * record by id as it was before its last change, until the replica has caught up.
   * @default none: every statement runs on `db`
   */
  readDb?: Kysely<DB>;
  /**
   * The host's own stores for jobs, applications and candidates, over its own tables, in place of
   * hireport's: `(scope) => ({ jobs, applications, candidates })`, each keeping every MUST rule of
   * its interface (prove them with `runDomainConformance` of `@hireport/core/testing`). Called
   * with the scope of `db` (its `readDb` the `readDb` option, for the reads that may lag), and
   * again with the scope of each transaction of the storage, so that a change, an application and
   * their outbox events commit together; the scope appends outbox events and redacts an erasure in
   * hireport's tables (see `DomainScope`). hireport's own job and application tables stay empty.
   * @default none: hireport's tables hold jobs, applications and candidates
   */
  domain?: DomainFactory<DB>;
}

/** `stores` with the host's domain stores in place of hireport's, when the storage has some. */
function withDomain<S extends StorageStores>(stores: S, ctx: StoreContext, reads: StoreContext = ctx): S {
  return ctx.domain === null ? stores : { ...stores, ...ctx.domain(ctx, reads) };
}

/** The stores on `ctx`; the reads that may lag on `reads` (the `readDb`'s context, or `ctx` itself). */
function createStores(ctx: StoreContext, reads: StoreContext = ctx): WebhookStorageStores {
  const rateLimits = createRateLimitStore(ctx);
  const webhooks = createWebhookStore(ctx);
  return {
    companies: createCompanyStore(ctx),
    keys: createKeyStore(ctx, rateLimits),
    jobs: createJobStore(ctx, reads),
    applications: createApplicationStore(ctx, reads),
    events: createEventStore(ctx),
    rateLimits,
    usage: createUsageStore(ctx),
    idempotency: createIdempotencyStore(ctx),
    eventDeliveries: webhooks,
    webhooks,
    audit: createAuditStore(ctx),
    candidates: createCandidateStore(ctx),
    jobIndex: createJobIndexStore(ctx),
  };
}

/**
 * The storage contract of `@hireport/core` on a Kysely database, with the webhook store of
 * `@hireport/webhooks` (`webhooks`, on the same tables as core's `eventDeliveries`): what
 * `createPublicApi` and `createWebhookDispatcher` both take. Every method runs on the given
 * instance (but the reads that may lag on `readDb` when it is given); `transaction(fn)` runs `fn`
 * with stores bound to one database transaction (on SQLite a
 * `BEGIN IMMEDIATE` transaction), committed when `fn` resolves and rolled back when it rejects.
 * The dialect's strategy is chosen once, here: the `dialect` option, else the adapter's dialect.
 */
export function kyselyStorage<DB>(options: KyselyStorageOptions<DB>): WebhookStorage {
  const db = options.db as unknown as Db;
  const domain = options.domain;
  const ctx = createContext({
    db,
    strategy: strategyFor(db, options.dialect),
    tablePrefix: options.tablePrefix ?? "hireport_",
    asyncRateLimitCommit: !(options.durableRateLimits ?? false),
    domain: domain ? (on, reads) => domain(domainScope<DB>(on, reads)) : null,
  });
  const readDb = options.readDb as unknown as Db | undefined;
  // A storage made on the host's transaction reads in it: `readDb` is for storages on a Kysely instance.
  const reads = readDb && readDb !== db && !ctx.inTransaction ? readContext(ctx, readDb, options.dialect) : ctx;
  const stores = withDomain(createStores(ctx, reads), ctx, reads);
  return Object.freeze({
    ...stores,
    transaction: <T>(fn: (tx: WebhookStorageStores) => Promise<T>): Promise<T> =>
      runTransaction(ctx, (txCtx) => fn(withDomain(createStores(txCtx), txCtx))),
  });
}

/**
 * The context of the `readDb` option: the primary's settings on another instance, which must speak
 * the primary's dialect (unless the `dialect` option names it for both) and not be a transaction.
 */
function readContext(ctx: StoreContext, readDb: Db, dialect: DialectKind | undefined): StoreContext {
  if (readDb.isTransaction) {
    throw new TypeError("@hireport/kysely: readDb must be a Kysely instance, not a transaction.");
  }
  if (dialect === undefined && strategyFor(readDb) !== ctx.strategy) {
    throw new TypeError(
      `@hireport/kysely: readDb speaks ${detectDialect(readDb)} and db ${detectDialect(ctx.db)}: a read replica must be on the same dialect.`,
    );
  }
  return ctx.withDb(readDb, false);
}
