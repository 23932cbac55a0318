/**
 * SQLite (better-sqlite3): one writer at a time. A transaction begins `IMMEDIATE`, taking the
 * database's write lock at once, so there are no row locks to take; `ON CONFLICT` and `RETURNING`
 * as on Postgres. The business writes are the portable transactions of plain statements.
 */
import { admitInSteps } from "@hireport/core/storage";
import { DummyDriver, type SqlBool, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql } from "kysely";
import type { Db } from "../context";
import { createApplicationInSteps } from "../stores/application-create";
import { appendEventInSteps } from "../stores/outbox";
import { consumeInTransaction } from "../stores/rate-limit-counters";
import { insertUsageRows } from "../stores/usage";
import { onConflictDoNothing, onConflictUpdate, preCompiledColumns, upsertReturningSequence } from "./shared";
import type { DialectStrategy } from "./types";

/**
 * `BEGIN IMMEDIATE` on the one connection: a transaction that reads before it writes never fails
 * on upgrade when another connection (another process) wrote in between; the busy timeout of the
 * connection queues writers instead.
 */
async function beginImmediate<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    let result: T;
    try {
      result = await fn(connection);
    } catch (error) {
      await sql`rollback`.execute(connection).catch(() => undefined);
      throw error;
    }
    await sql`commit`.execute(connection);
    return result;
  });
}

export const sqliteStrategy: DialectStrategy = {
  kind: "sqlite",
  rowLocks: false,

  // ISO 8601 text in UTC (`…Z`): compares in time order as text.
  toDb: (date) => date.toISOString(),
  bool: (value) => (value ? 1 : 0),
  dateParam: (date) => sql`${date === null ? null : date.toISOString()}`,
  selectColumns: (alias, columns, _dates, rename) => preCompiledColumns(alias, columns, rename),

  // The transaction holds the database's write lock: nothing to lock, and no other writer to skip.
  forUpdate: (query) => query,
  forUpdateSkipLocked: (query) => query,
  currentRead: (query) => query,
  fromIndex: (table, alias) => (alias === null ? table : `${table} as ${alias}`),
  textContains: (column, text) => sql<SqlBool>`instr(${sql.ref(column)}, ${text}) > 0`,

  insertIgnore: onConflictDoNothing,
  upsert: onConflictUpdate,

  beginTransaction: beginImmediate,

  keyAdmission: (_ctx, steps) => (hash, windows, now) => admitInSteps(steps, hash, windows, now),
  createApplication: createApplicationInSteps,
  appendEvent: appendEventInSteps,
  consumeRateLimit: consumeInTransaction,
  insertUsage: insertUsageRows,
  nextSequence: upsertReturningSequence,

  columnTypes: {
    id: () => "text",
    text: () => "text",
    long: () => "text",
    date: () => "text",
    bool: () => "integer",
    double: () => "real",
    int: () => "integer",
    bytes: () => "blob",
  },
  tableOptions: (builder) => builder,
  sequenceColumn: (builder) => builder.addColumn("seq", "integer", (column) => column.primaryKey().autoIncrement()),
  dropIndexOf: (builder) => builder,
  compileOnly: () => ({
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  }),

  installRoutines: async () => undefined,
  routineStatements: () => [],
};
