import { describe, expect, it } from "vitest";
import type { StageChangeRecord } from "../../model/domain";
import type { KeysetPosition, NewApplication } from "../../storage";
import type { ConformanceContext } from "../context";
import { makeApplication, makeApplicationWrite, newId, now, orderedIds, shift, withTitle } from "../fixtures";

export function applicationTests(ctx: ConformanceContext): void {
  /**
   * Stores an application through `create`, the one write path of new applications, with a window
   * that starts after it (these tests are not about the duplicate rule).
   */
  async function insert(application: NewApplication): Promise<void> {
    const job = await ctx.storage.jobs.get(application.companyId, application.jobId);
    if (!job) throw new Error(`No job ${application.jobId}`);
    const write = makeApplicationWrite(job, application);
    const result = await ctx.storage.applications.create({
      ...write,
      record: application,
      duplicateSince: shift(application.appliedAt, 1),
    });
    expect(result).toEqual({ outcome: "created" });
  }

  describe("applications", () => {
    it("consent false and null, and an overall score of null, round-trip", async () => {
      const companyId = await ctx.company();
      const job = await ctx.job(companyId);
      const no = makeApplication(companyId, job.id, { consent: false, overallScore: null, aiMatch: 0 });
      const unknown = makeApplication(companyId, job.id, { consent: null, overallScore: 0 });
      await insert(no);
      await insert(unknown);
      expect(await ctx.storage.applications.get(companyId, no.id)).toEqual(withTitle(no, job));
      expect(await ctx.storage.applications.get(companyId, unknown.id)).toEqual(withTitle(unknown, job));
    });

    it("jobTitle is read from the job at read time, never a stale copy", async () => {
      const companyId = await ctx.company();
      const job = await ctx.job(companyId, { title: "Old title" });
      const application = makeApplication(companyId, job.id);
      await insert(application);
      await ctx.storage.jobs.update(companyId, job.id, { title: "New title", updatedAt: now() });
      expect((await ctx.storage.applications.get(companyId, application.id))?.jobTitle).toBe("New title");
      const listed = await ctx.storage.applications.list({ companyId, take: 10 });
      expect(listed.map((a) => a.jobTitle)).toEqual(["New title"]);
      const updated = await ctx.storage.applications.update(companyId, application.id, {
        starred: true,
        updatedAt: now(),
      });
      expect(updated?.jobTitle).toBe("New title");
    });

    it("get and update of another company's application return null and change nothing", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const job = await ctx.job(companyId);
      const application = makeApplication(companyId, job.id);
      await insert(application);
      expect(await ctx.storage.applications.get(other, application.id)).toBeNull();
      expect(
        await ctx.storage.applications.update(other, application.id, { stage: "hired", updatedAt: now() }),
      ).toBeNull();
      expect(await ctx.storage.applications.get(companyId, application.id)).toEqual(withTitle(application, job));
    });

    it("update writes only the columns in the patch and returns the record after the change", async () => {
      const companyId = await ctx.company();
      const job = await ctx.job(companyId);
      const application = makeApplication(companyId, job.id, { tags: ["keep"], overallScore: 3, starred: true });
      await insert(application);
      const t1 = shift(application.updatedAt, 1000);
      const moved = { ...withTitle(application, job), stage: "interview" as const, updatedAt: t1 };
      expect(
        await ctx.storage.applications.update(companyId, application.id, { stage: "interview", updatedAt: t1 }),
      ).toEqual(moved);
      const t2 = shift(t1, 1000);
      const patch = { tags: ["dup", "dup", "🚀", ""], overallScore: null, starred: false, updatedAt: t2 };
      const expected = { ...moved, ...patch };
      expect(await ctx.storage.applications.update(companyId, application.id, patch)).toEqual(expected);
      expect(await ctx.storage.applications.get(companyId, application.id)).toEqual(expected);
      const t3 = shift(t2, 1000);
      const review = { humanReviewRequestedAt: new Date("2026-03-29T02:00:00.123Z"), updatedAt: t3 };
      const reviewed = { ...expected, ...review };
      expect(await ctx.storage.applications.update(companyId, application.id, review)).toEqual(reviewed);
      expect(await ctx.storage.applications.get(companyId, application.id)).toEqual(reviewed);
    });

    it("list orders by appliedAt then id, both descending, and pages strictly after `after`", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const job = await ctx.job(companyId);
      const otherJob = await ctx.job(other);
      const t = now();
      const [a, b, c] = orderedIds("app", 3);
      const apps = [
        makeApplication(companyId, job.id, { id: b, appliedAt: t }),
        makeApplication(companyId, job.id, { appliedAt: shift(t, 3000) }),
        makeApplication(companyId, job.id, { id: c, appliedAt: t }),
        makeApplication(companyId, job.id, { appliedAt: shift(t, -3000) }),
        makeApplication(companyId, job.id, { id: a, appliedAt: t }),
      ];
      for (const app of apps) await insert(app);
      await insert(makeApplication(other, otherJob.id, { appliedAt: t }));
      const expected = [apps[1], apps[2], apps[0], apps[4], apps[3]].map((app) => app?.id);
      const all = await ctx.storage.applications.list({ companyId, take: 100 });
      expect(all.map((app) => app.id)).toEqual(expected);
      expect(all[0]).toEqual(apps[1] && withTitle(apps[1], job));

      const seen: string[] = [];
      let after: KeysetPosition | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await ctx.storage.applications.list({ companyId, take: 2, ...(after ? { after } : {}) });
        seen.push(...page.map((app) => app.id));
        const last = page.at(-1);
        if (!last || page.length < 2) break;
        after = { at: last.appliedAt, id: last.id };
      }
      expect(seen).toEqual(expected);
      const afterC = await ctx.storage.applications.list({ companyId, take: 1, after: { at: t, id: c ?? "" } });
      expect(afterC.map((app) => app.id)).toEqual([b]);
    });

    it("list filters by jobId, stage and updatedSince (inclusive), alone and together", async () => {
      const companyId = await ctx.company();
      const job = await ctx.job(companyId);
      const otherJob = await ctx.job(companyId);
      const since = now();
      const mk = (jobId: string, stage: NewApplication["stage"], updatedOffset: number, appliedOffset: number) =>
        makeApplication(companyId, jobId, {
          stage,
          updatedAt: shift(since, updatedOffset),
          appliedAt: shift(since, appliedOffset),
        });
      const a1 = mk(job.id, "new", 0, -1000);
      const a2 = mk(job.id, "hired", -1, -2000);
      const a3 = mk(otherJob.id, "new", 5, -3000);
      const a4 = mk(job.id, "new", 10, -4000);
      for (const app of [a1, a2, a3, a4]) await insert(app);
      const ids = async (query: Omit<Parameters<typeof ctx.storage.applications.list>[0], "companyId" | "take">) =>
        (await ctx.storage.applications.list({ companyId, take: 100, ...query })).map((app) => app.id);
      expect(await ids({ jobId: job.id })).toEqual([a1.id, a2.id, a4.id]);
      expect(await ids({ jobId: newId("job") })).toEqual([]);
      expect(await ids({ stage: "new" })).toEqual([a1.id, a3.id, a4.id]);
      expect(await ids({ stage: "hired" })).toEqual([a2.id]);
      expect(await ids({ updatedSince: since })).toEqual([a1.id, a3.id, a4.id]);
      expect(await ids({ jobId: job.id, stage: "new", updatedSince: since })).toEqual([a1.id, a4.id]);
      expect(
        await ids({ jobId: job.id, stage: "new", updatedSince: since, after: { at: a1.appliedAt, id: a1.id } }),
      ).toEqual([a4.id]);
    });

    it("stage changes and notes are stored and listed oldest first, per company and application", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const job = await ctx.job(companyId);
      const application = makeApplication(companyId, job.id);
      const second = makeApplication(companyId, job.id);
      await insert(application);
      await insert(second);
      const t = now();
      const actor = { type: "api_key" as const, id: newId("key"), name: "Careers site 🚀" };
      const later: StageChangeRecord = {
        id: newId("stg"),
        applicationId: application.id,
        companyId,
        fromStage: "new",
        toStage: "reviewed",
        actor,
        createdAt: shift(t, 2000),
      };
      const earlier: StageChangeRecord = {
        id: newId("stg"),
        applicationId: application.id,
        companyId,
        fromStage: null,
        toStage: "new",
        actor: { type: "host", id: null, name: "Careers page" },
        createdAt: t,
      };
      // The first entry is the one `create` stored with the application.
      const [initial, ...none] = await ctx.storage.applications.listStageChanges(companyId, application.id);
      expect(none).toEqual([]);
      expect(initial).toMatchObject({ applicationId: application.id, fromStage: null, toStage: application.stage });
      await ctx.storage.applications.addStageChange(later);
      await ctx.storage.applications.addStageChange(earlier);
      await ctx.storage.applications.addStageChange({ ...earlier, id: newId("stg"), applicationId: second.id });
      expect(await ctx.storage.applications.listStageChanges(companyId, application.id)).toEqual([
        initial,
        earlier,
        later,
      ]);
      expect(await ctx.storage.applications.listStageChanges(other, application.id)).toEqual([]);

      const notes = [
        {
          id: newId("note"),
          applicationId: application.id,
          companyId,
          body: "Second\n✓",
          actor,
          createdAt: shift(t, 10),
        },
        { id: newId("note"), applicationId: application.id, companyId, body: "First", actor, createdAt: t },
      ];
      for (const note of notes) await ctx.storage.applications.addNote(note);
      expect(await ctx.storage.applications.listNotes(companyId, application.id)).toEqual([notes[1], notes[0]]);
      expect(await ctx.storage.applications.listNotes(companyId, second.id)).toEqual([]);
      expect(await ctx.storage.applications.listNotes(other, application.id)).toEqual([]);
    });
  });
}
