import { type ChangeOptions, hostActor } from "../actor";
import type { Actor, ApplicationRecord, ApplicationStage, NoteRecord, StageChangeRecord } from "../domain";
import { HireportError, notFound } from "../errors";
import { newEvent } from "../events";
import { newId } from "../ids";
import { announceEvents, type Runtime, runChange } from "../runtime";
import {
  type ApplicationCreateBody,
  type ApplicationPatchBody,
  applicationCreateBodySchema,
  applicationPatchBodySchema,
} from "../schemas/application";
import type { ApplicationPatch, KeysetPosition, NewApplication } from "../storage";
import { parseBody } from "../validation";

const DAY_MS = 24 * 60 * 60 * 1000;
const INITIAL_STAGE: ApplicationStage = "new";

export interface ApplicationListInput {
  jobId?: string;
  stage?: ApplicationStage;
  updatedSince?: Date;
  after?: KeysetPosition;
  take: number;
}

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

/** Applications: add candidates, move stages, notes, tags, stars; for HTTP handlers and host code alike. */
export class ApplicationService {
  readonly #runtime: Runtime;

  constructor(runtime: Runtime) {
    this.#runtime = runtime;
  }

  /**
   * Adds a candidate to one of the company's jobs, in stage `new`, and emits application.created.
   * Refuses with 409 duplicate when the same e-mail applied to the same job in the duplicate window,
   * also when two identical requests race. `options.actor` names who added it (the history entry);
   * host code passes a label such as `{ actor: "Careers page" }`. @default actor "host"
   */
  async create(companyId: string, input: unknown, options?: ChangeOptions): Promise<ApplicationRecord> {
    const actor = hostActor(options);
    const body: ApplicationCreateBody = parseBody(applicationCreateBodySchema, input);
    const { storage, scoring, limits } = this.#runtime;
    const job = await storage.jobs.get(companyId, body.job_id);
    if (!job) throw notFound("job");
    const candidate = {
      name: body.candidate.name.trim(),
      email: body.candidate.email.trim(),
      phone: body.candidate.phone ?? "",
      location: body.candidate.location ?? "",
      linkedinUrl: body.candidate.linkedin_url ?? "",
      currentTitle: body.candidate.current_title ?? "",
      skills: [...(body.candidate.skills ?? [])],
    };
    const aiMatch = clampScore(await scoring({ job, candidate }));
    // Numbered before the transaction, so the company's counter row is not held until commit
    // (every application of the company would queue on it); a refused one leaves a gap.
    const sequence = await storage.companies.nextSequence(companyId, "application");
    const newApplication = (now: Date): NewApplication => ({
      id: newId("app", now),
      companyId,
      jobId: job.id,
      reference: `APP-${1000 + sequence}`,
      candidate,
      emailNormalized: normalizeEmail(candidate.email),
      coverLetter: body.cover_letter ?? "",
      resumeSourceUrl: body.resume_url ?? null,
      source: body.source ?? (actor.type === "api_key" ? "api" : "host"),
      consent: body.consent ?? null,
      consentAt: body.consent === true ? now : null,
      stage: INITIAL_STAGE,
      aiMatch,
      overallScore: null,
      tags: [],
      starred: false,
      appliedAt: now,
      updatedAt: now,
    });
    const duplicateSince = (now: Date) => new Date(now.getTime() - limits.duplicateWindowDays * DAY_MS);

    if (storage.applications.insertWithEvent) {
      // One atomic call: the event is built first, from the job's title as read above; the
      // storage refuses (`job_changed`) when the locked job no longer has that title.
      const now = this.#runtime.clock.now();
      const record = newApplication(now);
      const stored: ApplicationRecord = { ...record, jobTitle: job.title };
      const data = await this.#runtime.serializer.application(stored);
      const event = newEvent({ type: "application.created", companyId, data, now });
      const result = await storage.applications.insertWithEvent({
        record,
        duplicateSince: duplicateSince(now),
        initialStageChange: this.#stageChange(record, null, INITIAL_STAGE, actor, now),
        event,
        jobTitle: job.title,
      });
      if (result.outcome === "inserted") {
        announceEvents(this.#runtime, [event]);
        return stored;
      }
      if (result.outcome === "duplicate") throw this.#duplicate(result.existingId);
      // The job changed meanwhile: gone (404), or renamed (the transaction below reads its title
      // under the lock).
      if (!(await storage.jobs.get(companyId, job.id))) throw notFound("job");
    }

    return runChange(this.#runtime, async (tx, emit, now) => {
      const record = newApplication(now);
      const initialStageChange = this.#stageChange(record, null, INITIAL_STAGE, actor, now);
      const result = await tx.applications.insertUnlessDuplicate(record, {
        duplicateSince: duplicateSince(now),
        initialStageChange,
      });
      if (!result.inserted) throw this.#duplicate(result.existingId);
      if (!result.stageChangeStored) await tx.applications.addStageChange(initialStageChange);
      // Stored exactly as inserted (the storage contract's round trips): read back only when the
      // storage did not say the job's title.
      const stored =
        result.jobTitle !== undefined
          ? { ...record, jobTitle: result.jobTitle }
          : await tx.applications.get(companyId, record.id);
      if (!stored) throw new Error("The application just inserted could not be read back.");
      await emit("application.created", companyId, await this.#runtime.serializer.application(stored));
      return stored;
    });
  }

  /** 409 duplicate (spec 4.8), naming the earlier application. */
  #duplicate(existingId: string): HireportError {
    return new HireportError(
      "duplicate",
      `This candidate already applied to this job in the last ${this.#runtime.limits.duplicateWindowDays} days.`,
      { extra: { existing_id: existingId } },
    );
  }

  /**
   * Applies a PATCH of spec 4.10: a stage move (recorded in the history with the actor's name), a
   * note (added to the recruiter notes), tags (replaced) and starred. Emits application.updated when
   * the application changed; a move to the current stage changes nothing and emits nothing.
   */
  async update(companyId: string, id: string, input: unknown, options?: ChangeOptions): Promise<ApplicationRecord> {
    const actor = hostActor(options);
    const body: ApplicationPatchBody = parseBody(applicationPatchBodySchema, input);
    return runChange(this.#runtime, async (tx, emit, now) => {
      const current = await tx.applications.get(companyId, id, { lock: true });
      if (!current) throw notFound("application");
      const patch: ApplicationPatch = { updatedAt: now };
      let changed = false;
      if (body.stage !== undefined && body.stage !== current.stage) {
        patch.stage = body.stage;
        changed = true;
        await tx.applications.addStageChange(this.#stageChange(current, current.stage, body.stage, actor, now));
      }
      if (body.tags !== undefined) {
        const tags = uniqueTags(body.tags);
        if (!sameList(tags, current.tags)) {
          patch.tags = tags;
          changed = true;
        }
      }
      if (body.starred !== undefined && body.starred !== current.starred) {
        patch.starred = body.starred;
        changed = true;
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
      if (!changed) return current;
      const updated = await tx.applications.update(companyId, id, patch);
      if (!updated) throw notFound("application");
      await emit("application.updated", companyId, await this.#runtime.serializer.application(updated));
      return updated;
    });
  }

  /** Sets `scores.overall` (0 to 100, or null to clear) and emits application.updated. */
  async setOverallScore(companyId: string, id: string, score: number | null): Promise<ApplicationRecord> {
    if (score !== null && (!Number.isFinite(score) || score < 0 || score > 100)) {
      throw new HireportError("invalid", "The overall score must be a number from 0 to 100, or null.", {
        fields: [{ field: "overall", message: "Must be a number from 0 to 100, or null." }],
      });
    }
    return runChange(this.#runtime, async (tx, emit, now) => {
      const current = await tx.applications.get(companyId, id, { lock: true });
      if (!current) throw notFound("application");
      if (current.overallScore === score) return current;
      const updated = await tx.applications.update(companyId, id, { overallScore: score, updatedAt: now });
      if (!updated) throw notFound("application");
      await emit("application.updated", companyId, await this.#runtime.serializer.application(updated));
      return updated;
    });
  }

  async get(companyId: string, id: string): Promise<ApplicationRecord> {
    const application = await this.#runtime.storage.applications.get(companyId, id);
    if (!application) throw notFound("application");
    return application;
  }

  async list(companyId: string, input: ApplicationListInput): Promise<ApplicationRecord[]> {
    return this.#runtime.storage.applications.list({ companyId, ...input });
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

  #stageChange(
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
}
