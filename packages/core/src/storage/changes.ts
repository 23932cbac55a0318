import type { ApplicationRecord, JobRecord } from "../model/domain";

/** The records whose changes the change detector reads: jobs, or applications. */
export type ChangeKind = "job" | "application";

/** Where the change detector is in one kind's records: the change time and id of the last one it read. */
export interface ChangePosition {
  at: Date;
  id: string;
}

/** The detector's place in one kind, as stored: its position, and when its first pass ran. */
export interface ChangeCheckpoint {
  position: ChangePosition;
  /** The time of the first pass: changes before it are never announced. */
  startedAt: Date;
}

export interface ChangedQuery {
  /** Only records strictly after this position in (`updatedAt`, `id`) order; null for the first ones. */
  after: ChangePosition | null;
  /** Only records with `updatedAt <= until`. */
  until: Date;
  take: number;
}

/** The newest outbox event of one record (see {@link ChangeStore.latestEvents}). */
export interface LatestEvent {
  subjectId: string;
  type: string;
  /** The envelope's JSON text, as stored. */
  payload: string;
}

/**
 * What the change detector (`api.changes`) reads to notice changes hireport did not make (the
 * product's own screens, scripts, SQL) in a storage whose jobs and applications are the product's
 * own tables: each kind's records in order of their change time, the newest event already in the
 * outbox for each, and the detector's position, kept in the storage. Optional: a storage without it
 * has no change detection (`api.changes` then refuses to run).
 *
 * Called only on the `tx` of `storage.transaction`: one pass of the detector locks the position,
 * reads, appends the events and moves the position in one transaction.
 */
export interface ChangeStore {
  /**
   * Locks the checkpoint of `kind` until the transaction ends (so that detectors in several
   * processes take turns) and returns it; null before the first pass (then the lock is on the
   * place {@link start} writes, so that only one first pass starts).
   */
  lockCheckpoint(kind: ChangeKind): Promise<ChangeCheckpoint | null>;
  /** The first pass: the checkpoint of `kind` starts at `at` (its position `{ at, id: "" }`). */
  start(kind: ChangeKind, at: Date): Promise<void>;
  /** Moves the position of `kind` (on the transaction whose lock it holds). */
  setPosition(kind: ChangeKind, position: ChangePosition): Promise<void>;
  /**
   * The jobs of every company changed after `after` and at or before `until`, oldest change first
   * (`updatedAt`, then `id` in binary order), at most `take`.
   */
  changedJobs(query: ChangedQuery): Promise<JobRecord[]>;
  /** The applications, as {@link changedJobs} reads jobs. */
  changedApplications(query: ChangedQuery): Promise<ApplicationRecord[]>;
  /**
   * For each of `subjects` (records of `kind`, with their company), the newest event of that company
   * in the outbox whose subject it is (by `createdAt`, then id), if any.
   */
  latestEvents(kind: ChangeKind, subjects: readonly { companyId: string; id: string }[]): Promise<LatestEvent[]>;
}
