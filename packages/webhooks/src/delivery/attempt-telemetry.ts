import type { Telemetry } from "@hireport/core";
import { eventTraceparent, type WebhookAttemptTelemetry } from "@hireport/core/extend";
import type { ClaimedDelivery } from "../store/webhook-records";

/**
 * A receiver's address as telemetry reports it (`url.full`): without user name and password, and
 * with every query value replaced by `REDACTED`, since receivers put tokens there.
 */
export function telemetryUrl(address: string): string {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return "";
  }
  url.username = "";
  url.password = "";
  url.hash = "";
  if (url.search !== "") {
    const redacted = new URLSearchParams();
    for (const name of url.searchParams.keys()) redacted.append(name, "REDACTED");
    url.search = redacted.toString();
  }
  return url.toString();
}

/**
 * Starts the client span of one attempt, linked to the span its event was emitted under, and
 * records the event's lag on a delivery's first attempt.
 */
export function startAttemptTelemetry(
  telemetry: Telemetry,
  { delivery, endpoint, payload }: ClaimedDelivery,
  attemptedAt: Date,
): WebhookAttemptTelemetry {
  return telemetry.startWebhookAttempt({
    url: telemetryUrl(endpoint.url),
    eventType: delivery.eventType,
    deliveryId: delivery.id,
    traceparent: eventTraceparent(payload),
    lagSeconds: delivery.attempts === 0 ? (attemptedAt.getTime() - delivery.createdAt.getTime()) / 1000 : null,
  });
}
