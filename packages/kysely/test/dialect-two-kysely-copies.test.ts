/**
 * A host whose Kysely is loaded twice (its CommonJS build by the host, its ES module build by
 * hireport) hands hireport an adapter that is not `instanceof` hireport's copy of Kysely's adapters.
 * The dialect is then recognised by the adapter's class name and `supportsReturning`: on SQLite
 * end to end (migrations and the storage), and for each of Kysely's adapters of the CommonJS build;
 * a class that only shares the name, or an adapter of its own, still needs the `dialect` option.
 */
import { createRequire } from "node:module";
import SQLite from "better-sqlite3";
import * as esm from "kysely";
import { describe, expect, it } from "vitest";
import { detectDialect } from "../src/dialects/detect";
import { kyselyStorage, migrateToLatest } from "../src/index";
import * as make from "./helpers/records";

/** Kysely's CommonJS build, as a CommonJS host loads it; hireport's sources use the ES module build. */
const cjs = createRequire(import.meta.url)("kysely") as typeof esm;

/** A Kysely instance of the CommonJS build with `adapter`, over a driver that answers no rows. */
function cjsDummy(adapter: () => esm.DialectAdapter): esm.Kysely<unknown> {
  return new cjs.Kysely<unknown>({
    dialect: {
      createAdapter: adapter,
      createDriver: () => new cjs.DummyDriver(),
      createIntrospector: (db) => new cjs.SqliteIntrospector(db),
      createQueryCompiler: () => new cjs.SqliteQueryCompiler(),
    },
  });
}

/**
 * Kysely 0.28 ships a CommonJS and an ES module build; 0.29 only ES modules, which `require` loads
 * too (the same module): a host on 0.29 cannot load two copies this way, and the two tests that
 * need them are skipped there.
 */
const twoBuilds = cjs.SqliteAdapter !== esm.SqliteAdapter;

describe("a Kysely instance of the other copy of Kysely", () => {
  it.skipIf(!twoBuilds)("is two copies indeed: the CommonJS adapters are not instances of the ES module ones", () => {
    expect(cjs.SqliteAdapter).not.toBe(esm.SqliteAdapter);
    expect(new cjs.SqliteAdapter()).not.toBeInstanceOf(esm.SqliteAdapter);
    expect(new cjs.PostgresAdapter()).not.toBeInstanceOf(esm.PostgresAdapter);
  });

  it.skipIf(!twoBuilds)(
    "on SQLite: migrates, and the storage writes and reads back, with no dialect option",
    async () => {
      const db = new cjs.Kysely<unknown>({ dialect: new cjs.SqliteDialect({ database: new SQLite(":memory:") }) });
      try {
        expect(db.getExecutor().adapter).not.toBeInstanceOf(esm.SqliteAdapter);
        const migrated = await migrateToLatest(db);
        expect(migrated.error).toBeUndefined();
        expect(migrated.results?.length).toBeGreaterThan(0);
        const storage = kyselyStorage({ db });
        const company = await make.addCompany(storage);
        const job = make.job(company.id);
        await storage.jobs.insert(job);
        expect(await storage.jobs.get(company.id, job.id)).toEqual(job);
      } finally {
        await db.destroy();
      }
    },
  );

  it("tells each of Kysely's adapters, and subclasses of them, from the CommonJS build", async () => {
    class TracedPostgresAdapter extends cjs.PostgresAdapter {}
    const cases: [() => esm.DialectAdapter, string][] = [
      [() => new cjs.PostgresAdapter(), "postgres"],
      [() => new cjs.MysqlAdapter(), "mysql"],
      [() => new cjs.SqliteAdapter(), "sqlite"],
      [() => new TracedPostgresAdapter(), "postgres"],
    ];
    for (const [adapter, kind] of cases) {
      const db = cjsDummy(adapter);
      expect(detectDialect(db), adapter().constructor.name).toBe(kind);
      await db.destroy();
    }
  });

  it("refuses a class that only shares a name with Kysely's adapters, naming the dialect option", async () => {
    /** Named as Kysely's Postgres adapter, but it reports no RETURNING: not taken for it. */
    const PostgresAdapter = class PostgresAdapter extends cjs.DialectAdapterBase {
      override async acquireMigrationLock(): Promise<void> {}
      override async releaseMigrationLock(): Promise<void> {}
    };
    const db = cjsDummy(() => new PostgresAdapter());
    expect(() => kyselyStorage({ db })).toThrow(
      /cannot tell the SQL dialect of the Kysely adapter PostgresAdapter.*`dialect` option/,
    );
    expect(() => kyselyStorage({ db, dialect: "postgres" })).not.toThrow();
    await db.destroy();
  });
});
