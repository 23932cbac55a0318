import { recordAudit } from "@hireport/core/extend";
import { newId } from "@hireport/core/storage";
import type { ResolvedDispatcherOptions } from "../dispatcher/options";
import { toEndpointView } from "../endpoints/endpoint-view";
import type { OutgoingRequest, Sender, SendResult } from "../network/sender";
import { createSecretBox } from "../signing/secret-encryption";
import type { ClaimedDelivery, DeliveryAttemptRecord, WebhookEndpointRecord } from "../store/webhook-records";
import { createAttemptRecorder } from "./attempt-recorder";
import { startAttemptTelemetry } from "./attempt-telemetry";
import { createDeliveryRequestBuilder } from "./delivery-request";
import { mostHeld } from "./delivery-slots";
import { attemptOutcome } from "./retry-policy";
import { withWriteRetries } from "./write-retries";

/** What became of one delivery this dispatcher held. */
export type DeliveryResult =
  /** 2xx: done. */
  | "succeeded"
  /** Failed; pending again with a retry due later. */
  | "retrying"
  /** Failed and the retry schedule is used up (or a test event failed). */
  | "failed"
  /**
   * Not sent: given back to the storage unsent (`releaseDeliveries`), because `stop()` came before a
   * slot to its endpoint freed, or its lease would have ended first. Any dispatcher may claim it at once.
   */
  | "released"
  /** Sent, but the lease had passed to another dispatcher, so this attempt was not recorded. */
  | "lost";

/** A delivery this dispatcher holds, with the lease it holds it under. */
export interface HeldDelivery {
  claimed: ClaimedDelivery;
  leaseToken: string;
  leaseUntil: Date;
}

/** The result of one attempt, as `sendTest` returns it. */
export interface AttemptReport {
  result: DeliveryResult;
  attempt: DeliveryAttemptRecord;
}

/** A failed attempt that sent nothing. */
const NOT_SENT: SendResult = {
  succeeded: false,
  statusCode: null,
  durationMs: 0,
  responseBody: "",
  error: null,
  retryAfter: null,
};

export interface DeliveryAttemptsContext {
  options: ResolvedDispatcherOptions;
  sender: () => Sender;
}

/** Makes attempts: one request for a held delivery, then its attempt recorded. */
export interface DeliveryAttempts {
  /**
   * Signs and sends one held delivery, then records the attempt (in a batch with others that
   * finish meanwhile) and, when this attempt paused the endpoint, tells the host. Never rejects for
   * a failed request or a failed write: those are in the result. `requestOver` is called once the
   * request is over, before the attempt is recorded: the request's slot is free then.
   */
  make(held: HeldDelivery, requestOver?: () => void): Promise<AttemptReport>;
}

export function createDeliveryAttempts({ options, sender }: DeliveryAttemptsContext): DeliveryAttempts {
  const { storage, clock, logger } = options;
  const requests = createDeliveryRequestBuilder(options);
  const secrets = createSecretBox(options.encryptionKeys);
  // Finished attempts are recorded in batches: one transaction for all that finish during a write.
  // A batch may hold every delivery the dispatcher holds: capped lower, finished attempts would
  // queue behind one write after another, holding the room new claims need.
  const recorder = createAttemptRecorder({
    store: () => storage.webhooks,
    maxBatch: mostHeld(options),
    retry: withWriteRetries,
  });

  /**
   * Called for the attempt that paused the endpoint after failures, or disabled it with a 410
   * Gone (the storage reports each once): the host tells the company, as for a pause. A disable is
   * also recorded in the company's audit list (`webhook_endpoint.disabled`, reason `gone`, by the
   * dispatcher): a REST Hooks subscription its platform removed leaves a trace of who removed it.
   */
  async function notifyPaused(after: WebhookEndpointRecord, deliveryId: string): Promise<void> {
    const disabled = after.status === "disabled";
    logger.warn(
      disabled
        ? "hireport webhooks: endpoint disabled, its receiver answered 410 Gone"
        : "hireport webhooks: endpoint paused after failed attempts in a row",
      { endpointId: after.id, companyId: after.companyId, consecutiveFailures: after.consecutiveFailures },
    );
    if (disabled) {
      try {
        await withWriteRetries(() =>
          recordAudit(
            storage,
            {
              companyId: after.companyId,
              actor: { type: "host", id: null, name: "webhooks dispatcher" },
              action: "webhook_endpoint.disabled",
              target: { type: "webhook_endpoint", id: after.id },
              details: { reason: "gone", status_code: 410, delivery_id: deliveryId },
            },
            clock.now(),
          ),
        );
      } catch (error) {
        logger.error("hireport webhooks: could not record the disable in the audit list", {
          endpointId: after.id,
          error: String(error),
        });
      }
    }
    if (!options.onEndpointPaused) return;
    try {
      await options.onEndpointPaused(toEndpointView(secrets.openForView(after), clock.now()));
    } catch (error) {
      logger.error("hireport webhooks: onEndpointPaused threw", { endpointId: after.id, error: String(error) });
    }
  }

  /**
   * Builds and sends the request. A request that cannot be built (the endpoint's secret does not
   * open with the dispatcher's keys) is not sent and counts as a failed attempt with that error, as
   * does a sender that throws (it should not).
   */
  async function send(held: HeldDelivery, attemptedAt: Date): Promise<SendResult> {
    let request: OutgoingRequest;
    try {
      request = await requests.build(held.claimed, attemptedAt);
    } catch (error) {
      logger.error("hireport webhooks: a delivery could not be signed", {
        deliveryId: held.claimed.delivery.id,
        error: String(error),
      });
      return { ...NOT_SENT, error: `Not sent: ${error instanceof Error ? error.message : String(error)}` };
    }
    try {
      return await sender().send(request);
    } catch (error) {
      return { ...NOT_SENT, error: String(error) };
    }
  }

  /** One attempt: sent, then recorded. Never rejects. */
  async function attemptOnce(held: HeldDelivery, attemptedAt: Date, requestOver?: () => void): Promise<AttemptReport> {
    const { delivery, endpoint } = held.claimed;
    const result = await send(held, attemptedAt);
    requestOver?.();
    const attempt: DeliveryAttemptRecord = {
      id: newId("att", attemptedAt),
      deliveryId: delivery.id,
      endpointId: endpoint.id,
      attemptedAt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      responseBody: result.responseBody,
      error: result.error,
      succeeded: result.succeeded,
    };
    const outcome = attemptOutcome({
      delivery,
      attempt,
      now: clock.now(),
      retrySchedule: options.retrySchedule,
      pauseAfter: options.pauseAfterFailures,
      retryAfter: result.retryAfter,
    });
    try {
      const {
        recorded,
        endpoint: after,
        paused,
        disabled,
      } = await recorder.record(delivery.id, held.leaseToken, outcome);
      if (!recorded) {
        logger.warn("hireport webhooks: attempt not recorded, the lease had passed to another dispatcher", {
          deliveryId: delivery.id,
        });
        return { result: "lost", attempt };
      }
      if ((paused || disabled) && after) await notifyPaused(after, delivery.id);
      return {
        result: outcome.status === "succeeded" ? "succeeded" : outcome.status === "pending" ? "retrying" : "failed",
        attempt,
      };
    } catch (error) {
      logger.error("hireport webhooks: recording an attempt failed; the delivery is retried when its lease ends", {
        deliveryId: delivery.id,
        error: String(error),
      });
      return { result: "lost", attempt };
    }
  }

  const { telemetry } = options;
  return {
    async make(held, requestOver) {
      const attemptedAt = clock.now();
      if (telemetry === undefined) return attemptOnce(held, attemptedAt, requestOver);
      // The span covers the request and the recording of its outcome.
      const span = startAttemptTelemetry(telemetry, held.claimed, attemptedAt);
      const report = await attemptOnce(held, attemptedAt, requestOver);
      span.end({ statusCode: report.attempt.statusCode, result: report.result, error: report.attempt.error });
      return report;
    },
  };
}
