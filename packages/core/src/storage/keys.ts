import type { ApiKeyRecord, ApiKeyWithCompany } from "../model/domain";
import type { RateLimitResult } from "./rate-limits";

export interface KeyInsertOptions {
  /** Active keys allowed per company (not revoked, not expired at `now`). */
  maxActive: number;
  now: Date;
}

/** A rate-limit window of the key being admitted: its bucket is `key.id + suffix`. */
export interface KeyRateWindow {
  /** Appended to the key's id to name the bucket, for example `:m:29012345`. */
  suffix: string;
  limit: number;
  /** When the window ends. */
  resetAt: Date;
}

/** What {@link KeyStore.admit} answers for a key that exists. */
export interface KeyAdmission {
  /** The key and its company, exactly as `findByHash` returns them. */
  found: ApiKeyWithCompany;
  /**
   * The count of this request in the key's windows, as `rateLimits.consume` answers for the
   * buckets `found.key.id + window.suffix`, in the order of the windows; null when the key is not
   * usable at `now` (revoked, or expired: see `isKeyUsable`) and nothing was counted.
   */
  rate: RateLimitResult | null;
}

export interface KeyStore {
  /**
   * MUST insert the key only while the company has fewer than `maxActive` active keys, and MUST
   * keep that true when several inserts for one company run at once (lock the company's row or
   * equivalent). Returns `"limit_reached"` without inserting otherwise.
   */
  insert(record: ApiKeyRecord, options: KeyInsertOptions): Promise<"inserted" | "limit_reached">;
  /** The key with this hash and its company, revoked and expired keys included; null if none. */
  findByHash(hash: string): Promise<ApiKeyWithCompany | null>;
  /**
   * Key admission, the storage write of every API request: the key lookup and the request's count
   * in the key's rate-limit windows. MUST return null when no key has this hash. Otherwise MUST
   * return the key as `findByHash` would and, when the key is usable at `now` (`isKeyUsable`),
   * count the request with exactly the rules of `rateLimits.consume` on the buckets
   * `key.id + window.suffix` (all or none, a refused request counts nowhere, atomic across calls
   * and processes: N concurrent admissions against a limit L admit exactly min(N, L)); when it is
   * not usable, MUST count nothing and return `rate: null`. A revocation MUST be seen by the very
   * next admission.
   *
   * `admitInSteps` from `@hireport/core` builds it from `findByHash` and `rateLimits.consume`,
   * for storages with nothing faster.
   */
  admit(hash: string, windows: readonly KeyRateWindow[], now: Date): Promise<KeyAdmission | null>;
  get(companyId: string, id: string): Promise<ApiKeyRecord | null>;
  /** Every key of the company, revoked ones included, newest first. */
  list(companyId: string): Promise<ApiKeyRecord[]>;
  /**
   * MUST set `revokedAt` if it is null (a second revoke keeps the first time) and return the key;
   * null when the company has no such key. Effective for the very next `admit`.
   */
  revoke(companyId: string, id: string, at: Date): Promise<ApiKeyRecord | null>;
  /** Sets `lastUsedAt`. Best effort: core calls it at most about once a minute per key. */
  touch(id: string, at: Date): Promise<void>;
}
