/**
 * The job-indexing outbox (docs/careers.md, Search engine indexing). Every change of a job marks
 * the job in the transaction of the change (`mark`), so no change is lost across restarts and a
 * burst of changes to one job becomes one notice; the notifier of `@hireport/careers` reads what is
 * pending per search-engine service and records each service's last notice (`record`).
 */

/** A search-engine service the notifier tells of job pages. */
export type IndexingService = "indexnow" | "google";

/** What a notice told the service: the page is new or changed, or it is gone. */
export type IndexingAction = "updated" | "deleted";

/** The last notice of one job to one service, and how far through the job's changes it is. */
export interface JobIndexNotice {
  companyId: string;
  jobId: string;
  service: IndexingService;
  /** The job's change count (`JobIndexMark.seq`) this notice covers: changes after it are pending. */
  seq: number;
  /** What the last notice sent said, or null when none was sent (the job was never public). */
  action: IndexingAction | null;
  /** When the last notice was sent, or null when none was. */
  notifiedAt: Date | null;
  /** The HTTP status the service answered, or null (none sent, or no answer: a network error). */
  status: number | null;
  /** Why the last notice failed (no secret, no personal data), or null when it succeeded. */
  error: string | null;
  /**
   * With action `updated`: when the job stops being public (its closing date's end), so that the
   * sweep marks it again then. Null otherwise, and once the sweep marked it.
   */
  closesAt: Date | null;
}

/** A job with changes that a service was not yet told of. */
export interface JobIndexPending {
  companyId: string;
  jobId: string;
  /** The job's change count now. */
  seq: number;
  /** When the job last changed. */
  changedAt: Date;
  /** The service's last notice of the job, or null when it never had one. */
  notice: JobIndexNotice | null;
}

export interface JobIndexStore {
  /**
   * Called on the `tx` of every change of a job (core's `runChange` does, for each `job.*` event):
   * MUST add one to the job's change count (1 for a job never marked) and set its change time to
   * `at`, in that transaction, so that the mark commits or rolls back with the change.
   */
  mark(companyId: string, jobId: string, at: Date): Promise<void>;
  /**
   * Jobs whose change count is above the `seq` of the service's notice (or that have no notice of
   * the service), the least recently changed first (ties by company id, then job id), at most
   * `limit`. Each comes with the service's notice, if any.
   */
  pending(service: IndexingService, limit: number): Promise<JobIndexPending[]>;
  /**
   * Stores the service's notice of a job, replacing the one before, unless the stored notice
   * already has a higher `seq` (a late writer MUST NOT move a job back). MUST store every field as
   * given.
   */
  record(notice: JobIndexNotice): Promise<void>;
  /** The notices of the company's jobs among `jobIds` (every service), in no set order. MUST accept an empty list. */
  notices(companyId: string, jobIds: readonly string[]): Promise<JobIndexNotice[]>;
  /**
   * The closing-date sweep: for notices whose `closesAt <= now` (the job stopped being public with
   * no change of its own), MUST mark their job (as `mark` does, at `now`) and set their
   * `closesAt` to null, so that one sweep marks each job once. With `limit`, at most that many
   * notices. Returns how many jobs were marked.
   */
  sweep(now: Date, limit: number): Promise<number>;
}
