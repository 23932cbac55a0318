import { describe, expect, it } from "vitest";
import type { ApplicationRecord, JobRecord, StageChangeRecord } from "../../domain";
import type { InsertWithEventInput, KeysetPosition, NewApplication } from "../../storage";
import type { ConformanceContext } from "../context";
import {
  DAY,
  makeApplication,
  makeEndpoint,
  makeEvent,
  makeJob,
  newId,
  now,
  orderedIds,
  parallel,
  shift,
  TRICKY_STRINGS,
} from "../fixtures";

const WINDOW = 30 * DAY;

function withTitle(application: NewApplication, job: Pick<JobRecord, "title">): ApplicationRecord {
  return { ...application, jobTitle: job.title };
}

export function applicationTests(ctx: ConformanceContext): void {
  async function jobOf(companyId: string, overrides: Partial<JobRecord> = {}): Promise<JobRecord> {
    const job = makeJob(companyId, overrides);
    await ctx.storage.jobs.insert(job);
    return job;
  }

  function insert(application: NewApplication, duplicateSince = shift(application.appliedAt, -WINDOW)) {
    return ctx.storage.applications.insertUnlessDuplicate(application, { duplicateSince });
  }

  describe("applications", () => {
    it("insertUnlessDuplicate stores every field; get reads it back with the job's title", async () => {
      const companyId = await ctx.company();
      const job = await jobOf(companyId, { title: "Data Engineer – Zürich" });
      const application = makeApplication(companyId, job.id, {
        candidate: {
          name: "Zoë O'Brien-Łukasiewicz 👩🏽‍💻",
          email: "Zoe.OBrien@Example.com ",
          phone: "+44 20 7946 0000",
          location: "Kraków",
          linkedinUrl: "https://www.linkedin.com/in/zoe",
          currentTitle: "Analyst",
          skills: [...TRICKY_STRINGS],
        },
        emailNormalized: `zoe.obrien.${newId("x")}@example.com`,
        coverLetter: "Dear team,\n\n“Smart quotes” and emoji 🎉.",
        resumeSourceUrl: "https://files.example.com/cv.pdf?x=1&y=2",
        source: "careers site",
        consent: true,
        consentAt: new Date("2026-03-29T01:59:59.999Z"),
        stage: "shortlisted",
        aiMatch: 87.5,
        overallScore: 4,
        tags: ["b", "a", "b", "ünï"],
        starred: true,
        appliedAt: new Date("2026-03-29T02:00:00.001Z"),
        updatedAt: new Date("2026-03-29T02:00:00.002Z"),
      });
      const result = await insert(application);
      expect(result).toMatchObject({ inserted: true });
      const read = await ctx.storage.applications.get(companyId, application.id);
      expect(read).toEqual(withTitle(application, job));
      // A storage that says the job's title lets core skip reading the application back: what it
      // inserted plus that title MUST be what get returns.
      if (result.inserted && result.jobTitle !== undefined) {
        expect(result.jobTitle).toBe(job.title);
        expect({ ...application, jobTitle: result.jobTitle }).toEqual(read);
      }
      expect(read?.appliedAt.toISOString()).toBe("2026-03-29T02:00:00.001Z");
      await ctx.expectRaw("countApplications", [companyId, job.id], 1);
    });

    it("insertUnlessDuplicate stores initialStageChange with the application exactly when it says so, never for a duplicate", async () => {
      const companyId = await ctx.company();
      const job = await jobOf(companyId);
      const application = makeApplication(companyId, job.id);
      const change = (applicationId: string, actor: StageChangeRecord["actor"]): StageChangeRecord => ({
        id: newId("stg"),
        applicationId,
        companyId,
        fromStage: null,
        toStage: "new",
        actor,
        createdAt: application.appliedAt,
      });
      const first = change(application.id, { type: "api_key", id: newId("key"), name: "Careers site 🚀 'quoted'" });
      const duplicateSince = shift(application.appliedAt, -WINDOW);
      const result = await ctx.storage.applications.insertUnlessDuplicate(application, {
        duplicateSince,
        initialStageChange: first,
      });
      expect(result.inserted).toBe(true);
      const stored = result.inserted && result.stageChangeStored === true;
      // Stored exactly as addStageChange stores it, or not at all (core then adds it itself).
      expect(await ctx.storage.applications.listStageChanges(companyId, application.id)).toEqual(stored ? [first] : []);
      const again = makeApplication(companyId, job.id, { emailNormalized: application.emailNormalized });
      const refused = await ctx.storage.applications.insertUnlessDuplicate(again, {
        duplicateSince,
        initialStageChange: change(again.id, { type: "host", id: null, name: "Careers page" }),
      });
      expect(refused).toEqual({ inserted: false, existingId: application.id });
      expect(await ctx.storage.applications.listStageChanges(companyId, again.id)).toEqual([]);
      expect(await ctx.storage.applications.get(companyId, again.id)).toBeNull();
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(job.applicationsCount + 1);
    });

    /** All that one insertWithEvent writes for a new application of `job`. */
    function withEvent(job: JobRecord, overrides: Partial<NewApplication> = {}): InsertWithEventInput {
      const record = makeApplication(job.companyId, job.id, overrides);
      const payload = JSON.stringify({
        id: "placeholder",
        data: { title: job.title, name: record.candidate.name, quote: '"\\ \u2028 🚀', nested: [1, 2.5, null] },
      });
      return {
        record,
        duplicateSince: shift(record.appliedAt, -WINDOW),
        initialStageChange: {
          id: newId("stg"),
          applicationId: record.id,
          companyId: job.companyId,
          fromStage: null,
          toStage: "new",
          actor: { type: "api_key", id: newId("key"), name: "Careers site 🚀 'quoted'" },
          createdAt: record.appliedAt,
        },
        event: makeEvent(job.companyId, { type: "application.created", payload, createdAt: record.appliedAt }),
        jobTitle: job.title,
      };
    }

    it("insertWithEvent (optional) writes the application, its stage change, its event and one delivery per subscribed endpoint", async ({
      skip,
    }) => {
      const store = ctx.storage.applications;
      if (!store.insertWithEvent) return skip();
      const companyId = await ctx.company();
      const other = await ctx.company();
      const job = await jobOf(companyId, { title: "Data Engineer – Zürich 'x'" });
      const endpoint = (owner: string, overrides: Parameters<typeof makeEndpoint>[1]) => {
        const record = makeEndpoint(owner, overrides);
        ctx.defer(() => ctx.storage.webhooks.deleteEndpoint(owner, record.id));
        return ctx.storage.webhooks.insertEndpoint(record).then(() => record);
      };
      const active = await endpoint(companyId, { events: ["job.created", "application.created"] });
      const paused = await endpoint(companyId, {
        events: ["application.created"],
        status: "paused",
        pausedReason: "failures",
      });
      const unsubscribed = await endpoint(companyId, { events: ["application.updated"] });
      const foreign = await endpoint(other, { events: ["application.created"] });
      const input = withEvent(job, {
        candidate: {
          ...makeApplication(companyId, job.id).candidate,
          name: "Zoë O'Brien 👩🏽‍💻",
          skills: [...TRICKY_STRINGS],
        },
        tags: ["b", "a", "b"],
        consent: true,
        consentAt: new Date("2026-03-29T01:59:59.999Z"),
        appliedAt: new Date("2026-03-29T02:00:00.001Z"),
      });
      expect(await store.insertWithEvent.call(store, input)).toEqual({ outcome: "inserted" });
      expect(await store.get(companyId, input.record.id)).toEqual(withTitle(input.record, job));
      expect(await store.listStageChanges(companyId, input.record.id)).toEqual([input.initialStageChange]);
      expect(await ctx.storage.events.get(input.event.id)).toEqual(input.event);
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(job.applicationsCount + 1);
      const deliveriesOf = (owner: string, endpointId: string) =>
        ctx.storage.webhooks.listDeliveries({ companyId: owner, endpointId, take: 10 });
      const ids: string[] = [];
      for (const subscribed of [active, paused]) {
        const [delivery, ...more] = await deliveriesOf(companyId, subscribed.id);
        expect(more).toEqual([]);
        expect(delivery).toEqual({
          id: expect.stringMatching(/^dlv_[0-9a-z]+$/),
          endpointId: subscribed.id,
          companyId,
          eventId: input.event.id,
          eventType: "application.created",
          status: "pending",
          attempts: 0,
          nextAttemptAt: input.event.createdAt,
          leaseExpiresAt: null,
          leaseToken: null,
          createdAt: input.event.createdAt,
          updatedAt: input.event.createdAt,
        });
        ids.push(delivery?.id ?? "");
      }
      expect(new Set(ids).size).toBe(2);
      expect(await deliveriesOf(companyId, unsubscribed.id)).toEqual([]);
      expect(await deliveriesOf(other, foreign.id)).toEqual([]);
      await ctx.expectRaw("countApplications", [companyId, job.id], 1);
      await ctx.expectRaw("countEvents", [companyId], 1);
    });

    it("insertWithEvent (optional) refuses a duplicate and a changed or missing job, writing nothing", async ({
      skip,
    }) => {
      const store = ctx.storage.applications;
      if (!store.insertWithEvent) return skip();
      const companyId = await ctx.company();
      const other = await ctx.company();
      const job = await jobOf(companyId, { title: "Welder" });
      const first = withEvent(job);
      expect(await store.insertWithEvent.call(store, first)).toEqual({ outcome: "inserted" });
      const refusedInputs: InsertWithEventInput[] = [];
      const expectRefused = async (input: InsertWithEventInput, result: unknown) => {
        refusedInputs.push(input);
        expect(await store.insertWithEvent?.call(store, input)).toEqual(result);
      };
      await expectRefused(withEvent(job, { emailNormalized: first.record.emailNormalized }), {
        outcome: "duplicate",
        existingId: first.record.id,
      });
      await expectRefused({ ...withEvent(job), jobTitle: "Welder (old title)" }, { outcome: "job_changed" });
      const elsewhere = await jobOf(other, { title: "Welder" });
      const foreign = withEvent(elsewhere);
      await expectRefused({ ...foreign, record: { ...foreign.record, companyId } }, { outcome: "job_changed" });
      await expectRefused(withEvent({ ...job, id: newId("job") }), { outcome: "job_changed" });
      for (const input of refusedInputs) {
        expect(await store.get(companyId, input.record.id)).toBeNull();
        expect(await store.listStageChanges(companyId, input.record.id)).toEqual([]);
        expect(await ctx.storage.events.get(input.event.id)).toBeNull();
      }
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(job.applicationsCount + 1);
      expect((await ctx.storage.jobs.get(other, elsewhere.id))?.applicationsCount).toBe(elsewhere.applicationsCount);
      await ctx.expectRaw("countEvents", [companyId], 1);
    });

    it("insertWithEvent (optional) inserts exactly one of 10 identical applications sent at once", async ({ skip }) => {
      const store = ctx.storage.applications;
      if (!store.insertWithEvent) return skip();
      const companyId = await ctx.company();
      const job = await jobOf(companyId);
      const template = withEvent(job);
      const attempts = Array.from({ length: 10 }, () => {
        const id = newId("app");
        return {
          ...template,
          record: { ...template.record, id },
          initialStageChange: { ...template.initialStageChange, id: newId("stg"), applicationId: id },
          event: { ...template.event, id: newId("evt") },
        };
      });
      const results = await Promise.all(attempts.map((input) => store.insertWithEvent?.call(store, input)));
      const winners = attempts.filter((_, i) => results[i]?.outcome === "inserted");
      expect(winners).toHaveLength(1);
      for (const result of results) {
        if (result?.outcome !== "inserted")
          expect(result).toEqual({ outcome: "duplicate", existingId: winners[0]?.record.id });
      }
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(1);
      await ctx.expectRaw("countApplications", [companyId, job.id], 1);
      await ctx.expectRaw("countEvents", [companyId], 1);
    });

    it("consent false and null, and an overall score of null, round-trip", async () => {
      const companyId = await ctx.company();
      const job = await jobOf(companyId);
      const no = makeApplication(companyId, job.id, { consent: false, overallScore: null, aiMatch: 0 });
      const unknown = makeApplication(companyId, job.id, { consent: null, overallScore: 0 });
      await insert(no);
      await insert(unknown);
      expect(await ctx.storage.applications.get(companyId, no.id)).toEqual(withTitle(no, job));
      expect(await ctx.storage.applications.get(companyId, unknown.id)).toEqual(withTitle(unknown, job));
    });

    it("jobTitle is read from the job at read time, never a stale copy", async () => {
      const companyId = await ctx.company();
      const job = await jobOf(companyId, { title: "Old title" });
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
      const job = await jobOf(companyId);
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
      const job = await jobOf(companyId);
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
    });

    it("refuses the same job and e-mail within the window with existingId, and counts nothing", async () => {
      const companyId = await ctx.company();
      const job = await jobOf(companyId);
      const first = makeApplication(companyId, job.id);
      expect(await insert(first)).toMatchObject({ inserted: true });
      const again = makeApplication(companyId, job.id, {
        emailNormalized: first.emailNormalized,
        appliedAt: shift(first.appliedAt, 1000),
      });
      expect(await insert(again)).toEqual({ inserted: false, existingId: first.id });
      expect(await ctx.storage.applications.get(companyId, again.id)).toBeNull();
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(1);
      await ctx.expectRaw("jobApplicationsCount", [companyId, job.id], 1);
      await ctx.expectRaw("countApplications", [companyId, job.id], 1);
    });

    it("the window is inclusive: appliedAt equal to duplicateSince refuses, 1 ms earlier allows", async () => {
      const companyId = await ctx.company();
      const job = await jobOf(companyId);
      const t = now();
      const first = makeApplication(companyId, job.id, { appliedAt: shift(t, -WINDOW) });
      await insert(first);
      const same = makeApplication(companyId, job.id, { emailNormalized: first.emailNormalized, appliedAt: t });
      expect(await insert(same, shift(t, -WINDOW))).toEqual({ inserted: false, existingId: first.id });
      expect(await insert(same, shift(t, -WINDOW + 1))).toMatchObject({ inserted: true });
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(2);
    });

    it("allows the same e-mail on another job, and another e-mail on the same job", async () => {
      const companyId = await ctx.company();
      const job = await jobOf(companyId);
      const otherJob = await jobOf(companyId);
      const first = makeApplication(companyId, job.id);
      await insert(first);
      expect(
        await insert(makeApplication(companyId, otherJob.id, { emailNormalized: first.emailNormalized })),
      ).toMatchObject({ inserted: true });
      expect(await insert(makeApplication(companyId, job.id))).toMatchObject({ inserted: true });
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(2);
      expect((await ctx.storage.jobs.get(companyId, otherJob.id))?.applicationsCount).toBe(1);
    });

    it("refuses whatever the stage of the earlier application (rejected, withdrawn)", async () => {
      const companyId = await ctx.company();
      const job = await jobOf(companyId);
      for (const stage of ["rejected", "withdrawn"] as const) {
        const first = makeApplication(companyId, job.id);
        await insert(first);
        await ctx.storage.applications.update(companyId, first.id, { stage, updatedAt: now() });
        const again = makeApplication(companyId, job.id, { emailNormalized: first.emailNormalized });
        expect(await insert(again)).toEqual({ inserted: false, existingId: first.id });
      }
      const hired = makeApplication(companyId, job.id, { stage: "hired" });
      await insert(hired);
      expect(await insert(makeApplication(companyId, job.id, { emailNormalized: hired.emailNormalized }))).toEqual({
        inserted: false,
        existingId: hired.id,
      });
    });

    it("inserts exactly one of 10 identical applications sent at once", async () => {
      const companyId = await ctx.company();
      const job = await jobOf(companyId);
      const template = makeApplication(companyId, job.id);
      const since = shift(template.appliedAt, -WINDOW);
      const attempts = Array.from({ length: 10 }, () => ({ ...template, id: newId("app") }));
      const results = await Promise.all(
        attempts.map((a) => ctx.storage.applications.insertUnlessDuplicate(a, { duplicateSince: since })),
      );
      const winners = attempts.filter((_, i) => results[i]?.inserted);
      expect(winners).toHaveLength(1);
      const winner = winners[0]?.id;
      for (const result of results) if (!result.inserted) expect(result.existingId).toBe(winner);
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(1);
      expect(await ctx.storage.applications.list({ companyId, jobId: job.id, take: 100 })).toHaveLength(1);
      await ctx.expectRaw("countApplications", [companyId, job.id], 1);
      await ctx.expectRaw("jobApplicationsCount", [companyId, job.id], 1);
    });

    it("keeps applicationsCount exact under 20 parallel inserts", async () => {
      const companyId = await ctx.company();
      const job = await jobOf(companyId);
      const results = await parallel(20, () => insert(makeApplication(companyId, job.id)));
      expect(results.every((r) => r.inserted)).toBe(true);
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(20);
      await ctx.expectRaw("jobApplicationsCount", [companyId, job.id], 20);
      await ctx.expectRaw("countApplications", [companyId, job.id], 20);
    });

    it("list orders by appliedAt then id, both descending, and pages strictly after `after`", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const job = await jobOf(companyId);
      const otherJob = await jobOf(other);
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
      const job = await jobOf(companyId);
      const otherJob = await jobOf(companyId);
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
      const job = await jobOf(companyId);
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
      await ctx.storage.applications.addStageChange(later);
      await ctx.storage.applications.addStageChange(earlier);
      await ctx.storage.applications.addStageChange({ ...earlier, id: newId("stg"), applicationId: second.id });
      expect(await ctx.storage.applications.listStageChanges(companyId, application.id)).toEqual([earlier, later]);
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
