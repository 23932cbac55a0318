/**
 * The `schema` option on Postgres: hireport's tables, indexes, routines and migration tables in a
 * schema of their own, none of them in the connection's schema (where a Prisma or Drizzle migration
 * would see them), with the connection's search path never naming that schema. Checked with the
 * storage, webhook-store and domain conformance suites (a declared domain whose tables stay in the
 * product's schema), a host's own Kysely `Migrator`, the health check, `migrationSql`, and the
 * option's mistakes.
 */
import { randomBytes } from "node:crypto";
import { runDomainConformance, runStorageConformance } from "@hireport/core/testing";
import { runWebhookStoreConformance } from "@hireport/webhooks/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  declaredDomain,
  hireportMigrationProvider,
  hireportMigrationTables,
  kyselyFileStore,
  kyselyHealthChecks,
  kyselyStorage,
  migrateToLatest,
  migrationSql,
  TABLE_NAMES,
} from "../src/index";
import { kyselyConformanceInspector } from "../src/testing";
import { kyselyWebhookStorage } from "../src/webhooks";
import { type AnyDb, openTestDatabase, randomPrefix, type TestDatabase } from "./helpers/databases";
import { kyselyMigratorClass } from "./helpers/kysely-migrator";
import { createProductTables, dropProductTables, inlineDeclaration } from "./helpers/product-tables";

const newSchema = () => `hp_schema_${randomBytes(3).toString("hex")}`;

async function dropSchema(db: AnyDb, schema: string): Promise<void> {
  await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
}

/** Opens Postgres, migrates a new schema and gives the storage's options; null when Postgres is skipped. */
async function openSchema(): Promise<(TestDatabase & { schema: string }) | null> {
  const opened = await openTestDatabase("postgres");
  if (!opened) return null;
  const schema = newSchema();
  const result = await migrateToLatest(opened.db, { tablePrefix: opened.prefix, schema });
  if (result.error) throw result.error;
  return {
    ...opened,
    schema,
    async drop() {
      await dropSchema(opened.db, schema);
      await opened.drop();
    },
  };
}

/** A conformance setup on a new schema: the storage `make` builds on it, its inspector, its teardown. */
async function schemaSetup<S>(make: (options: { db: AnyDb; tablePrefix: string; schema: string }) => S) {
  const opened = await openSchema();
  if (!opened) throw new Error("postgres is not reachable");
  const options = { db: opened.db, tablePrefix: opened.prefix, schema: opened.schema };
  return { storage: make(options), inspect: kyselyConformanceInspector(options), teardown: () => opened.drop() };
}

runStorageConformance({
  name: "kysely on postgres, hireport's own schema",
  setup: () => schemaSetup(kyselyStorage),
});

runWebhookStoreConformance({
  name: "kysely on postgres, hireport's own schema",
  setup: () => schemaSetup(kyselyWebhookStorage),
});

runDomainConformance({
  name: "declared tables in the product's schema, hireport's in its own",
  async setup() {
    const opened = await openSchema();
    if (!opened) throw new Error("postgres is not reachable");
    const { db, prefix, schema } = opened;
    // The product's tables under a prefix of their own, in the connection's schema.
    const product = randomPrefix();
    await createProductTables(db, "postgres", product);
    const domain = declaredDomain(inlineDeclaration(product));
    return {
      storage: kyselyStorage({ db, tablePrefix: prefix, schema, domain }),
      inspect: kyselyConformanceInspector({ db, tablePrefix: prefix, schema, domain }),
      async teardown() {
        await dropProductTables(db, product);
        await opened.drop();
      },
    };
  },
});

describe("the schema option on postgres", () => {
  let opened: (TestDatabase & { schema: string }) | null = null;

  beforeAll(async () => {
    opened = await openSchema();
  });
  afterAll(async () => {
    await opened?.drop();
  });

  const tablesIn = async (db: AnyDb, schema: string | null, prefix: string) => {
    const where = schema === null ? sql`current_schema()` : sql`${schema}`;
    const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables
      where table_schema = ${where} and left(table_name, length(${prefix})) = ${prefix}`.execute(db);
    return rows.map((row) => row.name.slice(prefix.length)).sort();
  };
  const routinesIn = async (db: AnyDb, schema: string | null, prefix: string) => {
    const where = schema === null ? sql`current_schema()` : sql`${schema}`;
    const { rows } = await sql<{ name: string }>`select p.proname as name from pg_proc as p
      where p.pronamespace = ${where}::regnamespace and left(p.proname, length(${prefix})) = ${prefix}`.execute(db);
    return rows.map((row) => row.name);
  };

  it("puts every table, index and routine in the schema and none in the connection's", async (context) => {
    if (!opened) return context.skip();
    const { db, prefix, schema } = opened;
    expect(await tablesIn(db, schema, prefix)).toEqual(
      [...TABLE_NAMES, "migration", "migration_lock"].sort((a, b) => (a < b ? -1 : 1)),
    );
    expect(await tablesIn(db, null, prefix)).toEqual([]);
    expect((await routinesIn(db, schema, prefix)).length).toBeGreaterThan(0);
    expect(await routinesIn(db, null, prefix)).toEqual([]);
    const { rows } = await sql<{ n: string }>`select count(*) as n from pg_indexes
      where schemaname = current_schema() and left(indexname, length(${prefix})) = ${prefix}`.execute(db);
    expect(Number(rows[0]?.n)).toBe(0);
    // The search path never names the schema: hireport qualifies every name itself.
    const path = await sql<{ search_path: string }>`show search_path`.execute(db);
    expect(path.rows[0]?.search_path).not.toContain(schema);
  });

  it("runs again as a no-op, and the health check reads the migrations in the schema", async (context) => {
    if (!opened) return context.skip();
    const { db, prefix, schema } = opened;
    const again = await migrateToLatest(db, { tablePrefix: prefix, schema });
    expect(again.error).toBeUndefined();
    expect(again.results).toEqual([]);
    const [check] = kyselyHealthChecks(db, { tablePrefix: prefix, schema });
    await expect(check?.run()).resolves.toMatchObject({ applied: expect.any(Number) });
    // Without the schema the same check finds no migration table: the tables are not on the search path.
    const [outside] = kyselyHealthChecks(db, { tablePrefix: prefix });
    await expect(outside?.run()).rejects.toThrow(/cannot be read/);
  });

  it("keeps a file store's files in the schema", async (context) => {
    if (!opened) return context.skip();
    const { db, prefix, schema } = opened;
    const files = kyselyFileStore({ db, tablePrefix: prefix, schema });
    const stored = await files.put({
      companyId: "co_schema",
      filename: "cv.pdf",
      contentType: "application/pdf",
      body: new TextEncoder().encode("%PDF-1.4 schema"),
    });
    const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(`${schema}.${prefix}file`)}
      where id = ${stored.id}`.execute(db);
    expect(Number(rows[0]?.n)).toBe(1);
  });

  it("gives a host's own Kysely Migrator the same tables, in the schema", async (context) => {
    if (!opened) return context.skip();
    const { db } = opened;
    const prefix = randomPrefix();
    const schema = newSchema();
    try {
      const Migrator = await kyselyMigratorClass();
      const migrator = new Migrator({
        db,
        provider: hireportMigrationProvider({ tablePrefix: prefix, schema }),
        ...hireportMigrationTables({ tablePrefix: prefix, schema }),
      });
      const theirs = await migrator.migrateToLatest();
      expect(theirs.error).toBeUndefined();
      expect(await tablesIn(db, schema, prefix)).toContain("migration");
      expect(await tablesIn(db, null, prefix)).toEqual([]);
      // hireport's runner sees every migration applied by the host's.
      const ours = await migrateToLatest(db, { tablePrefix: prefix, schema });
      expect(ours.error).toBeUndefined();
      expect(ours.results).toEqual([]);
    } finally {
      await dropSchema(db, schema);
    }
  });

  it("prints the SQL with the schema's names", async () => {
    const text = await migrationSql("postgres", { tablePrefix: "hr_", schema: "hireport" });
    expect(text).toContain('create schema if not exists "hireport"');
    expect(text).toContain('create table "hireport"."hr_job"');
    expect(text).toMatch(/create or replace function "hireport"\."hr_count_requests_[0-9a-f]{8}"/);
    expect(text).not.toMatch(/create table "hr_/);
  });

  it("refuses a schema without a prefix, and on other dialects", async (context) => {
    if (!opened) return context.skip();
    const { db } = opened;
    expect(() => kyselyStorage({ db, tablePrefix: "", schema: "hireport" })).toThrow(/tablePrefix that is not empty/);
    expect(() => kyselyStorage({ db, dialect: "mysql", schema: "hireport" })).toThrow(/schema option is for Postgres/);
    expect(() => kyselyStorage({ db, schema: "" })).toThrow(/1 to 63 bytes/);
    const result = await migrateToLatest(db, { tablePrefix: "", schema: "hireport" });
    expect(String(result.error)).toMatch(/tablePrefix that is not empty/);
  });
});
