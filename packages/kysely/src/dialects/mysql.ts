/**
 * MySQL 8 and MariaDB 10.6+ (mysql2): READ COMMITTED transactions, locking reads, `INSERT IGNORE`
 * and `ON DUPLICATE KEY UPDATE`, no `RETURNING`, index hints where MariaDB's plans need them. The
 * business writes are the portable transactions of plain statements.
 */
import { admitInSteps } from "@hireport/core/storage";
import { DummyDriver, MysqlAdapter, MysqlIntrospector, MysqlQueryCompiler, type SqlBool, sql } from "kysely";
import { createApplicationInSteps } from "../stores/application-create";
import { appendEventInSteps } from "../stores/outbox";
import { consumeInTransaction } from "../stores/rate-limit-counters";
import { insertUsageRows } from "../stores/usage";
import { toMysqlDateTime } from "../values";
import type { DialectStrategy } from "./types";

export const mysqlStrategy: DialectStrategy = {
  kind: "mysql",
  rowLocks: true,

  // `datetime(3)` holds UTC as written: the driver's `timezone` option never applies to text.
  toDb: toMysqlDateTime,
  bool: (value) => (value ? 1 : 0),
  dateParam: (date) => sql`cast(${date === null ? null : toMysqlDateTime(date)} as datetime(3))`,
  // Dates read as text (`CAST(… AS CHAR)`), UTC as stored, whatever the driver's `timezone`.
  selectColumns: (alias, columns, dates, rename = (column) => column) =>
    columns.map((column) => {
      const ref = sql.ref(`${alias}.${column}`);
      return (dates.has(column) ? sql`cast(${ref} as char)` : ref).as(rename(column));
    }),

  // MariaDB has no `FOR UPDATE OF`: every row the read reaches is locked.
  forUpdate: (query) => query.forUpdate(),
  forUpdateSkipLocked: (query) => query.forUpdate().skipLocked(),
  // Plain reads of a REPEATABLE READ transaction (a caller's) read its snapshot; a locking read the latest rows.
  currentRead: (query) => query.forUpdate(),
  fromIndex: (table, alias, index) =>
    alias === null
      ? sql`${sql.table(table)} force index (${sql.id(index)})`
      : sql`${sql.table(table)} as ${sql.id(alias)} force index (${sql.id(index)})`,
  // The columns compare in binary (utf8mb4_bin): exact.
  textContains: (column, text) => sql<SqlBool>`instr(${sql.ref(column)}, ${text}) > 0`,

  insertIgnore: (insert) => insert.ignore(),
  upsert: (insert, _conflict, set) => insert.onDuplicateKeyUpdate(set as never),

  // MySQL/MariaDB default to REPEATABLE READ, whose snapshot reads and gap locks make the
  // check-then-write steps of the stores either stale or deadlock-prone; READ COMMITTED gives the
  // same semantics as Postgres' default.
  beginTransaction: (db, fn) => db.transaction().setIsolationLevel("read committed").execute(fn),

  keyAdmission: (_ctx, steps) => (hash, windows, now) => admitInSteps(steps, hash, windows, now),
  createApplication: createApplicationInSteps,
  appendEvent: appendEventInSteps,
  consumeRateLimit: consumeInTransaction,
  insertUsage: insertUsageRows,
  // `LAST_INSERT_ID(expr)` hands the new value back in the OK packet: one statement, no `RETURNING`.
  async nextSequence(ctx, companyId, kind, count) {
    const result = await ctx.db
      .insertInto(ctx.table("sequence"))
      .values({ company_id: companyId, kind, value: sql<number>`last_insert_id(${count})` })
      .onDuplicateKeyUpdate({ value: sql<number>`last_insert_id(${sql.ref("value")} + ${count})` })
      .executeTakeFirstOrThrow();
    // Kysely reports a LAST_INSERT_ID of 0 as none: a counter still at 0 (a count of 0 added to it).
    if (result.insertId === undefined) {
      if (count === 0) return 0;
      throw new Error("MySQL returned no LAST_INSERT_ID for a sequence.");
    }
    return Number(result.insertId);
  },

  columnTypes: {
    id: (length = 64) => sql.raw(`varchar(${length})`),
    text: (length) => sql.raw(`varchar(${length})`),
    long: () => sql.raw("mediumtext"),
    date: () => sql.raw("datetime(3)"),
    bool: () => sql.raw("tinyint(1)"),
    double: () => "double precision",
    int: () => "integer",
    // Up to 16 MiB a value; the file store writes chunks of 256 KiB, far below any packet limit.
    bytes: () => sql.raw("mediumblob"),
  },
  // InnoDB, full Unicode, and binary comparisons: ids compare by code point.
  tableOptions: (builder) => builder.modifyEnd(sql.raw("engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin")),
  sequenceColumn: (builder) => builder.addColumn("seq", "bigint", (column) => column.primaryKey().autoIncrement()),
  dropIndexOf: (builder, table) => builder.on(table),
  compileOnly: () => ({
    createAdapter: () => new MysqlAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new MysqlIntrospector(db),
    createQueryCompiler: () => new MysqlQueryCompiler(),
  }),

  installRoutines: async () => undefined,
  routineStatements: () => [],
};
