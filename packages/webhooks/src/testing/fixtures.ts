/** The webhook records the conformance suites store: an endpoint, a delivery, an attempt, each with random ids. */
import type { EventRecord } from "@hireport/core/storage";
import { newId, now, randomHex } from "@hireport/core/testing";
import type { DeliveryAttemptRecord, DeliveryRecord, WebhookEndpointRecord } from "../store/webhook-records";

export function makeEndpoint(companyId: string, overrides: Partial<WebhookEndpointRecord> = {}): WebhookEndpointRecord {
  const at = overrides.createdAt ?? now();
  return {
    id: newId("we"),
    companyId,
    url: `https://hooks.example.com/${randomHex(8)}`,
    description: "",
    events: ["job.created", "application.created"],
    status: "active",
    pausedReason: null,
    signatureScheme: "service",
    ordered: false,
    maxPerSecond: null,
    secrets: [{ secret: `whsec_${randomHex(32)}`, expiresAt: null }],
    consecutiveFailures: 0,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export function makeDelivery(
  endpoint: Pick<WebhookEndpointRecord, "id" | "companyId">,
  event: Pick<EventRecord, "id" | "type">,
  overrides: Partial<DeliveryRecord> = {},
): DeliveryRecord {
  const at = overrides.createdAt ?? now();
  return {
    id: newId("dlv"),
    endpointId: endpoint.id,
    companyId: endpoint.companyId,
    eventId: event.id,
    eventType: event.type,
    status: "pending",
    attempts: 0,
    nextAttemptAt: at,
    leaseExpiresAt: null,
    leaseToken: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export function makeAttempt(
  delivery: Pick<DeliveryRecord, "id" | "endpointId">,
  overrides: Partial<DeliveryAttemptRecord> = {},
): DeliveryAttemptRecord {
  return {
    id: newId("att"),
    deliveryId: delivery.id,
    endpointId: delivery.endpointId,
    attemptedAt: now(),
    statusCode: 500,
    durationMs: 120,
    responseBody: "upstream error",
    error: "HTTP 500",
    succeeded: false,
    ...overrides,
  };
}
