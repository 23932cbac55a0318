import type { ApplicationFieldPatch } from "../fields/application";
import type { ApplicationRecord, ApplicationStage, EventRecord, NoteRecord, StageChangeRecord } from "../model/domain";
import type { GetOptions, KeysetPosition } from "./common";

export interface ApplicationListQuery {
  companyId: string;
  jobId?: string;
  stage?: ApplicationStage;
  /** Only applications with `updatedAt >= updatedSince`. */
  updatedSince?: Date;
  after?: KeysetPosition;
  take: number;
}

/** An application to insert: `jobTitle` is read from the job, never stored. */
export type NewApplication = Omit<ApplicationRecord, "jobTitle">;

/**
 * What `applications.update` writes: the Application fields declared `patch` (the stage, the tags,
 * the star, the overall score, the time of the review request), each optional, and the time.
 */
export type ApplicationPatch = ApplicationFieldPatch & { updatedAt: Date };

/** All that adding a candidate writes (POST /applications, the careers site, host code). */
export interface NewApplicationWrite {
  record: NewApplication;
  /** Applications of the same job and e-mail at or after this time are duplicates. */
  duplicateSince: Date;
  /** The application's first stage-history entry, stored exactly as `addStageChange` would. */
  initialStageChange: StageChangeRecord;
  /** `application.created`, stored with its fan-out exactly as `events.append` would. */
  event: EventRecord;
  /**
   * The job's title as core read it before the call, and as the event's payload says it. The job's
   * row, once locked, MUST still have this title and `jobUpdatedAt`, and belong to
   * `record.companyId`: otherwise the storage MUST write nothing and answer `job_changed` (core
   * reads the job again and retries).
   */
  jobTitle: string;
  /**
   * The job's `updatedAt` as core read it: every change of a job sets it, so a job whose row still
   * has it is the version core checked the application against (open, its questions, its title).
   * Core may have read it a moment before the request, from a job it read for an earlier one.
   */
  jobUpdatedAt: Date;
}

export type CreateApplicationResult =
  | { outcome: "created" }
  /** The duplicate rule refused it: `existingId` is the earlier application. Nothing was written. */
  | { outcome: "duplicate"; existingId: string }
  /** The job is gone from the company, or its title or `updatedAt` changed: nothing was written. */
  | { outcome: "job_changed" };

export interface ApplicationStore {
  /**
   * Adds a candidate to a job: the one write path of every new application. MUST, all or nothing
   * (on the storage, or inside the `tx` it is called on):
   * - lock the job's row (so that two writes for one job run one after the other) and check it
   *   against `jobTitle`, `jobUpdatedAt` and the company (`job_changed` otherwise);
   * - apply the duplicate rule (docs/api-reference.md, POST /applications): when the job already has an application with the same
   *   `emailNormalized` and `appliedAt >= duplicateSince`, whatever its stage, refuse with its id.
   *   When identical writes run at once, in one process or several, exactly one MUST be created;
   * - insert the application, add 1 to the job's `applicationsCount`, store `initialStageChange`,
   *   and append `event` with its fan-out as `events.append` does.
   */
  create(write: NewApplicationWrite): Promise<CreateApplicationResult>;
  get(companyId: string, id: string, options?: GetOptions): Promise<ApplicationRecord | null>;
  /** MUST write only the columns present and return the record after the change; null if none. */
  update(companyId: string, id: string, patch: ApplicationPatch): Promise<ApplicationRecord | null>;
  /**
   * MUST return at most `take` applications matching the query, ordered by `appliedAt` descending
   * then `id` descending, strictly after `after`. No OFFSET; no query per row (`jobTitle` joined).
   */
  list(query: ApplicationListQuery): Promise<ApplicationRecord[]>;
  addStageChange(record: StageChangeRecord): Promise<void>;
  /** Oldest first. */
  listStageChanges(companyId: string, applicationId: string): Promise<StageChangeRecord[]>;
  addNote(record: NoteRecord): Promise<void>;
  /** Oldest first. */
  listNotes(companyId: string, applicationId: string): Promise<NoteRecord[]>;
}
