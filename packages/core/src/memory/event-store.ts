import { fanOut, subscribesTo } from "../events/outbox";
import type { EventRecord } from "../model/domain";
import type { EventStore } from "../storage";
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
  for (const delivery of deliveries) stored.set(delivery.id, toStored(delivery));
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

    purge: (before, limit) =>
      access.write((state) => {
        const needed = new Set<string>();
        for (const delivery of state.read("deliveries").values()) {
          if (delivery.status === "pending") needed.add(delivery.eventId);
        }
        return deleteMatching(
          state.write("events"),
          (event) => event.createdAt,
          (event) => event.createdAt.getTime() < before.getTime() && !needed.has(event.id),
          limit,
        ).length;
      }),
  };
}
