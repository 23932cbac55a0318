import { describe, expect, it } from "vitest";
import type { NewApplication, NewApplicationWrite } from "../../storage";
import { APPLICATION_CREATE_CASES, type ApplicationCreateCase, DUPLICATE_WINDOW_MS } from "../application-create-cases";
import type { ConformanceContext } from "../context";
import {
  DAY,
  makeApplication,
  makeApplicationWrite,
  newId,
  now,
  parallel,
  randomHex,
  shift,
  TRICKY_STRINGS,
  withTitle,
} from "../fixtures";

const WINDOW = 30 * DAY;

/** `applications.create`: the one write path of a new application, its duplicate rule and its event. */
export function applicationCreateTests(ctx: ConformanceContext): void {
  /** Creates `application` on its job (read for its title) with a window starting `duplicateSince`. */
  async function create(application: NewApplication, duplicateSince = shift(application.appliedAt, -WINDOW)) {
    const job = await ctx.storage.jobs.get(application.companyId, application.jobId);
    if (!job) throw new Error(`No job ${application.jobId}`);
    const write = makeApplicationWrite(job, application);
    return ctx.storage.applications.create({ ...write, record: application, duplicateSince });
  }

  /** Nothing of a refused write is stored: no application, no stage change, no event. */
  async function expectNothingOf(write: NewApplicationWrite): Promise<void> {
    const { companyId, id } = write.record;
    expect(await ctx.storage.applications.get(companyId, id)).toBeNull();
    expect(await ctx.storage.applications.listStageChanges(companyId, id)).toEqual([]);
    expect(await ctx.storage.events.get(write.event.id)).toBeNull();
  }

  /**
   * One row of `APPLICATION_CREATE_CASES` on a company of its own: the prior applications stored,
   * the job read as core reads it, then changed as the case says, then the write checked against
   * it; the answer must be the case's, and only `created` may have written anything.
   */
  async function runCase(c: ApplicationCreateCase): Promise<void> {
    const companyId = await ctx.company();
    const job = await ctx.job(companyId);
    const otherJob = await ctx.job(companyId);
    const at = now();
    const email = `${randomHex(12)}@example.com`;
    const prior: NewApplication[] = [];
    for (const earlier of c.prior ?? []) {
      const application = makeApplication(companyId, earlier.job === "other" ? otherJob.id : job.id, {
        appliedAt: shift(at, -earlier.before),
        ...(earlier.email === "other" ? {} : { emailNormalized: email }),
      });
      // A window that starts after every prior application: each is created.
      expect(await ctx.createApplication(application, { duplicateSince: shift(at, DAY) })).toEqual({
        outcome: "created",
      });
      if (earlier.stage)
        await ctx.storage.applications.update(companyId, application.id, { stage: earlier.stage, updatedAt: at });
      prior.push(application);
    }
    const read = await ctx.storage.jobs.get(companyId, job.id);
    if (!read) throw new Error(`No job ${job.id}`);
    let named = read;
    let record: Partial<NewApplication> = {};
    const later = shift(read.updatedAt, 1);
    if (c.job === "renamed")
      await ctx.storage.jobs.update(companyId, job.id, { title: `${read.title} (renamed)`, updatedAt: read.updatedAt });
    if (c.job === "edited")
      await ctx.storage.jobs.update(companyId, job.id, { description: "Changed.", updatedAt: later });
    if (c.job === "closed") {
      await ctx.storage.jobs.update(companyId, job.id, { status: "closed", closedAt: later, updatedAt: later });
    }
    if (c.job === "gone") named = { ...read, id: newId("job") };
    if (c.job === "another company's") {
      named = await ctx.job(await ctx.company());
      record = { companyId };
    }
    const base = makeApplicationWrite(named, { emailNormalized: email, appliedAt: at });
    const write: NewApplicationWrite = {
      ...base,
      record: { ...base.record, ...record },
      duplicateSince: shift(at, -(c.window ?? DUPLICATE_WINDOW_MS)),
    };
    const countBefore = (await ctx.storage.jobs.get(named.companyId, named.id))?.applicationsCount ?? null;

    const result = await ctx.storage.applications.create(write);

    const expected = c.expected;
    if (expected.outcome === "duplicate") {
      expect(result.outcome).toBe("duplicate");
      const ids = expected.oneOf.map((index) => prior[index]?.id);
      expect(ids).toContain(result.outcome === "duplicate" ? result.existingId : undefined);
    } else {
      expect(result).toEqual({ outcome: expected.outcome });
    }
    const countAfter = (await ctx.storage.jobs.get(named.companyId, named.id))?.applicationsCount ?? null;
    const onJob = prior.filter((application) => application.jobId === job.id).length;
    if (result.outcome === "created") {
      expect(await ctx.storage.applications.get(companyId, write.record.id)).toEqual(withTitle(write.record, named));
      expect(await ctx.storage.applications.listStageChanges(companyId, write.record.id)).toEqual([
        write.initialStageChange,
      ]);
      expect(await ctx.storage.events.get(write.event.id)).toEqual(write.event);
      expect(countAfter).toBe((countBefore ?? 0) + 1);
      await ctx.expectRaw("jobApplicationsCount", [companyId, job.id], onJob + 1);
      await ctx.expectRaw("countApplications", [companyId, job.id], onJob + 1);
    } else {
      await expectNothingOf(write);
      expect(countAfter).toBe(countBefore);
      await ctx.expectRaw("countApplications", [companyId, job.id], onJob);
    }
    await ctx.expectRaw("countEvents", [companyId], prior.length + (result.outcome === "created" ? 1 : 0));
  }

  describe("applications.create: the table of cases (APPLICATION_CREATE_CASES)", () => {
    for (const c of APPLICATION_CREATE_CASES) it(c.name, () => runCase(c));
  });

  describe("applications.create", () => {
    it("stores every field, the first stage change and the event; get reads the application back with the job's title", async () => {
      const companyId = await ctx.company();
      const job = await ctx.job(companyId, { title: "Data Engineer – Zürich 'x'" });
      const write = makeApplicationWrite(job, {
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
        resumeFileId: `fil_${newId("x").slice(2)}`,
        source: "careers site",
        consent: true,
        consentAt: new Date("2026-03-29T01:59:59.999Z"),
        aiMatch: 87.5,
        overallScore: 4,
        tags: ["b", "a", "b", "ünï"],
        starred: true,
        humanReviewRequestedAt: new Date("2026-03-29T02:00:00.000Z"),
        appliedAt: new Date("2026-03-29T02:00:00.001Z"),
        updatedAt: new Date("2026-03-29T02:00:00.002Z"),
      });
      expect(await ctx.storage.applications.create(write)).toEqual({ outcome: "created" });
      const read = await ctx.storage.applications.get(companyId, write.record.id);
      expect(read).toEqual(withTitle(write.record, job));
      expect(read?.appliedAt.toISOString()).toBe("2026-03-29T02:00:00.001Z");
      expect(await ctx.storage.applications.listStageChanges(companyId, write.record.id)).toEqual([
        write.initialStageChange,
      ]);
      expect(await ctx.storage.events.get(write.event.id)).toEqual(write.event);
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(job.applicationsCount + 1);
      await ctx.expectRaw("countApplications", [companyId, job.id], 1);
      await ctx.expectRaw("jobApplicationsCount", [companyId, job.id], 1);
      await ctx.expectRaw("countEvents", [companyId], 1);
    });

    it("answers job_changed and writes nothing when the job was renamed, changed otherwise, is gone, or belongs to another company", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const job = await ctx.job(companyId, { title: "Welder" });
      const elsewhere = await ctx.job(other, { title: "Welder" });
      const renamed = { ...makeApplicationWrite(job), jobTitle: "Welder (old title)" };
      // Same title, but read before a later change (closed, its questions changed...).
      const older = { ...makeApplicationWrite(job), jobUpdatedAt: new Date(job.updatedAt.getTime() - 1) };
      const gone = makeApplicationWrite({ ...job, id: newId("job") });
      const foreignWrite = makeApplicationWrite(elsewhere);
      const foreign = { ...foreignWrite, record: { ...foreignWrite.record, companyId } };
      for (const write of [renamed, older, gone, foreign]) {
        expect(await ctx.storage.applications.create(write)).toEqual({ outcome: "job_changed" });
        await expectNothingOf(write);
      }
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(job.applicationsCount);
      expect((await ctx.storage.jobs.get(other, elsewhere.id))?.applicationsCount).toBe(elsewhere.applicationsCount);
      await ctx.expectRaw("countEvents", [companyId], 0);
    });

    it("refuses the same job and e-mail within the window with existingId, writing nothing", async () => {
      const companyId = await ctx.company();
      const job = await ctx.job(companyId);
      const first = makeApplicationWrite(job);
      expect(await ctx.storage.applications.create(first)).toEqual({ outcome: "created" });
      const again = makeApplicationWrite(job, {
        emailNormalized: first.record.emailNormalized,
        appliedAt: shift(first.record.appliedAt, 1000),
      });
      expect(await ctx.storage.applications.create(again)).toEqual({
        outcome: "duplicate",
        existingId: first.record.id,
      });
      await expectNothingOf(again);
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(1);
      await ctx.expectRaw("jobApplicationsCount", [companyId, job.id], 1);
      await ctx.expectRaw("countApplications", [companyId, job.id], 1);
      await ctx.expectRaw("countEvents", [companyId], 1);
    });

    it("the window is inclusive: appliedAt equal to duplicateSince refuses, 1 ms later allows", async () => {
      const companyId = await ctx.company();
      const job = await ctx.job(companyId);
      const t = now();
      const first = makeApplication(companyId, job.id, { appliedAt: shift(t, -WINDOW) });
      await create(first);
      const same = makeApplication(companyId, job.id, { emailNormalized: first.emailNormalized, appliedAt: t });
      expect(await create(same, shift(t, -WINDOW))).toEqual({ outcome: "duplicate", existingId: first.id });
      expect(await create(same, shift(t, -WINDOW + 1))).toEqual({ outcome: "created" });
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(2);
    });

    it("allows the same e-mail on another job, and another e-mail on the same job", async () => {
      const companyId = await ctx.company();
      const job = await ctx.job(companyId);
      const otherJob = await ctx.job(companyId);
      const first = makeApplication(companyId, job.id);
      await create(first);
      expect(await create(makeApplication(companyId, otherJob.id, { emailNormalized: first.emailNormalized }))).toEqual(
        { outcome: "created" },
      );
      expect(await create(makeApplication(companyId, job.id))).toEqual({ outcome: "created" });
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(2);
      expect((await ctx.storage.jobs.get(companyId, otherJob.id))?.applicationsCount).toBe(1);
    });

    it("refuses whatever the stage of the earlier application (rejected, withdrawn, hired)", async () => {
      const companyId = await ctx.company();
      const job = await ctx.job(companyId);
      for (const stage of ["rejected", "withdrawn"] as const) {
        const first = makeApplication(companyId, job.id);
        await create(first);
        await ctx.storage.applications.update(companyId, first.id, { stage, updatedAt: now() });
        const again = makeApplication(companyId, job.id, { emailNormalized: first.emailNormalized });
        expect(await create(again)).toEqual({ outcome: "duplicate", existingId: first.id });
      }
      const hired = makeApplication(companyId, job.id, { stage: "hired" });
      await create(hired);
      expect(await create(makeApplication(companyId, job.id, { emailNormalized: hired.emailNormalized }))).toEqual({
        outcome: "duplicate",
        existingId: hired.id,
      });
    });

    it("creates exactly one of 10 identical applications sent at once; the others name it", async () => {
      const companyId = await ctx.company();
      const job = await ctx.job(companyId);
      const template = makeApplicationWrite(job);
      const writes = Array.from({ length: 10 }, () => {
        const id = newId("app");
        return {
          ...template,
          record: { ...template.record, id },
          initialStageChange: { ...template.initialStageChange, id: newId("stg"), applicationId: id },
          event: { ...template.event, id: newId("evt") },
        };
      });
      const results = await Promise.all(writes.map((write) => ctx.storage.applications.create(write)));
      const winners = writes.filter((_, i) => results[i]?.outcome === "created");
      expect(winners).toHaveLength(1);
      for (const result of results) {
        if (result.outcome !== "created")
          expect(result).toEqual({ outcome: "duplicate", existingId: winners[0]?.record.id });
      }
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(1);
      expect(await ctx.storage.applications.list({ companyId, jobId: job.id, take: 100 })).toHaveLength(1);
      await ctx.expectRaw("countApplications", [companyId, job.id], 1);
      await ctx.expectRaw("jobApplicationsCount", [companyId, job.id], 1);
      await ctx.expectRaw("countEvents", [companyId], 1);
    });

    it("keeps applicationsCount exact under 20 parallel creates", async () => {
      const companyId = await ctx.company();
      const job = await ctx.job(companyId);
      const results = await parallel(20, () => create(makeApplication(companyId, job.id)));
      expect(results.every((result) => result.outcome === "created")).toBe(true);
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(20);
      await ctx.expectRaw("jobApplicationsCount", [companyId, job.id], 20);
      await ctx.expectRaw("countApplications", [companyId, job.id], 20);
    });

    it("runs inside a transaction and rolls back with it", async () => {
      const companyId = await ctx.company();
      const job = await ctx.job(companyId);
      const write = makeApplicationWrite(job);
      const failure = new Error("roll back");
      await expect(
        ctx.storage.transaction(async (tx) => {
          expect(await tx.applications.create(write)).toEqual({ outcome: "created" });
          expect(await tx.applications.get(companyId, write.record.id)).not.toBeNull();
          throw failure;
        }),
      ).rejects.toBe(failure);
      await expectNothingOf(write);
      expect((await ctx.storage.jobs.get(companyId, job.id))?.applicationsCount).toBe(0);
    });
  });
}
