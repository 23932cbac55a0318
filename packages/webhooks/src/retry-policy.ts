import type { AttemptOutcome, DeliveryAttemptRecord, DeliveryRecord } from "@hireport/core";

export interface OutcomeInput {
  delivery: DeliveryRecord;
  attempt: DeliveryAttemptRecord;
  /** When the attempt ended: retries are scheduled from here. */
  now: Date;
  retrySchedule: readonly number[];
  pauseAfter: number;
}

/**
 * What an attempt leads to. A success ends the delivery and resets the endpoint's failure count. A
 * failure schedules the next retry from `retrySchedule` (the delivery's attempt number picks the
 * delay) and adds one to the count; when the schedule is used up the delivery is `failed`, and it
 * can still be resent (a resent delivery gets one more attempt). Test events (`webhook.test`) get
 * one attempt and leave the failure count alone.
 */
export function attemptOutcome({ delivery, attempt, now, retrySchedule, pauseAfter }: OutcomeInput): AttemptOutcome {
  const isTest = delivery.eventType === "webhook.test";
  if (attempt.succeeded) {
    return { attempt, status: "succeeded", nextAttemptAt: null, failureCount: isTest ? "none" : "reset", pauseAfter };
  }
  if (isTest) return { attempt, status: "failed", nextAttemptAt: null, failureCount: "none", pauseAfter };
  const attemptNumber = delivery.attempts + 1;
  const delay = retrySchedule[attemptNumber - 1];
  if (delay === undefined) {
    return { attempt, status: "failed", nextAttemptAt: null, failureCount: "increment", pauseAfter };
  }
  return {
    attempt,
    status: "pending",
    nextAttemptAt: new Date(now.getTime() + delay),
    failureCount: "increment",
    pauseAfter,
  };
}
