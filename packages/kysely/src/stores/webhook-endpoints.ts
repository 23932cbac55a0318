import { type EndpointPatch, subscribesTo, type WebhookStore } from "@hireport/core";
import type { Updateable } from "kysely";
import type { StoreContext } from "../context";
import type { WebhookEndpointTable } from "../schema";
import { secretsJson, toEndpoint } from "./webhook-rows";

export type EndpointMethods = Pick<
  WebhookStore,
  | "insertEndpoint"
  | "getEndpoint"
  | "listEndpoints"
  | "listEndpointsAfter"
  | "updateEndpoint"
  | "replaceEndpointSecrets"
  | "deleteEndpoint"
  | "listSubscribedEndpoints"
>;

/** Webhook endpoints: the company's subscriptions, and the fan-out's read of them. */
export function createEndpointMethods(ctx: StoreContext): EndpointMethods {
  const getEndpoint: WebhookStore["getEndpoint"] = async (companyId, id) => {
    const row = await ctx.db
      .selectFrom(ctx.tableAs("webhook_endpoint", "e"))
      .select(ctx.columns("webhook_endpoint", "e"))
      .where("e.id", "=", id)
      .where("e.company_id", "=", companyId)
      .$castTo<WebhookEndpointTable>()
      .executeTakeFirst();
    return row ? toEndpoint(row) : null;
  };

  return {
    async insertEndpoint(record) {
      await ctx.db
        .insertInto(ctx.table("webhook_endpoint"))
        .values({
          id: record.id,
          company_id: record.companyId,
          url: record.url,
          description: record.description,
          events: JSON.stringify(record.events),
          status: record.status,
          paused_reason: record.pausedReason,
          secrets: secretsJson(record.secrets),
          consecutive_failures: record.consecutiveFailures,
          created_at: ctx.toDb(record.createdAt),
          updated_at: ctx.toDb(record.updatedAt),
        })
        .execute();
    },

    getEndpoint,

    /** Newest first. */
    async listEndpoints(companyId) {
      const rows = await ctx.db
        .selectFrom(ctx.tableAs("webhook_endpoint", "e"))
        .select(ctx.columns("webhook_endpoint", "e"))
        .where("e.company_id", "=", companyId)
        .orderBy("e.created_at", "desc")
        .orderBy("e.id", "desc")
        .$castTo<WebhookEndpointTable>()
        .execute();
      return rows.map(toEndpoint);
    },

    /** Every company's endpoints after `afterId`, by primary key. */
    async listEndpointsAfter(afterId, limit) {
      if (limit <= 0) return [];
      let query = ctx.db
        .selectFrom(ctx.tableAs("webhook_endpoint", "e"))
        .select(ctx.columns("webhook_endpoint", "e"))
        .orderBy("e.id", "asc")
        .limit(limit);
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

    /**
     * The company's active and paused endpoints (paused ones queue events) whose event list names the
     * type (core's `subscribesTo`), newest first.
     */
    async listSubscribedEndpoints(companyId, type) {
      const rows = await ctx.db
        .selectFrom(ctx.tableAs("webhook_endpoint", "e"))
        .select(ctx.columns("webhook_endpoint", "e"))
        .where("e.company_id", "=", companyId)
        .where("e.status", "in", ["active", "paused"])
        .orderBy("e.created_at", "desc")
        .orderBy("e.id", "desc")
        .$castTo<WebhookEndpointTable>()
        .execute();
      return rows.map(toEndpoint).filter((endpoint) => subscribesTo(endpoint, type));
    },
  };
}
