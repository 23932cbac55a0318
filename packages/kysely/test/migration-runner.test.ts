/**
 * hireport's own migration runner (`createHireportMigrator`, `migrateToLatest`) against Kysely's
 * `Migrator`, on the installed Kysely (0.28, or 0.29 where it lives at `kysely/migration`): they
 * keep the same tables, rows and lock, so either carries on where the other stopped (a host moving
 * from its own `Migrator` to `migrateToLatest`, or a rolling deploy with versions of both). Two runs
 * at once apply each migration once (Postgres and MySQL: SQLite has no migration lock, in Kysely's
 * runner either). A migration table that names a migration this version lacks, or one with a gap,
 * is refused before anything runs.
 */
import * as kysely from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import {
  createHireportMigrator,
  type HireportMigrationProvider,
  type HireportMigrationResultSet,
  hireportMigrationProvider,
  hireportMigrations,
  hireportMigrationTables,
  migrateToLatest,
} from "../src/index";
import { type AnyDb, createDb, openTestDatabase, type TestDatabase, type TestDialect } from "./helpers/databases";

const NAMES = Object.keys(hireportMigrations());

/** Kysely's `Migrator`, as much of it as these tests use. */
interface KyselyMigrator {
  migrateTo(name: string): Promise<HireportMigrationResultSet>;
  migrateToLatest(): Promise<HireportMigrationResultSet>;
  migrateDown(): Promise<HireportMigrationResultSet>;
}
type KyselyMigratorClass = new (options: {
  db: AnyDb;
  provider: HireportMigrationProvider;
  migrationTableName: string;
  migrationLockTableName: string;
}) => KyselyMigrator;

/** Kysely's `Migrator` of the installed version: from `kysely` (0.28) or `kysely/migration` (0.29). */
async function kyselyMigratorClass(): Promise<KyselyMigratorClass> {
  const root = Reflect.get(kysely, "Migrator") as KyselyMigratorClass | undefined;
  if (root) return root;
  const subpath = "kysely/migration"; // a variable: the 0.28 types have no such module
  return ((await import(/* @vite-ignore */ subpath)) as { Migrator: KyselyMigratorClass }).Migrator;
}

/** The names in the migration table of `prefix`, sorted. */
async function applied(db: AnyDb, prefix: string): Promise<string[]> {
  const { migrationTableName } = hireportMigrationTables({ tablePrefix: prefix });
  const rows = await db.selectFrom(migrationTableName).select("name").execute();
  return rows.map((row: { name: string }) => row.name).sort();
}

const outcome = (set: HireportMigrationResultSet) => ({
  error: set.error,
  results: set.results?.map((result) => [result.migrationName, result.direction, result.status]),
});

describe.each(["sqlite", "postgres", "mysql"] as TestDialect[])("the migration runner on %s", (dialect) => {
  let test: TestDatabase | null = null;
  afterEach(async () => {
    await test?.drop().catch(() => undefined);
    test = null;
  });

  it("carries on where Kysely's Migrator stopped, and Kysely's Migrator on where it stopped", async (context) => {
    test = await openTestDatabase(dialect, { poolSize: 2 });
    if (!test) return context.skip();
    const { db, prefix } = test;
    const Migrator = await kyselyMigratorClass();
    const theirs = new Migrator({
      db,
      provider: hireportMigrationProvider({ tablePrefix: prefix }),
      ...hireportMigrationTables({ tablePrefix: prefix }),
    });
    const middle = NAMES[4] as string;
    expect((await theirs.migrateTo(middle)).error).toBeUndefined();
    expect(await applied(db, prefix)).toEqual(NAMES.slice(0, 5));

    const ours = await migrateToLatest(db, { tablePrefix: prefix });
    expect(outcome(ours)).toEqual({ error: undefined, results: NAMES.slice(5).map((name) => [name, "Up", "Success"]) });
    expect(outcome(await theirs.migrateToLatest())).toEqual({ error: undefined, results: [] });

    const last = NAMES.at(-1) as string;
    expect(outcome(await theirs.migrateDown())).toEqual({ error: undefined, results: [[last, "Down", "Success"]] });
    const migrator = await createHireportMigrator(db, { tablePrefix: prefix });
    expect(outcome(await migrator.migrateUp())).toEqual({ error: undefined, results: [[last, "Up", "Success"]] });
    expect(outcome(await migrator.migrateUp())).toEqual({ error: undefined, results: [] });
    expect(await applied(db, prefix)).toEqual([...NAMES].sort());
    // Every migration on an empty prefix: MariaDB's DDL alone takes seconds on a busy machine.
  }, 60_000);

  it.skipIf(dialect === "sqlite")(
    "applies each migration once when two processes migrate at once (the adapter's migration lock)",
    async (context) => {
      test = await openTestDatabase(dialect, { poolSize: 2 });
      if (!test) return context.skip();
      const { db, prefix } = test;
      const other = await createDb(dialect, { sqliteFile: test.sqliteFile, poolSize: 2 });
      try {
        const runs = await Promise.all([db, other].map((each) => migrateToLatest(each, { tablePrefix: prefix })));
        expect(runs.map((run) => run.error)).toEqual([undefined, undefined]);
        const done = runs.flatMap((run) => run.results ?? []);
        expect(done.map((result) => result.migrationName).sort()).toEqual([...NAMES].sort());
        expect(done.every((result) => result.status === "Success")).toBe(true);
        expect(await applied(db, prefix)).toEqual([...NAMES].sort());
      } finally {
        await other.destroy();
      }
    },
    60_000,
  );
});

describe("the migration runner's refusals (SQLite)", () => {
  let test: TestDatabase | null = null;
  afterEach(async () => {
    await test?.drop().catch(() => undefined);
    test = null;
  });

  it("refuses a migration table that names a migration this version lacks, or skips one, and runs nothing", async (context) => {
    test = await openTestDatabase("sqlite");
    if (!test) return context.skip();
    const { db, prefix } = test;
    const migrator = await createHireportMigrator(db, { tablePrefix: prefix });
    expect((await migrator.migrateUp()).error).toBeUndefined();
    const { migrationTableName } = hireportMigrationTables({ tablePrefix: prefix });

    await db.insertInto(migrationTableName).values({ name: "2026-01-01-9999-unknown", timestamp: "x" }).execute();
    const unknown = await migrator.migrateToLatest();
    expect(unknown.results).toBeUndefined();
    expect(String(unknown.error)).toContain("records the migration 2026-01-01-9999-unknown");
    await db.deleteFrom(migrationTableName).where("name", "=", "2026-01-01-9999-unknown").execute();

    await db
      .insertInto(migrationTableName)
      .values({ name: NAMES[2] as string, timestamp: "x" })
      .execute();
    const gap = await migrator.migrateToLatest();
    expect(gap.results).toBeUndefined();
    expect(String(gap.error)).toContain(`the migration ${NAMES[1]} is not applied but ${NAMES[2]}`);
    expect(await applied(db, prefix)).toEqual([NAMES[0], NAMES[2]]);
  });
});
