import { fanOut, subscribesTo } from "../events/outbox";
import type { EventRecord } from "../model/domain";
import type { EventStore, FeedEvent } from "../storage";
import type { StateAccess } from "./access";
import { copy, toStored } from "./copy";
import { createdPage } from "./keyset";
import { deleteMatching } from "./rows";
import type { MemoryState } from "./state";

/** The event and its fan-out (one delivery per subscribed endpoint), in one state operation. */
export function appendEvent(state: MemoryState, event: EventRecord): void {
  const events = state.write("events");
  if (events.has(event.id)) throw new Error(`The memory storage already has an event with id ${event.id}.`);
  const subscribed = [...state.read("endpoints").values()].filter(
    (endpoint) => endpoint.companyId === event.companyId && subscribesTo(endpoint, event.type),
  );
  const deliveries = fanOut(event, subscribed);
  const stored = state.write("deliveries");
  for (const delivery of deliveries) {
    if (stored.has(delivery.id)) throw new Error(`The memory storage already has a delivery ${delivery.id}.`);
  }
  events.set(event.id, toStored(event));
  numberEvent(state, event);
  for (const delivery of deliveries) stored.set(delivery.id, toStored(delivery));
}

/** The key in `sequences` of the last feed position given (one counter for every company). */
const FEED_COUNTER = "\u0000event-feed";

/**
 * Gives the event the next feed position. The memory storage runs one transaction at a time, so
 * the order of appends is the order of commits: the positions follow commit order (no gaps).
 */
function numberEvent(state: MemoryState, event: EventRecord): void {
  const sequences = state.write("sequences");
  const position = (sequences.get(FEED_COUNTER) ?? 0) + 1;
  sequences.set(FEED_COUNTER, position);
  state.write("eventPositions").set(event.id, Object.freeze({ companyId: event.companyId, position }));
}

export function createEventStore(access: StateAccess): EventStore {
  return {
    append: (event) => access.write((state) => appendEvent(state, event)),

    get: (id) => access.read((state) => copy(state.read("events").get(id) ?? null)),

    list: (companyId, options) =>
      access.read((state) =>
        createdPage(
          [...state.read("events").values()].filter((event) => event.companyId === companyId),
          options,
        ),
      ),

    feed: (companyId, query) =>
      access.read((state) => {
        const events = state.read("events");
        const types = new Set<string>(query.types);
        const after = query.after === undefined ? 0 : Number(query.after);
        const since = query.createdSince.getTime();
        const found: FeedEvent[] = [];
        for (const [id, { companyId: owner, position }] of state.read("eventPositions")) {
          const event = events.get(id);
          if (owner !== companyId || position <= after || !event) continue;
          if (!types.has(event.type) || event.createdAt.getTime() < since) continue;
          found.push({ ...copy(event), position: String(position) });
        }
        return found.sort((a, b) => Number(a.position) - Number(b.position)).slice(0, Math.max(0, query.take));
      }),

    purge: (before, limit) =>
      access.write((state) => {
        const needed = new Set<string>();
        for (const delivery of state.read("deliveries").values()) {
          if (delivery.status === "pending") needed.add(delivery.eventId);
        }
        const purged = deleteMatching(
          state.write("events"),
          (event) => event.createdAt,
          (event) => event.createdAt.getTime() < before.getTime() && !needed.has(event.id),
          limit,
        );
        if (purged.length > 0) {
          const positions = state.write("eventPositions");
          for (const event of purged) positions.delete(event.id);
        }
        return purged.length;
      }),
  };
}
