import { type EventDeliveryStore, subscribesTo } from "@hireport/core/storage";
import type { StoreContext } from "../context";
import type { WebhookEndpointTable } from "../schema";
import { newestFirst } from "./newest-first";
import { selectAll } from "./rows";
import { deliveryRow, toEndpoint } from "./webhook-rows";

/**
 * The part of the webhook tables core's own code reaches, with or without `@hireport/webhooks`: the
 * outbox's fan-out (the subscribed endpoints, an event's deliveries) and retention's purge of
 * finished deliveries. The webhook store of `@hireport/kysely/webhooks` includes these methods.
 */
export function createEventDeliveryStore(ctx: StoreContext): EventDeliveryStore {
  return {
    /**
     * The company's active and paused endpoints (paused ones queue events) whose event list names the
     * type (core's `subscribesTo`), newest first.
     */
    async listSubscribedEndpoints(companyId, type) {
      const rows = await newestFirst(selectAll(ctx, "webhook_endpoint", "e").where("e.company_id", "=", companyId), "e")
        .where("e.status", "in", ["active", "paused"])
        .$castTo<WebhookEndpointTable>()
        .execute();
      return rows.map(toEndpoint).filter((endpoint) => subscribesTo(endpoint, type));
    },

    async insertDeliveries(records) {
      if (records.length === 0) return;
      await ctx.db
        .insertInto(ctx.table("webhook_delivery"))
        .values(records.map((record) => deliveryRow(ctx, record)))
        .execute();
    },

    purgeDeliveries: (before, limit) =>
      ctx.atomic(async (tx) => {
        const finished = tx.db
          .selectFrom(tx.tableAs("webhook_delivery", "d"))
          .select("d.id")
          .where("d.status", "<>", "pending")
          .where("d.created_at", "<", tx.toDb(before));
        if (limit === undefined) {
          await tx.db.deleteFrom(tx.table("webhook_attempt")).where("delivery_id", "in", finished).execute();
          const deleted = await tx.db
            .deleteFrom(tx.table("webhook_delivery"))
            .where("status", "<>", "pending")
            .where("created_at", "<", tx.toDb(before))
            .executeTakeFirst();
          return Number(deleted.numDeletedRows);
        }
        // A batch: the oldest `limit` finished deliveries, locked (a resend waits), then their
        // attempts and their rows.
        const picked = await tx.strategy
          .forUpdate(finished.orderBy("d.created_at", "asc").orderBy("d.id", "asc").limit(Math.max(0, limit)))
          .execute();
        const ids = picked.map((row) => row.id);
        if (ids.length === 0) return 0;
        await tx.db.deleteFrom(tx.table("webhook_attempt")).where("delivery_id", "in", ids).execute();
        const deleted = await tx.db.deleteFrom(tx.table("webhook_delivery")).where("id", "in", ids).executeTakeFirst();
        return Number(deleted.numDeletedRows);
      }),
  };
}
