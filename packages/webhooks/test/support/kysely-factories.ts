/**
 * The SQL storages of `@hireport/kysely` for the delivery suite: SQLite (a temporary file),
 * Postgres (`HIREPORT_PG_URL`, default postgres://postgres@127.0.0.1:5432/test) and MySQL/MariaDB
 * (`HIREPORT_MYSQL_URL`, default mysql://root@127.0.0.1:3306/test), the same variables as the
 * kysely package's own tests.
 *
 * Each factory migrates a random table prefix once, empties the tables before every test, and drops
 * them in `dispose`. A server that cannot be reached skips its dialect with a loud warning, except
 * with CI=true, where it fails the run.
 */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateToLatest, TABLE_NAMES } from "@hireport/kysely";
import { kyselyWebhookStorage } from "@hireport/kysely/webhooks";
import SQLite from "better-sqlite3";
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect, sql } from "kysely";
import { createPool } from "mysql2";
import pg from "pg";
import type { StorageFactory } from "./storages";

export type SqlDialect = "sqlite" | "postgres" | "mysql";

export const PG_URL = process.env.HIREPORT_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const MYSQL_URL = process.env.HIREPORT_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test";

// biome-ignore lint/suspicious/noExplicitAny: the test database is untyped; kyselyWebhookStorage brings its own types.
type AnyDb = Kysely<any>;

/** A Kysely instance on the dialect's test database. */
export function openDb(dialect: SqlDialect, sqliteFile: string): AnyDb {
  if (dialect === "sqlite") {
    const database = new SQLite(sqliteFile, { timeout: 10_000 });
    database.pragma("journal_mode = WAL");
    return new Kysely({ dialect: new SqliteDialect({ database }) });
  }
  if (dialect === "postgres") {
    return new Kysely({
      dialect: new PostgresDialect({
        pool: new pg.Pool({ connectionString: PG_URL, max: 10, connectionTimeoutMillis: 3000 }),
      }),
    });
  }
  return new Kysely({
    dialect: new MysqlDialect({ pool: createPool({ uri: MYSQL_URL, connectionLimit: 10, connectTimeout: 3000 }) }),
  });
}

/** Where a dialect's tables live for one test file: what a child process needs to open the same storage. */
export interface SqlLocation {
  dialect: SqlDialect;
  tablePrefix: string;
  sqliteFile: string;
}

export interface SqlStorageFactory extends StorageFactory {
  /** Null until the first `create()`; null also when the dialect is skipped. */
  location(): SqlLocation | null;
  /** Whether the server answered (false: the dialect's tests skip). */
  available(): Promise<boolean>;
  /** The Kysely instance under the storages, for raw reads past the storage; null before `create()`. */
  db(): AnyDb | null;
}

function sqlFactory(dialect: SqlDialect): SqlStorageFactory {
  const tablePrefix = `hpw_${randomBytes(3).toString("hex")}_`;
  const sqliteFile = join(tmpdir(), `hireport-webhooks-${tablePrefix}${process.pid}.sqlite`);
  let db: AnyDb | null = null;
  let ready: Promise<boolean> | null = null;

  const prepare = async (): Promise<boolean> => {
    const candidate = openDb(dialect, sqliteFile);
    try {
      await sql`select 1`.execute(candidate);
    } catch (error) {
      await candidate.destroy().catch(() => undefined);
      const url = dialect === "postgres" ? PG_URL : MYSQL_URL;
      if (process.env.CI === "true") {
        throw new Error(`[@hireport/webhooks] ${dialect} is not reachable at ${url} and CI=true.`, { cause: error });
      }
      console.warn(
        `\n!!! [@hireport/webhooks] ${dialect.toUpperCase()} NOT REACHABLE at ${url}: its delivery tests are SKIPPED.\n`,
      );
      return false;
    }
    const result = await migrateToLatest(candidate, { tablePrefix });
    if (result.error) throw result.error;
    db = candidate;
    return true;
  };

  return {
    name: dialect,
    available() {
      ready ??= prepare();
      return ready;
    },
    location: () => (db ? { dialect, tablePrefix, sqliteFile } : null),
    db: () => db,
    async create() {
      if (!(await this.available()) || !db) throw new Error(`${dialect} is not available`);
      const current = db;
      for (const name of [...TABLE_NAMES].reverse()) await current.deleteFrom(`${tablePrefix}${name}`).execute();
      return { storage: kyselyWebhookStorage({ db: current, tablePrefix }), close: async () => {} };
    },
    async dispose() {
      if (!db) return;
      const current = db;
      db = null;
      for (const name of [...TABLE_NAMES].reverse()) {
        await current.schema.dropTable(`${tablePrefix}${name}`).ifExists().execute();
      }
      await current.schema.dropTable(`${tablePrefix}migration`).ifExists().execute();
      await current.schema.dropTable(`${tablePrefix}migration_lock`).ifExists().execute();
      await current.destroy();
      if (dialect === "sqlite") {
        for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(`${sqliteFile}${suffix}`, { force: true });
      }
    },
  };
}

/** One factory per SQL dialect (each with its own table prefix). */
export function sqlFactories(): SqlStorageFactory[] {
  return [sqlFactory("sqlite"), sqlFactory("postgres"), sqlFactory("mysql")];
}
