import type { EventType } from "@hireport/core";
import { deliveryId, newEvent } from "@hireport/core/extend";
import { type EventRecord, newId } from "@hireport/core/storage";
import type { DeliveryRecord, WebhookEndpointRecord } from "../../src/store/webhook-records";
import type { WebhookStorage } from "../../src/store/webhook-storage";

/**
 * Writes an event as core does in the transaction of a change: core's `newEvent` builds it (the
 * envelope of docs/api-reference.md#webhooks) and the storage's own `events.append` stores it with its fan-out. Returns
 * the deliveries the storage made, read back from it: for each endpoint of the company, the
 * delivery with the id the contract gives it (`deliveryId(event.id, endpoint.id)`), where one exists.
 */
export async function emitEvent(
  storage: WebhookStorage,
  input: { companyId: string; type: EventType; data: Record<string, unknown>; now: Date },
): Promise<{ event: EventRecord; deliveries: DeliveryRecord[] }> {
  const event = newEvent(input);
  await storage.transaction((tx) => tx.events.append(event));
  const endpoints = await storage.webhooks.listEndpoints(input.companyId);
  const found = await Promise.all(
    endpoints.map((endpoint) => storage.webhooks.getDelivery(input.companyId, deliveryId(event.id, endpoint.id))),
  );
  return { event, deliveries: found.filter((delivery): delivery is DeliveryRecord => delivery !== null) };
}

/**
 * Stores an endpoint straight through the storage, past the dispatcher's checks (its address, its
 * company): an address that was public when it was added and resolves elsewhere now, for the SSRF
 * tests.
 */
export async function insertRawEndpoint(
  storage: WebhookStorage,
  input: { companyId: string; url: string; secret: string; now: Date; events?: EventType[] },
): Promise<WebhookEndpointRecord> {
  const record: WebhookEndpointRecord = {
    id: newId("we", input.now),
    companyId: input.companyId,
    url: input.url,
    description: "",
    events: input.events ?? ["job.created"],
    status: "active",
    pausedReason: null,
    signatureScheme: "service",
    ordered: false,
    maxPerSecond: null,
    secrets: [{ secret: input.secret, expiresAt: null }],
    consecutiveFailures: 0,
    createdAt: input.now,
    updatedAt: input.now,
  };
  await storage.webhooks.insertEndpoint(record);
  return record;
}

/** The body of a delivery (the event envelope of docs/api-reference.md#webhooks) of company `co_1`'s event `evt_1`, written out by hand. */
export function samplePayload(type: EventType, data: Record<string, unknown>, now: Date): string {
  return JSON.stringify({
    id: "evt_1",
    type,
    created_at: now.toISOString(),
    company_id: "co_1",
    api_version: "1.0",
    data,
  });
}

/** A job in the wire shape of docs/api-reference.md, with non-ASCII text. */
export function sampleJob(title = "Développeuse — Zoë Ångström 日本語 🎉"): Record<string, unknown> {
  return {
    id: "job_1",
    reference: "JOB-1001",
    title,
    status: "active",
    open: true,
    description: 'Ünïcödé \u2028 line separator and "quotes"',
    department: "Engineering",
    location: "Zürich",
    employment_type: "full_time",
    experience_level: "senior",
    salary: { min: 1, max: 2, currency: "GBP", period: "year" },
    required_skills: ["TypeScript", "Ελληνικά"],
    closing_date: null,
    applications_count: 0,
    public_url: null,
    created_at: "2026-03-01T09:00:00.000Z",
    updated_at: "2026-03-01T09:00:00.000Z",
  };
}
