import { describe, expect, it } from "vitest";
import type { IndexingService, JobIndexNotice, JobIndexPending } from "../../storage";
import type { ConformanceContext } from "../context";
import { farPast, newId, SECOND, shift } from "../fixtures";

function notice(companyId: string, jobId: string, overrides: Partial<JobIndexNotice> = {}): JobIndexNotice {
  return {
    companyId,
    jobId,
    service: "indexnow",
    seq: 1,
    action: "updated",
    notifiedAt: new Date("2036-02-29T12:00:00.999Z"),
    status: 202,
    error: null,
    closesAt: null,
    ...overrides,
  };
}

/**
 * What a company has pending for a service. `pending` lists every company's jobs, least recently
 * changed first: the tests mark their jobs in the 1990s (`farPast`), so that they come before a
 * host's jobs however many of those wait, and their sweep reaches no host's notice.
 */
async function pendingOf(
  ctx: ConformanceContext,
  companyId: string,
  service: IndexingService = "indexnow",
): Promise<JobIndexPending[]> {
  return (await ctx.storage.jobIndex.pending(service, 10_000)).filter((row) => row.companyId === companyId);
}

/** The job-indexing outbox: marks written with a job's change, each service's last notice. */
export function jobIndexTests(ctx: ConformanceContext): void {
  describe("job index", () => {
    it("counts a job's changes and lists it as pending for every service until its notice covers them", async () => {
      const companyId = await ctx.company();
      const jobId = newId("job");
      const t = farPast();
      await ctx.storage.jobIndex.mark(companyId, jobId, t);
      await ctx.storage.jobIndex.mark(companyId, jobId, shift(t, SECOND));
      expect(await pendingOf(ctx, companyId)).toEqual([
        { companyId, jobId, seq: 2, changedAt: shift(t, SECOND), notice: null },
      ]);
      expect((await pendingOf(ctx, companyId, "google")).map((row) => row.seq)).toEqual([2]);

      const first = notice(companyId, jobId, { seq: 1, status: 500, error: "The service answered 500." });
      await ctx.storage.jobIndex.record(first);
      expect(await pendingOf(ctx, companyId)).toEqual([
        { companyId, jobId, seq: 2, changedAt: shift(t, SECOND), notice: first },
      ]);

      const covered = notice(companyId, jobId, { seq: 2, closesAt: new Date("2037-01-01T08:00:00.000Z") });
      await ctx.storage.jobIndex.record(covered);
      expect(await pendingOf(ctx, companyId)).toEqual([]);
      // The other service still has it pending: notices are per service.
      expect((await pendingOf(ctx, companyId, "google")).map((row) => row.jobId)).toEqual([jobId]);
      expect(await ctx.storage.jobIndex.notices(companyId, [jobId])).toEqual([covered]);
    });

    it("never moves a notice back to a lower seq", async () => {
      const companyId = await ctx.company();
      const jobId = newId("job");
      const later = notice(companyId, jobId, { seq: 3, action: "deleted", status: 200 });
      await ctx.storage.jobIndex.record(later);
      await ctx.storage.jobIndex.record(notice(companyId, jobId, { seq: 2, action: "updated" }));
      expect(await ctx.storage.jobIndex.notices(companyId, [jobId])).toEqual([later]);
      const failed = notice(companyId, jobId, { seq: 3, action: null, notifiedAt: null, status: null, error: "x" });
      await ctx.storage.jobIndex.record(failed);
      expect(await ctx.storage.jobIndex.notices(companyId, [jobId])).toEqual([failed]);
    });

    it("lists pending jobs least recently changed first, ties by company then job id, at most `limit`", async () => {
      const companyId = await ctx.company();
      const t = farPast();
      const [a, b, c] = [newId("job"), newId("job"), newId("job")].sort();
      await ctx.storage.jobIndex.mark(companyId, c as string, t);
      await ctx.storage.jobIndex.mark(companyId, b as string, shift(t, -SECOND));
      await ctx.storage.jobIndex.mark(companyId, a as string, t);
      expect((await pendingOf(ctx, companyId)).map((row) => row.jobId)).toEqual([b, a, c]);
      expect((await ctx.storage.jobIndex.pending("indexnow", 1)).length).toBe(1);
    });

    it("scopes notices to the company and the jobs asked for, and accepts an empty list", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const jobId = newId("job");
      const mine = [notice(companyId, jobId), notice(companyId, jobId, { service: "google", status: 429 })];
      for (const row of mine) await ctx.storage.jobIndex.record(row);
      await ctx.storage.jobIndex.record(notice(other, jobId));
      await ctx.storage.jobIndex.record(notice(companyId, newId("job")));
      const found = await ctx.storage.jobIndex.notices(companyId, [jobId, newId("job")]);
      expect(found.sort((x, y) => x.service.localeCompare(y.service))).toEqual([mine[1], mine[0]]);
      expect(await ctx.storage.jobIndex.notices(companyId, [])).toEqual([]);
    });

    it("marks in a transaction and rolls back with it", async () => {
      const companyId = await ctx.company();
      const t = farPast();
      await expect(
        ctx.storage.transaction(async (tx) => {
          await tx.jobIndex.mark(companyId, newId("job"), t);
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await pendingOf(ctx, companyId)).toEqual([]);
      const jobId = newId("job");
      await ctx.storage.transaction((tx) => tx.jobIndex.mark(companyId, jobId, t));
      expect((await pendingOf(ctx, companyId)).map((row) => row.jobId)).toEqual([jobId]);
    });

    it("sweeps jobs whose public notice's closing time passed: marks each once and clears closesAt", async () => {
      const companyId = await ctx.company();
      // The sweep sees every company's notices: in the 1990s, only the suite's have closed.
      const t = farPast();
      const [passed, future] = [newId("job"), newId("job")];
      for (const jobId of [passed, future]) await ctx.storage.jobIndex.mark(companyId, jobId, shift(t, -10 * SECOND));
      await ctx.storage.jobIndex.record(notice(companyId, passed, { closesAt: shift(t, -SECOND) }));
      await ctx.storage.jobIndex.record(notice(companyId, passed, { service: "google", closesAt: shift(t, -SECOND) }));
      await ctx.storage.jobIndex.record(notice(companyId, future, { closesAt: shift(t, 3600 * SECOND) }));
      expect(await pendingOf(ctx, companyId)).toEqual([]);

      expect(await ctx.storage.jobIndex.sweep(t, 10_000)).toBeGreaterThanOrEqual(1);
      const pending = await pendingOf(ctx, companyId);
      expect(pending.map((row) => [row.jobId, row.seq, row.changedAt])).toEqual([[passed, 2, t]]);
      const notices = await ctx.storage.jobIndex.notices(companyId, [passed, future]);
      expect(notices.filter((row) => row.jobId === passed).map((row) => row.closesAt)).toEqual([null, null]);
      expect(notices.find((row) => row.jobId === future)?.closesAt).toEqual(shift(t, 3600 * SECOND));
      // A second sweep finds nothing more of this company's.
      await ctx.storage.jobIndex.sweep(t, 10_000);
      expect((await pendingOf(ctx, companyId)).map((row) => row.seq)).toEqual([2]);
    });
  });
}
