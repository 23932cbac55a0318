/** `events.append` as one transaction of plain statements: the portable way (MySQL/MariaDB, SQLite). */
import { appendInSteps, type EventRecord } from "@hireport/core/storage";
import type { StoreContext } from "../context";
import { createEventDeliveryStore } from "./event-deliveries";
import { eventRow } from "./events";

/**
 * The event's row, then one pending delivery per subscribed endpoint as core's `fanOut` builds it
 * (`appendInSteps`: `listSubscribedEndpoints`, then `insertDeliveries`), in one transaction (this
 * one when called on a `tx`).
 */
export function appendEventInSteps(ctx: StoreContext, event: EventRecord): Promise<void> {
  return ctx.atomic((tx) =>
    appendInSteps({ eventDeliveries: createEventDeliveryStore(tx) }, event, async (row) => {
      await tx.db.insertInto(tx.table("event")).values(eventRow(tx, row)).execute();
    }),
  );
}
