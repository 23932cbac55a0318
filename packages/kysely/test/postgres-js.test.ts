/**
 * hireport on the connection a product made with postgres-js (the driver Drizzle's Postgres
 * examples use), through Kysely's `kysely-postgres-js` dialect: the migrations, the storage,
 * webhook-store and declared-domain conformance suites, and the API answering a request, with no
 * `pg` pool anywhere.
 */
import { createPublicApi } from "@hireport/core";
import { runDomainConformance, runStorageConformance } from "@hireport/core/testing";
import { runWebhookStoreConformance } from "@hireport/webhooks/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { declaredDomain, kyselyStorage, migrateToLatest } from "../src/index";
import { kyselyConformanceInspector } from "../src/testing";
import { kyselyWebhookStorage } from "../src/webhooks";
import { type AnyDb, connectOrSkip, dropTables, randomPrefix, sqliteFileFor } from "./helpers/databases";
import { createProductTables, dropProductTables, inlineDeclaration } from "./helpers/product-tables";

/** A Kysely instance on a postgres-js client, as a product makes it; null when Postgres is skipped (loudly; never in CI). */
async function openPostgresJs(): Promise<{ db: AnyDb; close(): Promise<void> } | null> {
  const db = await connectOrSkip("postgres", { sqliteFile: sqliteFileFor("unused"), postgresJs: true });
  return db && { db, close: () => db.destroy() };
}

/** Migrates a new prefix on a new postgres-js client. */
async function setupOn<S>(make: (options: { db: AnyDb; tablePrefix: string }) => S) {
  const opened = await openPostgresJs();
  if (!opened) throw new Error("postgres is not reachable");
  const prefix = randomPrefix();
  const result = await migrateToLatest(opened.db, { tablePrefix: prefix });
  if (result.error) throw result.error;
  return {
    storage: make({ db: opened.db, tablePrefix: prefix }),
    inspect: kyselyConformanceInspector({ db: opened.db, tablePrefix: prefix }),
    async teardown() {
      await dropTables(opened.db, prefix);
      await opened.close();
    },
  };
}

runStorageConformance({
  name: "kysely on postgres-js",
  setup: () => setupOn(kyselyStorage),
});

runWebhookStoreConformance({
  name: "kysely on postgres-js",
  setup: () => setupOn(kyselyWebhookStorage),
});

runDomainConformance({
  name: "declared tables on postgres-js",
  async setup() {
    const opened = await openPostgresJs();
    if (!opened) throw new Error("postgres is not reachable");
    const prefix = randomPrefix();
    const result = await migrateToLatest(opened.db, { tablePrefix: prefix });
    if (result.error) throw result.error;
    await createProductTables(opened.db, "postgres", prefix);
    const domain = declaredDomain(inlineDeclaration(prefix));
    return {
      storage: kyselyStorage({ db: opened.db, tablePrefix: prefix, domain }),
      inspect: kyselyConformanceInspector({ db: opened.db, tablePrefix: prefix, domain }),
      async teardown() {
        await dropProductTables(opened.db, prefix);
        await dropTables(opened.db, prefix);
        await opened.close();
      },
    };
  },
});

describe("the API on postgres-js", () => {
  let opened: Awaited<ReturnType<typeof openPostgresJs>> = null;
  const prefix = randomPrefix();

  beforeAll(async () => {
    opened = await openPostgresJs();
    if (!opened) return;
    const result = await migrateToLatest(opened.db, { tablePrefix: prefix });
    if (result.error) throw result.error;
  });
  afterAll(async () => {
    if (!opened) return;
    await dropTables(opened.db, prefix);
    await opened.close();
  });

  it("answers with a key, creates a job and lists it", async (context) => {
    if (!opened) return context.skip();
    const api = createPublicApi({
      storage: kyselyStorage({ db: opened.db, tablePrefix: prefix }),
      publicBaseUrl: "https://jobs.example.com",
      fileTokenSecret: "x".repeat(32),
    });
    try {
      const companyId = `co_pgjs_${prefix}`;
      await api.companies.upsert({ id: companyId, name: "Postgres-js Ltd" });
      const { key } = await api.keys.create({ companyId, name: "ci", scopes: ["jobs:write"] });
      const call = (method: string, path: string, body?: unknown) =>
        api.handle({
          method,
          path,
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          ...(body === undefined ? {} : { body }),
        });
      const created = await call("POST", "/jobs", { title: "Driver", status: "active" });
      expect(created.status).toBe(201);
      const listed = await call("GET", "/jobs");
      expect(listed.status).toBe(200);
      const text = typeof listed.body === "string" ? listed.body : new TextDecoder().decode(listed.body as Uint8Array);
      const page = JSON.parse(text) as { data: Array<{ title: string }> };
      expect(page.data.map((job) => job.title)).toEqual(["Driver"]);
      const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(`${prefix}event`)}
        where company_id = ${companyId}`.execute(opened.db);
      expect(Number(rows[0]?.n)).toBe(1);
    } finally {
      await api.close();
    }
  });
});
