import type { Storage } from "@hireport/core";
import type { StorageStores } from "@hireport/core/storage";
import type { Kysely } from "kysely";
import { createContext, type Db, type StoreContext } from "./context";
import { detectDialect, strategyFor } from "./dialects/detect";
import type { DialectKind } from "./dialects/types";
import { type DomainFactory, domainScope } from "./domain-scope";
import { checkSchemaOption } from "./schema-plugin";
import { createApplicationStore } from "./stores/applications";
import { createAuditStore } from "./stores/audit";
import { createCandidateStore } from "./stores/candidates";
import { createCompanyStore } from "./stores/companies";
import { createEventDeliveryStore } from "./stores/event-deliveries";
import { createEventStore } from "./stores/events";
import { createIdempotencyStore } from "./stores/idempotency";
import { createJobIndexStore } from "./stores/job-index";
import { createJobStore } from "./stores/jobs";
import { createKeyStore } from "./stores/keys";
import { createRateLimitStore } from "./stores/rate-limits";
import { createUsageStore } from "./stores/usage";
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
   * Postgres only: the schema that holds hireport's tables and routines, so that none of them is
   * in the schema your own migrations manage (Prisma's and Drizzle's `public`): every statement of
   * hireport names it, whatever the connection's search path. Your own tables (a declared domain's)
   * are read as your queries read them. Needs a `tablePrefix` that is not empty (the default is).
   * Use the same value for the migrations.
   * @default none: hireport's tables are found on the connection's search path
   */
  schema?: string;
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

/** Core's stores but `eventDeliveries`: the ones every Kysely storage makes the same way. */
type SharedStoreName = Exclude<keyof StorageStores, "eventDeliveries">;

/**
 * What a storage adds to the shared stores on a context: `eventDeliveries`, and with
 * `@hireport/kysely/webhooks` the webhook store (which is also the `eventDeliveries`).
 */
export type DeliveryStores<S extends StorageStores> = (ctx: StoreContext) => Omit<S, SharedStoreName>;

/** A storage whose stores, in and out of its transactions, are `S`. */
export type StorageOf<S extends StorageStores> = S & {
  /** {@link Storage.transaction}, with the stores of `S` on `tx`. */
  transaction<T>(fn: (tx: S) => Promise<T>): Promise<T>;
};

/** The stores on `ctx`; the reads that may lag on `reads` (the `readDb`'s context, or `ctx` itself). */
function createStores<S extends StorageStores>(
  ctx: StoreContext,
  deliveries: DeliveryStores<S>,
  reads: StoreContext = ctx,
): S {
  const rateLimits = createRateLimitStore(ctx);
  const shared: Pick<StorageStores, SharedStoreName> = {
    companies: createCompanyStore(ctx),
    keys: createKeyStore(ctx, rateLimits),
    jobs: createJobStore(ctx, reads),
    applications: createApplicationStore(ctx, reads),
    events: createEventStore(ctx),
    rateLimits,
    usage: createUsageStore(ctx),
    idempotency: createIdempotencyStore(ctx),
    audit: createAuditStore(ctx),
    candidates: createCandidateStore(ctx),
    jobIndex: createJobIndexStore(ctx),
  };
  return { ...shared, ...deliveries(ctx) } as S;
}

/**
 * The storage contract of `@hireport/core` on a Kysely database: what `createPublicApi` takes.
 * Every method runs on the given instance (but the reads that may lag on `readDb` when it is
 * given); `transaction(fn)` runs `fn` with stores bound to one database transaction (on SQLite a
 * `BEGIN IMMEDIATE` transaction), committed when `fn` resolves and rolled back when it rejects.
 * The dialect's strategy is chosen once, here: the `dialect` option, else the adapter's dialect.
 *
 * It needs nothing of `@hireport/webhooks`: events still reach the webhook tables' deliveries
 * (`eventDeliveries`), but to run the dispatcher use `kyselyWebhookStorage` of
 * `@hireport/kysely/webhooks`, the same storage with the webhook store.
 */
export function kyselyStorage<DB>(options: KyselyStorageOptions<DB>): Storage {
  return kyselyStorageWith(options, (ctx) => ({ eventDeliveries: createEventDeliveryStore(ctx) }));
}

/**
 * A Kysely storage with the delivery stores `deliveries` makes on each context (outside and in
 * each transaction): `kyselyStorage`, and `kyselyWebhookStorage` of `@hireport/kysely/webhooks`.
 */
export function kyselyStorageWith<DB, S extends StorageStores>(
  options: KyselyStorageOptions<DB>,
  deliveries: DeliveryStores<S>,
): StorageOf<S> {
  const db = options.db as unknown as Db;
  const domain = options.domain;
  const strategy = strategyFor(db, options.dialect);
  const tablePrefix = options.tablePrefix ?? "hireport_";
  checkSchemaOption(options.schema, tablePrefix, strategy.kind);
  const ctx = createContext({
    db,
    schema: options.schema ?? null,
    strategy,
    tablePrefix,
    asyncRateLimitCommit: !(options.durableRateLimits ?? false),
    domain: domain ? (on, reads) => domain(domainScope<DB>(on, reads)) : null,
  });
  const readDb = options.readDb as unknown as Db | undefined;
  // A storage made on the host's transaction reads in it: `readDb` is for storages on a Kysely instance.
  const reads = readDb && readDb !== db && !ctx.inTransaction ? readContext(ctx, readDb, options.dialect) : ctx;
  const stores = withDomain(createStores(ctx, deliveries, reads), ctx, reads);
  return Object.freeze({
    ...stores,
    transaction: <T>(fn: (tx: S) => Promise<T>): Promise<T> =>
      runTransaction(ctx, (txCtx) => fn(withDomain(createStores(txCtx, deliveries), txCtx))),
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
