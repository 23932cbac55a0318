export interface RateLimitBucket {
  /** Identifies the counter and its window, for example `key_123:minute:29012345`. */
  key: string;
  limit: number;
  /** When the window ends; the counter MAY be deleted after that. */
  resetAt: Date;
}

export interface RateLimitResult {
  allowed: boolean;
  /** Per bucket, in order: the count after this request if allowed, else the current count. */
  counts: number[];
  /** Index of the first bucket that was at its limit, or null when allowed. */
  refusedBucket: number | null;
}

export interface RateLimitStore {
  /**
   * MUST add one to every bucket when all are below their limit, and change nothing otherwise
   * (a refused request does not count). MUST be atomic across concurrent calls and processes:
   * N parallel calls against a limit L admit exactly min(N, L).
   */
  consume(buckets: readonly RateLimitBucket[], now: Date): Promise<RateLimitResult>;
  /** Deletes counters whose window ended before `now`. Returns how many. */
  purgeExpired(now: Date): Promise<number>;
}
