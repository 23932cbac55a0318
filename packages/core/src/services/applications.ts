import { HireportError, notFound } from "../base/errors";
import { newEvent } from "../events/events";
import { answersError, checkAnswers } from "../fields/answers";
import { APPLICATION_FIELDS } from "../fields/application";
import { CANDIDATE_FIELDS } from "../fields/candidate";
import { recordFromBody } from "../fields/field";
import { cursorScope } from "../model/cursor";
import type {
  Actor,
  ApplicationRecord,
  ApplicationStage,
  AuditRecord,
  JobRecord,
  NoteRecord,
  StageChangeRecord,
} from "../model/domain";
import { newId } from "../model/ids";
import { type Page, pageRequest, toPage } from "../model/paging";
import { REPLICA, type ReadOptions } from "../runtime/read-options";
import { announceEvents, type Runtime, runChange, type Written } from "../runtime/runtime";
import type { ApplicationCreateBody, ApplicationPatchBody } from "../schemas/application";
import type { ApplicationPatch, NewApplication, StoredFileInfo } from "../storage";
import type { ApplicationWire } from "../wire/serialize";
import { recordAudit } from "./audit-log";

const DAY_MS = 24 * 60 * 60 * 1000;
const INITIAL_STAGE: ApplicationStage = "new";
/** Reads of the job before a create gives up because the job keeps changing under it. */
const MAX_JOB_READS = 5;

/** Which applications to list, and where the page starts. */
export interface ApplicationListOptions {
  /** Only applications to this job; a job of another company is not found (404). */
  jobId?: string;
  /** Only applications in this stage. */
  stage?: ApplicationStage;
  /** Only applications changed at or after this time. */
  updatedSince?: Date;
  /** Page size, 1 to 100. @default 25 */
  limit?: number;
  /** The `nextCursor` of the previous page, with the same filters. */
  cursor?: string;
}

/** A CV file to keep with a new application (an upload through the careers site). */
export interface NewResume {
  /** The name the candidate's file had, at most 255 characters (longer names are cut). */
  filename: string;
  /** The media type read from the bytes, never from the name or the declared type. */
  contentType: string;
  /** The bytes, as a stream (read as they arrive) or a buffer. */
  body: ReadableStream<Uint8Array> | Uint8Array;
}

/** What else a new application comes with, beyond its body. */
export interface ApplicationCreateExtras {
  /**
   * A CV file: put in the `fileStore` of `createPublicApi` before the application is written and
   * named by its `resumeFileId`; deleted again when the application is refused.
   */
  resume?: NewResume;
  /**
   * Take the application only while the job is public (active, not hidden, closing date not
   * passed): what the careers site's form does. A job that is not public is refused with 422
   * `invalid`, field `job_id`. @default false (draft and paused jobs take candidates, closed ones do not)
   */
  publicJobOnly?: boolean;
}

/** What `requestHumanReview` did: `requested` is false when the candidate had asked already. */
/**
 * An audit entry to record with a stage move, in the move's transaction: who made it (an assistant
 * through a key, confirmed by a person) and what says more. The entry's action is
 * `application.stage_changed`, its target the application, and `from_stage` and `to_stage` are
 * added to `details`. Nothing is recorded when the stage does not change.
 */
export interface StageChangeAudit {
  actor: Actor;
  details: AuditRecord["details"];
}

export interface HumanReviewResult {
  requested: boolean;
}

/** The note that records a human-review request in the application's history. */
export const HUMAN_REVIEW_NOTE = "The candidate asked for a person to review this application.";

/** The e-mail as the duplicate rule compares it: trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function clampScore(score: number): number {
  if (!Number.isFinite(score)) return 0;
  return Math.min(100, Math.max(0, Math.round(score * 100) / 100));
}

function uniqueTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim()).filter((tag) => tag.length > 0))];
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/** Whether a value sent is the one stored (a list or a `json` value compared as JSON). */
function sameValue(sent: unknown, stored: unknown): boolean {
  if (sent === stored) return true;
  return typeof sent === "object" && sent !== null && JSON.stringify(sent) === JSON.stringify(stored);
}

/**
 * The fields PATCH /applications/{id} takes that are written as sent when they differ, by record
 * and wire name: every field it takes (`patch` with an input check) but the stage (a move is
 * recorded in the history) and the tags (trimmed and made unique), which have rules of their own.
 */
const PLAIN_PATCH_FIELDS = Object.entries(APPLICATION_FIELDS)
  .filter(([name, spec]) => spec.patch && spec.input !== undefined && name !== "stage" && name !== "tags")
  .map(
    ([name, spec]) =>
      [name as keyof ApplicationPatch & keyof ApplicationRecord, spec.wire as keyof ApplicationPatchBody] as const,
  );

/**
 * Applications: add candidates, move stages, notes, tags, stars, behind the HTTP handlers and the
 * host's `api.applications` alike. Inputs arrive validated; each write returns its record and the
 * wire object it emitted, built once (one signed CV link, not two).
 */
export class ApplicationService {
  readonly #runtime: Runtime;

  constructor(runtime: Runtime) {
    this.#runtime = runtime;
  }

  /**
   * Adds a candidate to one of the company's jobs, in stage `new`, and emits application.created,
   * through the storage's one write path (`applications.create`). Refuses a closed job with 422
   * (field `job_id`); draft and paused jobs take candidates. Refuses with 409 duplicate when
   * the same e-mail applied to the same job in the duplicate window, also when two identical
   * requests race. `actor` names who added it (the history entry). `source` defaults to `api` for
   * a key and `host` otherwise. With `extras.resume`, the file is put in the file store first and
   * deleted again when the application is refused: nothing is left half-written.
   */
  async create(
    companyId: string,
    body: ApplicationCreateBody,
    actor: Actor,
    extras: ApplicationCreateExtras = {},
  ): Promise<Written<ApplicationRecord, ApplicationWire>> {
    const { fileStore, recentJobs } = this.#runtime;
    if (extras.resume && !fileStore) {
      throw new Error("hireport: a CV file needs the fileStore option of createPublicApi.");
    }
    // A job read for an application a moment ago serves: the write checks that it is still the
    // job's current version (runtime/recent-jobs.ts).
    const job = recentJobs.get(companyId, body.job_id) ?? (await this.#readJob(companyId, body.job_id));
    // Checked before the CV is put: a refused application leaves nothing behind.
    const checked = this.#check(job, body, extras);
    let file: StoredFileInfo | null = null;
    if (extras.resume && fileStore) {
      file = await fileStore.put({
        companyId,
        filename: extras.resume.filename.slice(0, 255),
        contentType: extras.resume.contentType,
        body: extras.resume.body,
      });
    }
    try {
      return await this.#insert(companyId, body, actor, { job, ...checked }, file, extras);
    } catch (error) {
      if (file && fileStore) {
        // Refused (a duplicate, the job gone) or failed: the file goes too.
        await fileStore.delete(companyId, file.id).catch((failure: unknown) => {
          this.#runtime.logger.error("hireport: a refused application's CV could not be deleted", {
            fileId: file?.id,
            error: String(failure),
          });
        });
      }
      throw error;
    }
  }

  async #insert(
    companyId: string,
    body: ApplicationCreateBody,
    actor: Actor,
    firstRead: CheckedJob,
    file: StoredFileInfo | null,
    extras: ApplicationCreateExtras,
  ): Promise<Written<ApplicationRecord, ApplicationWire>> {
    const { storage, scoring, limits, clock, serializer } = this.#runtime;
    let { job, answers, knockedOut } = firstRead;
    // The candidate as the body gives it (checked and trimmed by its schema), every field declared.
    const candidate = recordFromBody(CANDIDATE_FIELDS, body.candidate);
    // Numbered before the write, so the company's counter row is not held while the job's row is
    // locked (every application of the company would queue on it); a refused one leaves a gap.
    const sequence = await this.#runtime.referenceNumbers.next(companyId, "application");
    for (let read = 1; ; read++) {
      // A copy: the job may be the one remembered for the next applications.
      const aiMatch = clampScore(await scoring({ job: { ...job }, candidate }));
      const now = clock.now();
      // The fields the body gives (the others at their defaults), then those the service decides.
      const record: NewApplication = {
        id: newId("app", now),
        companyId,
        jobId: job.id,
        reference: `APP-${1000 + sequence}`,
        candidate,
        ...recordFromBody(APPLICATION_FIELDS, body),
        emailNormalized: normalizeEmail(candidate.email),
        resumeFileId: file?.id ?? null,
        source: body.source ?? (actor.type === "api_key" ? "api" : "host"),
        consentAt: body.consent === true ? now : null,
        stage: INITIAL_STAGE,
        aiMatch,
        answers,
        knockedOut,
        appliedAt: now,
        updatedAt: now,
      };
      const stored: ApplicationRecord = { ...record, jobTitle: job.title };
      const wire = await serializer.application(stored);
      // Written by the storage's own create, not through runChange: the span active now goes with it here.
      const traceparent = this.#runtime.telemetry?.traceparent();
      const event = newEvent({ type: "application.created", companyId, data: wire, now, traceparent });
      const result = await storage.applications.create({
        record,
        duplicateSince: new Date(now.getTime() - limits.duplicateWindowDays * DAY_MS),
        initialStageChange: stageChange(record, null, INITIAL_STAGE, actor, now),
        event,
        jobTitle: job.title,
        jobUpdatedAt: job.updatedAt,
      });
      if (result.outcome === "created") {
        announceEvents(this.#runtime, [event]);
        return { record: stored, wire };
      }
      if (result.outcome === "duplicate") throw this.#duplicate(result.existingId);
      // The job changed since it was read (gone, closed, renamed: the event must carry the new
      // title, its questions...): read it again, check the application against it, write again.
      if (read >= MAX_JOB_READS) {
        throw new Error(`The job ${job.id} changed ${read} times while an application was being added to it.`);
      }
      job = await this.#readJob(companyId, job.id);
      ({ answers, knockedOut } = this.#check(job, body, extras));
    }
  }

  /** Reads the job from the storage and remembers it for the next applications; 404 when there is none. */
  async #readJob(companyId: string, jobId: string): Promise<JobRecord> {
    const job = await this.#runtime.storage.jobs.get(companyId, jobId);
    if (!job) {
      this.#runtime.recentJobs.forget(companyId, jobId);
      throw notFound("job");
    }
    this.#runtime.recentJobs.remember(job);
    return job;
  }

  /**
   * Whether the job takes this application: not closed (draft and paused jobs do), public when the
   * careers site asks, the answers fitting its questions (returned as stored). A job closed between
   * this check and the write takes the application as if it had come first.
   */
  #check(job: JobRecord, body: ApplicationCreateBody, extras: ApplicationCreateExtras): Answers {
    if (job.status === "closed") throw closedJob();
    if (extras.publicJobOnly && !this.#runtime.publicJobs.isPublic(job)) throw notPublicJob();
    return answersFor(job, body);
  }

  /** 409 duplicate (docs/api-reference.md, POST /applications), naming the earlier application. */
  #duplicate(existingId: string): HireportError {
    return new HireportError(
      "duplicate",
      `This candidate already applied to this job in the last ${this.#runtime.limits.duplicateWindowDays} days.`,
      { extra: { existing_id: existingId } },
    );
  }

  /**
   * Applies a PATCH of docs/api-reference.md, PATCH /applications/{id}: a stage move (recorded in the history with the actor's name), a
   * note (added to the recruiter notes), tags (replaced), and the other fields it takes (starred) as
   * sent. Emits application.updated when the application changed; a move to the current stage
   * changes nothing and emits nothing.
   */
  async update(
    companyId: string,
    id: string,
    body: ApplicationPatchBody,
    actor: Actor,
    stageAudit?: StageChangeAudit,
  ): Promise<Written<ApplicationRecord, ApplicationWire>> {
    return runChange(this.#runtime, async (tx, emit, now) => {
      const current = await tx.applications.get(companyId, id, { lock: true });
      if (!current) throw notFound("application");
      // Read under the lock: a PATCH that waited for an erasure sees it, and brings no personal data back.
      if (current.erasedAt && body.note !== undefined) throw noteOnErased();
      const patch: ApplicationPatch = { updatedAt: now };
      let changed = false;
      if (body.stage !== undefined && body.stage !== current.stage) {
        patch.stage = body.stage;
        changed = true;
        await tx.applications.addStageChange(stageChange(current, current.stage, body.stage, actor, now));
        if (stageAudit) {
          const target = { type: "application", id: current.id };
          const details = { ...stageAudit.details, from_stage: current.stage, to_stage: body.stage };
          await recordAudit(
            tx,
            { companyId, actor: stageAudit.actor, action: "application.stage_changed", target, details },
            now,
          );
        }
      }
      if (body.tags !== undefined) {
        const tags = uniqueTags(body.tags);
        if (!sameList(tags, current.tags)) {
          patch.tags = tags;
          changed = true;
        }
      }
      for (const [name, wire] of PLAIN_PATCH_FIELDS) {
        const value = body[wire];
        if (value !== undefined && !sameValue(value, current[name])) {
          (patch as Record<string, unknown>)[name] = value;
          changed = true;
        }
      }
      if (body.note !== undefined && body.note.trim().length > 0) {
        const note: NoteRecord = {
          id: newId("note", now),
          applicationId: current.id,
          companyId,
          body: body.note,
          actor,
          createdAt: now,
        };
        await tx.applications.addNote(note);
      }
      if (!changed) return this.#unchanged(current);
      const updated = await tx.applications.update(companyId, id, patch);
      if (!updated) throw notFound("application");
      const wire = await this.#runtime.serializer.application(updated);
      await emit("application.updated", companyId, wire);
      return { record: updated, wire };
    });
  }

  /**
   * Records that the candidate asked for a person to review the application (docs/personal-data.md): sets
   * `humanReviewRequestedAt` once, adds a note with its time to the application's history (by
   * `actor`), and emits application.updated. Asking again changes nothing and emits nothing.
   */
  async requestHumanReview(
    companyId: string,
    id: string,
    actor: Actor,
  ): Promise<Written<ApplicationRecord, ApplicationWire> & HumanReviewResult> {
    return runChange(this.#runtime, async (tx, emit, now) => {
      const current = await tx.applications.get(companyId, id, { lock: true });
      if (!current) throw notFound("application");
      // Erased: nothing is left of the candidate to review for them (and no link should record anything).
      if (current.erasedAt !== null) {
        throw new HireportError(
          "not_found",
          "This application's candidate data was erased: it takes no review request.",
        );
      }
      if (current.humanReviewRequestedAt !== null) return { ...(await this.#unchanged(current)), requested: false };
      await tx.applications.addNote({
        id: newId("note", now),
        applicationId: current.id,
        companyId,
        body: HUMAN_REVIEW_NOTE,
        actor,
        createdAt: now,
      });
      const updated = await tx.applications.update(companyId, id, { humanReviewRequestedAt: now, updatedAt: now });
      if (!updated) throw notFound("application");
      const wire = await this.#runtime.serializer.application(updated);
      await emit("application.updated", companyId, wire);
      return { record: updated, wire, requested: true };
    });
  }

  /** Sets `scores.overall` (0 to 100, or null to clear) and emits application.updated. */
  async setOverallScore(
    companyId: string,
    id: string,
    score: number | null,
  ): Promise<Written<ApplicationRecord, ApplicationWire>> {
    if (score !== null && (!Number.isFinite(score) || score < 0 || score > 100)) {
      throw new HireportError("invalid", "The overall score must be a number from 0 to 100, or null.", {
        fields: [{ field: "overall", message: "Must be a number from 0 to 100, or null." }],
      });
    }
    return runChange(this.#runtime, async (tx, emit, now) => {
      const current = await tx.applications.get(companyId, id, { lock: true });
      if (!current) throw notFound("application");
      if (current.overallScore === score) return this.#unchanged(current);
      const updated = await tx.applications.update(companyId, id, { overallScore: score, updatedAt: now });
      if (!updated) throw notFound("application");
      const wire = await this.#runtime.serializer.application(updated);
      await emit("application.updated", companyId, wire);
      return { record: updated, wire };
    });
  }

  async get(companyId: string, id: string, options?: ReadOptions): Promise<ApplicationRecord> {
    const application = await this.#runtime.storage.applications.get(
      companyId,
      id,
      options?.replica ? REPLICA : undefined,
    );
    if (!application) throw notFound("application");
    return application;
  }

  /** One page of the company's applications, newest first. */
  async list(companyId: string, options: ApplicationListOptions): Promise<Page<ApplicationRecord>> {
    const { storage, cursors } = this.#runtime;
    const scope = cursorScope("applications", companyId, {
      job_id: options.jobId,
      stage: options.stage,
      updated_since: options.updatedSince?.toISOString(),
    });
    const request = await pageRequest(cursors, scope, options);
    // A job filter names a job of the company: another company's job is not found, never an empty page.
    if (options.jobId !== undefined && !(await storage.jobs.get(companyId, options.jobId, REPLICA))) {
      throw notFound("job");
    }
    const rows = await storage.applications.list({
      companyId,
      take: request.limit + 1,
      ...(options.jobId !== undefined ? { jobId: options.jobId } : {}),
      ...(options.stage !== undefined ? { stage: options.stage } : {}),
      ...(options.updatedSince ? { updatedSince: options.updatedSince } : {}),
      ...(request.after ? { after: request.after } : {}),
    });
    return toPage(cursors, request, rows, (application) => application.appliedAt);
  }

  /** The stage history, oldest first, each move with the name of who made it. */
  async history(companyId: string, id: string): Promise<StageChangeRecord[]> {
    await this.get(companyId, id);
    return this.#runtime.storage.applications.listStageChanges(companyId, id);
  }

  /** The recruiter notes, oldest first. */
  async notes(companyId: string, id: string): Promise<NoteRecord[]> {
    await this.get(companyId, id);
    return this.#runtime.storage.applications.listNotes(companyId, id);
  }

  async #unchanged(application: ApplicationRecord): Promise<Written<ApplicationRecord, ApplicationWire>> {
    return { record: application, wire: await this.#runtime.serializer.application(application) };
  }
}

/** The answers of `body` checked against the job's questions (422 `invalid` when they do not fit). */
function answersFor(job: JobRecord, body: ApplicationCreateBody): Answers {
  const checked = checkAnswers(job.questions, body.answers ?? []);
  if (!checked.ok) throw answersError(checked.problems);
  return { answers: checked.answers, knockedOut: checked.knockedOut };
}

/** An application's answers as stored, and whether one of them knocks the candidate out. */
interface Answers {
  answers: ApplicationRecord["answers"];
  knockedOut: boolean;
}

/** The job an application was checked against, with its answers. */
interface CheckedJob extends Answers {
  job: JobRecord;
}

/** 422 for a note on an erased application: notes are about the candidate, whose data was erased. */
function noteOnErased(): HireportError {
  return new HireportError("invalid", "The request body is not valid. note: The candidate's data was erased.", {
    fields: [
      {
        field: "note",
        message: "The candidate's personal data was erased from this application: it takes no more notes.",
      },
    ],
  });
}

/** 422 for a job that is not public, when only public jobs take applications (the careers site's form). */
function notPublicJob(): HireportError {
  return new HireportError("invalid", "The request body is not valid. job_id: The job is not open for applications.", {
    fields: [{ field: "job_id", message: "The job is no longer open for applications." }],
  });
}

/** 422 for a closed job: draft and paused jobs still take candidates. */
function closedJob(): HireportError {
  return new HireportError("invalid", "The request body is not valid. job_id: The job is closed.", {
    fields: [
      {
        field: "job_id",
        message: "The job is closed: reopen it (PATCH /jobs/{id} with a status) before adding candidates.",
      },
    ],
  });
}

function stageChange(
  application: { id: string; companyId: string },
  from: ApplicationStage | null,
  to: ApplicationStage,
  actor: Actor,
  now: Date,
): StageChangeRecord {
  return {
    id: newId("stg", now),
    applicationId: application.id,
    companyId: application.companyId,
    fromStage: from,
    toStage: to,
    actor,
    createdAt: now,
  };
}
