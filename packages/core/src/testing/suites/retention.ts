import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "../context";
import {
  ancientPast,
  DAY,
  HOUR,
  makeApplication,
  makeEvent,
  makeJob,
  makeUsage,
  newId,
  SECOND,
  shift,
} from "../fixtures";

/**
 * Retention's reads and batches: the applications it erases, purges with a limit. They see every
 * company's rows, so each test puts its own at a random time of the 1980s (`ancientPast`), before
 * every other test's rows and any real ones, and checks only its own: the database may hold other
 * data, and rows an earlier run left there.
 */
export function retentionTests(ctx: ConformanceContext): void {
  describe("retention", () => {
    it("listForRetention lists unerased applications of those stages changed before the time, oldest change first", async () => {
      const companyId = await ctx.company();
      const job = await ctx.job(companyId);
      const base = ancientPast();
      const at = (ms: number) => shift(base, ms);
      const rows = [
        makeApplication(companyId, job.id, { stage: "rejected", appliedAt: at(0), updatedAt: at(3 * HOUR) }),
        makeApplication(companyId, job.id, { stage: "withdrawn", appliedAt: at(0), updatedAt: at(1 * HOUR) }),
        makeApplication(companyId, job.id, { stage: "rejected", appliedAt: at(0), updatedAt: at(2 * HOUR) }),
        makeApplication(companyId, job.id, { stage: "hired", appliedAt: at(0), updatedAt: at(1 * HOUR) }),
        makeApplication(companyId, job.id, { stage: "rejected", appliedAt: at(0), updatedAt: at(5 * HOUR) }),
        makeApplication(companyId, job.id, { stage: "rejected", appliedAt: at(0), updatedAt: at(HOUR) }),
      ];
      for (const row of rows) {
        expect(await ctx.createApplication(row, { duplicateSince: shift(base, -DAY) })).toEqual({
          outcome: "created",
        });
      }
      const [r3, w1, r2, , r5, r1] = rows;
      await ctx.storage.transaction((tx) =>
        tx.candidates.erase({ companyId, applicationIds: [r1?.id ?? ""], erasedAt: at(HOUR) }),
      );
      const list = (stages: ("rejected" | "withdrawn")[], before: Date, take = 1000) =>
        ctx.storage.candidates.listForRetention({ stages, updatedBefore: before, take });
      /** This test's entries of a list, in the list's order. */
      const mine = (entries: { companyId: string; id: string }[]) =>
        entries.filter((entry) => entry.companyId === companyId);
      // r1 was erased; r5 changed at the cut (not before it), so only a later cut lists it.
      expect(mine(await list(["rejected"], at(5 * HOUR)))).toEqual([
        { companyId, id: r2?.id },
        { companyId, id: r3?.id },
      ]);
      const both = await list(["rejected", "withdrawn"], at(5 * HOUR));
      expect(mine(both)).toEqual([
        { companyId, id: w1?.id },
        { companyId, id: r2?.id },
        { companyId, id: r3?.id },
      ]);
      // `take` cuts the same list: its oldest entries (this test's first two, unless rows of an
      // earlier run are older still).
      expect(await list(["rejected", "withdrawn"], at(5 * HOUR), 2)).toEqual(both.slice(0, 2));
      expect(mine(await list(["withdrawn"], at(HOUR)))).toEqual([]);
      expect(mine(await list(["rejected"], at(5 * HOUR + 1)))).toEqual([
        { companyId, id: r2?.id },
        { companyId, id: r3?.id },
        { companyId, id: r5?.id },
      ]);
    });

    it("resumeFilesInUse answers which of the files applications name: of any company, never an erased one's", async () => {
      const companyA = await ctx.company();
      const companyB = await ctx.company();
      const jobA = makeJob(companyA);
      const jobB = makeJob(companyB);
      await ctx.storage.jobs.insert(jobA);
      await ctx.storage.jobs.insert(jobB);
      const f1 = newId("fil");
      const f2 = newId("fil");
      const f3 = newId("fil");
      const a1 = makeApplication(companyA, jobA.id, { resumeFileId: f1 });
      const a2 = makeApplication(companyA, jobA.id, { resumeFileId: f2 });
      const a3 = makeApplication(companyA, jobA.id);
      const b1 = makeApplication(companyB, jobB.id, { resumeFileId: f3 });
      for (const row of [a1, a2, a3, b1]) expect((await ctx.createApplication(row)).outcome).toBe("created");
      const inUse = async (ids: string[]) => [...(await ctx.storage.candidates.resumeFilesInUse(ids))].sort();

      expect(await inUse([f1, f2, f3, newId("fil"), f1])).toEqual([f1, f2, f3].sort());
      expect(await inUse([])).toEqual([]);
      // An erased application names no file any more (core deletes its file before the erasure).
      await ctx.storage.transaction((tx) =>
        tx.candidates.erase({ companyId: companyA, applicationIds: [a2.id], erasedAt: new Date() }),
      );
      expect(await inUse([f1, f2, f3])).toEqual([f1, f3].sort());
      // Retention's largest batch in one call.
      const many = Array.from({ length: 9_999 }, () => newId("fil"));
      expect(await inUse([...many, f3])).toEqual([f3]);
    });

    // Deliveries (`eventDeliveries.purgeDeliveries`): the webhook store suite (`@hireport/webhooks/testing`).
    it("purges take a limit: at most that many events and usage entries, the oldest first", async () => {
      const companyId = await ctx.company();
      const base = ancientPast();
      const at = (ms: number) => shift(base, ms);
      const cut = at(DAY);
      // Whatever is older than the cut (only rows of the suites: another test's, an earlier run's)
      // goes first, so that the counts below are this test's alone.
      await ctx.storage.events.purge(cut);
      await ctx.storage.usage.purge(cut);
      const events = [0, 1, 2].map((i) => makeEvent(companyId, { createdAt: at(i * SECOND) }));
      for (const event of events) await ctx.storage.events.append(event);
      const usage = [0, 1, 2].map((i) => makeUsage(companyId, { createdAt: at(i * SECOND) }));
      await ctx.storage.usage.appendMany(usage);

      expect(await ctx.storage.events.purge(cut, 2)).toBe(2);
      expect(await ctx.storage.events.get(events[2]?.id ?? "")).not.toBeNull();
      expect(await ctx.storage.events.get(events[1]?.id ?? "")).toBeNull();
      expect(await ctx.storage.events.purge(cut, 2)).toBe(1);
      expect(await ctx.storage.usage.purge(cut, 2)).toBe(2);
      await ctx.expectRaw("countUsage", [companyId], 1);
      expect((await ctx.storage.usage.list({ companyId, take: 10 })).map((entry) => entry.id)).toEqual([usage[2]?.id]);
      expect(await ctx.storage.usage.purge(cut, 2)).toBe(1);
      await ctx.expectRaw("countUsage", [companyId], 0);
      await ctx.expectRaw("countEvents", [companyId], 0);
    });
  });
}
