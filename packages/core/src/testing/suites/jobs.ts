import { describe, expect, it } from "vitest";
import type { JobRecord } from "../../model/domain";
import type { KeysetPosition } from "../../storage";
import type { ConformanceContext } from "../context";
import { makeApplication, makeJob, now, orderedIds, shift, TRICKY_STRINGS } from "../fixtures";

function position(job: JobRecord): KeysetPosition {
  return { at: job.createdAt, id: job.id };
}

export function jobTests(ctx: ConformanceContext): void {
  describe("jobs", () => {
    it("insert stores every field, applicationsCount included; get reads it back exactly", async () => {
      const companyId = await ctx.company();
      const job = makeJob(companyId, {
        title: "Ingénieur·e Backend – 東京 🚀",
        description: "Line one\nLine two\ttabbed; 'quotes' \"double\" \\ backslash",
        shortDescription: "",
        salaryMin: 45000,
        salaryMax: 65000.5,
        salaryCurrency: "EUR",
        salaryPeriod: "month",
        requiredSkills: [...TRICKY_STRINGS],
        preferredSkills: ["b", "a", "b"],
        qualifications: ["MSc"],
        responsibilities: ["Ship", "Review"],
        benefits: ["🍕", "Pension"],
        closingDate: "2026-12-31",
        startDate: "2027-01-04",
        positions: 3,
        country: "DE",
        region: "Bayern",
        locality: "München",
        postalCode: "80331",
        workplaceType: "on_site",
        status: "paused",
        hidden: true,
        applicationsCount: 7,
        createdAt: new Date("2024-02-29T23:59:59.987Z"),
        updatedAt: new Date("2025-10-26T01:30:00.001Z"),
        closedAt: new Date("2025-03-30T00:59:59.999Z"),
        publishedAt: new Date("2024-03-01T08:00:00.250Z"),
      });
      await ctx.storage.jobs.insert(job);
      const read = await ctx.storage.jobs.get(companyId, job.id);
      expect(read).toEqual(job);
      expect(read?.createdAt).toBeInstanceOf(Date);
      expect(read?.createdAt.toISOString()).toBe("2024-02-29T23:59:59.987Z");
      expect(read?.updatedAt.getTime()).toBe(job.updatedAt.getTime());
      expect(read?.closedAt?.getTime()).toBe(job.closedAt?.getTime());
      expect(read?.publishedAt?.toISOString()).toBe("2024-03-01T08:00:00.250Z");
      await ctx.expectRaw("jobApplicationsCount", [companyId, job.id], 7);
    });

    it("empty arrays and null values round-trip as empty arrays and nulls", async () => {
      const companyId = await ctx.company();
      const job = makeJob(companyId, {
        requiredSkills: [],
        salaryMin: null,
        salaryMax: null,
        positions: null,
        closingDate: null,
        startDate: null,
      });
      await ctx.storage.jobs.insert(job);
      expect(await ctx.storage.jobs.get(companyId, job.id)).toEqual(job);
    });

    it("get and update of another company's job return null and change nothing", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const job = makeJob(companyId);
      await ctx.storage.jobs.insert(job);
      expect(await ctx.storage.jobs.get(other, job.id)).toBeNull();
      expect(await ctx.storage.jobs.update(other, job.id, { title: "Hijacked", updatedAt: now() })).toBeNull();
      expect(await ctx.storage.jobs.get(companyId, job.id)).toEqual(job);
    });

    it("update writes only the columns in the patch and returns the whole record", async () => {
      const companyId = await ctx.company();
      const job = makeJob(companyId, { requiredSkills: ["x", "y"], salaryMin: 1, hidden: true });
      await ctx.storage.jobs.insert(job);
      const updatedAt = shift(job.updatedAt, 1000);
      const expected = { ...job, title: "Staff Engineer", updatedAt };
      expect(await ctx.storage.jobs.update(companyId, job.id, { title: "Staff Engineer", updatedAt })).toEqual(
        expected,
      );
      expect(await ctx.storage.jobs.get(companyId, job.id)).toEqual(expected);
    });

    it("update writes nulls, replaces arrays and sets status, hidden and closedAt when given", async () => {
      const companyId = await ctx.company();
      const job = makeJob(companyId, {
        closedAt: now(),
        status: "closed",
        salaryMin: 10,
        closingDate: "2026-01-01",
        country: "GB",
        postalCode: "LS1 4DY",
      });
      await ctx.storage.jobs.insert(job);
      const updatedAt = shift(job.updatedAt, 1000);
      const patch = {
        status: "active" as const,
        hidden: true,
        closedAt: null,
        publishedAt: shift(job.updatedAt, 500),
        salaryMin: null,
        closingDate: null,
        country: null,
        postalCode: null,
        workplaceType: "remote",
        requiredSkills: ["dup", "dup", "日本語"],
        updatedAt,
      };
      const expected = { ...job, ...patch };
      expect(await ctx.storage.jobs.update(companyId, job.id, patch)).toEqual(expected);
      expect(await ctx.storage.jobs.get(companyId, job.id)).toEqual(expected);
    });

    it("update never overwrites applicationsCount, also when applications arrive at the same time", async () => {
      const companyId = await ctx.company();
      const job = makeJob(companyId);
      await ctx.storage.jobs.insert(job);
      const since = shift(now(), -30 * 86_400_000);
      await Promise.all([
        ...Array.from({ length: 10 }, () =>
          ctx.createApplication(makeApplication(companyId, job.id), { duplicateSince: since }),
        ),
        ...Array.from({ length: 5 }, (_, i) =>
          ctx.storage.jobs.update(companyId, job.id, { title: `Title ${i}`, updatedAt: now() }),
        ),
      ]);
      const updated = await ctx.storage.jobs.update(companyId, job.id, { title: "Final", updatedAt: now() });
      expect(updated?.applicationsCount).toBe(10);
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(10);
      await ctx.expectRaw("jobApplicationsCount", [companyId, job.id], 10);
    });

    it("list orders by createdAt then id, both descending, and pages strictly after `after`", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const t = now();
      const [a, b, c] = orderedIds("job", 3);
      // Three jobs share one createdAt: the id decides (c, b, a).
      const jobs = [
        makeJob(companyId, { createdAt: shift(t, -2000) }),
        makeJob(companyId, { id: b, createdAt: t }),
        makeJob(companyId, { id: a, createdAt: t }),
        makeJob(companyId, { createdAt: shift(t, 5000) }),
        makeJob(companyId, { id: c, createdAt: t }),
      ];
      for (const job of jobs) await ctx.storage.jobs.insert(job);
      await ctx.storage.jobs.insert(makeJob(other, { createdAt: t }));
      const expected = [jobs[3], jobs[4], jobs[1], jobs[2], jobs[0]].map((job) => job?.id);

      const all = await ctx.storage.jobs.list({ companyId, take: 100 });
      expect(all.map((job) => job.id)).toEqual(expected);
      expect(all[1]).toEqual(jobs[4]);

      const pages: string[] = [];
      let after: KeysetPosition | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await ctx.storage.jobs.list({ companyId, take: 2, ...(after ? { after } : {}) });
        expect(page.length).toBeLessThanOrEqual(2);
        pages.push(...page.map((job) => job.id));
        const last = page.at(-1);
        if (!last || page.length < 2) break;
        after = position(last);
      }
      expect(pages).toEqual(expected);

      // `after` the middle one of the tie: only the smaller ids of that time, then older rows.
      const afterB = await ctx.storage.jobs.list({ companyId, take: 100, after: { at: t, id: b ?? "" } });
      expect(afterB.map((job) => job.id)).toEqual([a, jobs[0]?.id]);
      // A position that matches no row.
      const between = await ctx.storage.jobs.list({ companyId, take: 100, after: { at: shift(t, 1), id: "" } });
      expect(between.map((job) => job.id)).toEqual(expected.slice(1));
      expect(await ctx.storage.jobs.list({ companyId, take: 1 })).toHaveLength(1);
    });

    it("list filters by statuses", async () => {
      const companyId = await ctx.company();
      const t = now();
      const statuses = ["active", "draft", "paused", "closed"] as const;
      const jobs = statuses.map((status, i) => makeJob(companyId, { status, createdAt: shift(t, i) }));
      for (const job of jobs) await ctx.storage.jobs.insert(job);
      const ids = async (filter: readonly ("active" | "draft" | "paused" | "closed")[] | undefined) =>
        (await ctx.storage.jobs.list({ companyId, take: 100, ...(filter ? { statuses: filter } : {}) })).map(
          (job) => job.status,
        );
      expect(await ids(["active"])).toEqual(["active"]);
      expect(await ids(["closed", "draft"])).toEqual(["closed", "draft"]);
      expect(await ids(undefined)).toEqual(["closed", "paused", "draft", "active"]);
    });

    it("list filters by updatedSince, inclusive, and combines filters with paging", async () => {
      const companyId = await ctx.company();
      const since = now();
      const before = makeJob(companyId, { updatedAt: shift(since, -1), createdAt: shift(since, -10) });
      const exact = makeJob(companyId, { updatedAt: since, createdAt: shift(since, -20) });
      const after = makeJob(companyId, { updatedAt: shift(since, 1), createdAt: shift(since, -30) });
      const draft = makeJob(companyId, { updatedAt: shift(since, 1), createdAt: shift(since, -40), status: "draft" });
      for (const job of [before, exact, after, draft]) await ctx.storage.jobs.insert(job);
      const listed = await ctx.storage.jobs.list({ companyId, updatedSince: since, take: 100 });
      expect(listed.map((job) => job.id)).toEqual([exact.id, after.id, draft.id]);
      const active = await ctx.storage.jobs.list({
        companyId,
        statuses: ["active"],
        updatedSince: since,
        after: position(exact),
        take: 100,
      });
      expect(active.map((job) => job.id)).toEqual([after.id]);
    });
  });
}
