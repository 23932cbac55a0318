import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "../context";
import { makeApplication, makeJob, makeKey, now, TRICKY_STRINGS } from "../fixtures";

/** Instants that break a lossy or time-zone-shifted encoding. */
const INSTANTS = [
  "2024-02-29T23:59:59.999Z",
  "2025-01-01T00:00:00.001Z",
  "2025-03-30T01:00:00.500Z",
  "2025-10-26T00:59:59.999Z",
  "2026-03-08T10:00:00.010Z",
  "2037-12-31T23:59:59.998Z",
];

export function roundTripTests(ctx: ConformanceContext): void {
  describe("round trips", () => {
    it("Date values come back as Date objects equal to the millisecond, in UTC", async () => {
      const companyId = await ctx.company();
      for (const iso of INSTANTS) {
        const at = new Date(iso);
        const job = makeJob(companyId, { createdAt: at, updatedAt: at, closedAt: at });
        await ctx.storage.jobs.insert(job);
        const read = await ctx.storage.jobs.get(companyId, job.id);
        for (const value of [read?.createdAt, read?.updatedAt, read?.closedAt]) {
          expect(value).toBeInstanceOf(Date);
          expect(value?.toISOString()).toBe(iso);
        }
        const application = makeApplication(companyId, job.id, { appliedAt: at, updatedAt: at, consentAt: at });
        expect(await ctx.createApplication(application, { duplicateSince: at })).toEqual({ outcome: "created" });
        const app = await ctx.storage.applications.get(companyId, application.id);
        expect([app?.appliedAt, app?.updatedAt, app?.consentAt].map((d) => d?.toISOString())).toEqual([iso, iso, iso]);
      }
    });

    it("string arrays come back exactly: order, duplicates, separators, quotes, non-ASCII, emoji, empty strings", async () => {
      const companyId = await ctx.company();
      const reversed = [...TRICKY_STRINGS].reverse();
      const job = makeJob(companyId, {
        requiredSkills: [...TRICKY_STRINGS],
        preferredSkills: reversed,
        qualifications: ["z", "a", "z"],
        responsibilities: ["only one"],
        benefits: [],
      });
      await ctx.storage.jobs.insert(job);
      const read = await ctx.storage.jobs.get(companyId, job.id);
      expect(read?.requiredSkills).toEqual(TRICKY_STRINGS);
      expect(read?.preferredSkills).toEqual(reversed);
      expect(read?.qualifications).toEqual(["z", "a", "z"]);
      expect(read?.responsibilities).toEqual(["only one"]);
      expect(read?.benefits).toEqual([]);

      const base = makeApplication(companyId, job.id);
      const application = makeApplication(companyId, job.id, {
        candidate: { ...base.candidate, skills: reversed },
        tags: [...TRICKY_STRINGS],
      });
      expect(await ctx.createApplication(application, { duplicateSince: now() })).toEqual({ outcome: "created" });
      const app = await ctx.storage.applications.get(companyId, application.id);
      expect(app?.candidate.skills).toEqual(reversed);
      expect(app?.tags).toEqual(TRICKY_STRINGS);

      const key = makeKey(companyId, { scopes: ["applications:write", "jobs:read", "applications:read"] });
      await ctx.storage.keys.insert(key, { maxActive: 10, now: now() });
      expect((await ctx.storage.keys.get(companyId, key.id))?.scopes).toEqual([
        "applications:write",
        "jobs:read",
        "applications:read",
      ]);
    });
  });
}
