import type { StoredResponse } from "../model/domain";

export type IdempotencyClaim =
  | { state: "claimed" }
  | { state: "in_progress"; requestHash: string }
  | { state: "completed"; requestHash: string; response: StoredResponse };

export interface IdempotencyClaimInput {
  keyId: string;
  idempotencyKey: string;
  /** Hash of method, path and body: the same key with another request is refused by core. */
  requestHash: string;
  now: Date;
  /** When a completed record may be forgotten (24 h after the first request). */
  expiresAt: Date;
  /** When an unfinished claim may be taken over by a retry (the first request died). */
  lockedUntil: Date;
}

export interface IdempotencyStore {
  /**
   * MUST, atomically: claim the key when no record exists or the record expired, or when it is
   * unfinished and `lockedUntil` has passed; otherwise return its state. Two concurrent claims of
   * one key MUST NOT both get `"claimed"`. `release` keeps a completed record.
   */
  claim(input: IdempotencyClaimInput): Promise<IdempotencyClaim>;
  /**
   * Stores the answer of a claimed key. `subjectId` names the application the answer holds (POST
   * /applications): then MUST, in one transaction, lock that application's row (as
   * `applications.get` with `lock` does) and, when it is erased, store the body as
   * `redactApplications(body, [subjectId], erasedAt)` makes it, so that an erasure running at the
   * same time never leaves the candidate's data in a stored answer.
   */
  complete(keyId: string, idempotencyKey: string, response: StoredResponse, subjectId?: string): Promise<void>;
  /** Forgets an unfinished claim (the request failed with a 5xx), so that a retry runs again. */
  release(keyId: string, idempotencyKey: string): Promise<void>;
  purgeExpired(now: Date): Promise<number>;
}
