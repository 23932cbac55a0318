import type { EndpointUpdate } from "../store/webhook-store";

/** What the dispatcher knows of an attempt when it decides what the attempt does to its endpoint. */
export interface EndpointStopInput {
  /** The receiver answered 2xx. */
  succeeded: boolean;
  /** A test event (`webhook.test`): it leaves the endpoint alone. */
  test: boolean;
  /** The receiver answered 410 Gone: it is gone for good. */
  gone: boolean;
  /** Failures in a row that pause the endpoint (`pauseAfterFailures`). */
  pauseAfter: number;
}

/**
 * When an attempt pauses or disables its endpoint, stated once for every storage: a success resets
 * the endpoint's failure count, a failure adds one to it and pauses an active endpoint whose count
 * reaches `pauseAfter` (`pausedReason: "failures"`), and a 410 Gone disables the endpoint
 * (`pausedReason: "gone"`) whatever its status, unless it is disabled already. A test event
 * changes nothing. The store applies the update in the attempt's transaction, on the endpoint's
 * row as it is then (see `recordAttempt`), so that concurrent attempts count exactly and one of
 * them reports the pause.
 */
export function endpointUpdate(input: EndpointStopInput): EndpointUpdate {
  if (input.test) return { failureCount: "none", statusChanges: [] };
  if (input.succeeded) return { failureCount: "reset", statusChanges: [] };
  return {
    failureCount: "increment",
    statusChanges: [
      { status: "paused", pausedReason: "failures", whenStatusIn: ["active"], whenFailuresAtLeast: input.pauseAfter },
      ...(input.gone
        ? [
            {
              status: "disabled" as const,
              pausedReason: "gone" as const,
              whenStatusIn: ["active" as const, "paused" as const],
            },
          ]
        : []),
    ],
  };
}
