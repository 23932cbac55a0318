/**
 * `candidates.erase` in portable steps: the order of its locks, the choice of what it erases and
 * what it returns stated once, for domain stores that write with plain statements (the memory
 * storage, a host's own tables).
 */
import type { ApplicationRecord } from "../model/domain";
import type { ApplicationStore, CandidateErasureInput, CandidateErasureResult, NewApplication } from "../storage";
import { emptyErasureResult, erasedApplication } from "./erasure";

/** The applications an erasure has just erased, for the part of it on hireport's own tables. */
export interface ErasureRedactionInput {
  companyId: string;
  /** The applications erased by this transaction (those already erased, missing or of another company left out). */
  applicationIds: readonly string[];
  /** The erasure's time, as `CandidateErasureInput.erasedAt`. */
  erasedAt: Date;
}

/** What the part of an erasure on hireport's own tables changed: its counts in `CandidateErasureResult`. */
export type ErasureRedactions = Pick<CandidateErasureResult, "events" | "attempts" | "idempotencyRecords">;

/**
 * The writes `eraseInSteps` is built from, besides `applications.get`, each bound to the
 * transaction the erasure runs in. Called only with applications whose rows that transaction has
 * locked.
 */
export interface CandidateErasureSteps {
  /**
   * Stores `record`, the application as `erasedApplication` made it (its `jobTitle` is the job's,
   * never stored), over the row of its company and id: afterwards `applications.get` returns it.
   * Writes nothing else (the stage history and the job's `applicationsCount` stay).
   */
  storeErased(record: NewApplication): Promise<void>;
  /** Deletes every note of the company's applications `applicationIds` (any number of them); how many it deleted. */
  deleteNotes(companyId: string, applicationIds: readonly string[]): Promise<number>;
  /**
   * The part on hireport's own tables, as `CandidateStore.erase` states it: the events of the
   * company whose subject is one of the applications redacted, the deliveries of those events
   * locked and their attempts' answers emptied, the company's stored `Idempotency-Key` answers that
   * name one of them redacted. `redactErasure` of the Kysely storage's `DomainScope` is one.
   */
  redactErasure(erasure: ErasureRedactionInput): Promise<ErasureRedactions>;
}

/** Oldest first: by `appliedAt`, then by id (code-unit order). */
function oldestFirst(a: ApplicationRecord, b: ApplicationRecord): number {
  return a.appliedAt.getTime() - b.appliedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Erases as `CandidateStore.erase` requires, from `stores.applications.get` and `steps`, all bound
 * to one transaction (the caller's, or one the store opens around the call):
 * 1. every application named is read with `lock`, one at a time in id order (code units), before
 *    anything is written, as every writer of those rows takes their locks;
 * 2. those missing, of another company, already erased or, with `updatedBefore`, changed at or
 *    after it as read under the lock are left alone; nothing else is called when none is left;
 * 3. each remaining one is stored as `erasedApplication` makes it, then their notes are deleted,
 *    then `redactErasure` rewrites hireport's copies of them.
 * The result holds the erased records and their `resumeFileId`s, oldest first, and the counts of
 * `deleteNotes` and `redactErasure`.
 */
export async function eraseInSteps(
  stores: { applications: Pick<ApplicationStore, "get"> },
  steps: CandidateErasureSteps,
  input: CandidateErasureInput,
): Promise<CandidateErasureResult> {
  const { companyId, erasedAt, updatedBefore } = input;
  const result = emptyErasureResult();
  const locked: ApplicationRecord[] = [];
  for (const id of [...new Set(input.applicationIds)].sort()) {
    const record = await stores.applications.get(companyId, id, { lock: true });
    if (record) locked.push(record);
  }
  const targets = locked
    .filter(
      (record) =>
        record.erasedAt === null &&
        (updatedBefore === undefined || record.updatedAt.getTime() < updatedBefore.getTime()),
    )
    .sort(oldestFirst);
  if (targets.length === 0) return result;

  for (const record of targets) {
    const erased = erasedApplication(record, erasedAt);
    await steps.storeErased(erased);
    result.erased.push(erased);
    if (record.resumeFileId !== null) result.fileIds.push(record.resumeFileId);
  }
  const applicationIds = targets.map((record) => record.id);
  result.notes = await steps.deleteNotes(companyId, applicationIds);
  const redactions = await steps.redactErasure({ companyId, applicationIds, erasedAt });
  result.events = redactions.events;
  result.attempts = redactions.attempts;
  result.idempotencyRecords = redactions.idempotencyRecords;
  return result;
}
