import type { DomainStores } from "@hireport/core/storage";
import type { Kysely } from "kysely";
import type { CompiledShapes } from "./compiled-queries";
import type { DialectStrategy, Selection } from "./dialects/types";
import { COLUMNS, DATE_COLUMNS, type DbBool, type HireportDatabase, type TableName } from "./schema";
import { inSchema } from "./schema-plugin";
import { runTransaction, withLockRetry } from "./transactions";

export type Db = Kysely<HireportDatabase>;

/** The index argument of {@link StoreContext.from} that names a table's primary key. */
export const PRIMARY_KEY = "PRIMARY";

/** What every store shares: the database (or the transaction), the dialect's strategy and the table names. */
export interface StoreContext {
  /** hireport's handle: the host's (or its transaction), with hireport's names in `schema` when there is one. */
  readonly db: Db;
  /** The handle as the host gave it (or its transaction), without hireport's schema: for the host's own tables. */
  readonly hostDb: Db;
  /** The Postgres schema of hireport's tables and routines, or null for the connection's search path. */
  readonly schema: string | null;
  /** Everything that differs between dialects. */
  readonly strategy: DialectStrategy;
  readonly tablePrefix: string;
  /** Whether the dialect has `RETURNING` (Kysely's `supportsReturning`: Postgres, SQLite). */
  readonly returning: boolean;
  /** Whether `db` is a transaction (this storage's or the host's): multi-statement methods then run in it. */
  readonly inTransaction: boolean;
  /** Postgres: commit rate-limit counter statements with `synchronous_commit` off. */
  readonly asyncRateLimitCommit: boolean;
  /**
   * The host's domain stores on a context's handle, their list reads on `reads` (the storage's
   * `domain` option), or null when jobs, applications and candidates are hireport's tables. The
   * stores that must know whether an application is erased (`idempotency.complete`,
   * `webhooks.recordAttempt`) ask them.
   */
  readonly domain: ((ctx: StoreContext, reads?: StoreContext) => DomainStores) | null;
  /** The prefixed name of a table, typed as its unprefixed name so queries stay typed. */
  table<T extends TableName>(name: T): T;
  /** The prefixed name of a table with an alias (`hireport_job as j`), typed as `job as j`. */
  tableAs<T extends TableName, A extends string>(name: T, alias: A): `${T} as ${A}`;
  /**
   * The FROM item `{prefix}name as alias` read through the index `{prefix}name_{index}` (or the
   * primary key, {@link PRIMARY_KEY}): on MySQL/MariaDB with `FORCE INDEX`, see
   * `DialectStrategy.fromIndex`. Typed as `name as alias`, as {@link tableAs}.
   */
  from<T extends TableName, A extends string>(name: T, alias: A, index: string): `${T} as ${A}`;
  /** The target of an `UPDATE` that picks rows of `name` by its primary key (`FORCE INDEX (PRIMARY)` on MySQL). */
  byPrimaryKey<T extends TableName>(name: T): T;
  /** Every column of a table under an alias, dates read as UTC text on MySQL. */
  columns(name: TableName, alias: string): Selection;
  /** The statements compiled once per shape (`runCompiled`), shared with the transactions' contexts. */
  readonly compiled: CompiledShapes;
  /** A `Date` as the dialect stores it. */
  toDb(date: Date): string;
  toDb(date: Date | null): string | null;
  /** A boolean as the dialect stores it. */
  bool(value: boolean): DbBool;
  bool(value: boolean | null): DbBool | null;
  /** Runs `fn` with a context bound to one transaction: this one when already inside one. */
  atomic<T>(fn: (ctx: StoreContext) => Promise<T>): Promise<T>;
  /** Binds the same settings to another database handle (a transaction). */
  withDb(db: Db, inTransaction: boolean): StoreContext;
}

export interface ContextSettings {
  /** The host's handle (or a transaction on it), without hireport's schema. */
  db: Db;
  /** See {@link StoreContext.schema}. @default null */
  schema?: string | null;
  strategy: DialectStrategy;
  tablePrefix: string;
  asyncRateLimitCommit: boolean;
  /** See {@link StoreContext.domain}. @default null */
  domain?: ((ctx: StoreContext, reads?: StoreContext) => DomainStores) | null;
}

/** Creates the context of a storage; stores bound to a transaction get one through `withDb`. */
export function createContext(
  settings: ContextSettings,
  inTransaction = false,
  selections = new Map<string, Selection>(),
  compiled: CompiledShapes = new Map(),
): StoreContext {
  const { db, strategy, tablePrefix, asyncRateLimitCommit } = settings;
  // A storage made on a Kysely transaction (the host's) is inside a transaction too.
  const transactional = inTransaction || db.isTransaction;
  const prefixed = (name: string) => `${tablePrefix}${name}`;
  const indexName = (name: TableName, index: string) =>
    index === PRIMARY_KEY ? PRIMARY_KEY : `${tablePrefix}${name}_${index}`;

  const toDb = ((date: Date | null) => (date === null ? null : strategy.toDb(date))) as StoreContext["toDb"];
  const bool = ((value: boolean | null) => (value === null ? null : strategy.bool(value))) as StoreContext["bool"];

  const schema = settings.schema ?? null;
  const context: StoreContext = {
    db: inSchema(db, schema, tablePrefix),
    hostDb: db,
    schema,
    strategy,
    tablePrefix,
    returning: db.getExecutor().adapter.supportsReturning === true,
    inTransaction: transactional,
    asyncRateLimitCommit,
    domain: settings.domain ?? null,
    table: <T extends TableName>(name: T) => prefixed(name) as T,
    tableAs: <T extends TableName, A extends string>(name: T, alias: A) =>
      `${prefixed(name)} as ${alias}` as `${T} as ${A}`,
    // A raw FROM item where the dialect hints an index, typed as the plain aliased table.
    from: <T extends TableName, A extends string>(name: T, alias: A, index: string) =>
      strategy.fromIndex(prefixed(name), alias, indexName(name, index)) as `${T} as ${A}`,
    byPrimaryKey: <T extends TableName>(name: T) => strategy.fromIndex(prefixed(name), null, PRIMARY_KEY) as T,
    columns(name, alias) {
      const cacheKey = `${name}:${alias}`;
      const cached = selections.get(cacheKey);
      if (cached) return cached;
      const selection = strategy.selectColumns(alias, COLUMNS[name], new Set<string>(DATE_COLUMNS[name]));
      selections.set(cacheKey, selection);
      return selection;
    },
    compiled,
    toDb,
    bool,
    async atomic(fn) {
      if (transactional) return fn(context);
      return withLockRetry(() => runTransaction(context, fn));
    },
    withDb(other, otherInTransaction) {
      return createContext({ ...settings, db: other }, otherInTransaction, selections, compiled);
    },
  };
  return context;
}
