import type { JobRecord } from "../model/domain";

/** How long a job read for one application serves the next ones (ms). */
export const RECENT_JOB_MS = 2_000;
/** Jobs remembered at once; past it, the one remembered longest is forgotten. */
const MAX_JOBS = 1_000;

const keyOf = (companyId: string, jobId: string) => `${companyId}\u0000${jobId}`;

interface Entry {
  job: JobRecord;
  readAt: number;
}

/**
 * The jobs this process read for the applications it added in the last two seconds, so that a
 * burst of applications to one job reads it once instead of once each.
 *
 * A remembered job is only a guess: the write of each application (`applications.create`) locks
 * the job's row and checks that its title and `updatedAt` are still those of the job core
 * checked the application against, and answers `job_changed` otherwise (core then reads the job
 * again). Every change core makes to a job gives it a later `updatedAt` (a millisecond later when
 * the clock has not moved), so an application is never added against a version of a job that a
 * change has replaced, even one made by another process; the two seconds
 * bound what a write made outside hireport without a new `updatedAt` could leave unseen. Changes
 * made through this process also forget the job at once.
 */
export class RecentJobs {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;

  /** @param now a monotonic clock in ms (tests pass their own). */
  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** The job read for an application less than two seconds ago, if any. */
  get(companyId: string, jobId: string): JobRecord | undefined {
    const key = keyOf(companyId, jobId);
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (this.#now() - entry.readAt < RECENT_JOB_MS) return entry.job;
    this.#entries.delete(key);
    return undefined;
  }

  /** Remembers a job just read from the storage. */
  remember(job: JobRecord): void {
    const key = keyOf(job.companyId, job.id);
    this.#entries.delete(key);
    if (this.#entries.size >= MAX_JOBS) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { job, readAt: this.#now() });
  }

  /** Forgets a job this process has just changed. */
  forget(companyId: string, jobId: string): void {
    this.#entries.delete(keyOf(companyId, jobId));
  }
}
