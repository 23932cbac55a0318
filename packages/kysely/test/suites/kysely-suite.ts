/**
 * The tests of @hireport/kysely that go beyond the conformance suite of @hireport/core: migrations,
 * raw-SQL checks of what is stored, keyset paging and its query counts, and the races of the
 * storage contract with several connections (and two OS processes) at once.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { RateLimitBucket, Storage } from "@hireport/core";
import { createPublicApi } from "@hireport/core";
import { runStorageConformance } from "@hireport/core/testing";
import { type CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHireportMigrator, kyselyStorage, migrateToLatest, migrationSql } from "../../src/index";
import {
  type AnyDb,
  connectOrSkip,
  createDb,
  dropTables,
  randomPrefix,
  removeSqliteFile,
  sqliteFileFor,
  type TestDialect,
} from "../helpers/databases";
import { rawReads } from "../helpers/inspector";
import * as make from "../helpers/records";
import { defineHttpTests } from "./http-suite";
import { definePlanTests } from "./plan-tests";

/** The process time zone of every dialect test: far from UTC, with daylight saving time. */
export const TEST_TIME_ZONE = "America/New_York";

const WORKER = fileURLToPath(new URL("../fixtures/rate-limit-worker.ts", import.meta.url));

export async function defineKyselySuite(dialect: TestDialect): Promise<void> {
  process.env.TZ = TEST_TIME_ZONE;
  const prefix = randomPrefix();
  const sqliteFile = sqliteFileFor(prefix);
  const queries: CompiledQuery[] = [];
  const db = await connectOrSkip(dialect, { sqliteFile, onQuery: (event) => queries.push(event.query) });
  const t = (name: string) => `${prefix}${name}`;

  describe.skipIf(!db)(`@hireport/core conformance on ${dialect}`, () => {
    // Its own tables: the suite's claims and purges see the whole database.
    const conformancePrefix = randomPrefix();
    runStorageConformance({
      name: `kysely on ${dialect}`,
      async setup() {
        const conformanceDb = db as AnyDb;
        const result = await migrateToLatest(conformanceDb, { tablePrefix: conformancePrefix });
        if (result.error) throw result.error;
        return {
          storage: kyselyStorage({ db: conformanceDb, tablePrefix: conformancePrefix }),
          inspect: rawReads(conformanceDb, conformancePrefix),
          teardown: () => dropTables(conformanceDb, conformancePrefix),
        };
      },
    });
  });

  describe.skipIf(!db)(`@hireport/kysely on ${dialect}`, () => {
    const database = db as AnyDb;
    let storage: Storage;
    /** Storages on their own Kysely instances (own pools) for the races; SQLite shares one connection. */
    let racers: Storage[] = [];
    const extra: AnyDb[] = [];

    beforeAll(async () => {
      const result = await migrateToLatest(database, { tablePrefix: prefix });
      expect(result.error).toBeUndefined();
      storage = kyselyStorage({ db: database, tablePrefix: prefix });
      if (dialect === "sqlite") {
        racers = [storage, storage, storage];
      } else {
        for (let i = 0; i < 3; i += 1) extra.push(await createDb(dialect, { sqliteFile, poolSize: 8 }));
        racers = extra.map((other) => kyselyStorage({ db: other, tablePrefix: prefix }));
      }
    });

    afterAll(async () => {
      for (const other of extra) await other.destroy();
      await dropTables(database, prefix);
      await database.destroy();
      if (dialect === "sqlite") removeSqliteFile(sqliteFile);
    });

    const countQueries = async (fn: () => Promise<unknown>): Promise<CompiledQuery[]> => {
      const start = queries.length;
      await fn();
      return queries.slice(start);
    };

    describe("migrations", () => {
      it("migrates an empty database, then migrating again is a no-op", async () => {
        const tables = await database.introspection.getTables();
        const ours = tables.map((table) => table.name).filter((name) => name.startsWith(prefix));
        expect(ours).toEqual(expect.arrayContaining([t("job"), t("application"), t("migration"), t("migration_lock")]));
        const again = await migrateToLatest(database, { tablePrefix: prefix });
        expect(again.error).toBeUndefined();
        expect(again.results).toEqual([]);
        const applied = await sql<{ name: string }>`select name from ${sql.table(t("migration"))}`.execute(database);
        expect(applied.rows.map((row) => row.name)).toEqual([
          "2026-11-21-0001-initial",
          "2026-11-23-0002-count-requests",
          "2026-11-23-0003-create-application",
        ]);
      });

      it.skipIf(dialect !== "postgres")(
        "0002 and 0003 make their functions under a quoted prefix; without each, a call names the missing migration",
        async () => {
          const other = `Hr_${randomPrefix()}`;
          const exists = async (name: string) =>
            (await sql<{ found: string | null }>`select to_regproc(${`"${other}${name}"`}) as found`.execute(database))
              .rows[0]?.found ?? null;
          const buckets = (key: string): RateLimitBucket[] => [
            { key: `${key}:m`, limit: 2, resetAt: new Date(Date.now() + 60_000) },
          ];
          try {
            const result = await migrateToLatest(database, { tablePrefix: other });
            expect(result.error).toBeUndefined();
            expect(await exists("count_requests")).not.toBeNull();
            expect(await exists("create_application")).not.toBeNull();
            const mixed = kyselyStorage({ db: database, tablePrefix: other });
            const now = new Date();
            const counts = [];
            for (let i = 0; i < 3; i++) counts.push(await mixed.rateLimits.consume(buckets("k"), now));
            expect(counts.map((c) => c.allowed)).toEqual([true, true, false]);
            expect(counts.map((c) => c.counts[0])).toEqual([1, 2, 2]);
            const co = make.company();
            await mixed.companies.upsert(co);
            const job = make.job(co.id, { title: "Welder" });
            await mixed.jobs.insert(job);
            const first = make.insertWithEvent(co.id, job.id, "Welder");
            expect(await mixed.applications.insertWithEvent?.(first)).toEqual({ outcome: "inserted" });
            expect((await mixed.applications.get(co.id, first.record.id))?.jobTitle).toBe("Welder");

            const migrator = createHireportMigrator(database, { tablePrefix: other });
            const down = await migrator.migrateDown();
            expect(down.error).toBeUndefined();
            expect(down.results?.map((r) => r.migrationName)).toEqual(["2026-11-23-0003-create-application"]);
            expect(await exists("create_application")).toBeNull();
            await expect(
              mixed.applications.insertWithEvent?.(make.insertWithEvent(co.id, job.id, "Welder")),
            ).rejects.toThrow(/run hireport's migrations .*2026-11-23-0003-create-application/);
            const down2 = await migrator.migrateDown();
            expect(down2.results?.map((r) => r.migrationName)).toEqual(["2026-11-23-0002-count-requests"]);
            expect(await exists("count_requests")).toBeNull();
            await expect(mixed.rateLimits.consume(buckets("j"), now)).rejects.toThrow(
              /run hireport's migrations .*2026-11-23-0002-count-requests/,
            );
          } finally {
            await dropTables(database, other);
          }
        },
      );

      it("returns a failed migration as a result instead of throwing", async () => {
        const other = randomPrefix();
        await sql`create table ${sql.table(`${other}company`)} (x integer)`.execute(database);
        try {
          const result = await migrateToLatest(database, { tablePrefix: other });
          expect(result.error).toBeInstanceOf(Error);
          expect(result.results?.[0]?.status).toBe("Error");
        } finally {
          await dropTables(database, other);
        }
      });

      it("tries a run again when it failed before any migration ran (kysely-org/kysely#1313)", async () => {
        const other = randomPrefix();
        let failures = 0;
        // The first query of the run fails, as the table list does on Postgres when another table
        // is dropped at that moment: nothing was applied, so the run is tried again and succeeds.
        const flaky = database.withPlugin({
          transformQuery(args) {
            if (failures === 0) {
              failures++;
              throw new Error('relation "public.x_stage_change" does not exist');
            }
            return args.node;
          },
          transformResult: async (args) => args.result,
        });
        try {
          const result = await migrateToLatest(flaky, { tablePrefix: other });
          expect(failures).toBe(1);
          expect(result.error).toBeUndefined();
          expect(result.results?.map((r) => r.status)).toEqual(["Success", "Success", "Success"]);
        } finally {
          await dropTables(database, other);
        }
      });

      it("prints the SQL of the migrations for review", async () => {
        const text = await migrationSql(dialect, { tablePrefix: prefix });
        expect(text).toMatch(/create table/i);
        expect(text).toContain(`${prefix}webhook_delivery`);
        expect(text.length).toBeGreaterThan(1000);
        const down = await migrationSql(dialect, { tablePrefix: prefix, direction: "down" });
        for (const fn of ["count_requests", "create_application"]) {
          if (dialect === "postgres") {
            expect(text).toContain(`create or replace function "${prefix}${fn}"(`);
            expect(down).toContain(`drop function if exists "${prefix}${fn}"(`);
          } else {
            expect(text).not.toContain(fn);
          }
        }
      });
    });

    describe("round trips, checked with raw SQL", () => {
      it("stores dates in UTC to the millisecond, also in a non-UTC process time zone", async () => {
        expect(new Date(2026, 2, 8, 12).getTimezoneOffset()).not.toBe(0);
        const co = make.company();
        await storage.companies.upsert(co);
        // 02:30 UTC on the day New York skips 02:00-03:00 local: a local-time reading would drift.
        const tricky = new Date("2026-03-08T02:30:00.789Z");
        const record = make.job(co.id, { createdAt: tricky, updatedAt: new Date("2026-11-01T06:30:00.001Z") });
        await storage.jobs.insert(record);
        const back = await storage.jobs.get(co.id, record.id);
        expect(back?.createdAt.toISOString()).toBe("2026-03-08T02:30:00.789Z");
        expect(back?.updatedAt.toISOString()).toBe("2026-11-01T06:30:00.001Z");
        const expr =
          dialect === "postgres"
            ? sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS')`
            : dialect === "mysql"
              ? sql<string>`cast(created_at as char)`
              : sql<string>`created_at`;
        const raw = await sql<{
          v: string;
        }>`select ${expr} as v from ${sql.table(t("job"))} where id = ${record.id}`.execute(database);
        expect(String(raw.rows[0]?.v)).toBe(
          dialect === "sqlite" ? "2026-03-08T02:30:00.789Z" : "2026-03-08 02:30:00.789",
        );
      });

      it("round-trips every job field and JSON arrays exactly (order, duplicates, non-ASCII)", async () => {
        const co = make.company();
        await storage.companies.upsert(co);
        const record = make.job(co.id, { hidden: true, closedAt: new Date("2026-04-01T00:00:00.999Z") });
        await storage.jobs.insert(record);
        expect(await storage.jobs.get(co.id, record.id)).toEqual(record);
        expect(await storage.jobs.get("other-company", record.id)).toBeNull();
        const raw = await sql<{
          s: string;
        }>`select required_skills as s from ${sql.table(t("job"))} where id = ${record.id}`.execute(database);
        expect(JSON.parse(String(raw.rows[0]?.s))).toEqual([
          "TypeScript",
          "SQL",
          "SQL",
          "Zürich-ß",
          "日本語",
          "emoji 🚀",
        ]);
      });

      it("updates only the patched columns and returns the whole job", async () => {
        const co = make.company();
        await storage.companies.upsert(co);
        const record = make.job(co.id);
        await storage.jobs.insert(record);
        const at = new Date("2026-05-05T05:05:05.505Z");
        const updated = await storage.jobs.update(co.id, record.id, {
          title: "Ñew",
          requiredSkills: [],
          updatedAt: at,
        });
        expect(updated).toEqual({ ...record, title: "Ñew", requiredSkills: [], updatedAt: at });
        expect(await storage.jobs.update("nope", record.id, { title: "x", updatedAt: at })).toBeNull();
        expect(await storage.jobs.update(co.id, "missing", { title: "x", updatedAt: at })).toBeNull();
      });

      it("keeps a company's createdAt on upsert and hands out sequence numbers per company and kind", async () => {
        const co = make.company();
        await storage.companies.upsert(co);
        const renamed = await storage.companies.upsert({ ...co, name: "Renamed", createdAt: new Date() });
        expect(renamed).toEqual({ ...co, name: "Renamed" });
        expect(await storage.companies.nextSequence(co.id, "job")).toBe(1);
        expect(await storage.companies.nextSequence(co.id, "job")).toBe(2);
        expect(await storage.companies.nextSequence(co.id, "application")).toBe(1);
      });

      it("finds a key by hash with its company in one query, and revokes once", async () => {
        const co = make.company({ name: "Kéy Co" });
        await storage.companies.upsert(co);
        const key = make.apiKey(co.id, { expiresAt: new Date("2027-01-01T00:00:00.250Z") });
        expect(await storage.keys.insert(key, { maxActive: 10, now: new Date() })).toBe("inserted");
        const found = await countQueries(async () => {
          expect(await storage.keys.findByHash(key.hash)).toEqual({ key, company: co });
        });
        expect(found).toHaveLength(1);
        const first = await storage.keys.revoke(co.id, key.id, new Date("2026-06-01T00:00:00.001Z"));
        const second = await storage.keys.revoke(co.id, key.id, new Date("2026-07-01T00:00:00.001Z"));
        expect(first?.revokedAt?.toISOString()).toBe("2026-06-01T00:00:00.001Z");
        expect(second?.revokedAt?.toISOString()).toBe("2026-06-01T00:00:00.001Z");
        expect(await storage.keys.revoke("other", key.id, new Date())).toBeNull();
      });

      it("round-trips an application with its job's title joined, notes and stage history in order", async () => {
        const co = make.company();
        await storage.companies.upsert(co);
        const jobRecord = make.job(co.id, { title: "Chef de partie" });
        await storage.jobs.insert(jobRecord);
        const app = make.application(co.id, jobRecord.id);
        expect(await storage.applications.insertUnlessDuplicate(app, { duplicateSince: new Date(0) })).toMatchObject({
          inserted: true,
        });
        expect(await storage.applications.get(co.id, app.id)).toEqual({ ...app, jobTitle: "Chef de partie" });
        await storage.jobs.update(co.id, jobRecord.id, { title: "Sous-chef", updatedAt: new Date() });
        expect((await storage.applications.get(co.id, app.id))?.jobTitle).toBe("Sous-chef");
        const at = new Date("2026-03-03T00:00:00.000Z");
        const actor = { type: "api_key" as const, id: "key_1", name: "Zapier" };
        for (const [i, toStage] of (["reviewed", "interview", "hired"] as const).entries()) {
          await storage.applications.addStageChange({
            id: make.id(`sc${i}`),
            applicationId: app.id,
            companyId: co.id,
            fromStage: i === 0 ? "new" : "reviewed",
            toStage,
            actor,
            createdAt: at,
          });
          await storage.applications.addNote({
            id: make.id("n"),
            applicationId: app.id,
            companyId: co.id,
            body: `n${i}`,
            actor,
            createdAt: at,
          });
        }
        const history = await storage.applications.listStageChanges(co.id, app.id);
        expect(history.map((change) => change.toStage)).toEqual(["reviewed", "interview", "hired"]);
        expect(history[0]?.actor).toEqual(actor);
        expect((await storage.applications.listNotes(co.id, app.id)).map((note) => note.body)).toEqual([
          "n0",
          "n1",
          "n2",
        ]);
        expect(await storage.applications.listNotes("other", app.id)).toEqual([]);
        const patched = await storage.applications.update(co.id, app.id, {
          stage: "hired",
          tags: ["b", "a", "b"],
          starred: true,
          updatedAt: at,
        });
        expect(patched).toMatchObject({ stage: "hired", tags: ["b", "a", "b"], starred: true, overallScore: null });
      });

      it("refuses a duplicate by the normalized e-mail within the window only", async () => {
        const co = make.company();
        await storage.companies.upsert(co);
        const jobRecord = make.job(co.id);
        await storage.jobs.insert(jobRecord);
        const first = make.application(co.id, jobRecord.id, {
          emailNormalized: "ada@example.com",
          appliedAt: new Date("2026-01-01T00:00:00.000Z"),
        });
        await storage.applications.insertUnlessDuplicate(first, { duplicateSince: new Date(0) });
        const again = make.application(co.id, jobRecord.id, { emailNormalized: "ada@example.com" });
        expect(
          await storage.applications.insertUnlessDuplicate(again, { duplicateSince: new Date("2025-12-31T00:00:00Z") }),
        ).toEqual({ inserted: false, existingId: first.id });
        expect(
          await storage.applications.insertUnlessDuplicate(again, {
            duplicateSince: new Date("2026-01-01T00:00:00.001Z"),
          }),
        ).toMatchObject({ inserted: true });
        expect((await storage.jobs.get(co.id, jobRecord.id))?.applicationsCount).toBe(2);
      });
    });

    describe("keyset paging", () => {
      it("pages jobs newest first with ties broken by id, with status and updated_since filters, one query a page", async () => {
        const co = make.company();
        await storage.companies.upsert(co);
        const same = new Date("2026-02-01T00:00:00.500Z");
        const jobs = Array.from({ length: 9 }, (_, i) =>
          make.job(co.id, {
            id: `job_${String.fromCharCode(97 + i)}`.padEnd(8, "x") + co.id,
            createdAt: i < 4 ? same : new Date(same.getTime() + i * 1000),
            updatedAt: new Date(Date.UTC(2026, 5, i + 1)),
            status: i % 3 === 0 ? "closed" : "active",
          }),
        );
        for (const record of jobs) await storage.jobs.insert(record);
        const expected = [...jobs].sort(
          (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1),
        );
        const seen: string[] = [];
        let after: { at: Date; id: string } | undefined;
        for (;;) {
          let page: Awaited<ReturnType<typeof storage.jobs.list>> = [];
          const used = await countQueries(async () => {
            page = await storage.jobs.list({ companyId: co.id, after, take: 2 });
          });
          expect(used).toHaveLength(1);
          expect(used[0]?.sql.toLowerCase()).not.toContain("offset");
          seen.push(...page.map((row) => row.id));
          const last = page.at(-1);
          if (page.length < 2 || !last) break;
          after = { at: last.createdAt, id: last.id };
        }
        expect(seen).toEqual(expected.map((row) => row.id));
        const closed = await storage.jobs.list({ companyId: co.id, statuses: ["closed"], take: 100 });
        expect(closed.map((row) => row.id)).toEqual(
          expected.filter((row) => row.status === "closed").map((row) => row.id),
        );
        const recent = await storage.jobs.list({
          companyId: co.id,
          statuses: ["active", "closed"],
          updatedSince: new Date(Date.UTC(2026, 5, 7)),
          take: 100,
        });
        expect(recent.map((row) => row.id).sort()).toEqual(
          jobs
            .slice(6)
            .map((row) => row.id)
            .sort(),
        );
      });

      it("pages applications with job_id, stage and updated_since filters, job titles joined, in one query", async () => {
        const co = make.company();
        await storage.companies.upsert(co);
        const jobA = make.job(co.id, { title: "A" });
        const jobB = make.job(co.id, { title: "B" });
        await storage.jobs.insert(jobA);
        await storage.jobs.insert(jobB);
        const apps = Array.from({ length: 120 }, (_, i) =>
          make.application(co.id, i % 2 ? jobA.id : jobB.id, {
            appliedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 3))),
            updatedAt: new Date(Date.UTC(2026, 0, 2, 0, 0, i)),
            stage: i % 4 === 0 ? "interview" : "new",
          }),
        );
        for (const app of apps) await storage.applications.insertUnlessDuplicate(app, { duplicateSince: new Date(0) });
        const order = (a: { appliedAt: Date; id: string }, b: { appliedAt: Date; id: string }) =>
          b.appliedAt.getTime() - a.appliedAt.getTime() || (a.id < b.id ? 1 : -1);
        let page: Awaited<ReturnType<typeof storage.applications.list>> = [];
        const used = await countQueries(async () => {
          page = await storage.applications.list({ companyId: co.id, take: 101 });
        });
        expect(used).toHaveLength(1);
        expect(page.map((row) => row.id)).toEqual(
          [...apps]
            .sort(order)
            .slice(0, 101)
            .map((row) => row.id),
        );
        expect(page.every((row) => row.jobTitle === (row.jobId === jobA.id ? "A" : "B"))).toBe(true);
        const last = page[49] as (typeof page)[number];
        const next = await storage.applications.list({
          companyId: co.id,
          jobId: jobA.id,
          stage: "new",
          after: { at: last.appliedAt, id: last.id },
          take: 100,
        });
        const expected = [...apps]
          .sort(order)
          .filter((row) => row.jobId === jobA.id && row.stage === "new" && order(row, last) > 0);
        expect(next.map((row) => row.id)).toEqual(expected.map((row) => row.id));
        const since = await storage.applications.list({
          companyId: co.id,
          stage: "interview",
          updatedSince: new Date(Date.UTC(2026, 0, 2, 0, 0, 100)),
          take: 100,
        });
        expect(since.map((row) => row.id).sort()).toEqual(
          apps
            .filter((_, i) => i >= 100 && i % 4 === 0)
            .map((row) => row.id)
            .sort(),
        );
      });

      it("inserts an application with its first stage change in as few statements as the dialect allows", async () => {
        const co = make.company();
        await storage.companies.upsert(co);
        const job = make.job(co.id, { title: "Welder" });
        await storage.jobs.insert(job);
        const app = make.application(co.id, job.id);
        const initialStageChange = {
          id: make.id("stg"),
          applicationId: app.id,
          companyId: co.id,
          fromStage: null,
          toStage: "new" as const,
          actor: { type: "host" as const, id: null, name: "Careers page" },
          createdAt: app.appliedAt,
        };
        let result: Awaited<ReturnType<typeof storage.applications.insertUnlessDuplicate>> | undefined;
        const used = await countQueries(async () => {
          result = await storage.applications.insertUnlessDuplicate(app, {
            duplicateSince: new Date(0),
            initialStageChange,
          });
        });
        const statements = used.filter((query) => !/^(begin|commit|start transaction)/i.test(query.sql.trim()));
        if (dialect === "postgres") {
          // The job's row lock, then the duplicate check, the insert and the history in one statement.
          expect(result).toEqual({ inserted: true, jobTitle: "Welder", stageChangeStored: true });
          expect(statements).toHaveLength(2);
          expect(await storage.applications.listStageChanges(co.id, app.id)).toEqual([initialStageChange]);
        } else {
          expect(result?.inserted && result.stageChangeStored).toBeFalsy();
          expect(await storage.applications.listStageChanges(co.id, app.id)).toEqual([]);
        }
      });

      it("writes a new application with its history, event and deliveries in one statement on Postgres, without BEGIN or COMMIT", async () => {
        if (dialect !== "postgres") {
          expect(storage.applications.insertWithEvent).toBeUndefined();
          return;
        }
        const co = make.company();
        await storage.companies.upsert(co);
        const job = make.job(co.id, { title: "Welder" });
        await storage.jobs.insert(job);
        const endpoints = [make.endpoint(co.id, { events: ["application.created"] }), make.endpoint(co.id)];
        for (const endpoint of endpoints) await storage.webhooks.insertEndpoint(endpoint);
        const input = make.insertWithEvent(co.id, job.id, "Welder");
        const event = input.event;
        const used = await countQueries(async () => {
          expect(await storage.applications.insertWithEvent?.(input)).toEqual({ outcome: "inserted" });
        });
        expect(used.map((query) => query.sql.trim().split(/\s+/).slice(0, 3).join(" "))).toEqual([
          "select outcome, existing_id",
        ]);
        const deliveries = await sql<{ id: string; endpoint_id: string }>`select id, endpoint_id from ${sql.table(
          t("webhook_delivery"),
        )} where event_id = ${event.id}`.execute(database);
        // Two endpoints subscribed (make.endpoint's default events include application.created).
        expect(deliveries.rows.map((row) => row.endpoint_id).sort()).toEqual(endpoints.map((e) => e.id).sort());
        for (const row of deliveries.rows) {
          // dlv_, the event id's time characters, 16 random ones: the shape of core's newId.
          expect(row.id).toMatch(new RegExp(`^dlv_${event.id.slice(4, 14)}[0-9a-hjkmnp-tv-z]{16}$`));
        }
        for (const endpoint of endpoints) await storage.webhooks.deleteEndpoint(co.id, endpoint.id);
      });

      it("writes a usage batch in one statement and pages it by key", async () => {
        const co = make.company();
        const entries = Array.from({ length: 150 }, (_, i) => ({
          id: make.id("use"),
          companyId: co.id,
          keyId: i % 2 ? "key_odd" : "key_even",
          method: "GET",
          route: "/jobs/{id}",
          status: 200,
          durationMs: 1.25,
          requestId: `req_${i}`,
          ip: i % 5 ? "203.0.113.9" : null,
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
        }));
        const used = await countQueries(() => storage.usage.appendMany(entries));
        expect(used).toHaveLength(1);
        const page = await storage.usage.list({ companyId: co.id, keyId: "key_odd", take: 10 });
        expect(page[0]).toEqual(entries[149]);
        const older = await storage.usage.list({
          companyId: co.id,
          after: { at: entries[10]?.createdAt as Date, id: entries[10]?.id as string },
          since: new Date(Date.UTC(2026, 0, 1, 0, 0, 5)),
          take: 100,
        });
        expect(older.map((row) => row.requestId)).toEqual(["req_9", "req_8", "req_7", "req_6", "req_5"]);
        expect(await storage.usage.purge(new Date(Date.UTC(2026, 0, 1, 0, 1)))).toBe(60);
      });
    });

    describe("transactions and the outbox", () => {
      it("rolls back a change and its event together when the transaction fails between them", async () => {
        const co = make.company();
        await storage.companies.upsert(co);
        const record = make.job(co.id);
        const ev = make.event(co.id);
        const boom = new Error("killed between the change and its event");
        await expect(
          storage.transaction(async (tx) => {
            await tx.jobs.insert(record);
            throw boom;
          }),
        ).rejects.toBe(boom);
        await expect(
          storage.transaction(async (tx) => {
            await tx.jobs.insert(record);
            await tx.events.append(ev);
            throw boom;
          }),
        ).rejects.toBe(boom);
        const jobs = await sql`select id from ${sql.table(t("job"))} where id = ${record.id}`.execute(database);
        const events = await sql`select id from ${sql.table(t("event"))} where id = ${ev.id}`.execute(database);
        expect(jobs.rows).toEqual([]);
        expect(events.rows).toEqual([]);
        await storage.transaction(async (tx) => {
          await tx.jobs.insert(record);
          await tx.events.append(ev);
        });
        expect(await storage.jobs.get(co.id, record.id)).not.toBeNull();
        expect(await storage.events.get(ev.id)).toEqual(ev);
      });

      it.runIf(dialect !== "sqlite")(
        "rolls back when the connection dies between the change and its event",
        async () => {
          const name = `hireport-kill-${prefix}`;
          const victimDb = await createDb(dialect, { sqliteFile, poolSize: 1, applicationName: name });
          const victim = kyselyStorage({ db: victimDb, tablePrefix: prefix });
          // MySQL: the pool has one connection, the one the transaction will run on.
          const mysqlId =
            dialect === "mysql"
              ? Number((await sql<{ id: number }>`select connection_id() as id`.execute(victimDb)).rows[0]?.id)
              : 0;
          const co = make.company();
          await storage.companies.upsert(co);
          const record = make.job(co.id);
          const ev = make.event(co.id);
          try {
            await expect(
              victim.transaction(async (tx) => {
                await tx.jobs.insert(record);
                if (dialect === "postgres") {
                  const killed = await sql<{ ok: boolean }>`select pg_terminate_backend(pid) as ok from pg_stat_activity
                    where application_name = ${name} and state = 'idle in transaction'`.execute(database);
                  expect(killed.rows).toHaveLength(1);
                } else {
                  await sql`kill ${sql.raw(String(mysqlId))}`.execute(database);
                }
                await tx.events.append(ev);
              }),
            ).rejects.toThrow();
          } finally {
            await victimDb.destroy().catch(() => undefined);
          }
          const jobs = await sql`select id from ${sql.table(t("job"))} where id = ${record.id}`.execute(database);
          const events = await sql`select id from ${sql.table(t("event"))} where id = ${ev.id}`.execute(database);
          expect(jobs.rows).toEqual([]);
          expect(events.rows).toEqual([]);
        },
      );
    });

    describe("races with several connections", () => {
      it("inserts exactly one of several identical applications sent at once", async () => {
        const co = make.company();
        await storage.companies.upsert(co);
        const jobRecord = make.job(co.id);
        await storage.jobs.insert(jobRecord);
        const results = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            (racers[i % racers.length] as Storage).transaction(async (tx) => {
              await tx.jobs.get(co.id, jobRecord.id); // a read first, as the service does
              return tx.applications.insertUnlessDuplicate(
                make.application(co.id, jobRecord.id, { emailNormalized: "same@example.com" }),
                { duplicateSince: new Date(0) },
              );
            }),
          ),
        );
        expect(results.filter((result) => result.inserted)).toHaveLength(1);
        const rows = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(t("application"))}
          where job_id = ${jobRecord.id}`.execute(database);
        expect(Number(rows.rows[0]?.n)).toBe(1);
        expect((await storage.jobs.get(co.id, jobRecord.id))?.applicationsCount).toBe(1);
      });

      it("keeps applications_count exact after parallel creates", async () => {
        const co = make.company();
        await storage.companies.upsert(co);
        const jobRecord = make.job(co.id);
        await storage.jobs.insert(jobRecord);
        await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            (racers[i % racers.length] as Storage).applications.insertUnlessDuplicate(
              make.application(co.id, jobRecord.id),
              {
                duplicateSince: new Date(0),
              },
            ),
          ),
        );
        const raw = await sql<{ n: number | string }>`select applications_count as n from ${sql.table(t("job"))}
          where id = ${jobRecord.id}`.execute(database);
        expect(Number(raw.rows[0]?.n)).toBe(30);
      });

      it("admits exactly the limit of parallel rate-limit calls, and a refused call counts nothing", async () => {
        const key = make.id("rl");
        const now = new Date();
        const buckets: RateLimitBucket[] = [
          { key: `${key}:minute`, limit: 10, resetAt: new Date(now.getTime() + 60_000) },
          { key: `${key}:day`, limit: 1000, resetAt: new Date(now.getTime() + 86_400_000) },
        ];
        const results = await Promise.all(
          Array.from({ length: 40 }, (_, i) => (racers[i % racers.length] as Storage).rateLimits.consume(buckets, now)),
        );
        expect(results.filter((result) => result.allowed)).toHaveLength(10);
        expect(results.filter((result) => !result.allowed).every((result) => result.refusedBucket === 0)).toBe(true);
        const rows = await sql<{ k: string; n: number | string }>`select bucket_key as k, hits as n
          from ${sql.table(t("rate_limit"))} where bucket_key like ${`${key}%`} order by bucket_key`.execute(database);
        expect(rows.rows.map((row) => [row.k, Number(row.n)])).toEqual([
          [`${key}:day`, 10],
          [`${key}:minute`, 10],
        ]);
        const refused = await storage.rateLimits.consume(buckets, now);
        expect(refused).toEqual({ allowed: false, counts: [10, 10], refusedBucket: 0 });
        const allowedOnce = await storage.rateLimits.consume(
          [{ key: `${key}:other`, limit: 3, resetAt: buckets[0]?.resetAt as Date }, buckets[1] as RateLimitBucket],
          now,
        );
        expect(allowedOnce).toEqual({ allowed: true, counts: [1, 11], refusedBucket: null });
        expect(await storage.rateLimits.purgeExpired(new Date(now.getTime() + 61_000))).toBe(2);
      });

      it.runIf(dialect === "postgres")(
        "commits the rate-limit statement with synchronous_commit off without leaking it into the session",
        async () => {
          const single = await createDb("postgres", { sqliteFile, poolSize: 1 });
          try {
            const seen: CompiledQuery[] = [];
            const logged = await createDb("postgres", {
              sqliteFile,
              poolSize: 1,
              onQuery: (e) => seen.push(e.query),
            });
            const bucket = { key: make.id("sc"), limit: 5, resetAt: new Date(Date.now() + 60_000) };
            // The last argument of count_requests: relax this statement's commit.
            const relaxed = (query: CompiledQuery) => query.sql.includes("count_requests") && query.parameters.at(-1);
            await kyselyStorage({ db: logged, tablePrefix: prefix }).rateLimits.consume([bucket], new Date());
            const before = seen.filter(relaxed).length;
            expect(before).toBeGreaterThan(0);
            await kyselyStorage({ db: logged, tablePrefix: prefix, durableRateLimits: true }).rateLimits.consume(
              [bucket],
              new Date(),
            );
            expect(seen.filter(relaxed)).toHaveLength(before);
            expect(seen.filter((query) => query.sql.includes("count_requests"))).toHaveLength(before + 1);
            // What the argument does: synchronous_commit off until the statement's transaction ends.
            for (const relax of [true, false]) {
              const inside = await logged.transaction().execute(async (trx) => {
                await sql`select * from ${sql.id(t("count_requests"))}('x', array[':none'], array[1], array[now()], now(), 1, ${relax})`.execute(
                  trx,
                );
                return (await sql<{ s: string }>`select current_setting('synchronous_commit') as s`.execute(trx))
                  .rows[0]?.s;
              });
              expect(inside).toBe(relax ? "off" : "on");
            }
            const setting = await sql<{ s: string }>`select current_setting('synchronous_commit') as s`.execute(logged);
            expect(setting.rows[0]?.s).toBe("on");
            await logged.destroy();
            expect(
              await kyselyStorage({ db: single, tablePrefix: prefix }).rateLimits.consume([bucket], new Date()),
            ).toMatchObject({ allowed: true, counts: [3] });
          } finally {
            await single.destroy();
          }
        },
      );

      it.runIf(dialect === "postgres")(
        "relaxes the commit of counters and numbers only in statements of their own, never inside a caller's transaction",
        async () => {
          const bucket = { key: make.id("sc"), limit: 5, resetAt: new Date(Date.now() + 60_000) };
          const co = make.company();
          await storage.companies.upsert(co);
          // A storage made on a Kysely transaction of the host's: its writes commit with the host's.
          const setting = await database.transaction().execute(async (trx) => {
            const inHostTx = kyselyStorage({ db: trx, tablePrefix: prefix });
            await inHostTx.rateLimits.consume([bucket], new Date());
            await inHostTx.companies.nextSequence(co.id, "job");
            const { rows } = await sql<{ s: string }>`select current_setting('synchronous_commit') as s`.execute(trx);
            return rows[0]?.s;
          });
          expect(setting).toBe("on");
          const seen: string[] = [];
          const logged = await createDb("postgres", {
            sqliteFile,
            poolSize: 1,
            onQuery: (e) => seen.push(e.query.sql),
          });
          try {
            const loggedStorage = kyselyStorage({ db: logged, tablePrefix: prefix });
            expect(await loggedStorage.companies.nextSequence(co.id, "job")).toBe(2);
            expect(seen.at(-1)).toContain("set_config('synchronous_commit', 'off', true)");
            await loggedStorage.transaction((tx) => tx.companies.nextSequence(co.id, "job"));
            expect(seen.filter((text) => text.includes("set_config"))).toHaveLength(1);
          } finally {
            await logged.destroy();
          }
        },
      );

      /** Runs the worker in its own OS process and returns how many of its calls were admitted. */
      const worker = (args: string[]) =>
        new Promise<number>((resolve, reject) => {
          const child = spawn(process.execPath, ["--import", "tsx", WORKER, dialect, prefix, sqliteFile, ...args], {
            cwd: fileURLToPath(new URL("../..", import.meta.url)),
            stdio: ["ignore", "pipe", "pipe"],
          });
          let out = "";
          let err = "";
          child.stdout.on("data", (chunk) => {
            out += chunk;
          });
          child.stderr.on("data", (chunk) => {
            err += chunk;
          });
          child.on("exit", (code) => {
            if (code !== 0) reject(new Error(`worker exited with ${code}: ${err}`));
            else resolve(JSON.parse(out.trim().split("\n").at(-1) as string).allowed as number);
          });
        });

      it("admits exactly the limit when two OS processes race on one counter", async () => {
        const key = make.id("rl2p");
        const startAt = String(Date.now() + 2500);
        const [a, b] = await Promise.all([worker([key, "25", "20", startAt]), worker([key, "25", "20", startAt])]);
        expect(a + b).toBe(20);
        const rows = await sql<{ n: number | string }>`select hits as n from ${sql.table(t("rate_limit"))}
          where bucket_key = ${key}`.execute(database);
        expect(Number(rows.rows[0]?.n)).toBe(20);
      }, 30_000);

      it("admits exactly the per-minute limit of one key through the API from two OS processes", async () => {
        const api = createPublicApi({
          storage,
          publicBaseUrl: "https://careers.example.com",
          fileTokenSecret: "rate-limit-worker-secret-0123456789abcdef",
        });
        const co = make.company();
        await api.companies.upsert({ id: co.id, name: co.name });
        const { key } = await api.keys.create({ companyId: co.id, name: "Two processes", scopes: ["jobs:read"] });
        const startAt = String(Date.now() + 2500);
        // Both processes on one stopped clock: one minute window (and its first request, which
        // creates the counter rows, races too).
        const clock = String(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
        const [a, b] = await Promise.all([
          worker([key, "60", "45", startAt, "api", clock]),
          worker([key, "60", "45", startAt, "api", clock]),
        ]);
        expect(a + b).toBe(45);
      }, 30_000);

      it("keeps the active-key limit under parallel inserts", async () => {
        const co = make.company();
        await storage.companies.upsert(co);
        const now = new Date();
        const results = await Promise.all(
          Array.from({ length: 16 }, (_, i) =>
            (racers[i % racers.length] as Storage).keys.insert(make.apiKey(co.id), { maxActive: 5, now }),
          ),
        );
        expect(results.filter((result) => result === "inserted")).toHaveLength(5);
        expect(await storage.keys.list(co.id)).toHaveLength(5);
      });

      it("never hands out a sequence number twice", async () => {
        const co = make.company();
        const numbers = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            (racers[i % racers.length] as Storage).companies.nextSequence(co.id, "job"),
          ),
        );
        expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      });

      it("lets only one of concurrent idempotency claims win", async () => {
        const now = new Date();
        const input = {
          keyId: "key_idem",
          idempotencyKey: make.id("idem"),
          requestHash: "h1",
          now,
          expiresAt: new Date(now.getTime() + 86_400_000),
          lockedUntil: new Date(now.getTime() + 30_000),
        };
        const claims = await Promise.all(
          Array.from({ length: 10 }, (_, i) => (racers[i % racers.length] as Storage).idempotency.claim(input)),
        );
        expect(claims.filter((claim) => claim.state === "claimed")).toHaveLength(1);
        expect(claims.filter((claim) => claim.state === "in_progress")).toHaveLength(9);
        await storage.idempotency.complete(input.keyId, input.idempotencyKey, {
          status: 201,
          headers: { "content-type": "application/json" },
          body: '{"ok":"✓"}',
        });
        expect(await storage.idempotency.claim({ ...input, requestHash: "h2" })).toEqual({
          state: "completed",
          requestHash: "h1",
          response: { status: 201, headers: { "content-type": "application/json" }, body: '{"ok":"✓"}' },
        });
        const later = new Date(now.getTime() + 86_400_001);
        expect(await storage.idempotency.claim({ ...input, now: later })).toEqual({ state: "claimed" });
        expect(await storage.idempotency.purgeExpired(new Date(now.getTime() + 3 * 86_400_000))).toBeGreaterThanOrEqual(
          1,
        );
      });

      it("never gives one due delivery to two concurrent claims", async () => {
        const co = make.company();
        const ep = make.endpoint(co.id);
        const paused = make.endpoint(co.id, { status: "paused", pausedReason: "manual" });
        await storage.webhooks.insertEndpoint(ep);
        await storage.webhooks.insertEndpoint(paused);
        const ev = make.event(co.id);
        await storage.events.append(ev);
        const due = new Date("2026-03-01T10:00:00.000Z");
        const deliveries = Array.from({ length: 40 }, (_, i) =>
          make.delivery(ev, ep.id, {
            nextAttemptAt: new Date(due.getTime() + i),
            createdAt: new Date(due.getTime() + i),
          }),
        );
        await storage.webhooks.insertDeliveries(deliveries);
        await storage.webhooks.insertDeliveries([make.delivery(ev, paused.id)]);
        const now = new Date(due.getTime() + 60_000);
        const claims = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            (racers[i % racers.length] as Storage).webhooks.claimDueDeliveries({
              now,
              limit: 7,
              leaseUntil: new Date(now.getTime() + 30_000),
              leaseToken: `lease_${i}`,
            }),
          ),
        );
        // Under SKIP LOCKED a claim may come back short while others hold rows; what was not
        // claimed concurrently is claimed by the calls after.
        for (let round = 0; round < 10; round += 1) {
          const more = await storage.webhooks.claimDueDeliveries({
            now,
            limit: 7,
            leaseUntil: new Date(now.getTime() + 30_000),
            leaseToken: `lease_late_${round}`,
          });
          if (more.length === 0) break;
          claims.push(more);
        }
        const ids = claims.flat().map((claimed) => claimed.delivery.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.length).toBe(40);
        expect(claims.slice(0, 8).flat().length).toBeGreaterThanOrEqual(7);
        expect(claims.flat().every((claimed) => claimed.payload === ev.payload && claimed.endpoint.id === ep.id)).toBe(
          true,
        );
        for (const claim of claims) {
          const times = claim.map((claimed) => claimed.delivery.nextAttemptAt?.getTime() ?? 0);
          expect(times).toEqual([...times].sort((a, b) => a - b));
        }
        expect(
          await storage.webhooks.claimDueDeliveries({ now, limit: 10, leaseUntil: now, leaseToken: "late" }),
        ).toEqual([]);
      });

      it("keeps maxPerEndpoint in every one of many concurrent claims, and never gives a delivery twice", async () => {
        const co = make.company();
        const eps = [make.endpoint(co.id), make.endpoint(co.id), make.endpoint(co.id), make.endpoint(co.id)];
        for (const ep of eps) await storage.webhooks.insertEndpoint(ep);
        const ev = make.event(co.id);
        await storage.events.append(ev);
        // Due before every other test's deliveries; the first endpoint's are the oldest, most of them.
        const due = new Date("2019-06-01T10:00:00.000Z");
        const deliveries = Array.from({ length: 48 }, (_, i) =>
          make.delivery(ev, (i < 24 ? eps[0] : eps[i % 4])?.id ?? "", {
            nextAttemptAt: new Date(due.getTime() + i),
            createdAt: new Date(due.getTime() + i),
          }),
        );
        await storage.webhooks.insertDeliveries(deliveries);
        const now = new Date(due.getTime() + 60_000);
        const claimWith = (store: Storage, token: string) =>
          store.webhooks.claimDueDeliveries({
            now,
            limit: 7,
            // Held for good: the later tests' claims, due after this one, must not take them again.
            leaseUntil: new Date("2037-01-01T00:00:00.000Z"),
            leaseToken: token,
            maxPerEndpoint: 3,
          });
        const claims = await Promise.all(
          Array.from({ length: 8 }, (_, i) => claimWith(racers[i % racers.length] as Storage, `cap_${i}`)),
        );
        for (let round = 0; round < 40; round += 1) {
          const more = await claimWith(storage, `cap_late_${round}`);
          if (more.length === 0) break;
          claims.push(more);
        }
        for (const claim of claims) {
          for (const ep of eps) {
            expect(claim.filter((claimed) => claimed.endpoint.id === ep.id).length).toBeLessThanOrEqual(3);
          }
        }
        const ids = claims.flat().map((claimed) => claimed.delivery.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.length).toBe(48);
        // The first claim of all was not filled with the first endpoint's deliveries alone.
        expect(claims.slice(0, 8).flat().length).toBeGreaterThanOrEqual(7);
      });
    });

    defineHttpTests({ db: () => database, others: () => extra, prefix });
    definePlanTests({
      dialect,
      db: () => database,
      storage: () => storage,
      prefix,
      lastQuery: () => queries.at(-1),
      queries: () => queries,
    });

    describe("webhook claims beside outbox writes", () => {
      it("claims (at most 2 per endpoint), records attempts, releases, and writes events with their deliveries at once without deadlocks", async () => {
        const co = make.company();
        const endpoints = [make.endpoint(co.id), make.endpoint(co.id)];
        for (const ep of endpoints) await storage.webhooks.insertEndpoint(ep);
        // Due long before every other test's deliveries: this test's claims see only its own.
        const start = new Date("2020-01-01T00:00:00.000Z");
        const written: string[] = [];
        const recorded: string[] = [];
        let released = 0;
        let writing = true;
        const writer = (async () => {
          for (let i = 0; i < 60; i += 1) {
            const at = new Date(start.getTime() + i);
            const ev = make.event(co.id, { createdAt: at });
            const rows = endpoints.map((ep) => make.delivery(ev, ep.id, { nextAttemptAt: at, createdAt: at }));
            await (racers[i % racers.length] as Storage).transaction(async (tx) => {
              await tx.jobs.insert(make.job(co.id, { createdAt: at }));
              await tx.events.append(ev);
              await tx.webhooks.insertDeliveries(rows);
            });
            written.push(...rows.map((row) => row.id));
          }
          writing = false;
        })();
        const dispatcher = async (n: number) => {
          const store = racers[n % racers.length] as Storage;
          for (let round = 0; ; round += 1) {
            const done = !writing;
            const now = new Date(start.getTime() + 60_000);
            const batch = await store.webhooks.claimDueDeliveries({
              now,
              limit: 5,
              leaseUntil: new Date(now.getTime() + 30_000),
              leaseToken: `t_${n}_${round}`,
              maxPerEndpoint: 2,
            });
            for (const ep of endpoints) {
              expect(batch.filter((item) => item.endpoint.id === ep.id).length).toBeLessThanOrEqual(2);
            }
            // Every third round gives its last delivery back unsent, as a stopping dispatcher does.
            const giveBack = round % 3 === 2 ? batch.slice(-1) : [];
            if (giveBack.length > 0) {
              const ids = giveBack.map((item) => item.delivery.id);
              expect(await store.webhooks.releaseDeliveries(ids, `t_${n}_${round}`)).toBe(1);
              released += 1;
            }
            for (const { delivery } of batch.slice(0, batch.length - giveBack.length)) {
              recorded.push(delivery.id);
              const outcome = await store.webhooks.recordAttempt(delivery.id, `t_${n}_${round}`, {
                attempt: {
                  id: make.id("att"),
                  deliveryId: delivery.id,
                  endpointId: delivery.endpointId,
                  attemptedAt: now,
                  statusCode: 200,
                  durationMs: 1,
                  responseBody: "",
                  error: null,
                  succeeded: true,
                },
                status: "succeeded",
                nextAttemptAt: null,
                failureCount: "reset",
                pauseAfter: 50,
              });
              expect(outcome.recorded).toBe(true);
            }
            if (batch.length === 0) {
              if (done) break;
              await new Promise((resolve) => setTimeout(resolve, 5));
            }
          }
        };
        await Promise.all([writer, dispatcher(0), dispatcher(1), dispatcher(2)]);
        expect(new Set(recorded).size).toBe(recorded.length);
        expect(new Set(recorded)).toEqual(new Set(written));
        expect(released).toBeGreaterThan(0);
      }, 60_000);
    });

    describe("webhook claims beside an open outbox transaction", () => {
      // Regression: on MariaDB a claim's `UPDATE … WHERE id IN (…)` walked the whole primary key of
      // a small table and waited on the delivery an uncommitted outbox transaction had inserted;
      // that transaction's next insert waited on the claim, and MariaDB rolled the outbox write back.
      it.skipIf(dialect === "sqlite")(
        "claims and releases without waiting for an outbox transaction that has inserted deliveries and not committed",
        async () => {
          // A small table of its own: MariaDB scans small tables, which is when it happened.
          const own = randomPrefix();
          const migrated = await migrateToLatest(database, { tablePrefix: own });
          expect(migrated.error).toBeUndefined();
          const host = kyselyStorage({ db: database, tablePrefix: own });
          // Another connection of the same pool, whose statements are logged.
          const claimer = host;
          let claimQueries: CompiledQuery[] = [];
          const within = <T>(work: Promise<T>): Promise<T> =>
            Promise.race([
              work,
              new Promise<never>((_, reject) =>
                setTimeout(() => reject(new Error("the claim waited for the open outbox transaction")), 3_000),
              ),
            ]);
          try {
            const co = make.company();
            const ep = make.endpoint(co.id);
            await host.webhooks.insertEndpoint(ep);
            const at = new Date("2026-03-01T10:00:00.000Z");
            const ev = make.event(co.id, { createdAt: at });
            await host.events.append(ev);
            const ready = Array.from({ length: 12 }, (_, i) =>
              make.delivery(ev, ep.id, {
                nextAttemptAt: new Date(at.getTime() + i),
                createdAt: new Date(at.getTime() + i),
              }),
            );
            await host.webhooks.insertDeliveries(ready);
            const now = new Date(at.getTime() + 60_000);
            const claimed: string[] = [];
            const logged = queries.length;
            await host.transaction(async (tx) => {
              const open = make.event(co.id, { createdAt: now });
              await tx.events.append(open);
              await tx.webhooks.insertDeliveries([make.delivery(open, ep.id, { nextAttemptAt: at, createdAt: now })]);
              for (const [round, maxPerEndpoint] of [undefined, 5].entries()) {
                const token = `open_${round}`;
                const batch = await within(
                  claimer.webhooks.claimDueDeliveries({
                    now,
                    limit: 5,
                    leaseUntil: new Date(now.getTime() + 30_000),
                    leaseToken: token,
                    ...(maxPerEndpoint === undefined ? {} : { maxPerEndpoint }),
                  }),
                );
                expect(batch).toHaveLength(5);
                claimed.push(...batch.map((item) => item.delivery.id));
                const back = batch.slice(0, 2).map((item) => item.delivery.id);
                expect(await within(claimer.webhooks.releaseDeliveries(back, token))).toBe(2);
              }
              claimQueries = queries.slice(logged);
              // The outbox transaction goes on inserting, and commits.
              await tx.webhooks.insertDeliveries([make.delivery(open, ep.id, { nextAttemptAt: at, createdAt: now })]);
            });
            if (dialect === "mysql") {
              // The locking read and the updates by id reach rows through the primary key alone.
              const byId = claimQueries.filter(
                (query) => /for update skip locked/i.test(query.sql) || /^update .*webhook_delivery/i.test(query.sql),
              );
              expect(byId.length).toBeGreaterThanOrEqual(4);
              for (const query of byId) {
                const plan = await database.executeQuery<{ key: string | null; type: string }>({
                  ...query,
                  sql: `explain ${query.sql}`,
                });
                for (const row of plan.rows) {
                  expect({ sql: query.sql, key: row.key, type: row.type }).toMatchObject({
                    key: "PRIMARY",
                    type: expect.stringMatching(/^(range|const|eq_ref)$/),
                  });
                }
              }
            }
            expect(claimed).toHaveLength(10);
            expect(await host.webhooks.listDeliveries({ companyId: co.id, endpointId: ep.id, take: 100 })).toHaveLength(
              14,
            );

            // Then many outbox transactions of two deliveries each, beside three claimers that
            // record and release, on this small table: none may fail.
            const second = make.endpoint(co.id);
            await host.webhooks.insertEndpoint(second);
            const written: string[] = [];
            let writing = true;
            const writer = (async () => {
              try {
                for (let i = 0; i < 120; i += 1) {
                  const event = make.event(co.id, { createdAt: at });
                  const rows = [ep, second].map((e) =>
                    make.delivery(event, e.id, { nextAttemptAt: at, createdAt: at }),
                  );
                  await host.transaction(async (tx) => {
                    await tx.events.append(event);
                    await tx.webhooks.insertDeliveries(rows);
                  });
                  written.push(...rows.map((row) => row.id));
                }
              } finally {
                writing = false;
              }
            })();
            const recorded: string[] = [];
            const dispatch = async (n: number) => {
              const store = kyselyStorage({ db: extra[n % extra.length] as AnyDb, tablePrefix: own });
              for (let round = 0; ; round += 1) {
                const done = !writing;
                const token = `stress_${n}_${round}`;
                const batch = await store.webhooks.claimDueDeliveries({
                  now,
                  limit: 4,
                  leaseUntil: new Date(now.getTime() + 30_000),
                  leaseToken: token,
                  maxPerEndpoint: 2,
                });
                const giveBack = round % 2 === 1 ? batch.slice(-1) : [];
                if (giveBack.length > 0) {
                  await store.webhooks.releaseDeliveries(
                    giveBack.map((item) => item.delivery.id),
                    token,
                  );
                }
                for (const { delivery } of batch.slice(0, batch.length - giveBack.length)) {
                  const outcome = await store.webhooks.recordAttempt(delivery.id, token, {
                    attempt: {
                      id: make.id("att"),
                      deliveryId: delivery.id,
                      endpointId: delivery.endpointId,
                      attemptedAt: now,
                      statusCode: 200,
                      durationMs: 1,
                      responseBody: "",
                      error: null,
                      succeeded: true,
                    },
                    status: "succeeded",
                    nextAttemptAt: null,
                    failureCount: "reset",
                    pauseAfter: 50,
                  });
                  if (outcome.recorded) recorded.push(delivery.id);
                }
                if (batch.length === 0) {
                  if (done) break;
                  await new Promise((resolve) => setTimeout(resolve, 2));
                }
              }
            };
            await Promise.all([writer, dispatch(0), dispatch(1), dispatch(2)]);
            expect(new Set(recorded).size).toBe(recorded.length);
            expect(written.filter((id) => !recorded.includes(id))).toEqual([]);
          } finally {
            await dropTables(database, own);
          }
        },
        30_000,
      );
    });

    describe("webhook deliveries", () => {
      it("records attempts only under the lease, pauses after the failure threshold, resends and purges", async () => {
        const co = make.company();
        const ep = make.endpoint(co.id);
        await storage.webhooks.insertEndpoint(ep);
        expect(await storage.webhooks.getEndpoint(co.id, ep.id)).toEqual(ep);
        const ev = make.event(co.id);
        await storage.events.append(ev);
        const record = make.delivery(ev, ep.id);
        await storage.webhooks.insertDeliveries([record]);
        const base = new Date("2026-03-01T10:00:00.000Z");
        const attempt = (n: number, token: string, succeeded = false) =>
          storage.webhooks.recordAttempt(record.id, token, {
            attempt: {
              id: make.id("att"),
              deliveryId: record.id,
              endpointId: ep.id,
              attemptedAt: new Date(base.getTime() + n * 1000),
              statusCode: succeeded ? 200 : 500,
              durationMs: 12.5,
              responseBody: "nö",
              error: succeeded ? null : "HTTP 500",
              succeeded,
            },
            status: succeeded ? "succeeded" : "pending",
            nextAttemptAt: succeeded ? null : new Date(base.getTime() + n * 1000),
            failureCount: succeeded ? "reset" : "increment",
            pauseAfter: 3,
          });
        const claim = async (n: number) => {
          const now = new Date(base.getTime() + n * 1000 + 1);
          const [claimed] = await storage.webhooks.claimDueDeliveries({
            now,
            limit: 5,
            leaseUntil: new Date(now.getTime() + 30_000),
            leaseToken: `tok_${n}`,
          });
          return claimed;
        };
        expect((await claim(0))?.delivery.leaseToken).toBe("tok_0");
        expect(await attempt(0, "wrong")).toMatchObject({ recorded: false });
        expect(await attempt(0, "tok_0")).toMatchObject({
          recorded: true,
          endpoint: { consecutiveFailures: 1, status: "active" },
        });
        await claim(1);
        await attempt(1, "tok_1");
        await claim(2);
        const third = await attempt(2, "tok_2");
        expect(third.endpoint).toMatchObject({ consecutiveFailures: 3, status: "paused", pausedReason: "failures" });
        expect(await claim(3)).toBeUndefined();
        const attempts = await storage.webhooks.listAttempts(co.id, record.id);
        expect(attempts.map((a) => a.attemptedAt.getTime() - base.getTime())).toEqual([0, 1000, 2000]);
        expect(attempts[0]).toMatchObject({ statusCode: 500, responseBody: "nö", succeeded: false, durationMs: 12.5 });
        await storage.webhooks.updateEndpoint(co.id, ep.id, { status: "active", pausedReason: null, updatedAt: base });
        await claim(3);
        expect(await attempt(3, "tok_3", true)).toMatchObject({ endpoint: { consecutiveFailures: 0 } });
        expect(await storage.webhooks.getDelivery(co.id, record.id)).toMatchObject({
          status: "succeeded",
          attempts: 4,
        });
        expect(await storage.events.purge(new Date("2030-01-01T00:00:00Z"))).toBeGreaterThanOrEqual(0);
        const resent = await storage.webhooks.resendDelivery(co.id, record.id, base);
        expect(resent).toMatchObject({ status: "pending", nextAttemptAt: base, leaseToken: null });
        expect(
          await storage.webhooks.listDeliveries({ companyId: co.id, endpointId: ep.id, status: "pending", take: 10 }),
        ).toHaveLength(1);
        await claim(4);
        await attempt(4, "tok_4", true);
        // Other tests' finished deliveries go too: purges see the whole database.
        expect(await storage.webhooks.purgeDeliveries(new Date("2030-01-01T00:00:00Z"))).toBeGreaterThanOrEqual(1);
        expect(await storage.webhooks.getDelivery(co.id, record.id)).toBeNull();
        expect(await storage.webhooks.listAttempts(co.id, record.id)).toEqual([]);
        expect(await storage.webhooks.deleteEndpoint(co.id, ep.id)).toBe(true);
        expect(await storage.webhooks.deleteEndpoint(co.id, ep.id)).toBe(false);
      });

      it("lists subscribed endpoints, paused ones included", async () => {
        const co = make.company();
        const a = make.endpoint(co.id, { events: ["job.created"] });
        const b = make.endpoint(co.id, { events: ["job.closed"], status: "paused", pausedReason: "manual" });
        const c = make.endpoint(co.id, {
          events: ["job.closed", "job.created"],
          createdAt: new Date("2026-03-02T00:00:00Z"),
        });
        for (const ep of [a, b, c]) await storage.webhooks.insertEndpoint(ep);
        const closed = await storage.webhooks.listSubscribedEndpoints(co.id, "job.closed");
        expect(closed.map((ep) => ep.id).sort()).toEqual([b.id, c.id].sort());
        expect(await storage.webhooks.listSubscribedEndpoints("other", "job.closed")).toEqual([]);
      });
    });
  });
}
