/**
 * Postgres (pg): READ COMMITTED transactions, row locks with `FOR UPDATE OF`, `RETURNING`, and the
 * business writes in one statement each through hireport's PL/pgSQL routines.
 */
import {
  DummyDriver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from "kysely";
import { claimPlainInOneStatement } from "./postgres/claim-deliveries";
import { consumeWithCountRequests } from "./postgres/count-requests";
import { postgresKeyAdmission } from "./postgres/key-admission";
import { recordAttemptsInOneStatement } from "./postgres/record-attempts";
import { installPostgresRoutines, postgresRoutineStatements } from "./postgres/routines";
import {
  appendEventByRoutine,
  createApplicationByRoutine,
  insertUsageUnnested,
  nextSequenceRelaxed,
} from "./postgres/writes";
import { onConflictDoNothing, onConflictUpdate, preCompiledColumns } from "./shared";
import type { DialectStrategy } from "./types";

/** The advisory lock id of Kysely's `Migrator` on Postgres (its `PostgresAdapter`), in every version. */
const KYSELY_MIGRATION_LOCK_ID = 3853314791062309107n;

/** `FOR UPDATE`, of the table `of` alone when given (the query may join others). */
function lockRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, of?: TB & string) {
  return of === undefined ? query.forUpdate() : query.forUpdate(of);
}

export const postgresStrategy: DialectStrategy = {
  kind: "postgres",
  rowLocks: true,

  toDb: (date) => date.toISOString(),
  bool: (value) => value,
  dateParam: (date) => sql`cast(${date === null ? null : date.toISOString()} as timestamptz)`,
  selectColumns: (alias, columns, _dates, rename) => preCompiledColumns(alias, columns, rename),

  forUpdate: lockRows,
  forUpdateSkipLocked: (query, of) => lockRows(query, of).skipLocked(),
  // Each statement takes a fresh snapshot under READ COMMITTED.
  currentRead: (query) => query,
  // The planner range-scans the keyset bound of the `(company_id, …, time, id)` indexes unhinted.
  fromIndex: (table, alias) => (alias === null ? table : `${table} as ${alias}`),
  textContains: (column, text) => sql<SqlBool>`strpos(${sql.ref(column)}, ${text}) > 0`,

  insertIgnore: onConflictDoNothing,
  upsert: onConflictUpdate,

  // The server's default isolation, READ COMMITTED.
  beginTransaction: (db, fn) => db.transaction().execute(fn),

  keyAdmission: postgresKeyAdmission,
  createApplication: createApplicationByRoutine,
  appendEvent: appendEventByRoutine,
  consumeRateLimit: consumeWithCountRequests,
  insertUsage: insertUsageUnnested,
  nextSequence: nextSequenceRelaxed,
  recordAttempts: recordAttemptsInOneStatement,
  claimDeliveries: claimPlainInOneStatement,

  columnTypes: {
    id: (length = 64) => sql.raw(`varchar(${length}) collate "C"`),
    text: (length) => sql.raw(`varchar(${length})`),
    long: () => "text",
    date: () => sql.raw("timestamptz(3)"),
    bool: () => "boolean",
    double: () => "double precision",
    int: () => "integer",
    bytes: () => "bytea",
  },
  tableOptions: (builder) => builder,
  sequenceColumn: (builder) => builder.addColumn("seq", "bigserial", (column) => column.primaryKey()),
  dropIndexOf: (builder) => builder,
  compileOnly: () => ({
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  }),

  installRoutines: installPostgresRoutines,
  routineStatements: postgresRoutineStatements,

  // Kysely's Postgres adapter takes a transaction-level advisory lock on this id in some versions of
  // the peer range (0.28.0 to 0.28.17, 0.29.0 among them) and a session-level one in others (0.28.18
  // on): taken through the adapter, a run would hold nothing under the first kind outside a
  // transaction. A transaction-level lock on the same id, taken here, waits for either kind and is
  // waited for by both, and ends with the run's transaction whatever happens to it.
  lockMigrations: async (trx) => {
    await sql`select pg_advisory_xact_lock(${sql.lit(KYSELY_MIGRATION_LOCK_ID)})`.execute(trx);
  },
};
