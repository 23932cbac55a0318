/**
 * `dispatcher.endpoints.stats`: how an endpoint's receiver has answered lately, hour by hour, from
 * the store's `attemptStats` (one bounded read of the attempts of the range).
 */
import { HireportError } from "@hireport/core";
import { type AttemptStatsBucket, MAX_ATTEMPT_STATS_BUCKETS } from "../store/attempt-stats";
import type { WebhookStore } from "../store/webhook-store";

const HOUR_MS = 3_600_000;

export interface EndpointStatsOptions {
  /**
   * Hours covered, 1 to 168, ending with the current hour (UTC, which is partly over): with 24, the
   * current hour and the 23 before it. @default 24
   */
  hours?: number;
}

/** The attempts of one hour (or of the whole range, in {@link EndpointStats}). */
export interface AttemptFigures {
  /** Attempts made (each try of a delivery, test sends included). */
  attempts: number;
  /** Of them, those the receiver answered with a 2xx. */
  succeeded: number;
  /** `succeeded / attempts`, from 0 to 1; null without attempts. */
  successRate: number | null;
  /**
   * The mean time of an attempt, in milliseconds, from the request to the answer (or to the failure:
   * a timeout counts its whole wait); null without attempts.
   */
  meanDurationMs: number | null;
  /** The longest attempt, in milliseconds; null without attempts. */
  maxDurationMs: number | null;
}

/** One hour of {@link EndpointStats}. */
export interface EndpointHourStats extends AttemptFigures {
  /** The start of the hour (UTC). */
  start: Date;
}

/** An endpoint's attempts of the last hours: each hour, and the whole range. */
export interface EndpointStats extends AttemptFigures {
  /** The start of the first hour. */
  since: Date;
  /** The end of the last hour (the next full hour after now). */
  until: Date;
  /** Every hour of the range, oldest first, those without attempts included (with 0 attempts). */
  hours: EndpointHourStats[];
}

function figures(buckets: readonly Omit<AttemptStatsBucket, "index">[]): AttemptFigures {
  const attempts = buckets.reduce((sum, bucket) => sum + bucket.attempts, 0);
  const succeeded = buckets.reduce((sum, bucket) => sum + bucket.succeeded, 0);
  const total = buckets.reduce((sum, bucket) => sum + bucket.totalDurationMs, 0);
  return {
    attempts,
    succeeded,
    successRate: attempts === 0 ? null : succeeded / attempts,
    meanDurationMs: attempts === 0 ? null : total / attempts,
    maxDurationMs: attempts === 0 ? null : Math.max(...buckets.map((bucket) => bucket.maxDurationMs)),
  };
}

function checkHours(value: unknown): number {
  if (value === undefined) return 24;
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > MAX_ATTEMPT_STATS_BUCKETS) {
    throw new HireportError("invalid", "The number of hours is not valid.", {
      fields: [{ field: "hours", message: `A whole number from 1 to ${MAX_ATTEMPT_STATS_BUCKETS}.` }],
    });
  }
  return value as number;
}

/**
 * The figures of the endpoint `endpointId` (already known to be the company's) over the hours that
 * end with the one holding `now`.
 */
export async function readEndpointStats(
  webhooks: Pick<WebhookStore, "attemptStats">,
  companyId: string,
  endpointId: string,
  now: Date,
  options: EndpointStatsOptions = {},
): Promise<EndpointStats> {
  const hours = checkHours(options.hours);
  const until = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS);
  const since = new Date(until.getTime() - hours * HOUR_MS);
  const buckets = await webhooks.attemptStats({ companyId, endpointId, since, bucketMs: HOUR_MS, buckets: hours });
  const byIndex = new Map(buckets.map((bucket) => [bucket.index, bucket]));
  return {
    since,
    until,
    ...figures(buckets),
    hours: Array.from({ length: hours }, (_, index) => {
      const bucket = byIndex.get(index);
      return {
        start: new Date(since.getTime() + index * HOUR_MS),
        ...figures(bucket ? [bucket] : []),
      };
    }),
  };
}
