/**
 * What `WebhookStore.attemptStats` reads: one endpoint's attempts summed in consecutive time
 * buckets of equal length (the console's endpoint health chart asks for the last 24 hours, hour by
 * hour), so that the read returns at most one row per bucket whatever the traffic.
 */

/** Most buckets one {@link AttemptStatsQuery} may ask for. */
export const MAX_ATTEMPT_STATS_BUCKETS = 168;

export interface AttemptStatsQuery {
  /** The company of the endpoint: another company's endpoint has no attempts. */
  companyId: string;
  endpointId: string;
  /** The start of the first bucket (inclusive). */
  since: Date;
  /** The length of each bucket, in milliseconds (a whole number, at least 1). */
  bucketMs: number;
  /**
   * How many buckets follow one another from `since`, 1 to {@link MAX_ATTEMPT_STATS_BUCKETS}: the
   * range read is `[since, since + buckets × bucketMs)`.
   */
  buckets: number;
}

/** The attempts of one bucket (see {@link AttemptStatsQuery}). */
export interface AttemptStatsBucket {
  /** Which bucket, from 0 (the one starting at `since`). */
  index: number;
  /** Attempts made in the bucket (`attemptedAt` in it), at least 1. */
  attempts: number;
  /** Of them, those that succeeded (`succeeded` true). */
  succeeded: number;
  /** The sum of their `durationMs`. */
  totalDurationMs: number;
  /** The longest of their `durationMs`. */
  maxDurationMs: number;
}
