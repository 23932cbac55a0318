import { describe, expect, it } from "vitest";
import { JOB_STATUSES, type JobRecord } from "../../model/domain";
import { isPublicJob } from "../../model/public-jobs";
import type { KeysetPosition } from "../../storage";
import type { ConformanceContext } from "../context";
import { makeJob, now, orderedIds, shift } from "../fixtures";

const DAY = "2031-06-15";
const CLOSING_DATES = [null, "2031-06-14", DAY, "2031-06-16", "2030-12-31", "2032-01-01"] as const;

/**
 * The public listing (`jobs.list` with `publicOn`) against core's one statement of the rule,
 * `isPublicJob`: a storage whose filter drifts from the rule fails here.
 */
export function publicJobTests(ctx: ConformanceContext): void {
  describe("jobs: the public listing", () => {
    it("publicOn keeps exactly the jobs isPublicJob keeps: active, not hidden, closing on the day or later", async () => {
      const companyId = await ctx.company();
      const t = now();
      const jobs: JobRecord[] = [];
      let i = 0;
      for (const status of JOB_STATUSES) {
        for (const hidden of [false, true]) {
          for (const closingDate of CLOSING_DATES) {
            jobs.push(makeJob(companyId, { status, hidden, closingDate, createdAt: shift(t, -1000 * i++) }));
          }
        }
      }
      for (const job of jobs) await ctx.storage.jobs.insert(job);
      const expected = jobs.filter((job) => isPublicJob(job, DAY)).map((job) => job.id);
      expect(expected).toHaveLength(4);
      const listed = await ctx.storage.jobs.list({ companyId, publicOn: DAY, take: 1000 });
      expect(listed.map((job) => job.id)).toEqual(expected);
      expect(listed[0]).toEqual(jobs.find((job) => job.id === expected[0]));
      // Another day moves the closing-date boundary, inclusively.
      const later = await ctx.storage.jobs.list({ companyId, publicOn: "2031-06-16", take: 1000 });
      expect(later.map((job) => job.id)).toEqual(jobs.filter((job) => isPublicJob(job, "2031-06-16")).map((j) => j.id));
      expect(later).toHaveLength(3);
    });

    it("pages the public jobs newest first by keyset, ties broken by id, and sees no other company", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const t = now();
      const [a, b, c] = orderedIds("job", 3);
      const jobs = [
        makeJob(companyId, { id: a, createdAt: t }),
        makeJob(companyId, { id: b, createdAt: t, status: "paused" }),
        makeJob(companyId, { id: c, createdAt: t }),
        makeJob(companyId, { createdAt: shift(t, -5000), closingDate: "2099-01-01" }),
        makeJob(companyId, { createdAt: shift(t, 5000), hidden: true }),
        makeJob(companyId, { createdAt: shift(t, -9000) }),
      ];
      for (const job of jobs) await ctx.storage.jobs.insert(job);
      await ctx.storage.jobs.insert(makeJob(other, { createdAt: t }));
      const expected = [c, a, jobs[3]?.id, jobs[5]?.id];
      const pages: string[] = [];
      let after: KeysetPosition | undefined;
      for (let page = 0; page < 10; page++) {
        const rows = await ctx.storage.jobs.list({ companyId, publicOn: DAY, take: 2, ...(after ? { after } : {}) });
        pages.push(...rows.map((job) => job.id));
        const last = rows.at(-1);
        if (!last || rows.length < 2) break;
        after = { at: last.createdAt, id: last.id };
      }
      expect(pages).toEqual(expected);
      const combined = await ctx.storage.jobs.list({
        companyId,
        publicOn: DAY,
        statuses: ["active"],
        updatedSince: shift(t, -6000),
        take: 100,
      });
      expect(combined.map((job) => job.id)).toEqual([c, a, jobs[3]?.id]);
    });
  });
}
