import type { DialectKind } from "../dialects/types";

/** Options shared by the migration helpers and `installRoutines`. */
export interface MigrationOptions {
  /**
   * Prefix of every hireport table and routine, of the migration table (`{prefix}migration`) and of
   * its lock table (`{prefix}migration_lock`). Use the same value as for `kyselyStorage`.
   * @default "hireport_"
   */
  tablePrefix?: string;
  /**
   * Postgres only: the schema of hireport's tables, indexes, routines and migration tables, created
   * when missing (the database user needs `CREATE` on the database for that, or create it first).
   * Keeps hireport out of the schema a Prisma or Drizzle migration manages. Needs a `tablePrefix`
   * that is not empty. Use the same value as for `kyselyStorage`; choose it before the first
   * migration (moving the tables of an existing install is not supported).
   * @default none: the tables go where the connection's search path puts them (`public`)
   */
  schema?: string;
  /**
   * Whether hireport's own `job` and `application` tables are made. `false` for a host whose jobs
   * and applications live in its own tables (`declaredDomain`, or a `domain` written by hand): the
   * migrations that make or change those two tables are then recorded as applied and do nothing,
   * and a storage without a `domain` cannot run on the database. Choose it before the first
   * migration; a later `true` does not make the tables (they would need a migration of the host's).
   * @default true
   */
  domainTables?: boolean;
  /**
   * The SQL dialect, for third-party Kysely dialects whose adapter does not extend one of Kysely's
   * own (`PostgresAdapter`, `MysqlAdapter`, `SqliteAdapter`, of any copy of Kysely: see `kyselyStorage`).
   * Use the same value as for `kyselyStorage`.
   * @default found from the Kysely instance's adapter (an unknown adapter is an error)
   */
  dialect?: DialectKind;
}

/** Options of {@link migrationSql}. */
export interface MigrationSqlOptions {
  /**
   * Prefix of every hireport table and routine.
   * @default "hireport_"
   */
  tablePrefix?: string;
  /** Postgres only: the schema of hireport's tables (see `MigrationOptions.schema`). @default none */
  schema?: string;
  /** Whether hireport's `job` and `application` tables are made (see `MigrationOptions.domainTables`). @default true */
  domainTables?: boolean;
  /**
   * Print the SQL that sets the schema up (the migrations, then the routines), or the SQL that
   * takes it down (the routines dropped, then the migrations' `down` in reverse order).
   * @default "up"
   */
  direction?: "up" | "down";
}

export const DEFAULT_PREFIX = "hireport_";
