import type { KeyStore, Storage, StorageStores } from "@hireport/core";
import type { Kysely } from "kysely";
import { createContext, type Db, type StoreContext } from "./context";
import { type DialectKind, detectDialect } from "./dialect";
import { createApplicationStore } from "./stores/applications";
import { createCompanyStore } from "./stores/companies";
import { createEventStore } from "./stores/events";
import { createIdempotencyStore } from "./stores/idempotency";
import { createJobStore } from "./stores/jobs";
import { createKeyAdmission } from "./stores/key-admission";
import { createKeyStore } from "./stores/keys";
import { createRateLimitStore } from "./stores/rate-limits";
import { createUsageStore } from "./stores/usage";
import { createWebhookStore } from "./stores/webhooks";
import { runTransaction } from "./transactions";

export interface KyselyStorageOptions<DB> {
  /**
   * The host's Kysely instance, on Postgres (`pg`), MySQL/MariaDB (`mysql2`) or SQLite
   * (`better-sqlite3`). hireport only touches its own tables; run `migrateToLatest` first.
   */
  db: Kysely<DB>;
  /**
   * Prefix of every hireport table. Use the same value for the migrations.
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
   * The SQL dialect, for third-party Kysely dialects that do not extend Kysely's own adapters.
   * @default found from the Kysely instance's adapter
   */
  dialect?: DialectKind;
}

/** Adds `findByHashAndConsume` where the dialect has it (Postgres). */
function withKeyAdmission(ctx: StoreContext, keys: KeyStore): KeyStore {
  const findByHashAndConsume = createKeyAdmission(ctx, keys.findByHash);
  return findByHashAndConsume ? { ...keys, findByHashAndConsume } : keys;
}

function createStores(ctx: StoreContext): StorageStores {
  return {
    companies: createCompanyStore(ctx),
    keys: withKeyAdmission(ctx, createKeyStore(ctx)),
    jobs: createJobStore(ctx),
    applications: createApplicationStore(ctx),
    events: createEventStore(ctx),
    rateLimits: createRateLimitStore(ctx),
    usage: createUsageStore(ctx),
    idempotency: createIdempotencyStore(ctx),
    webhooks: createWebhookStore(ctx),
  };
}

/**
 * The storage contract of `@hireport/core` on a Kysely database. Every method runs on the given
 * instance; `transaction(fn)` runs `fn` with stores bound to one database transaction (on SQLite a
 * `BEGIN IMMEDIATE` transaction), committed when `fn` resolves and rolled back when it rejects.
 */
export function kyselyStorage<DB>(options: KyselyStorageOptions<DB>): Storage {
  const db = options.db as unknown as Db;
  const ctx = createContext({
    db,
    dialect: options.dialect ?? detectDialect(db),
    tablePrefix: options.tablePrefix ?? "hireport_",
    asyncRateLimitCommit: !(options.durableRateLimits ?? false),
  });
  const stores = createStores(ctx);
  return Object.freeze({
    ...stores,
    transaction: <T>(fn: (tx: StorageStores) => Promise<T>): Promise<T> =>
      runTransaction(ctx, (txCtx) => fn(createStores(txCtx))),
  });
}
