import type { EndpointPatch, WebhookStore } from "@hireport/webhooks";
import type { Updateable } from "kysely";
import type { StoreContext } from "../context";
import type { WebhookEndpointTable } from "../schema";
import { newestFirst } from "./newest-first";
import { findRecord, selectAll } from "./rows";
import { endpointRow, secretsJson, toEndpoint } from "./webhook-rows";

export type EndpointMethods = Pick<
  WebhookStore,
  | "insertEndpoint"
  | "getEndpoint"
  | "listEndpoints"
  | "listEndpointsAfter"
  | "updateEndpoint"
  | "replaceEndpointSecrets"
  | "deleteEndpoint"
>;

/** Webhook endpoints: the company's subscriptions, as the host manages them. */
export function createEndpointMethods(ctx: StoreContext): EndpointMethods {
  /** The company's endpoints, newest first. */
  const companyEndpoints = (companyId: string) =>
    newestFirst(selectAll(ctx, "webhook_endpoint", "e").where("e.company_id", "=", companyId), "e");

  const getEndpoint: WebhookStore["getEndpoint"] = (companyId, id) =>
    findRecord(ctx, "webhook_endpoint", { id, company_id: companyId }, toEndpoint);

  return {
    async insertEndpoint(record) {
      await ctx.db.insertInto(ctx.table("webhook_endpoint")).values(endpointRow(ctx, record)).execute();
    },

    getEndpoint,

    async listEndpoints(companyId) {
      const rows = await companyEndpoints(companyId).$castTo<WebhookEndpointTable>().execute();
      return rows.map(toEndpoint);
    },

    /** Every company's endpoints after `afterId`, by primary key. */
    async listEndpointsAfter(afterId, limit) {
      if (limit <= 0) return [];
      let query = selectAll(ctx, "webhook_endpoint", "e").orderBy("e.id", "asc").limit(limit);
      if (afterId !== null) query = query.where("e.id", ">", afterId);
      return (await query.$castTo<WebhookEndpointTable>().execute()).map(toEndpoint);
    },

    /**
     * A compare-and-set on the stored text: `secretsJson` writes every row's secrets, and the same
     * list always gives the same text, so the expected list matches the row exactly when unchanged.
     */
    async replaceEndpointSecrets(companyId, id, expected, secrets) {
      const result = await ctx.db
        .updateTable(ctx.table("webhook_endpoint"))
        .set({ secrets: secretsJson(secrets) })
        .where("id", "=", id)
        .where("company_id", "=", companyId)
        .where("secrets", "=", secretsJson(expected))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async updateEndpoint(companyId, id, patch: EndpointPatch) {
      const set: Updateable<WebhookEndpointTable> = { updated_at: ctx.toDb(patch.updatedAt) };
      if (patch.url !== undefined) set.url = patch.url;
      if (patch.description !== undefined) set.description = patch.description;
      if (patch.events !== undefined) set.events = JSON.stringify(patch.events);
      if (patch.status !== undefined) set.status = patch.status;
      if (patch.pausedReason !== undefined) set.paused_reason = patch.pausedReason;
      if (patch.signatureScheme !== undefined) set.signature_scheme = patch.signatureScheme;
      if (patch.ordered !== undefined) set.ordered = ctx.bool(patch.ordered);
      if (patch.maxPerSecond !== undefined) set.max_per_second = patch.maxPerSecond;
      if (patch.secrets !== undefined) set.secrets = secretsJson(patch.secrets);
      if (patch.consecutiveFailures !== undefined) set.consecutive_failures = patch.consecutiveFailures;
      await ctx.db
        .updateTable(ctx.table("webhook_endpoint"))
        .set(set)
        .where("id", "=", id)
        .where("company_id", "=", companyId)
        .execute();
      return getEndpoint(companyId, id);
    },

    deleteEndpoint: (companyId, id) =>
      ctx.atomic(async (tx) => {
        const deleted = await tx.db
          .deleteFrom(tx.table("webhook_endpoint"))
          .where("id", "=", id)
          .where("company_id", "=", companyId)
          .executeTakeFirst();
        if (Number(deleted.numDeletedRows) === 0) return false;
        await tx.db.deleteFrom(tx.table("webhook_attempt")).where("endpoint_id", "=", id).execute();
        await tx.db.deleteFrom(tx.table("webhook_delivery")).where("endpoint_id", "=", id).execute();
        return true;
      }),
  };
}
