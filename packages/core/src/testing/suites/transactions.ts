import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "../context";
import { makeApplication, makeCompany, makeEvent, makeJob, makeKey, makeUsage, newId, now } from "../fixtures";

class Rollback extends Error {}

export function transactionTests(ctx: ConformanceContext): void {
  describe("transaction", () => {
    it("commits a change and its event together and returns what fn returns", async () => {
      const companyId = await ctx.company();
      const job = makeJob(companyId);
      const event = makeEvent(companyId);
      const result = await ctx.storage.transaction(async (tx) => {
        await tx.jobs.insert(job);
        await tx.events.append(event);
        return { ok: 42 };
      });
      expect(result).toEqual({ ok: 42 });
      expect(await ctx.storage.jobs.get(companyId, job.id)).toEqual(job);
      expect(await ctx.storage.events.get(event.id)).toEqual(event);
      await ctx.expectRaw("countEvents", [companyId], 1);
    });

    it("sees its own writes inside the transaction", async () => {
      const companyId = await ctx.company();
      const job = makeJob(companyId);
      const application = makeApplication(companyId, job.id);
      await ctx.storage.transaction(async (tx) => {
        await tx.jobs.insert(job);
        expect(await tx.jobs.get(companyId, job.id)).toEqual(job);
        expect(await ctx.createApplication(application, { stores: tx })).toEqual({ outcome: "created" });
        expect((await tx.jobs.get(companyId, job.id, { lock: true }))?.applicationsCount).toBe(1);
        expect((await tx.applications.get(companyId, application.id, { lock: true }))?.jobTitle).toBe(job.title);
      });
    });

    it("rolls back everything when fn throws, and rethrows the very same error", async () => {
      const companyId = await ctx.company();
      const job = await ctx.job(companyId, { title: "Before" });
      const existing = makeApplication(companyId, job.id);
      await ctx.createApplication(existing);
      const key = makeKey(companyId);

      // Rolled back: noted all the same, so that a storage that keeps it does not leave it behind.
      const newCompany = makeCompany();
      ctx.ownCompany(newCompany.id);
      const newJob = makeJob(companyId);
      const application = makeApplication(companyId, job.id);
      const event = makeEvent(companyId);
      const usage = makeUsage(companyId);
      const error = new Rollback("boom");

      const run = ctx.storage.transaction(async (tx) => {
        await tx.companies.upsert(newCompany);
        await tx.keys.insert(key, { maxActive: 10, now: now() });
        await tx.jobs.insert(newJob);
        await tx.jobs.update(companyId, job.id, { title: "After", status: "closed", updatedAt: now() });
        expect(await ctx.createApplication(application, { stores: tx })).toEqual({ outcome: "created" });
        await tx.applications.update(companyId, existing.id, { stage: "hired", updatedAt: now() });
        await tx.applications.addStageChange({
          id: newId("stg"),
          applicationId: existing.id,
          companyId,
          fromStage: "new",
          toStage: "hired",
          actor: { type: "host", id: null, name: "test" },
          createdAt: now(),
        });
        await tx.applications.addNote({
          id: newId("note"),
          applicationId: existing.id,
          companyId,
          body: "gone",
          actor: { type: "host", id: null, name: "test" },
          createdAt: now(),
        });
        await tx.events.append(event);
        await tx.usage.appendMany([usage]);
        throw error;
      });
      await expect(run).rejects.toBe(error);

      expect(await ctx.storage.companies.get(newCompany.id)).toBeNull();
      expect(await ctx.storage.keys.get(companyId, key.id)).toBeNull();
      expect(await ctx.storage.jobs.get(companyId, newJob.id)).toBeNull();
      expect(await ctx.storage.jobs.get(companyId, job.id)).toEqual({ ...job, applicationsCount: 1 });
      expect(await ctx.storage.applications.get(companyId, application.id)).toBeNull();
      expect((await ctx.storage.applications.get(companyId, existing.id))?.stage).toBe("new");
      // Only the first entry, stored by `create` before the transaction.
      expect((await ctx.storage.applications.listStageChanges(companyId, existing.id)).map((c) => c.toStage)).toEqual([
        "new",
      ]);
      expect(await ctx.storage.applications.listNotes(companyId, existing.id)).toEqual([]);
      expect(await ctx.storage.events.get(event.id)).toBeNull();
      expect((await ctx.storage.events.list(companyId, { take: 10 })).map((e) => e.type)).toEqual([
        "application.created",
      ]);
      expect(await ctx.storage.usage.list({ companyId, take: 10 })).toEqual([]);
      // The event of the application created before the transaction stays; the transaction's are gone.
      await ctx.expectRaw("countEvents", [companyId], 1);
      await ctx.expectRaw("countKeys", [companyId], 0);
      await ctx.expectRaw("countApplications", [companyId], 1);
      await ctx.expectRaw("jobApplicationsCount", [companyId, job.id], 1);
      await ctx.expectRaw("countUsage", [companyId], 0);

      // The rolled-back application left no trace for the duplicate rule either.
      expect(await ctx.createApplication({ ...application, id: newId("app") })).toEqual({ outcome: "created" });
    });

    it("rethrows a thrown non-Error value unchanged", async () => {
      const companyId = await ctx.company();
      const job = makeJob(companyId);
      const thrown = { reason: "not an Error" };
      await expect(
        ctx.storage.transaction(async (tx) => {
          await tx.jobs.insert(job);
          throw thrown;
        }),
      ).rejects.toBe(thrown);
      expect(await ctx.storage.jobs.get(companyId, job.id)).toBeNull();
    });

    it("a failed transaction leaves later ones working", async () => {
      const companyId = await ctx.company();
      const job = makeJob(companyId);
      await expect(
        ctx.storage.transaction(async (tx) => {
          await tx.jobs.insert(job);
          throw new Rollback("first");
        }),
      ).rejects.toThrow("first");
      await ctx.storage.transaction(async (tx) => {
        await tx.jobs.insert(job);
      });
      expect(await ctx.storage.jobs.get(companyId, job.id)).toEqual(job);
    });

    it("concurrent transactions on one job keep applicationsCount exact", async () => {
      const companyId = await ctx.company();
      const job = await ctx.job(companyId);
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          ctx.storage.transaction(async (tx) => {
            const current = await tx.jobs.get(companyId, job.id, { lock: true });
            if (!current) throw new Error("job missing");
            expect(await ctx.createApplication(makeApplication(companyId, job.id), { stores: tx })).toEqual({
              outcome: "created",
            });
            await tx.jobs.update(companyId, job.id, { title: `T${i}`, updatedAt: now() });
            await tx.events.append(makeEvent(companyId));
          }),
        ),
      );
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(10);
      await ctx.expectRaw("jobApplicationsCount", [companyId, job.id], 10);
      // Each transaction appended two events: the application's and its own.
      await ctx.expectRaw("countEvents", [companyId], 20);
    });
  });
}
