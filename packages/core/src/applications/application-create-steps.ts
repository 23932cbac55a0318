/**
 * `applications.create` in portable steps: the duplicate rule and its race safety stated once, for
 * storages that write applications with plain statements (the memory storage, a host's own tables,
 * the Kysely storage on MySQL/MariaDB and SQLite). The one other statement of the rule is the
 * Postgres routine `create_application` of `@hireport/kysely`, its declared fast path; the
 * conformance suite runs the table `APPLICATION_CREATE_CASES` (testing/application-create-cases.ts)
 * on every storage, so the two cannot drift apart.
 */
import type { EventRecord, StageChangeRecord } from "../model/domain";
import type { CreateApplicationResult, NewApplication, NewApplicationWrite } from "../storage";

/**
 * The statements `createApplicationInSteps` is built from, each bound to one transaction: the
 * caller opens it, runs `createApplicationInSteps` in it, and commits when it resolves (an answer
 * other than `created` has written nothing, so committing or rolling back is the same).
 */
export interface ApplicationCreateSteps {
  /**
   * Locks the job's row until the transaction ends (`FOR UPDATE`; on SQLite the write lock of a
   * `BEGIN IMMEDIATE` transaction does) and returns its title and `updatedAt`; null when the
   * company has no such job. Every write for one job then waits for the one before it to commit.
   */
  lockJob(companyId: string, jobId: string): Promise<{ title: string; updatedAt: Date } | null>;
  /**
   * The id of an application of the job whose normalized e-mail is `emailNormalized` and which
   * arrived at or after `since` (`appliedAt >= since`), whatever its stage; null when there is
   * none. MUST read the latest committed rows even in a `REPEATABLE READ` transaction (a locking
   * read on MySQL/MariaDB), so that it sees the application the write before it committed.
   */
  findRecent(companyId: string, jobId: string, emailNormalized: string, since: Date): Promise<string | null>;
  /** Adds 1 to the job's `applicationsCount`. */
  countApplication(companyId: string, jobId: string): Promise<void>;
  /** Inserts the application (`jobTitle` is the job's, never stored with it). */
  insertApplication(record: NewApplication): Promise<void>;
  /** Stores the application's first stage change, exactly as `applications.addStageChange` would. */
  insertStageChange(record: StageChangeRecord): Promise<void>;
  /** Appends the `application.created` event with its fan-out, as `events.append` does, on the same transaction. */
  appendEvent(event: EventRecord): Promise<void>;
}

/**
 * Adds a candidate to a job as `ApplicationStore.create` requires, from `steps` bound to one
 * transaction:
 * 1. the job's row is locked and checked against the company, `write.jobTitle` and
 *    `write.jobUpdatedAt`, else `job_changed`;
 * 2. after the lock, the duplicate check: identical writes for one job queue on that lock, so the
 *    check sees what the one before committed, and exactly one of them is created;
 * 3. `applicationsCount + 1`, the application, its first stage change, and its event.
 * Nothing is written when it answers `job_changed` or `duplicate`.
 */
export async function createApplicationInSteps(
  steps: ApplicationCreateSteps,
  write: NewApplicationWrite,
): Promise<CreateApplicationResult> {
  const { record } = write;
  const job = await steps.lockJob(record.companyId, record.jobId);
  if (!job || job.title !== write.jobTitle || job.updatedAt.getTime() !== write.jobUpdatedAt.getTime()) {
    return { outcome: "job_changed" };
  }
  const existingId = await steps.findRecent(
    record.companyId,
    record.jobId,
    record.emailNormalized,
    write.duplicateSince,
  );
  if (existingId !== null) return { outcome: "duplicate", existingId };
  await steps.countApplication(record.companyId, record.jobId);
  await steps.insertApplication(record);
  await steps.insertStageChange(write.initialStageChange);
  await steps.appendEvent(write.event);
  return { outcome: "created" };
}
