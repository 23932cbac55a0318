import type { ApplicationRecord, ApplicationStage } from "../model/domain";

/** What {@link CandidateStore.erase} erases. */
export interface CandidateErasureInput {
  companyId: string;
  /** The applications to erase. Ids of another company, missing ones and erased ones are left alone. */
  applicationIds: readonly string[];
  /** The erasure's time: `erasedAt` and `updatedAt` of every application erased now. */
  erasedAt: Date;
  /**
   * Retention: only applications whose `updatedAt` is still strictly before this time once locked
   * (one changed since it was picked is left alone). @default no condition
   */
  updatedBefore?: Date;
}

/** What {@link CandidateStore.erase} did. */
export interface CandidateErasureResult {
  /** The applications erased by this call, as stored after it (oldest first). Already erased ones are not here. */
  erased: ApplicationRecord[];
  /** The `resumeFileId` of each application erased now that had one, as it was before: files for core to delete. */
  fileIds: string[];
  /** Notes deleted. */
  notes: number;
  /** Events whose payload was redacted. */
  events: number;
  /** Delivery attempts whose stored answer was emptied (only those that had one). */
  attempts: number;
  /** Stored `Idempotency-Key` answers redacted. */
  idempotencyRecords: number;
}

/** Which applications a retention run erases: one stage group past its period. */
export interface RetentionQuery {
  /** Applications in one of these stages. */
  stages: readonly ApplicationStage[];
  /** Only applications whose last change (`updatedAt`) is strictly before this time. */
  updatedBefore: Date;
  /** How many at most. */
  take: number;
}

/** Candidates' personal data as one person's: finding it by e-mail, erasing it, and retention. */
export interface CandidateStore {
  /**
   * Every application of the company whose `emailNormalized` equals `emailNormalized` (core's
   * `normalizeEmail`, the duplicate rule's key), oldest first (`appliedAt`, then `id`). An erased
   * application's key is empty: it is never found by an address.
   */
  listByEmail(companyId: string, emailNormalized: string): Promise<ApplicationRecord[]>;
  /**
   * Erases the candidate's personal data from the applications `applicationIds` of the company,
   * all or nothing, in one transaction (the `tx` it is called on: core appends the
   * `application.updated` events and the audit entry on the same one). MUST:
   * - first lock the application rows (as `applications.get` with `lock` does), so that a change of
   *   one of them waits for the erasure and then sees it, and leave every application that is
   *   already erased (`erasedAt` set), of another company or missing as it is, and, with
   *   `updatedBefore`, every one changed at or after it: a second erasure changes nothing;
   * - store each remaining one as `erasedApplication(record, erasedAt)` of `@hireport/core` makes
   *   it, touching nothing else (the stage history and the job's `applicationsCount` stay), and
   *   delete its notes;
   * - replace the payload of every event of the company whose `subjectId` is one of them by
   *   `redactApplications(payload, ids, erasedAt)`;
   * - lock the deliveries of those events (so that an attempt being recorded for one of them is
   *   either written before and redacted here, or written after and redacted by
   *   recording the attempt, `recordAttempt` of the `WebhookStore` in `@hireport/webhooks`), then set to `REDACTED_RESPONSE_BODY` the `responseBody` of each of
   *   their attempts (the receiver may have echoed the payload);
   * - replace the stored answer of every `Idempotency-Key` record of the company's keys that holds
   *   one of their ids by `redactApplications(body, ids, erasedAt)`.
   *
   * `eraseInSteps` of `@hireport/core` builds it, keeping these rules, from the statements the store
   * supplies for batches of applications (`CandidateErasureSteps`: a locked read, store erased
   * applications, delete notes, and the part on hireport's own tables, `redactErasure`, which
   * `redactInSteps` builds in turn).
   */
  erase(input: CandidateErasureInput): Promise<CandidateErasureResult>;
  /**
   * Applications of every company, not erased, in one of `stages`, last changed before
   * `updatedBefore`: the oldest change first (`updatedAt`, then `id`), at most `take`. Retention
   * erases them in batches.
   */
  listForRetention(query: RetentionQuery): Promise<{ companyId: string; id: string }[]>;
  /**
   * Of `fileIds`, those that an application of any company names as its `resumeFileId` (erased
   * applications name none), each once, in any order; an empty list for an empty one. Retention
   * deletes the other files of a page of old files (`FileStore.listCreatedBefore`). MUST read the
   * committed rows as they are when it runs, and MUST accept at least 10,000 ids in one call.
   * Nothing is locked: an application that comes to name one of them after the read is not seen,
   * which retention makes harmless by only asking about files older than its grace period (a file
   * is put just before the application that names it is written).
   */
  resumeFilesInUse(fileIds: readonly string[]): Promise<string[]>;
}
