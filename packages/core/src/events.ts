import type { AnyEventType, DeliveryRecord, EventRecord, EventType, WebhookEndpointRecord } from "./domain";
import { newId } from "./ids";
import type { StorageStores } from "./storage";

/** `api_version` of every envelope (spec section 9). */
export const API_VERSION = "1.0";

/** The envelope of spec 2.9 as JSON text: the exact bytes that are signed and sent. */
export function eventPayload(event: {
  id: string;
  type: AnyEventType;
  createdAt: Date;
  companyId: string;
  data: unknown;
}): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: event.createdAt.toISOString(),
    company_id: event.companyId,
    api_version: API_VERSION,
    data: event.data,
  });
}

/** A new outbox event: a fresh id, and the envelope of spec 2.9 as its payload. */
export function newEvent(input: { type: EventType; companyId: string; data: unknown; now: Date }): EventRecord {
  const id = newId("evt", input.now);
  return {
    id,
    companyId: input.companyId,
    type: input.type,
    payload: eventPayload({ id, type: input.type, createdAt: input.now, companyId: input.companyId, data: input.data }),
    createdAt: input.now,
  };
}

/**
 * Writes an event to the outbox and one pending delivery per subscribed webhook endpoint, on the
 * transaction of the change it reports, so that both commit together or not at all.
 */
export async function appendEvent(
  tx: StorageStores,
  input: { type: EventType; companyId: string; data: unknown; now: Date },
): Promise<EventRecord> {
  const event = newEvent(input);
  const id = event.id;
  let endpoints: WebhookEndpointRecord[];
  if (tx.events.appendAndListSubscribers) {
    endpoints = await tx.events.appendAndListSubscribers(event);
  } else {
    await tx.events.append(event);
    endpoints = await tx.webhooks.listSubscribedEndpoints(input.companyId, input.type);
  }
  if (endpoints.length > 0) {
    const deliveries: DeliveryRecord[] = endpoints.map((endpoint) => ({
      id: newId("dlv", input.now),
      endpointId: endpoint.id,
      companyId: input.companyId,
      eventId: id,
      eventType: input.type,
      status: "pending",
      attempts: 0,
      nextAttemptAt: input.now,
      leaseExpiresAt: null,
      leaseToken: null,
      createdAt: input.now,
      updatedAt: input.now,
    }));
    await tx.webhooks.insertDeliveries(deliveries);
  }
  return event;
}
