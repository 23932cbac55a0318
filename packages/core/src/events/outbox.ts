/**
 * The outbox fan-out, stated once: which endpoints an event goes to and the delivery each gets.
 * Every storage's `events.append` follows it (the conformance suite checks); `@hireport/kysely`'s
 * Postgres routine restates it in SQL beside a test that fails when the two drift apart.
 */
import type { AnyEventType, EventDelivery, EventRecord, WebhookSubscription } from "../model/domain";
import type { StorageStores } from "../storage";

/** The part of an id after its prefix: `evt_01hx…` gives `01hx…`. */
function idBody(id: string): string {
  return id.slice(id.indexOf("_") + 1);
}

/**
 * The id of the delivery of one event to one endpoint: `dlv_`, the event id's body, then the
 * endpoint id's body. There is exactly one delivery per event and endpoint, so the id is derived,
 * never drawn: a fan-out run twice cannot double a delivery, and deliveries sort by their event's
 * time.
 */
export function deliveryId(eventId: string, endpointId: string): string {
  return `dlv_${idBody(eventId)}${idBody(endpointId)}`;
}

/**
 * Whether an endpoint receives events of this type: active or paused (a paused one queues them)
 * and subscribed. A disabled endpoint (its receiver answered 410 Gone) receives none.
 */
export function subscribesTo(endpoint: WebhookSubscription, type: AnyEventType): boolean {
  return (
    (endpoint.status === "active" || endpoint.status === "paused") &&
    (endpoint.events as readonly string[]).includes(type)
  );
}

/** The pending deliveries of an event to its subscribed endpoints: due at once, no lease. */
export function fanOut(event: EventRecord, endpoints: readonly WebhookSubscription[]): EventDelivery[] {
  return endpoints
    .filter((endpoint) => endpoint.companyId === event.companyId && subscribesTo(endpoint, event.type))
    .map((endpoint) => ({
      id: deliveryId(event.id, endpoint.id),
      endpointId: endpoint.id,
      companyId: event.companyId,
      eventId: event.id,
      eventType: event.type,
      status: "pending",
      attempts: 0,
      nextAttemptAt: event.createdAt,
      leaseExpiresAt: null,
      leaseToken: null,
      createdAt: event.createdAt,
      updatedAt: event.createdAt,
    }));
}

/**
 * `events.append` in portable steps, for storages with nothing faster: the event's row (written by
 * `insertEvent`), then one delivery per subscribed endpoint. Call it on a transaction's stores, or
 * inside the storage's own transaction, so that the event and its deliveries commit together.
 */
export async function appendInSteps(
  stores: Pick<StorageStores, "eventDeliveries">,
  event: EventRecord,
  insertEvent: (event: EventRecord) => Promise<void>,
): Promise<void> {
  await insertEvent(event);
  if (event.type === "webhook.test") return;
  const endpoints = await stores.eventDeliveries.listSubscribedEndpoints(event.companyId, event.type);
  const deliveries = fanOut(event, endpoints);
  if (deliveries.length > 0) await stores.eventDeliveries.insertDeliveries(deliveries);
}
