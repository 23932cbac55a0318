import type { DeliveryAttemptRecord, WebhookStore } from "@hireport/webhooks";
import { PRIMARY_KEY, type StoreContext } from "../context";
import type { WebhookAttemptTable, WebhookDeliveryTable } from "../schema";
import { afterPosition } from "./keyset";
import { newestFirstPage } from "./newest-first";
import { findRecord, selectAll } from "./rows";
import { toAttempt, toDelivery } from "./webhook-rows";

export type DeliveryMethods = Pick<
  WebhookStore,
  "getDelivery" | "listDeliveries" | "listAttempts" | "listAttemptsOf" | "resendDelivery" | "recoverFailedDeliveries"
>;

/** Ids per `IN (…)` list. */
const ID_CHUNK = 500;

/** Webhook deliveries and their attempts as the host sees them: read, page, resend, recover. */
export function createDeliveryMethods(ctx: StoreContext): DeliveryMethods {
  const getDelivery: WebhookStore["getDelivery"] = (companyId, id) =>
    findRecord(ctx, "webhook_delivery", { id, company_id: companyId }, toDelivery);

  return {
    getDelivery,

    async listDeliveries(query) {
      const index = query.status !== undefined ? "endpoint_status_created" : "endpoint_created";
      let select = selectAll(ctx, "webhook_delivery", "d", index)
        .where("d.endpoint_id", "=", query.endpointId)
        .where("d.company_id", "=", query.companyId);
      if (query.status !== undefined) select = select.where("d.status", "=", query.status);
      const rows = await newestFirstPage(ctx, select, "d", query).$castTo<WebhookDeliveryTable>().execute();
      return rows.map(toDelivery);
    },

    async listAttempts(companyId, deliveryId) {
      const rows = await selectAll(ctx, "webhook_attempt", "t")
        .where("t.delivery_id", "=", deliveryId)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom(ctx.tableAs("webhook_delivery", "d"))
              .select("d.id")
              .where("d.id", "=", deliveryId)
              .where("d.company_id", "=", companyId),
          ),
        )
        .orderBy("t.attempted_at", "asc")
        .orderBy("t.seq", "asc")
        .$castTo<WebhookAttemptTable>()
        .execute();
      return rows.map(toAttempt);
    },

    async listAttemptsOf(companyId, deliveryIds) {
      const ids = [...new Set(deliveryIds)];
      const attempts: DeliveryAttemptRecord[] = [];
      for (let start = 0; start < ids.length; start += ID_CHUNK) {
        const rows = await selectAll(ctx, "webhook_attempt", "t")
          .innerJoin(ctx.tableAs("webhook_delivery", "d"), "d.id", "t.delivery_id")
          .where("t.delivery_id", "in", ids.slice(start, start + ID_CHUNK))
          .where("d.company_id", "=", companyId)
          .orderBy("t.delivery_id", "asc")
          .orderBy("t.attempted_at", "asc")
          .orderBy("t.seq", "asc")
          .$castTo<WebhookAttemptTable>()
          .execute();
        attempts.push(...rows.map(toAttempt));
      }
      return attempts;
    },

    recoverFailedDeliveries: (query) =>
      ctx.atomic(async (tx) => {
        let pick = tx.db
          .selectFrom(tx.from("webhook_delivery", "d", "endpoint_status_created"))
          .select("d.id")
          .where("d.endpoint_id", "=", query.endpointId)
          .where("d.status", "=", "failed")
          .where("d.company_id", "=", query.companyId)
          .where("d.created_at", ">=", tx.toDb(query.since));
        const after = query.after;
        if (after) pick = pick.where((eb) => afterPosition(tx, eb, "d.created_at", "d.id", after, "asc"));
        // Locked (skipping rows another recovery holds), so that two runs never take one delivery.
        const picked = await tx.strategy
          .forUpdateSkipLocked(
            pick.orderBy("d.created_at", "asc").orderBy("d.id", "asc").limit(Math.max(0, query.limit)),
          )
          .execute();
        const ids = picked.map((row) => row.id);
        if (ids.length === 0) return [];
        await tx.db
          .updateTable(tx.byPrimaryKey("webhook_delivery"))
          .set({
            status: "pending",
            next_attempt_at: tx.toDb(query.now),
            lease_token: null,
            lease_expires_at: null,
            updated_at: tx.toDb(query.now),
          })
          .where("id", "in", ids)
          .where("status", "=", "failed")
          .execute();
        const rows = await selectAll(tx, "webhook_delivery", "d", PRIMARY_KEY)
          .where("d.id", "in", ids)
          .orderBy("d.created_at", "asc")
          .orderBy("d.id", "asc")
          .$castTo<WebhookDeliveryTable>()
          .execute();
        return rows.map(toDelivery);
      }),

    async resendDelivery(companyId, id, now) {
      await ctx.db
        .updateTable(ctx.table("webhook_delivery"))
        .set({
          status: "pending",
          next_attempt_at: ctx.toDb(now),
          lease_token: null,
          lease_expires_at: null,
          updated_at: ctx.toDb(now),
        })
        .where("id", "=", id)
        .where("company_id", "=", companyId)
        .execute();
      return getDelivery(companyId, id);
    },
  };
}
