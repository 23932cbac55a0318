import { describe, expect, it } from "vitest";
import { erasedApplication, redactApplications } from "../../applications/erasure";
import type { ApplicationRecord, StoredResponse } from "../../model/domain";
import type { NewApplication } from "../../storage";
import type { ConformanceContext } from "../context";
import {
  applicationEvent,
  DAY,
  HOUR,
  makeApplication,
  makeKey,
  newId,
  now,
  randomHex,
  SECOND,
  shift,
} from "../fixtures";

/** Finding, erasing and retention of candidates' personal data. */
export function candidateTests(ctx: ConformanceContext): void {
  /** A company with a job and a candidate (a unique e-mail, a name, a CV link, a file, a cover letter). */
  async function world(overrides: Partial<NewApplication> = {}) {
    const companyId = await ctx.company();
    const job = await ctx.job(companyId, { title: "Data Engineer" });
    const email = `Zoe.${randomHex(10)}@Example.COM`;
    const base = makeApplication(companyId, job.id);
    const application = makeApplication(companyId, job.id, {
      candidate: {
        ...base.candidate,
        name: `Zoë Ångström ${randomHex(6)}`,
        email,
        phone: "+44 20 7946 0000",
        location: "Zürich",
        linkedinUrl: "https://www.linkedin.com/in/zoe",
        currentTitle: "Analyst",
        skills: ["SQL", "dbt"],
      },
      emailNormalized: email.toLowerCase(),
      coverLetter: "Dear team — I'd love to join. 🚀",
      resumeSourceUrl: "https://files.example.com/zoe.pdf",
      resumeFileId: newId("fil"),
      consent: true,
      consentAt: shift(now(), -HOUR),
      tags: ["python", "remote"],
      starred: true,
      overallScore: 80,
      humanReviewRequestedAt: shift(now(), -SECOND),
      answers: [
        {
          questionId: "why",
          label: "Why us?",
          type: "long_text",
          // A marker no id can contain (ids are hex), so a scan finds only this answer.
          value: `Because of Zoë's answer-${randomHex(20)} 🚀`,
          text: "Because…",
        },
        { questionId: "tools", label: "Tools", type: "multiple_choice", value: ["git"], text: "Git" },
      ],
      knockedOut: true,
      ...overrides,
    });
    expect(await ctx.createApplication(application)).toEqual({ outcome: "created" });
    return { companyId, job, application, email };
  }

  async function stored(companyId: string, id: string): Promise<ApplicationRecord> {
    const record = await ctx.storage.applications.get(companyId, id);
    if (!record) throw new Error(`application ${id} is gone`);
    return record;
  }

  describe("candidates", () => {
    it("listByEmail finds the company's applications with that normalized address, oldest first", async () => {
      const { companyId, job, application, email } = await world();
      const otherJob = await ctx.job(companyId);
      const earlier = shift(application.appliedAt, -60 * DAY);
      const elsewhere = makeApplication(companyId, otherJob.id, {
        candidate: { ...application.candidate, email: email.toUpperCase() },
        emailNormalized: email.toLowerCase(),
        appliedAt: earlier,
        updatedAt: earlier,
      });
      expect(await ctx.createApplication(elsewhere)).toEqual({ outcome: "created" });
      const stranger = makeApplication(companyId, otherJob.id);
      expect(await ctx.createApplication(stranger)).toEqual({ outcome: "created" });
      const other = await world({ candidate: application.candidate, emailNormalized: application.emailNormalized });

      const found = await ctx.storage.candidates.listByEmail(companyId, email.toLowerCase());
      expect(found.map((row) => row.id)).toEqual([elsewhere.id, application.id]);
      expect(found[1]).toEqual({ ...application, jobTitle: job.title });
      expect(await ctx.storage.candidates.listByEmail(companyId, email)).toEqual([]);
      expect((await ctx.storage.candidates.listByEmail(other.companyId, email.toLowerCase())).length).toBe(1);
    });

    it("erase leaves each application as erasedApplication makes it, deletes its notes, keeps its history and count", async () => {
      const { companyId, job, application, email } = await world();
      const keep = makeApplication(companyId, job.id);
      expect(await ctx.createApplication(keep)).toEqual({ outcome: "created" });
      const actor = { type: "host" as const, id: null, name: "Recruiter" };
      await ctx.storage.applications.addStageChange({
        id: newId("stg"),
        applicationId: application.id,
        companyId,
        fromStage: "new",
        toStage: "interview",
        actor,
        createdAt: shift(application.appliedAt, SECOND),
      });
      for (const body of ["Called her: great fit", "Second call"]) {
        await ctx.storage.applications.addNote({
          id: newId("note"),
          applicationId: application.id,
          companyId,
          body,
          actor,
          createdAt: now(),
        });
      }
      await ctx.storage.applications.addNote({
        id: newId("note"),
        applicationId: keep.id,
        companyId,
        body: "other",
        actor,
        createdAt: now(),
      });
      const history = await ctx.storage.applications.listStageChanges(companyId, application.id);
      expect(await ctx.inspect.findText(email), "the email is stored before the erasure").not.toEqual([]);
      const answerMarker = /answer-\w+/.exec(String(application.answers[0]?.value))?.[0] ?? "none";
      expect(await ctx.inspect.findText(answerMarker), "the answer is stored before the erasure").not.toEqual([]);

      const at = new Date(Math.floor(Date.now() / 1000) * 1000 + 123);
      const result = await ctx.storage.transaction((tx) =>
        tx.candidates.erase({ companyId, applicationIds: [application.id, newId("app")], erasedAt: at }),
      );
      const expected = { ...erasedApplication(application, at), jobTitle: job.title };
      expect(result).toEqual({
        erased: [expected],
        fileIds: [application.resumeFileId],
        notes: 2,
        events: 1,
        attempts: 0,
        idempotencyRecords: 0,
      });
      expect(await stored(companyId, application.id)).toEqual(expected);
      expect(await stored(companyId, keep.id)).toEqual({ ...keep, jobTitle: job.title });
      expect(await ctx.storage.applications.listNotes(companyId, application.id)).toEqual([]);
      expect((await ctx.storage.applications.listNotes(companyId, keep.id)).length).toBe(1);
      expect(await ctx.storage.applications.listStageChanges(companyId, application.id)).toEqual(history);
      expect(await ctx.storage.candidates.listByEmail(companyId, application.emailNormalized)).toEqual([]);
      await ctx.expectRaw("countNotes", [companyId, application.id], 0);
      await ctx.expectRaw("countNotes", [companyId, keep.id], 1);
      await ctx.expectRaw("jobApplicationsCount", [companyId, job.id], 2);
      await ctx.expectRaw("countApplications", [companyId, job.id], 2);
      await ctx.expectRaw("findText", [email], []);
      await ctx.expectRaw("findText", [application.candidate.name], []);
      await ctx.expectRaw("findText", ["Called her"], []);
      // The answers to the job's questions are personal data too; the knockout flag stays.
      expect(await stored(companyId, application.id)).toMatchObject({ answers: [], knockedOut: true });
      await ctx.expectRaw("findText", [answerMarker], []);
    });

    // The answers of webhook attempts: the webhook store suite (`@hireport/webhooks/testing`).
    it("erase redacts the subject's events and the company's stored API answers", async () => {
      const { companyId, job, application } = await world();
      const other = makeApplication(companyId, job.id);
      expect(await ctx.createApplication(other)).toEqual({ outcome: "created" });
      const mine = applicationEvent(application, job.title);
      const theirs = applicationEvent(other, job.title);
      for (const event of [mine, theirs]) await ctx.storage.events.append(event);

      const key = makeKey(companyId);
      await ctx.storage.keys.insert(key, { maxActive: 100, now: now() });
      ctx.ownKey(key.id);
      const answer = (id: string): StoredResponse => ({
        status: 201,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ data: { id, candidate: { name: "x", email: "y" }, cover_letter: "z" } }),
      });
      const claims = [application.id, other.id].map((id) => ({
        id,
        keyId: key.id,
        idempotencyKey: `idem-${newId("k")}`,
      }));
      for (const claim of claims) {
        await ctx.storage.idempotency.claim({
          keyId: claim.keyId,
          idempotencyKey: claim.idempotencyKey,
          requestHash: "hash",
          now: now(),
          expiresAt: shift(now(), DAY),
          lockedUntil: shift(now(), 30 * SECOND),
        });
        await ctx.storage.idempotency.complete(claim.keyId, claim.idempotencyKey, answer(claim.id));
      }

      const at = now();
      const result = await ctx.storage.transaction((tx) =>
        tx.candidates.erase({ companyId, applicationIds: [application.id], erasedAt: at }),
      );
      // Its application.created event (written by create) and the one above.
      expect(result).toMatchObject({ events: 2, attempts: 0, idempotencyRecords: 1 });
      expect((await ctx.storage.events.get(mine.id))?.payload).toBe(
        redactApplications(mine.payload, [application.id], at),
      );
      expect(JSON.parse((await ctx.storage.events.get(mine.id))?.payload ?? "{}").data).toMatchObject({
        id: application.id,
        job_title: job.title,
        candidate: { name: "", email: "", phone: "", location: "", linkedin_url: "", current_title: "", skills: [] },
        cover_letter: "",
        resume_url: null,
        stage: application.stage,
        erased_at: at.toISOString(),
      });
      expect(await ctx.storage.events.get(theirs.id)).toEqual(theirs);
      const [mineClaim, theirClaim] = claims;
      const replay = async (claim: (typeof claims)[number] | undefined) =>
        ctx.storage.idempotency.claim({
          keyId: claim?.keyId ?? "",
          idempotencyKey: claim?.idempotencyKey ?? "",
          requestHash: "hash",
          now: shift(at, SECOND),
          expiresAt: shift(at, DAY),
          lockedUntil: shift(at, 30 * SECOND),
        });
      expect(await replay(mineClaim)).toEqual({
        state: "completed",
        requestHash: "hash",
        response: {
          ...answer(application.id),
          body: redactApplications(answer(application.id).body, [application.id], at),
        },
      });
      expect(await replay(theirClaim)).toEqual({ state: "completed", requestHash: "hash", response: answer(other.id) });
      await ctx.expectRaw("findText", [application.candidate.email], []);
      await ctx.expectRaw("findText", [application.candidate.name], []);
    });

    it("a second erase changes nothing; other companies' and missing ids are left alone", async () => {
      const { companyId, job, application } = await world();
      const stranger = await world();
      const first = await ctx.storage.transaction((tx) =>
        tx.candidates.erase({ companyId, applicationIds: [application.id], erasedAt: now() }),
      );
      expect(first.erased.length).toBe(1);
      const after = await stored(companyId, application.id);
      const events = await ctx.storage.events.list(companyId, { take: 100 });
      const again = await ctx.storage.transaction((tx) =>
        tx.candidates.erase({
          companyId,
          applicationIds: [application.id, stranger.application.id, newId("app")],
          erasedAt: shift(now(), HOUR),
        }),
      );
      expect(again).toEqual({ erased: [], fileIds: [], notes: 0, events: 0, attempts: 0, idempotencyRecords: 0 });
      expect(await stored(companyId, application.id)).toEqual(after);
      expect(await ctx.storage.events.list(companyId, { take: 100 })).toEqual(events);
      expect(await stored(stranger.companyId, stranger.application.id)).toEqual({
        ...stranger.application,
        jobTitle: stranger.job.title,
      });
      expect(after.jobTitle).toBe(job.title);
    });

    it("erase with updatedBefore leaves an application changed since; a rolled-back erase leaves everything", async () => {
      const { companyId, application } = await world();
      const cut = shift(application.updatedAt, -SECOND);
      const skipped = await ctx.storage.transaction((tx) =>
        tx.candidates.erase({ companyId, applicationIds: [application.id], erasedAt: now(), updatedBefore: cut }),
      );
      expect(skipped.erased).toEqual([]);
      await expect(
        ctx.storage.transaction(async (tx) => {
          await tx.candidates.erase({ companyId, applicationIds: [application.id], erasedAt: now() });
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect((await stored(companyId, application.id)).erasedAt).toBeNull();
      expect((await stored(companyId, application.id)).candidate).toEqual(application.candidate);
      expect(await ctx.inspect.findText(application.candidate.email), "the email is still stored").not.toEqual([]);
    });

    it("erase locks the rows: a change that reads the application with a lock waits and sees the erasure", async () => {
      const { companyId, application } = await world();
      let erased!: () => void;
      const erasedSignal = new Promise<void>((resolve) => {
        erased = resolve;
      });
      const erasing = ctx.storage.transaction(async (tx) => {
        await tx.candidates.erase({ companyId, applicationIds: [application.id], erasedAt: now() });
        erased();
        // Hold the transaction (and its locks) open a while.
        await new Promise((resolve) => setTimeout(resolve, 150));
      });
      await erasedSignal;
      const seen = await ctx.storage.transaction(async (tx) => {
        const row = await tx.applications.get(companyId, application.id, { lock: true });
        return row?.erasedAt ?? null;
      });
      await erasing;
      expect(seen).not.toBeNull();
    });

    it("idempotency.complete with the subject stores a redacted answer once the application is erased", async () => {
      const { companyId, application } = await world();
      const key = makeKey(companyId);
      await ctx.storage.keys.insert(key, { maxActive: 100, now: now() });
      ctx.ownKey(key.id);
      const body = JSON.stringify({
        data: {
          id: application.id,
          candidate: { name: application.candidate.name, email: application.candidate.email },
        },
      });
      const claimFor = async () => {
        const idempotencyKey = `idem-${newId("k")}`;
        const t = now();
        await ctx.storage.idempotency.claim({
          keyId: key.id,
          idempotencyKey,
          requestHash: "hash",
          now: t,
          expiresAt: shift(t, DAY),
          lockedUntil: shift(t, 30 * SECOND),
        });
        return idempotencyKey;
      };
      const read = (idempotencyKey: string) =>
        ctx.storage.idempotency.claim({
          keyId: key.id,
          idempotencyKey,
          requestHash: "hash",
          now: now(),
          expiresAt: shift(now(), DAY),
          lockedUntil: shift(now(), 30 * SECOND),
        });
      const before = await claimFor();
      await ctx.storage.idempotency.complete(key.id, before, { status: 201, headers: {}, body }, application.id);
      expect(await read(before)).toMatchObject({ state: "completed", response: { body } });

      const during = await claimFor();
      const at = now();
      await ctx.storage.transaction((tx) =>
        tx.candidates.erase({ companyId, applicationIds: [application.id], erasedAt: at }),
      );
      await ctx.storage.idempotency.complete(key.id, during, { status: 201, headers: {}, body }, application.id);
      const redacted = redactApplications(body, [application.id], at);
      expect(redacted).not.toBe(body);
      expect(await read(during)).toMatchObject({ state: "completed", response: { status: 201, body: redacted } });
      expect(await read(before)).toMatchObject({ state: "completed", response: { body: redacted } });
      await ctx.expectRaw("findText", [application.candidate.email], []);
    });
  });
}
