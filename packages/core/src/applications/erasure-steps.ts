/**
 * `candidates.erase` in portable steps: the order of its locks, the choice of what it erases and
 * what it returns stated once, for every storage (the memory storage, `@hireport/kysely`, a host's
 * own tables).
 */
import type { ApplicationRecord } from "../model/domain";
import type { CandidateErasureInput, CandidateErasureResult, NewApplication } from "../storage";
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
 * The statements `eraseInSteps` is built from, each bound to the transaction the erasure runs in.
 * They take the applications in batches (at most `batchSize` of `eraseInSteps`'s options), so
 * that a SQL store makes one statement per batch (an `IN (…)` list) where a store of records may
 * simply loop.
 */
export interface CandidateErasureSteps {
  /**
   * The company's applications among `ids` (one batch: distinct, in id order), each read with its
   * row locked until the transaction ends, as `applications.get` with `lock` reads one; those
   * missing or of another company are left out. The batches come in id order, all of them before
   * any write.
   */
  lockApplications(companyId: string, ids: readonly string[]): Promise<ApplicationRecord[]>;
  /**
   * Stores each of `records` (one batch), the applications as `erasedApplication` made them (their
   * `jobTitle` is the job's, never stored), over the row of its company and id: afterwards
   * `applications.get` returns it. Writes nothing else (the stage history and the job's
   * `applicationsCount` stay). Called only with applications `lockApplications` locked.
   */
  storeErased(records: readonly NewApplication[]): Promise<void>;
  /** Deletes every note of the company's applications `applicationIds` (one batch); how many it deleted. */
  deleteNotes(companyId: string, applicationIds: readonly string[]): Promise<number>;
  /**
   * The part on hireport's own tables, as `CandidateStore.erase` states it, for every application
   * erased at once: the events of the company whose subject is one of them redacted, the
   * deliveries of those events locked and their attempts' answers emptied, the company's stored
   * `Idempotency-Key` answers that name one of them redacted. `redactErasure` of the Kysely
   * storage's `DomainScope` is one.
   */
  redactErasure(erasure: ErasureRedactionInput): Promise<ErasureRedactions>;
}

/** Options of {@link eraseInSteps}. */
export interface EraseInStepsOptions {
  /**
   * How many applications one call of `lockApplications`, `storeErased` or `deleteNotes` takes at
   * most (a SQL store's `IN (…)` list). @default 500
   */
  batchSize?: number;
}

/** Oldest first: by `appliedAt`, then by id (code-unit order). */
function oldestFirst(a: ApplicationRecord, b: ApplicationRecord): number {
  return a.appliedAt.getTime() - b.appliedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** `items` in runs of at most `size`, in order. */
function inBatches<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}

/**
 * Erases as `CandidateStore.erase` requires, from `steps` bound to one transaction (the caller's,
 * or one the store opens around the call), in batches of `options.batchSize`:
 * 1. every application named is read with its lock, in id order (code units), before anything is
 *    written, as every writer of those rows takes their locks;
 * 2. those missing, of another company, already erased or, with `updatedBefore`, changed at or
 *    after it as read under the lock are left alone; nothing else is called when none is left;
 * 3. the remaining ones are stored as `erasedApplication` makes them, then their notes are
 *    deleted, then `redactErasure` rewrites hireport's copies of them.
 * The result holds the erased records and their `resumeFileId`s, oldest first, and the counts of
 * `deleteNotes` and `redactErasure`.
 */
export async function eraseInSteps(
  steps: CandidateErasureSteps,
  input: CandidateErasureInput,
  options: EraseInStepsOptions = {},
): Promise<CandidateErasureResult> {
  const { companyId, erasedAt, updatedBefore } = input;
  const batchSize = options.batchSize ?? 500;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new TypeError("batchSize must be a positive integer");
  const result = emptyErasureResult();
  const locked: ApplicationRecord[] = [];
  for (const ids of inBatches([...new Set(input.applicationIds)].sort(), batchSize)) {
    locked.push(...(await steps.lockApplications(companyId, ids)));
  }
  const targets = locked
    .filter(
      (record) =>
        record.companyId === companyId &&
        record.erasedAt === null &&
        (updatedBefore === undefined || record.updatedAt.getTime() < updatedBefore.getTime()),
    )
    .sort(oldestFirst);
  if (targets.length === 0) return result;

  for (const batch of inBatches(targets, batchSize)) {
    const erased = batch.map((record) => erasedApplication(record, erasedAt));
    await steps.storeErased(erased);
    result.erased.push(...erased);
  }
  for (const record of targets) if (record.resumeFileId !== null) result.fileIds.push(record.resumeFileId);
  const applicationIds = targets.map((record) => record.id);
  for (const ids of inBatches(applicationIds, batchSize)) result.notes += await steps.deleteNotes(companyId, ids);
  const redactions = await steps.redactErasure({ companyId, applicationIds, erasedAt });
  result.events = redactions.events;
  result.attempts = redactions.attempts;
  result.idempotencyRecords = redactions.idempotencyRecords;
  return result;
}
