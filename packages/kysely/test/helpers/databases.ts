/**
 * The databases the tests run on, and the one place that decides whether a dialect runs.
 *
 * - SQLite: a fresh file per test file (better-sqlite3), always available.
 * - Postgres: `HIREPORT_PG_URL` (default postgres://postgres@127.0.0.1:5432/test).
 * - MySQL/MariaDB: `HIREPORT_MYSQL_URL` (default mysql://root@127.0.0.1:3306/test).
 *
 * When a server cannot be reached the dialect is skipped with a loud warning, except in CI
 * (`CI=true`), where it fails the run. Every test file uses its own random table prefix and drops
 * its tables at the end, so files can run in parallel against one server.
 */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, type LogEvent, MysqlDialect, PostgresAdapter, PostgresDialect, SqliteDialect, sql } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import { createPool } from "mysql2";
import pg from "pg";
import postgres from "postgres";
import { migrateToLatest, TABLE_NAMES } from "../../src/index";
import { hardenPgPool } from "../../src/pg-pool";

export type TestDialect = "sqlite" | "postgres" | "mysql";

export const PG_URL = process.env.HIREPORT_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const MYSQL_URL = process.env.HIREPORT_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test";

// biome-ignore lint/suspicious/noExplicitAny: test databases are untyped; the stores bring their own types.
export type AnyDb = Kysely<any>;

export interface DbOptions {
  /** SQLite file shared by every instance of one test file. */
  sqliteFile: string;
  /** Connections in a Postgres or MySQL pool. @default 10 */
  poolSize?: number;
  /** Postgres `application_name`, to find the connection from another one. */
  applicationName?: string;
  /** Called for every executed query. */
  onQuery?: (event: LogEvent) => void;
  /**
   * Postgres: `synchronous_commit = off` in the pool's sessions, so a commit does not wait for the
   * WAL flush (still atomic and isolated; only the last commits could be lost in a server crash).
   * For suites of many small transactions on throw-away tables. @default false
   */
  asyncCommit?: boolean;
  /** Postgres: connect with postgres-js (`kysely-postgres-js`) instead of a `pg` pool. @default false */
  postgresJs?: boolean;
}

/** A new Kysely instance (a new pool, or a new SQLite connection) on the dialect's test database. */
export async function createDb(dialect: TestDialect, options: DbOptions): Promise<AnyDb> {
  const log = options.onQuery;
  if (dialect === "sqlite") {
    const database = new SQLite(options.sqliteFile, { timeout: 10_000 });
    database.pragma("journal_mode = WAL");
    return new Kysely({ dialect: new SqliteDialect({ database }), log });
  }
  if (dialect === "postgres" && options.postgresJs) {
    const client = postgres(PG_URL, {
      max: options.poolSize ?? 10,
      connect_timeout: 3,
      onnotice: () => undefined,
      connection: {
        application_name: options.applicationName ?? "hireport-kysely-test",
        ...(options.asyncCommit ? { synchronous_commit: "off" } : {}),
      },
    });
    return new Kysely({ dialect: new PostgresJSDialect({ postgres: client }), log });
  }
  if (dialect === "postgres") {
    const pool = new pg.Pool({
      connectionString: PG_URL,
      max: options.poolSize ?? 10,
      application_name: options.applicationName ?? "hireport-kysely-test",
      connectionTimeoutMillis: 3000,
      ...(options.asyncCommit ? { options: "-c synchronous_commit=off" } : {}),
    });
    // As hosts are told to: a connection killed by a test (pg_terminate_backend) must not crash
    // the test process, and hireport's hot statements run as named prepared statements.
    hardenPgPool(pool, { logger: { warn: () => undefined } });
    return new Kysely({ dialect: new PostgresDialect({ pool }), log });
  }
  // No `timezone` option on purpose: the storage must not depend on it.
  const pool = createPool({ uri: MYSQL_URL, connectionLimit: options.poolSize ?? 10, connectTimeout: 3000 });
  return new Kysely({ dialect: new MysqlDialect({ pool }), log });
}

/** A random table prefix for one test file: `hp_3fa9c1_`. */
export function randomPrefix(): string {
  return `hp_${randomBytes(3).toString("hex")}_`;
}

export function sqliteFileFor(prefix: string): string {
  return join(tmpdir(), `hireport-kysely-${prefix}${process.pid}.sqlite`);
}

/**
 * Opens the dialect or decides to skip it. Returns null when it is skipped (never in CI: there an
 * unreachable server throws, which fails the test file).
 */
export async function connectOrSkip(dialect: TestDialect, options: DbOptions): Promise<AnyDb | null> {
  let db: AnyDb | undefined;
  try {
    db = await createDb(dialect, options);
    await sql`select 1`.execute(db);
    return db;
  } catch (error) {
    await db?.destroy().catch(() => undefined);
    const url = dialect === "postgres" ? PG_URL : MYSQL_URL;
    if (process.env.CI === "true") {
      throw new Error(`[@hireport/kysely] ${dialect} is not reachable at ${url} and CI=true: failing the run.`, {
        cause: error,
      });
    }
    const line = "!".repeat(100);
    console.warn(
      `\n${line}\n!!! [@hireport/kysely] ${dialect.toUpperCase()} NOT REACHABLE at ${url}: ALL ${dialect} TESTS ARE SKIPPED.\n!!! (${
        error instanceof Error ? error.message : String(error)
      })\n!!! Set ${dialect === "postgres" ? "HIREPORT_PG_URL" : "HIREPORT_MYSQL_URL"} or start the server; CI=true turns this into a failure.\n${line}\n`,
    );
    return null;
  }
}

/** Drops every table of a prefix, the migration tables included, and on Postgres its routines (of every version). */
/** Runs `fn` with tables of its own under `prefix`, then drops every table and routine under it. */
export async function withOwnPrefix(db: AnyDb, prefix: string, fn: (prefix: string) => Promise<void>): Promise<void> {
  try {
    await fn(prefix);
  } finally {
    await dropTables(db, prefix);
  }
}

export async function dropTables(db: AnyDb, prefix: string): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ routine: string }>`select p.oid::regprocedure::text as routine from pg_proc as p
      where p.pronamespace = current_schema()::regnamespace and left(p.proname, length(${prefix})) = ${prefix}`.execute(
      db,
    );
    for (const { routine } of rows) await sql`drop function if exists ${sql.raw(routine)}`.execute(db);
  }
  for (const name of [...TABLE_NAMES].reverse()) await db.schema.dropTable(`${prefix}${name}`).ifExists().execute();
  await db.schema.dropTable(`${prefix}migration`).ifExists().execute();
  await db.schema.dropTable(`${prefix}migration_lock`).ifExists().execute();
}

export function removeSqliteFile(file: string): void {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(`${file}${suffix}`, { force: true });
}

/** One test file's tables on one dialect: a random prefix on the dialect's test database. */
export interface TestDatabase {
  dialect: TestDialect;
  prefix: string;
  /** The SQLite file (unused on the other dialects). */
  sqliteFile: string;
  db: AnyDb;
  /** Migrates the prefix's tables to the latest version; throws what the migration failed with. */
  migrate(options?: { domainTables?: boolean }): Promise<void>;
  /** Drops the prefix's tables, closes the connections and, on SQLite, removes the file. */
  drop(): Promise<void>;
}

/**
 * Opens the dialect with a new random prefix, or decides to skip it: null when skipped (see
 * {@link connectOrSkip}; never in CI).
 */
export async function openTestDatabase(
  dialect: TestDialect,
  options: Omit<DbOptions, "sqliteFile"> = {},
): Promise<TestDatabase | null> {
  const prefix = randomPrefix();
  const sqliteFile = sqliteFileFor(prefix);
  const db = await connectOrSkip(dialect, { ...options, sqliteFile });
  if (!db) return null;
  return {
    dialect,
    prefix,
    sqliteFile,
    db,
    async migrate(options = {}) {
      const result = await migrateToLatest(db, { tablePrefix: prefix, ...options });
      if (result.error) throw result.error;
    },
    async drop() {
      try {
        await dropTables(db, prefix);
      } finally {
        await db.destroy();
        if (dialect === "sqlite") removeSqliteFile(sqliteFile);
      }
    },
  };
}
