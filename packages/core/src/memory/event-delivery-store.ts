import { subscribesTo } from "../events/outbox";
import type { EventDelivery } from "../model/domain";
import type { EventDeliveryStore } from "../storage";
import type { StateAccess } from "./access";
import { createdList } from "./keyset";
import { deleteMatching, insertNew } from "./rows";
import type { MemoryState } from "./state";

/**
 * Deletes deliveries matching `test` (the oldest `limit` of them when given) with their attempts;
 * returns how many deliveries went.
 */
export function deleteDeliveries(
  state: MemoryState,
  test: (delivery: EventDelivery) => boolean,
  limit?: number,
): number {
  const deleted = deleteMatching(state.write("deliveries"), (delivery) => delivery.createdAt, test, limit);
  const removed = new Set(deleted.map((delivery) => delivery.id));
  if (removed.size > 0) {
    const attempts = state.write("attempts");
    for (const attempt of [...attempts.values()]) {
      if (removed.has(attempt.deliveryId)) attempts.delete(attempt.id);
    }
  }
  return removed.size;
}

/** The outbox's fan-out and retention's purge over the memory tables of webhooks. */
export function createEventDeliveryStore(access: StateAccess): EventDeliveryStore {
  return {
    listSubscribedEndpoints: (companyId, type) =>
      access.read((state) =>
        createdList(
          state.read("endpoints").values(),
          (endpoint) => endpoint.companyId === companyId && subscribesTo(endpoint, type),
        ),
      ),

    insertDeliveries: (records) =>
      access.write((state) => {
        const deliveries = state.write("deliveries");
        for (const record of records) insertNew(deliveries, record, "a delivery");
      }),

    purgeDeliveries: (before, limit) =>
      access.write((state) =>
        deleteDeliveries(
          state,
          (delivery) => delivery.status !== "pending" && delivery.createdAt.getTime() < before.getTime(),
          limit,
        ),
      ),
  };
}
