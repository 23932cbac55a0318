/**
 * The example's databases for its tests: SQLite in memory, and Postgres (DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test) in a schema of its own, made for the test file and
 * dropped at its end, so that it never meets another test's tables.
 */
import { randomBytes } from "node:crypto";
import { migrateToLatest } from "@hireport/kysely";
import Database from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, sql } from "kysely";
import pg from "pg";
import { type HostDatabase, migrateHostTables } from "../../src/schema";

export const DATABASE_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface TestDatabase {
  db: Kysely<HostDatabase>;
  dialect: "sqlite" | "postgres";
  close(): Promise<void>;
}

/** Both migrations, as the host runs them: its own tables, then hireport's beside them. */
async function migrate(db: Kysely<HostDatabase>, dialect: TestDatabase["dialect"]): Promise<void> {
  await migrateHostTables(db as Kysely<unknown>, dialect);
  const result = await migrateToLatest(db, { domainTables: false });
  if (result.error) throw result.error;
}

export async function openDatabase(dialect: TestDatabase["dialect"]): Promise<TestDatabase> {
  if (dialect === "sqlite") {
    const db = new Kysely<HostDatabase>({ dialect: new SqliteDialect({ database: new Database(":memory:") }) });
    await migrate(db, dialect);
    return { db, dialect, close: () => db.destroy() };
  }
  const schema = `own_tables_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const db = new Kysely<HostDatabase>({
    dialect: new PostgresDialect({
      pool: new pg.Pool({ connectionString: DATABASE_URL, max: 10, options: `-c search_path=${schema}` }),
    }),
  });
  await migrate(db, dialect);
  return {
    db,
    dialect,
    async close() {
      await sql`drop schema ${sql.id(schema)} cascade`.execute(db);
      await db.destroy();
    },
  };
}
