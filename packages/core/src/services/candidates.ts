import { type ChangeOptions, hostActor } from "../access/actor";
import {
  CANDIDATE_EXPORT_FORMAT,
  CANDIDATE_EXPORT_VERSION,
  type CandidateExport,
  exportedApplication,
} from "../applications/candidate-export";
import { type FieldError, HireportError, notFound } from "../base/errors";
import type { Actor, ApplicationRecord } from "../model/domain";
import { type Runtime, runChange } from "../runtime/runtime";
import { normalizeEmail } from "./applications";
import { recordAudit } from "./audit-log";

/** Whose data: one person by e-mail address (each of their applications in the company), or one application. */
export type CandidateTarget = { email: string } | { applicationId: string };

/** Options of `api.candidates.erase`. */
export interface CandidateEraseOptions {
  /** Who erases (the person acting for the company): recorded in the audit list. Required. */
  actor: string | Actor;
}

/** What an erasure did. Ids and counts only: it holds no personal data. */
export interface CandidateErasure {
  /** The erasure's time (`erased_at` of the applications); null when there was nothing to erase. */
  erasedAt: Date | null;
  /** The applications erased by this call, oldest first. */
  applicationIds: string[];
  /** The applications the request named that an earlier erasure (or retention) had erased: left as they were. */
  alreadyErased: string[];
  /**
   * What went: notes deleted, event payloads, attempt answers and stored API answers redacted, CV
   * files deleted by this call (a file the store no longer had, removed by an earlier try, counts none).
   */
  counts: { notes: number; events: number; attempts: number; idempotencyRecords: number; files: number };
  /** The id of the `candidate.erased` audit entry, or null when nothing was erased. */
  auditId: string | null;
}

/** Why an erasure runs, as the audit entry says (`details.by`). */
type ErasureReason = "email" | "application_id" | "retention";

const MAX_EMAIL = 254;
const MAX_ID = 200;

function invalid(fields: FieldError[]): HireportError {
  return new HireportError("invalid", `${fields.map((field) => `${field.field}: ${field.message}`).join(" ")}`, {
    fields,
  });
}

/** The target as given, checked: exactly one of `email` and `applicationId`, each a non-empty string. */
function parseTarget(target: unknown): { email: string } | { applicationId: string } {
  const bag = (typeof target === "object" && target !== null ? target : {}) as Record<string, unknown>;
  const hasEmail = bag.email !== undefined;
  const hasId = bag.applicationId !== undefined;
  if (hasEmail === hasId) {
    const message = hasEmail
      ? "Give either email or applicationId, not both."
      : "Give the candidate's email, or the applicationId of one application.";
    throw invalid([{ field: "email", message }]);
  }
  if (hasEmail) {
    const email = typeof bag.email === "string" ? bag.email.trim() : "";
    if (email.length === 0 || email.length > MAX_EMAIL) {
      throw invalid([{ field: "email", message: `Must be an e-mail address of 1 to ${MAX_EMAIL} characters.` }]);
    }
    return { email };
  }
  const id = bag.applicationId;
  if (typeof id !== "string" || id.length === 0 || id.length > MAX_ID) {
    throw invalid([{ field: "applicationId", message: `Must be an application id of 1 to ${MAX_ID} characters.` }]);
  }
  return { applicationId: id };
}

/** The erasing actor, which is required: an erasure must say who made it. */
function requiredActor(options: CandidateEraseOptions | undefined): Actor {
  const actor: unknown = options?.actor;
  if (typeof actor === "string" && actor.trim().length > 0) return hostActor({ actor: actor.trim() });
  if (typeof actor === "object" && actor !== null) {
    const { type, id, name } = actor as Partial<Actor>;
    if (typeof name === "string" && name.trim().length > 0) {
      return { type: type === "api_key" ? "api_key" : "host", id: typeof id === "string" ? id : null, name };
    }
  }
  throw invalid([{ field: "actor", message: "Say who erases the data (a name, or { type, id, name })." }]);
}

/**
 * Candidates' personal data, as one person's: find it, export it (an access request), erase it (an
 * erasure request). Erasure goes through one path (`#erase`), for a host's request and for
 * retention alike: the CV files first, then one transaction (the storage's `candidates.erase`, an
 * `application.updated` per application carrying the erased state, the audit entry).
 */
export class CandidateService {
  readonly #runtime: Runtime;

  constructor(runtime: Runtime) {
    this.#runtime = runtime;
  }

  /**
   * The applications a target names: by e-mail, each of the company's applications whose address
   * matches as the duplicate rule compares it (oldest first; erased ones have none); by id, that
   * application (404 for another company's or a missing one).
   */
  async find(companyId: string, target: CandidateTarget): Promise<ApplicationRecord[]> {
    const parsed = parseTarget(target);
    const { storage } = this.#runtime;
    if ("email" in parsed) return storage.candidates.listByEmail(companyId, normalizeEmail(parsed.email));
    const application = await storage.applications.get(companyId, parsed.applicationId);
    if (!application) throw notFound("application");
    return [application];
  }

  /** Everything stored about the person with this address in the company, as one document; audited. */
  async export(companyId: string, target: { email: string }, options?: ChangeOptions): Promise<CandidateExport> {
    const parsed = parseTarget(target);
    if (!("email" in parsed)) {
      throw invalid([{ field: "email", message: "An export is by e-mail address: give email." }]);
    }
    const { storage, serializer, clock } = this.#runtime;
    const email = normalizeEmail(parsed.email);
    const applications = await storage.candidates.listByEmail(companyId, email);
    const exported = [];
    for (const application of applications) {
      const [notes, history] = await Promise.all([
        storage.applications.listNotes(companyId, application.id),
        storage.applications.listStageChanges(companyId, application.id),
      ]);
      exported.push(await exportedApplication(serializer, application, notes, history));
    }
    const now = clock.now();
    await recordAudit(
      storage,
      {
        companyId,
        actor: hostActor(options),
        action: "candidate.exported",
        target: { type: "candidate", id: null },
        details: { applications: applications.length, application_ids: applications.map((row) => row.id) },
      },
      now,
    );
    return {
      format: CANDIDATE_EXPORT_FORMAT,
      version: CANDIDATE_EXPORT_VERSION,
      exported_at: now.toISOString(),
      company_id: companyId,
      email,
      applications: exported,
    };
  }

  /** Erases the person's data from the applications the target names (see `#erase`). */
  async erase(companyId: string, target: CandidateTarget, options: CandidateEraseOptions): Promise<CandidateErasure> {
    const parsed = parseTarget(target);
    const actor = requiredActor(options);
    const applications = await this.find(companyId, parsed);
    const reason: ErasureReason = "email" in parsed ? "email" : "application_id";
    const auditTarget = "email" in parsed ? null : parsed.applicationId;
    return this.#erase(companyId, applications, actor, reason, auditTarget);
  }

  /** Retention's erasure of applications of one company last changed before `updatedBefore`. */
  async eraseForRetention(
    companyId: string,
    ids: readonly string[],
    updatedBefore: Date,
    actor: Actor,
  ): Promise<CandidateErasure> {
    const found = await Promise.all(ids.map((id) => this.#runtime.storage.applications.get(companyId, id)));
    const applications = found.filter(
      (application): application is ApplicationRecord =>
        application !== null && application.updatedAt.getTime() < updatedBefore.getTime(),
    );
    return this.#erase(companyId, applications, actor, "retention", null, updatedBefore);
  }

  async #erase(
    companyId: string,
    applications: readonly ApplicationRecord[],
    actor: Actor,
    reason: ErasureReason,
    auditTargetId: string | null,
    updatedBefore?: Date,
  ): Promise<CandidateErasure> {
    const { serializer, fileStore, logger } = this.#runtime;
    const alreadyErased = applications.filter((row) => row.erasedAt !== null).map((row) => row.id);
    const toErase = applications.filter((row) => row.erasedAt === null);
    const nothing: CandidateErasure = {
      erasedAt: null,
      applicationIds: [],
      alreadyErased,
      counts: { notes: 0, events: 0, attempts: 0, idempotencyRecords: 0, files: 0 },
      auditId: null,
    };
    if (toErase.length === 0) return nothing;

    // The files first: should their deletion fail, nothing is redacted yet and a retry does it all
    // again (deleting a file twice is safe), so no file is ever left that no application names.
    const withFiles = toErase.filter((row) => row.resumeFileId !== null);
    if (withFiles.length > 0 && !fileStore) {
      throw new Error(
        "hireport: these applications have CV files, but createPublicApi was given no fileStore to delete them from: pass the same fileStore the careers site uses.",
      );
    }
    // Tried: deleted now, or found gone already (an earlier erasure that failed later removed it).
    const tried = new Set<string>();
    const deleted = new Set<string>();
    const deleteFile = async (fileId: string): Promise<void> => {
      tried.add(fileId);
      if (await fileStore?.delete(companyId, fileId)) deleted.add(fileId);
    };
    for (const row of withFiles) await deleteFile(row.resumeFileId as string);

    const written = await runChange(this.#runtime, async (tx, emit, now) => {
      const result = await tx.candidates.erase({
        companyId,
        applicationIds: toErase.map((row) => row.id),
        erasedAt: now,
        ...(updatedBefore ? { updatedBefore } : {}),
      });
      for (const record of result.erased) {
        await emit("application.updated", companyId, await serializer.application(record));
      }
      if (result.erased.length === 0) return { result, auditId: null, now };
      const erasedIds = result.erased.map((record) => record.id);
      const entry = await recordAudit(
        tx,
        {
          companyId,
          actor,
          action: "candidate.erased",
          target: { type: auditTargetId ? "application" : "candidate", id: auditTargetId },
          details: {
            by: reason,
            application_ids: erasedIds,
            applications: erasedIds.length,
            notes: result.notes,
            events: result.events,
            attempts: result.attempts,
            idempotency_records: result.idempotencyRecords,
            files: result.fileIds.length,
          },
        },
        now,
      );
      return { result, auditId: entry.id, now };
    });

    // A file named only under the lock (the row changed after it was read): delete it now.
    for (const fileId of written.result.fileIds) {
      if (tried.has(fileId)) continue;
      try {
        await deleteFile(fileId);
      } catch (error) {
        logger.error("hireport: an erased application's CV file could not be deleted", {
          fileId,
          error: String(error),
        });
      }
    }
    const erasedIds = written.result.erased.map((record) => record.id);
    const erasedNow = new Set(erasedIds);
    return {
      erasedAt: erasedIds.length > 0 ? written.now : null,
      applicationIds: erasedIds,
      // Read as not erased, but erased by another call before this one took the lock.
      alreadyErased: [...alreadyErased, ...toErase.map((row) => row.id).filter((id) => !erasedNow.has(id))],
      counts: {
        notes: written.result.notes,
        events: written.result.events,
        attempts: written.result.attempts,
        idempotencyRecords: written.result.idempotencyRecords,
        files: deleted.size,
      },
      auditId: written.auditId,
    };
  }
}

/** The host's `api.candidates`: answering a candidate's access and erasure requests. */
export interface HostCandidates {
  /**
   * The applications a target names, without recording anything (to show before an erasure):
   * `{ email }` finds each of the company's applications whose address matches as the duplicate
   * rule compares it (none once erased); `{ applicationId }` finds that one.
   * @throws `invalid` (422) for neither or both of `email` and `applicationId`; `not_found` (404) for an id of no application of the company
   */
  find(companyId: string, target: CandidateTarget): Promise<ApplicationRecord[]>;
  /**
   * Everything stored about the person with this e-mail address in the company, as one JSON
   * document (`CandidateExport`, version 1), with fresh CV links; records `candidate.exported`
   * (ids and counts) in the audit list with `options.actor` (@default "host").
   * @throws `invalid` (422) when `email` is missing or empty
   */
  export(companyId: string, target: { email: string }, options?: ChangeOptions): Promise<CandidateExport>;
  /**
   * Erases the person's data: by `{ email }` from each of their applications in the company, by
   * `{ applicationId }` from that one. CV files are deleted from the `fileStore`, the candidate's
   * fields, cover letters and notes erased, the outbox events, webhook attempt answers and stored
   * `Idempotency-Key` answers that held them redacted; each application stays as an anonymous
   * record and `application.updated` carries its erased state; `candidate.erased` is recorded in
   * the audit list with `options.actor`. Idempotent: erasing again changes and emits nothing.
   * @throws `invalid` (422) for neither or both of `email` and `applicationId`, or no `actor`; `not_found` (404) for an id of no application of the company
   */
  erase(companyId: string, target: CandidateTarget, options: CandidateEraseOptions): Promise<CandidateErasure>;
}

export function hostCandidates(service: CandidateService): HostCandidates {
  return Object.freeze({
    find: (companyId: string, target: CandidateTarget) => service.find(companyId, target),
    export: (companyId: string, target: { email: string }, options?: ChangeOptions) =>
      service.export(companyId, target, options),
    erase: (companyId: string, target: CandidateTarget, options: CandidateEraseOptions) =>
      service.erase(companyId, target, options),
  });
}
