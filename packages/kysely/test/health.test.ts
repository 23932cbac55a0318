/**
 * `api.health()` over real databases: a migrated database is healthy, a closed one is not (503),
 * and one missing hireport's latest migration is reported as such by `kyselyHealthChecks`.
 */
import { createPublicApi, type PublicApi } from "@hireport/core";
import { healthResponse } from "@hireport/core/extend";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { hireportMigrations, hireportMigrationTables, kyselyHealthChecks, kyselyStorage } from "../src/index";
import { type AnyDb, createDb, openTestDatabase, type TestDatabase, type TestDialect } from "./helpers/databases";

const quiet = { warn: () => undefined, error: () => undefined };
const MIGRATIONS = Object.keys(hireportMigrations());
const LATEST = MIGRATIONS.at(-1) as string;

function apiOn(db: AnyDb, prefix: string): PublicApi {
  return createPublicApi({
    storage: kyselyStorage({ db, tablePrefix: prefix }),
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "kysely-health-secret-0123456789-abcdefgh",
    logger: quiet,
    health: { checks: kyselyHealthChecks(db, { tablePrefix: prefix }), timeoutMs: 5_000 },
  });
}

const statusOf = (report: Awaited<ReturnType<PublicApi["health"]>>) =>
  Object.fromEntries(report.checks.map((check) => [check.name, check.status]));

describe.each(["sqlite", "postgres"] as TestDialect[])("health on %s", (dialect) => {
  let test: TestDatabase | null = null;
  afterEach(async () => {
    await test?.drop().catch(() => undefined);
    test = null;
  });

  it("is healthy on a migrated database: storage, open and migrations pass (200)", async (context) => {
    test = await openTestDatabase(dialect, { poolSize: 2 });
    if (!test) return context.skip();
    await test.migrate();
    const report = await apiOn(test.db, test.prefix).health();
    expect(statusOf(report)).toEqual({ storage: "pass", open: "pass", migrations: "pass" });
    expect(report.checks.find((check) => check.name === "migrations")?.details).toEqual({
      latest: LATEST,
      applied: MIGRATIONS.length,
    });
    expect(healthResponse(report).status).toBe(200);
  });

  it("reports the latest migration as not applied when its row is missing (503)", async (context) => {
    test = await openTestDatabase(dialect, { poolSize: 2 });
    if (!test) return context.skip();
    await test.migrate();
    const { migrationTableName } = hireportMigrationTables({ tablePrefix: test.prefix });
    await test.db.deleteFrom(migrationTableName).where("name", "=", LATEST).execute();
    const report = await apiOn(test.db, test.prefix).health();
    const migrations = report.checks.find((check) => check.name === "migrations");
    expect(migrations?.status).toBe("fail");
    expect(migrations?.error).toBe(`Not applied: ${LATEST}. Run migrateToLatest.`);
    expect(report.ok).toBe(false);
    expect(healthResponse(report).status).toBe(503);
  });

  it("reports a database never migrated: the migration table cannot be read", async (context) => {
    test = await openTestDatabase(dialect, { poolSize: 2 });
    if (!test) return context.skip();
    const report = await apiOn(test.db, test.prefix).health();
    const migrations = report.checks.find((check) => check.name === "migrations");
    expect(migrations?.status).toBe("fail");
    expect(migrations?.error).toMatch(/^The migration table hp_[0-9a-f]{6}_migration cannot be read/);
    expect(report.ok).toBe(false);
  });

  it("is unhealthy once the database connection is closed (503)", async (context) => {
    test = await openTestDatabase(dialect, { poolSize: 2 });
    if (!test) return context.skip();
    await test.migrate();
    // A second instance on the same database, closed under the API: its reads now fail.
    const second = await createDb(dialect, { sqliteFile: test.sqliteFile, poolSize: 1 });
    const api = apiOn(second, test.prefix);
    expect((await api.health()).ok).toBe(true);
    await second.destroy();
    const report = await api.health();
    expect(statusOf(report)).toEqual({ storage: "fail", open: "pass", migrations: "fail" });
    expect(healthResponse(report).status).toBe(503);
  });
});

describe("health on an unreachable Postgres", () => {
  it("fails within the time limit and never shows the connection string's password", async () => {
    const pool = new pg.Pool({
      connectionString: "postgres://app:topsecret@127.0.0.1:1/hireport",
      connectionTimeoutMillis: 1_000,
    });
    pool.on("error", () => undefined);
    const db = new Kysely<Record<string, never>>({ dialect: new PostgresDialect({ pool }) });
    try {
      const api = apiOn(db as unknown as AnyDb, "hireport_");
      const answer = healthResponse(await api.health());
      expect(answer.status).toBe(503);
      const body = String(answer.body);
      expect(body).not.toContain("topsecret");
      expect(body).not.toContain("postgres://");
      expect(JSON.parse(body).checks[0]).toMatchObject({ name: "storage", status: "fail" });
    } finally {
      await db.destroy();
    }
  });
});
