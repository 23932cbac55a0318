import { endpointUpdate } from "../endpoints/endpoint-stops";
import type { DeliveryAttemptRecord, DeliveryRecord } from "../store/webhook-records";
import type { AttemptOutcome } from "../store/webhook-store";

/** The longest wait a receiver's `Retry-After` can ask for: the schedule's longest step. */
export const MAX_RETRY_AFTER_MS = 12 * 3_600_000;

/** Statuses whose `Retry-After` is honoured (too many requests, unavailable). */
const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** The status with which a receiver says it is gone for good: the endpoint is disabled. */
const GONE = 410;

export interface OutcomeInput {
  delivery: DeliveryRecord;
  attempt: DeliveryAttemptRecord;
  /** When the attempt ended: retries are scheduled from here. */
  now: Date;
  retrySchedule: readonly number[];
  pauseAfter: number;
  /** The answer's `Retry-After` header, if any. @default null */
  retryAfter?: string | null;
}

/**
 * The wait a `Retry-After` value asks for, in milliseconds from `now`: delay-seconds or an
 * HTTP-date (RFC 9110 section 10.2.3), capped at {@link MAX_RETRY_AFTER_MS}. Null when the value
 * is missing or neither form.
 */
export function retryAfterDelay(value: string | null | undefined, now: Date): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, at - now.getTime()), MAX_RETRY_AFTER_MS);
}

/**
 * What an attempt leads to. A success ends the delivery and resets the endpoint's failure count. A
 * failure schedules the next retry from `retrySchedule` (the delivery's attempt number picks the
 * delay; a 429 or 503 whose `Retry-After` asks for longer waits that long instead, 12 h at most)
 * and adds one to the count; when the schedule is used up the delivery is `failed`, and it can
 * still be resent (a resent delivery gets one more attempt). A 410 Gone also disables the endpoint;
 * the delivery stays pending with its retry, so that resuming the endpoint loses nothing. Test
 * events (`webhook.test`) get one attempt and leave the endpoint alone.
 */
export function attemptOutcome(input: OutcomeInput): AttemptOutcome {
  const { delivery, attempt, now, retrySchedule, pauseAfter } = input;
  const test = delivery.eventType === "webhook.test";
  const endpoint = endpointUpdate({
    succeeded: attempt.succeeded,
    test,
    gone: attempt.statusCode === GONE,
    pauseAfter,
  });
  if (attempt.succeeded) return { attempt, status: "succeeded", nextAttemptAt: null, endpoint };
  if (test) return { attempt, status: "failed", nextAttemptAt: null, endpoint };
  const scheduled = retrySchedule[delivery.attempts];
  if (scheduled === undefined) return { attempt, status: "failed", nextAttemptAt: null, endpoint };
  const asked = RETRY_AFTER_STATUSES.has(attempt.statusCode ?? 0) ? retryAfterDelay(input.retryAfter, now) : null;
  const delay = Math.max(scheduled, asked ?? 0);
  return {
    attempt,
    status: "pending",
    nextAttemptAt: new Date(now.getTime() + delay),
    endpoint,
  };
}
