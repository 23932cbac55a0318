import type { EventRecord, EventStore } from "@hireport/core/storage";
import type { ExpressionBuilder } from "kysely";
import type { StoreContext } from "../context";
import type { EventTable, HireportDatabase } from "../schema";
import { readFeed } from "./event-feed";
import { toEvent } from "./event-rows";
import { newestFirstPage } from "./newest-first";
import { findRecord, selectAll } from "./rows";

/** The columns of an event row (every column: the Postgres routines read them as JSON). */
export function eventRow(ctx: StoreContext, event: EventRecord) {
  const row = {
    id: event.id,
    company_id: event.companyId,
    type: event.type,
    payload: event.payload,
    created_at: ctx.toDb(event.createdAt),
    subject_id: event.subjectId ?? null,
    // Given after the commit, by the feed's sequencer (`event-feed.ts`).
    feed_position: null,
  } satisfies Record<keyof EventTable, unknown>;
  return row;
}

/**
 * The outbox. `append` is the dialect's (`DialectStrategy.appendEvent`): the event with its fan-out
 * in one call of the `append_event` routine on Postgres, `appendInSteps` in a transaction elsewhere.
 */
export function createEventStore(ctx: StoreContext): EventStore {
  return {
    append: (event) => ctx.strategy.appendEvent(ctx, event),

    get: (id) => findRecord(ctx, "event", { id }, toEvent),

    feed: (companyId, query) => readFeed(ctx, companyId, query),

    async list(companyId, options) {
      const select = selectAll(ctx, "event", "e", "company_created").where("e.company_id", "=", companyId);
      const rows = await newestFirstPage(ctx, select, "e", options).$castTo<EventTable>().execute();
      return rows.map(toEvent);
    },

    async purge(before, limit) {
      const events = ctx.table("event");
      /** The event (`id` of the statement's event table) has no pending delivery. */
      const unneeded = (eb: ExpressionBuilder<HireportDatabase, "event">, tx: StoreContext) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom(tx.tableAs("webhook_delivery", "d"))
              .select("d.id")
              .whereRef("d.event_id", "=", eb.ref(`${events}.id` as "id"))
              .where("d.status", "=", "pending"),
          ),
        );
      if (limit === undefined) {
        const result = await ctx.db
          .deleteFrom(events)
          .where("created_at", "<", ctx.toDb(before))
          .where((eb) => unneeded(eb, ctx))
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      }
      // A batch: the oldest `limit` ids, then their rows (a delete with a limit is not portable).
      return ctx.atomic(async (tx) => {
        const picked = await tx.db
          .selectFrom(tx.table("event"))
          .select("id")
          .where("created_at", "<", tx.toDb(before))
          .where((eb) => unneeded(eb, tx))
          .orderBy("created_at", "asc")
          .orderBy("id", "asc")
          .limit(Math.max(0, limit))
          .execute();
        if (picked.length === 0) return 0;
        const result = await tx.db
          .deleteFrom(events)
          .where(
            "id",
            "in",
            picked.map((row) => row.id),
          )
          .where((eb) => unneeded(eb, tx))
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      });
    },
  };
}
