/**
 * The dialect is chosen once, by one function, for the storage and the migrations alike: the
 * `dialect` option wins, else the adapter; an adapter it cannot recognise is an error that names
 * the option (never a guess). No database: a dummy driver answers every query with no rows.
 */
import {
  type CompiledQuery,
  DialectAdapterBase,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from "kysely";
import { describe, expect, it } from "vitest";
import { installRoutines, kyselyStorage, migrateToLatest, migrationSql } from "../src/index";

/** An adapter of a third-party dialect that extends none of Kysely's own. */
class HomeMadeAdapter extends DialectAdapterBase {
  override get supportsReturning(): boolean {
    return true;
  }
  override async acquireMigrationLock(): Promise<void> {}
  override async releaseMigrationLock(): Promise<void> {}
}

function dummyDb(adapter: () => DialectAdapterBase, log: CompiledQuery[] = []): Kysely<unknown> {
  return new Kysely<unknown>({
    dialect: {
      createAdapter: adapter,
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      if (event.level === "query") log.push(event.query);
    },
  });
}

describe("choosing the dialect", () => {
  it("refuses an adapter it cannot recognise, naming the dialect option, in the storage and the migrations alike", async () => {
    const db = dummyDb(() => new HomeMadeAdapter());
    expect(() => kyselyStorage({ db })).toThrow(/HomeMadeAdapter.*`dialect` option/);
    const result = await migrateToLatest(db);
    expect(String(result.error)).toMatch(/`dialect` option/);
    await expect(installRoutines(db)).rejects.toThrow(/`dialect` option/);
    await db.destroy();
  });

  it("takes the dialect option over the adapter", async () => {
    const log: CompiledQuery[] = [];
    const db = dummyDb(() => new HomeMadeAdapter(), log);
    const storage = kyselyStorage({ db, dialect: "mysql" });
    await storage.jobs.list({ companyId: "co_1", take: 1 });
    expect(log.at(-1)?.sql).toMatch(/force index/);
    // Kysely's own Postgres adapter, told it is MySQL: the option wins.
    const pg = dummyDb(() => new PostgresAdapter(), log);
    await kyselyStorage({ db: pg, dialect: "mysql" }).jobs.list({ companyId: "co_1", take: 1 });
    expect(log.at(-1)?.sql).toMatch(/force index/);
    await kyselyStorage({ db: pg }).jobs.list({ companyId: "co_1", take: 1 });
    expect(log.at(-1)?.sql).not.toMatch(/force index/);
    await db.destroy();
    await pg.destroy();
  });

  it("refuses an unknown dialect name, naming the option", async () => {
    const db = dummyDb(() => new PostgresAdapter());
    expect(() => kyselyStorage({ db, dialect: "postgresql" as "postgres" })).toThrow(
      /unknown dialect "postgresql".*`dialect` option/,
    );
    await expect(migrationSql("oracle" as "postgres")).rejects.toThrow(/`dialect` option/);
    await db.destroy();
  });
});
