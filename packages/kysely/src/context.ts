import { type AliasedRawBuilder, type Compilable, type Kysely, sql } from "kysely";
import type { DialectKind } from "./dialect";
import { COLUMNS, DATE_COLUMNS, type DbBool, type HireportDatabase, type TableName } from "./schema";
import { runTransaction, withLockRetry } from "./transactions";
import { toMysqlDateTime } from "./values";

export type Db = Kysely<HireportDatabase>;

type Selection = readonly AliasedRawBuilder<unknown, string>[];

/** What every store shares: the database (or the transaction), the dialect and the table names. */
export interface StoreContext {
  readonly db: Db;
  readonly dialect: DialectKind;
  /** Whether the dialect has `RETURNING` (Kysely's `supportsReturning`: Postgres, SQLite). */
  readonly returning: boolean;
  /** Whether `db` is a transaction this storage opened: multi-statement methods then run in it. */
  readonly inTransaction: boolean;
  /** Postgres: commit rate-limit counter statements with `synchronous_commit` off. */
  readonly asyncRateLimitCommit: boolean;
  /** The prefixed name of a table, typed as its unprefixed name so queries stay typed. */
  table<T extends TableName>(name: T): T;
  /** The prefixed name of a table with an alias (`hireport_job as j`), typed as `job as j`. */
  tableAs<T extends TableName, A extends string>(name: T, alias: A): `${T} as ${A}`;
  /** Every column of a table under an alias, dates read as UTC text on MySQL. */
  columns(name: TableName, alias: string): Selection;
  /** A `Date` as the dialect stores it: ISO text, or `YYYY-MM-DD HH:MM:SS.mmm` (UTC) on MySQL. */
  toDb(date: Date): string;
  toDb(date: Date | null): string | null;
  /** A boolean as the dialect stores it. */
  bool(value: boolean): DbBool;
  bool(value: boolean | null): DbBool | null;
  /**
   * Runs a keyset list query. On MySQL/MariaDB the table gets `FORCE INDEX`: without it MariaDB
   * reads the `(company_id, …)` index by its equality prefix only and filters the keyset bound,
   * which makes a deep page cost as much as all the pages before it. `index` null: no hint.
   */
  list<R>(query: Compilable<R>, table: TableName, alias: string, index: string | null): Promise<R[]>;
  /** Runs `fn` with a context bound to one transaction: this one when already inside one. */
  atomic<T>(fn: (ctx: StoreContext) => Promise<T>): Promise<T>;
  /** Binds the same settings to another database handle (a transaction). */
  withDb(db: Db, inTransaction: boolean): StoreContext;
}

export interface ContextSettings {
  db: Db;
  dialect: DialectKind;
  tablePrefix: string;
  asyncRateLimitCommit: boolean;
}

/** Double-quoted identifier (Postgres, SQLite); the names are hireport's own, checked anyway. */
function quoted(identifier: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(identifier)) throw new Error(`Unexpected identifier: ${identifier}`);
  return `"${identifier}"`;
}

/**
 * `"a"."col" as "col", …` as a single selection. Kysely accepts any expression node in `select`;
 * its types want an alias, which the fragment carries inside, hence the cast.
 */
function preCompiledColumns(alias: string, columns: readonly string[]): AliasedRawBuilder<unknown, string> {
  const text = columns.map((column) => `${quoted(alias)}.${quoted(column)} as ${quoted(column)}`).join(", ");
  return sql.raw(text) as unknown as AliasedRawBuilder<unknown, string>;
}

/** Creates the context of a storage; stores bound to a transaction get one through `withDb`. */
export function createContext(
  settings: ContextSettings,
  inTransaction = false,
  selections = new Map<string, Selection>(),
): StoreContext {
  const { db, dialect, tablePrefix, asyncRateLimitCommit } = settings;
  // A storage made on a Kysely transaction (the host's) is inside a transaction too.
  const transactional = inTransaction || db.isTransaction;
  const mysql = dialect === "mysql";
  const postgres = dialect === "postgres";

  const toDb = ((date: Date | null) => {
    if (date === null) return null;
    return mysql ? toMysqlDateTime(date) : date.toISOString();
  }) as StoreContext["toDb"];

  const bool = ((value: boolean | null) => {
    if (value === null) return null;
    return postgres ? value : value ? 1 : 0;
  }) as StoreContext["bool"];

  const context: StoreContext = {
    db,
    dialect,
    returning: db.getExecutor().adapter.supportsReturning,
    inTransaction: transactional,
    asyncRateLimitCommit,
    table: <T extends TableName>(name: T) => `${tablePrefix}${name}` as T,
    tableAs: <T extends TableName, A extends string>(name: T, alias: A) =>
      `${tablePrefix}${name} as ${alias}` as `${T} as ${A}`,
    columns(name, alias) {
      const cacheKey = `${name}:${alias}`;
      const cached = selections.get(cacheKey);
      if (cached) return cached;
      const dates = new Set<string>(DATE_COLUMNS[name]);
      const selection: Selection = mysql
        ? COLUMNS[name].map((column) => {
            const ref = sql.ref(`${alias}.${column}`);
            return (dates.has(column) ? sql`cast(${ref} as char)` : ref).as(column);
          })
        : // Postgres and SQLite: the same list as one raw fragment, written once. Kysely compiles a
          // raw node in one step; 28 aliased references cost about 10 µs per query to compile,
          // which the list endpoints pay on every request.
          [preCompiledColumns(alias, COLUMNS[name])];
      selections.set(cacheKey, selection);
      return selection;
    },
    toDb,
    bool,
    async list<R>(query: Compilable<R>, name: TableName, alias: string, index: string | null) {
      if (!mysql || index === null) return (await db.executeQuery(query)).rows;
      const compiled = query.compile();
      const from = `from \`${tablePrefix}${name}\` as \`${alias}\``;
      if (!compiled.sql.includes(from)) throw new Error(`Cannot place an index hint in: ${compiled.sql}`);
      const hinted = compiled.sql.replace(from, `${from} force index (\`${tablePrefix}${name}_${index}\`)`);
      return (await db.executeQuery<R>({ ...compiled, sql: hinted })).rows;
    },
    async atomic(fn) {
      if (transactional) return fn(context);
      return withLockRetry(() => runTransaction(context, fn));
    },
    withDb(other, otherInTransaction) {
      return createContext({ ...settings, db: other }, otherInTransaction, selections);
    },
  };
  return context;
}
