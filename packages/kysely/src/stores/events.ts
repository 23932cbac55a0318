import type { AnyEventType, EventRecord, EventStore, EventType } from "@hireport/core";
import type { QueryCreator } from "kysely";
import type { StoreContext } from "../context";
import type { EventTable, HireportDatabase } from "../schema";
import { fromDb } from "../values";
import { afterPosition } from "./keyset";
import { subscribedEndpointsQuery, subscribedOf } from "./webhooks";

function toEvent(row: EventTable): EventRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    type: row.type as AnyEventType,
    payload: row.payload,
    createdAt: fromDb(row.created_at),
  };
}

export function eventRow(ctx: StoreContext, event: EventRecord) {
  return {
    id: event.id,
    company_id: event.companyId,
    type: event.type,
    payload: event.payload,
    created_at: ctx.toDb(event.createdAt),
  };
}

export function createEventStore(ctx: StoreContext): EventStore {
  return {
    async append(event) {
      await ctx.db.insertInto(ctx.table("event")).values(eventRow(ctx, event)).execute();
    },

    // Postgres: the insert as a data-modifying `WITH` of the endpoints' select, one round trip.
    // Postgres runs such a `WITH` to completion even though the select does not read it.
    ...(ctx.dialect === "postgres"
      ? {
          async appendAndListSubscribers(event: EventRecord) {
            const withInsert = ctx.db.with("appended", (db) =>
              db.insertInto(ctx.table("event")).values(eventRow(ctx, event)),
            );
            // The select never reads `appended`: typed as the plain database.
            const db = withInsert as unknown as QueryCreator<HireportDatabase>;
            const rows = await subscribedEndpointsQuery(ctx, db, event.companyId).execute();
            return subscribedOf(rows, event.type as EventType);
          },
        }
      : {}),

    async get(id) {
      const row = await ctx.db
        .selectFrom(ctx.tableAs("event", "e"))
        .select(ctx.columns("event", "e"))
        .where("e.id", "=", id)
        .$castTo<EventTable>()
        .executeTakeFirst();
      return row ? toEvent(row) : null;
    },

    async list(companyId, options) {
      let select = ctx.db
        .selectFrom(ctx.tableAs("event", "e"))
        .select(ctx.columns("event", "e"))
        .where("e.company_id", "=", companyId);
      const after = options.after;
      if (after) select = select.where((eb) => afterPosition(ctx, eb, "e.created_at", "e.id", after));
      const rows = await ctx.list(
        select
          .orderBy("e.created_at", "desc")
          .orderBy("e.id", "desc")
          .limit(Math.max(0, options.take))
          .$castTo<EventTable>(),
        "event",
        "e",
        "company_created",
      );
      return rows.map(toEvent);
    },

    async purge(before) {
      const events = ctx.table("event");
      const result = await ctx.db
        .deleteFrom(events)
        .where("created_at", "<", ctx.toDb(before))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom(ctx.tableAs("webhook_delivery", "d"))
                .select("d.id")
                .whereRef("d.event_id", "=", eb.ref(`${events}.id` as "id"))
                .where("d.status", "=", "pending"),
            ),
          ),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
