import { randomBytes } from "node:crypto";
import type { DeliveryRecord, EventRecord, EventType, Storage, WebhookEndpointRecord } from "@hireport/core";

function id(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("hex")}`;
}

/**
 * Writes an event and its deliveries exactly as core does in the transaction of a change: the
 * envelope of spec 2.9 in the outbox, and one pending delivery, due now, per subscribed endpoint.
 */
export async function emitEvent(
  storage: Storage,
  input: { companyId: string; type: EventType; data: Record<string, unknown>; now: Date },
): Promise<{ event: EventRecord; deliveries: DeliveryRecord[] }> {
  const eventId = id("evt");
  const payload = JSON.stringify({
    id: eventId,
    type: input.type,
    created_at: input.now.toISOString(),
    company_id: input.companyId,
    api_version: "1.0",
    data: input.data,
  });
  const event: EventRecord = {
    id: eventId,
    companyId: input.companyId,
    type: input.type,
    payload,
    createdAt: input.now,
  };
  return storage.transaction(async (tx) => {
    await tx.events.append(event);
    const endpoints = await tx.webhooks.listSubscribedEndpoints(input.companyId, input.type);
    const deliveries = endpoints.map(
      (endpoint): DeliveryRecord => ({
        id: id("dlv"),
        endpointId: endpoint.id,
        companyId: input.companyId,
        eventId,
        eventType: input.type,
        status: "pending",
        attempts: 0,
        nextAttemptAt: input.now,
        leaseExpiresAt: null,
        leaseToken: null,
        createdAt: input.now,
        updatedAt: input.now,
      }),
    );
    if (deliveries.length > 0) await tx.webhooks.insertDeliveries(deliveries);
    return { event, deliveries };
  });
}

/**
 * Stores an endpoint straight through the storage, past the dispatcher's address checks: an
 * address that was public when it was added and resolves elsewhere now, for the SSRF tests.
 */
export async function insertRawEndpoint(
  storage: Storage,
  input: { companyId: string; url: string; secret: string; now: Date; events?: EventType[] },
): Promise<WebhookEndpointRecord> {
  const record: WebhookEndpointRecord = {
    id: id("we"),
    companyId: input.companyId,
    url: input.url,
    description: "",
    events: input.events ?? ["job.created"],
    status: "active",
    pausedReason: null,
    secrets: [{ secret: input.secret, expiresAt: null }],
    consecutiveFailures: 0,
    createdAt: input.now,
    updatedAt: input.now,
  };
  await storage.webhooks.insertEndpoint(record);
  return record;
}

/** A job as the wire shape of spec 2.1, with non-ASCII text. */
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
