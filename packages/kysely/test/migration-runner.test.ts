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
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import {
  createHireportMigrator,
  type HireportMigrationResultSet,
  hireportMigrationProvider,
  hireportMigrations,
  hireportMigrationTables,
  migrateToLatest,
} from "../src/index";
import {
  type AnyDb,
  createDb,
  openTestDatabase,
  PG_URL,
  type TestDatabase,
  type TestDialect,
} from "./helpers/databases";
import { kyselyMigratorClass } from "./helpers/kysely-migrator";

const NAMES = Object.keys(hireportMigrations());

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

/** The advisory lock id of Kysely's `Migrator` on Postgres, in every version. */
const KYSELY_LOCK_ID = "3853314791062309107";

/**
 * Kysely's Postgres adapter as versions 0.28.0 to 0.28.17 and 0.29.0 make it: its migration lock is
 * transaction-level (`pg_advisory_xact_lock`), held only inside a transaction. (0.28.18 on take a
 * session-level lock instead.)
 */
class TransactionLockAdapter extends kysely.PostgresAdapter {
  override async acquireMigrationLock(db: kysely.Kysely<unknown>): Promise<void> {
    await kysely.sql`select pg_advisory_xact_lock(${kysely.sql.lit(KYSELY_LOCK_ID)}::bigint)`.execute(db);
  }
  override async releaseMigrationLock(): Promise<void> {}
}

describe("the migration lock on Postgres, whichever kind the installed Kysely takes", () => {
  let test: TestDatabase | null = null;
  const others: Array<{ destroy(): Promise<void> }> = [];
  afterEach(async () => {
    for (const other of others.splice(0)) await other.destroy().catch(() => undefined);
    await test?.drop().catch(() => undefined);
    test = null;
  });

  it("applies each migration once when two runs start at once on an adapter whose lock is transaction-level", async (context) => {
    test = await openTestDatabase("postgres", { poolSize: 2 });
    if (!test) return context.skip();
    const { prefix } = test;
    const onOldAdapter = () => {
      const dialect = new kysely.PostgresDialect({ pool: new pg.Pool({ connectionString: PG_URL, max: 2 }) });
      const db = new kysely.Kysely<unknown>({
        dialect: {
          createAdapter: () => new TransactionLockAdapter(),
          createDriver: () => dialect.createDriver(),
          createIntrospector: (on) => dialect.createIntrospector(on),
          createQueryCompiler: () => dialect.createQueryCompiler(),
        },
      });
      others.push(db);
      return db;
    };
    const runs = await Promise.all(
      [onOldAdapter(), onOldAdapter()].map((db) => migrateToLatest(db, { tablePrefix: prefix })),
    );
    expect(runs.map((run) => run.error)).toEqual([undefined, undefined]);
    const done = runs.flatMap((run) => run.results ?? []);
    expect(done.map((result) => result.migrationName).sort()).toEqual([...NAMES].sort());
    expect(await applied(test.db, prefix)).toEqual([...NAMES].sort());
  }, 60_000);

  it.each([
    ["session-level (Kysely 0.28.18 on)", "select pg_advisory_lock(%s)", "select pg_advisory_unlock(%s)"],
    ["transaction-level (Kysely 0.28.0 to 0.28.17, 0.29.0)", "begin; select pg_advisory_xact_lock(%s)", "commit"],
  ])(
    "waits while Kysely's Migrator holds its lock, %s",
    async (_kind, take, give) => {
      test = await openTestDatabase("postgres", { poolSize: 2 });
      if (!test) return;
      const { db, prefix } = test;
      const holder = new pg.Client({ connectionString: PG_URL, application_name: `${prefix}holder` });
      await holder.connect();
      others.push({ destroy: () => holder.end() });
      await holder.query(take.replace("%s", KYSELY_LOCK_ID));
      const running = migrateToLatest(db, { tablePrefix: prefix });
      // The run waits on the advisory lock, having applied nothing.
      await expect
        .poll(
          async () =>
            (
              await holder.query(
                "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and wait_event = 'advisory' and datname = current_database()",
              )
            ).rows[0].n,
          { timeout: 20_000, interval: 50 },
        )
        .toBeGreaterThan(0);
      expect(await applied(db, prefix)).toEqual([]);
      await holder.query(give.replace("%s", KYSELY_LOCK_ID));
      const outcome = await running;
      expect(outcome.error).toBeUndefined();
      expect(await applied(db, prefix)).toEqual([...NAMES].sort());
    },
    60_000,
  );
});
