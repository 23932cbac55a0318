import type { AuditRecord, AuditStore } from "@hireport/core";
import type { StoreContext } from "../context";
import type { AuditTable } from "../schema";
import { fromDb, readJson } from "../values";
import { newestFirstPage } from "./newest-first";

function toAudit(row: AuditTable): AuditRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    actor: { type: row.actor_type as AuditRecord["actor"]["type"], id: row.actor_id, name: row.actor_name },
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    details: readJson<AuditRecord["details"]>(row.details, {}),
    createdAt: fromDb(row.created_at),
  };
}

/** The audit list: one row per entry, `details` as JSON text. */
export function createAuditStore(ctx: StoreContext): AuditStore {
  return {
    async append(entry) {
      await ctx.db
        .insertInto(ctx.table("audit"))
        .values({
          id: entry.id,
          company_id: entry.companyId,
          actor_type: entry.actor.type,
          actor_id: entry.actor.id,
          actor_name: entry.actor.name,
          action: entry.action,
          target_type: entry.target.type,
          target_id: entry.target.id,
          details: JSON.stringify(entry.details),
          created_at: ctx.toDb(entry.createdAt),
        })
        .execute();
    },

    async list(companyId, options) {
      const select = ctx.db
        .selectFrom(ctx.from("audit", "a", "company_created"))
        .select(ctx.columns("audit", "a"))
        .where("a.company_id", "=", companyId);
      const rows = await newestFirstPage(ctx, select, "a", options).$castTo<AuditTable>().execute();
      return rows.map(toAudit);
    },

    async purge(before) {
      const result = await ctx.db
        .deleteFrom(ctx.table("audit"))
        .where("created_at", "<", ctx.toDb(before))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
