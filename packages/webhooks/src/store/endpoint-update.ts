import type { WebhookEndpointStatus } from "@hireport/core/schemas";
import type { WebhookStopReason } from "./webhook-records";
import type { EndpointUpdate } from "./webhook-store";

/** The fields of an endpoint an attempt may change. */
export interface EndpointFailureState {
  status: WebhookEndpointStatus;
  pausedReason: WebhookStopReason | null;
  consecutiveFailures: number;
  updatedAt: Date;
}

/** What {@link applyEndpointUpdate} did. */
export interface AppliedEndpointUpdate<S extends EndpointFailureState> {
  /** The endpoint after the update (the same object when nothing changed). */
  state: S;
  /** The update moved the endpoint's status to `paused`. */
  paused: boolean;
  /** The update moved the endpoint's status to `disabled`. */
  disabled: boolean;
}

/**
 * Applies an attempt's {@link EndpointUpdate} to an endpoint as `recordAttempt` must: the failure
 * count first (`increment`: + 1, `reset`: 0, `none`: unchanged), then each status change in order
 * whose conditions hold on the endpoint as the previous steps left it. `updatedAt` becomes `at`
 * when anything changed. No rule of when to pause lives here: the update carries it.
 */
export function applyEndpointUpdate<S extends EndpointFailureState>(
  current: S,
  update: EndpointUpdate,
  at: Date,
): AppliedEndpointUpdate<S> {
  let next: S = current;
  if (update.failureCount === "increment") {
    next = { ...next, consecutiveFailures: next.consecutiveFailures + 1, updatedAt: at };
  } else if (update.failureCount === "reset" && next.consecutiveFailures !== 0) {
    next = { ...next, consecutiveFailures: 0, updatedAt: at };
  }
  for (const change of update.statusChanges) {
    if (!change.whenStatusIn.includes(next.status)) continue;
    if (change.whenFailuresAtLeast !== undefined && next.consecutiveFailures < change.whenFailuresAtLeast) continue;
    if (next.status === change.status && next.pausedReason === change.pausedReason) continue;
    next = { ...next, status: change.status, pausedReason: change.pausedReason, updatedAt: at };
  }
  const moved = next.status !== current.status;
  return {
    state: next,
    paused: moved && next.status === "paused",
    disabled: moved && next.status === "disabled",
  };
}
