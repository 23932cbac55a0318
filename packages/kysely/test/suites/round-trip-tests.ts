import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import * as make from "../helpers/records";
import type { SuiteContext } from "./suite-context";

export function defineRoundTripTests(suite: SuiteContext): void {
  const { dialect, t, countQueries, storage, database } = suite;

  describe("round trips, checked with raw SQL", () => {
    it("stores dates in UTC to the millisecond, also in a non-UTC process time zone", async () => {
      expect(new Date(2026, 2, 8, 12).getTimezoneOffset()).not.toBe(0);
      const co = await make.addCompany(storage);
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
      const co = await make.addCompany(storage);
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
      const co = await make.addCompany(storage);
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
      const co = await make.addCompany(storage);
      const renamed = await storage.companies.upsert({ ...co, name: "Renamed", createdAt: new Date() });
      expect(renamed).toEqual({ ...co, name: "Renamed" });
      expect(await storage.companies.reserveSequence(co.id, "job", 1)).toBe(1);
      expect(await storage.companies.reserveSequence(co.id, "job", 1)).toBe(2);
      // A block of 5 is 3 to 7; the next starts at 8.
      expect(await storage.companies.reserveSequence(co.id, "job", 5)).toBe(3);
      expect(await storage.companies.reserveSequence(co.id, "job", 1)).toBe(8);
      expect(await storage.companies.reserveSequence(co.id, "application", 4)).toBe(1);
      expect(await storage.companies.reserveSequence(co.id, "application", 1)).toBe(5);
    });

    it("finds a key by hash with its company in one query, and revokes once", async () => {
      const co = await make.addCompany(storage, { name: "Kéy Co" });
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
      const co = await make.addCompany(storage);
      const jobRecord = make.job(co.id, { title: "Chef de partie" });
      await storage.jobs.insert(jobRecord);
      const app = make.application(co.id, jobRecord.id);
      expect(await make.createApplication(storage, app)).toEqual({ outcome: "created" });
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
      // The first entry is the one `create` stored with the application.
      expect(history.map((change) => change.toStage)).toEqual(["new", "reviewed", "interview", "hired"]);
      expect(history[1]?.actor).toEqual(actor);
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
      const co = await make.addCompany(storage);
      const jobRecord = make.job(co.id);
      await storage.jobs.insert(jobRecord);
      const first = make.application(co.id, jobRecord.id, {
        emailNormalized: "ada@example.com",
        appliedAt: new Date("2026-01-01T00:00:00.000Z"),
      });
      await make.createApplication(storage, first);
      const again = make.application(co.id, jobRecord.id, { emailNormalized: "ada@example.com" });
      expect(await make.createApplication(storage, again, new Date("2025-12-31T00:00:00Z"))).toEqual({
        outcome: "duplicate",
        existingId: first.id,
      });
      expect(await make.createApplication(storage, again, new Date("2026-01-01T00:00:00.001Z"))).toEqual({
        outcome: "created",
      });
      expect((await storage.jobs.get(co.id, jobRecord.id))?.applicationsCount).toBe(2);
    });
  });
}
