/** Keyset paging (one query a page, no OFFSET) and the statement counts of the hot writes. */
import { deliveryId } from "@hireport/core/extend";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { routinesOf } from "../../src/dialects/postgres/routines";
import * as make from "../helpers/records";
import type { SuiteContext } from "./suite-context";

export function definePagingTests(suite: SuiteContext): void {
  const { dialect, prefix, t, countQueries, storage, database } = suite;

  describe("keyset paging and statement counts", () => {
    it("pages jobs newest first with ties broken by id, with status and updated_since filters, one query a page", async () => {
      const co = await make.addCompany(storage);
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
      const co = await make.addCompany(storage);
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
      for (const app of apps) await make.createApplication(storage, app);
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

    it("creates an application with its first stage change, its event and the event's fan-out: one statement on Postgres", async () => {
      const co = await make.addCompany(storage);
      const job = make.job(co.id, { title: "Welder" });
      await storage.jobs.insert(job);
      const subscribed = [make.endpoint(co.id, { events: ["application.created"] }), make.endpoint(co.id)];
      const unsubscribed = make.endpoint(co.id, { events: ["job.created"] });
      for (const endpoint of [...subscribed, unsubscribed]) await storage.webhooks.insertEndpoint(endpoint);
      const write = make.newApplicationWrite(co.id, job);
      const used = await countQueries(async () => {
        expect(await storage.applications.create(write)).toEqual({ outcome: "created" });
      });
      if (dialect === "postgres") {
        // One call of create_application, its own transaction: no BEGIN, no COMMIT; marked to be
        // a named prepared statement on a hardened pool.
        expect(used.map((query) => query.sql.trim().split(/\s+/).slice(0, 8).join(" "))).toEqual([
          `/* hireport:prepared */ select outcome, existing_id from "${routinesOf(prefix).create_application.name}"(`,
        ]);
      }
      expect(await storage.applications.listStageChanges(co.id, write.record.id)).toEqual([write.initialStageChange]);
      expect(await storage.events.get(write.event.id)).toEqual(write.event);
      expect((await storage.jobs.get(co.id, job.id))?.applicationsCount).toBe(1);
      const deliveries = await sql<{ id: string; endpoint_id: string }>`select id, endpoint_id from ${sql.table(
        t("webhook_delivery"),
      )} where event_id = ${write.event.id} order by endpoint_id`.execute(database);
      expect(deliveries.rows).toEqual(
        subscribed
          .map((endpoint) => ({ id: deliveryId(write.event.id, endpoint.id), endpoint_id: endpoint.id }))
          .sort((a, b) => (a.endpoint_id < b.endpoint_id ? -1 : 1)),
      );
      for (const endpoint of [...subscribed, unsubscribed]) await storage.webhooks.deleteEndpoint(co.id, endpoint.id);
    });

    it("appends an event with its fan-out: one statement on Postgres, in the caller's transaction when on a tx", async () => {
      const co = make.company();
      const endpoints = [
        make.endpoint(co.id, { events: ["job.closed"] }),
        make.endpoint(co.id, { events: ["job.closed"], status: "paused", pausedReason: "manual" }),
      ];
      for (const endpoint of endpoints) await storage.webhooks.insertEndpoint(endpoint);
      const event = make.event(co.id, { type: "job.closed" });
      const used = await countQueries(() => storage.events.append(event));
      if (dialect === "postgres") {
        expect(used.map((query) => query.sql.trim().split(/\s+/).slice(0, 2).join(" "))).toEqual([
          `select "${routinesOf(prefix).append_event.name}"($1::text::jsonb)`,
        ]);
      }
      for (const endpoint of endpoints) {
        expect(await storage.webhooks.listDeliveries({ companyId: co.id, endpointId: endpoint.id, take: 10 })).toEqual([
          expect.objectContaining({ id: deliveryId(event.id, endpoint.id), eventId: event.id, status: "pending" }),
        ]);
      }
      const rolledBack = make.event(co.id, { type: "job.closed" });
      await expect(
        storage.transaction(async (tx) => {
          await tx.events.append(rolledBack);
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      const left = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(t("webhook_delivery"))}
        where event_id = ${rolledBack.id}`.execute(database);
      expect(Number(left.rows[0]?.n)).toBe(0);
      for (const endpoint of endpoints) await storage.webhooks.deleteEndpoint(co.id, endpoint.id);
    });

    it.runIf(dialect === "postgres")(
      "admits a batch of one key's concurrent requests with one statement: 20 requests, 2 statements",
      async () => {
        const co = await make.addCompany(storage);
        const key = make.apiKey(co.id);
        await storage.keys.insert(key, { maxActive: 10, now: new Date() });
        const now = new Date();
        const windows = [
          // Windows ending after the rate-limit purge of the race tests, which sees the whole table.
          { suffix: ":m:batch", limit: 1000, resetAt: new Date(now.getTime() + 3_600_000) },
          { suffix: ":d:batch", limit: 10_000, resetAt: new Date(now.getTime() + 86_400_000) },
        ];
        // The first request of the windows creates their counters (the fallback to rateLimits.consume).
        expect((await storage.keys.admit(key.hash, windows, now))?.rate?.counts).toEqual([1, 1]);
        let answers: Awaited<ReturnType<typeof storage.keys.admit>>[] = [];
        const used = await countQueries(async () => {
          answers = await Promise.all(Array.from({ length: 20 }, () => storage.keys.admit(key.hash, windows, now)));
        });
        // The first call's statement, then one for the 19 that arrived while it ran.
        expect(used).toHaveLength(2);
        expect(used.every((query) => query.sql.includes("left join lateral"))).toBe(true);
        expect(answers.map((answer) => answer?.rate?.counts[0]).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
          Array.from({ length: 20 }, (_, i) => i + 2),
        );
      },
    );

    it("writes a usage batch with its roll-up in one statement (Postgres) or one transaction, and pages it by key", async () => {
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
      // Postgres: one statement. Elsewhere: begin (MySQL sets the isolation level first), the
      // entries, the one roll-up row they add to, commit.
      const words = used.map((query) => query.sql.trim().split(/\s+/)[0]?.toLowerCase()).filter((w) => w !== "set");
      expect(words).toEqual(dialect === "postgres" ? ["with"] : ["begin", "insert", "insert", "commit"]);
      expect(await storage.usage.daily({ companyId: co.id, from: "2026-01-01", to: "2026-01-01" })).toEqual([
        { day: "2026-01-01", statusClass: 2, count: 150 },
      ]);
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
}
