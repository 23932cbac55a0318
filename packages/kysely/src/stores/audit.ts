import type { AuditRecord } from "@hireport/core";
import type { AuditStore } from "@hireport/core/storage";
import type { StoreContext } from "../context";
import type { AuditTable } from "../schema";
import { fromDb, readJson } from "../values";
import { actorColumns, toActor } from "./actors";
import { newestFirstPage } from "./newest-first";
import { selectAll } from "./rows";

function toAudit(row: AuditTable): AuditRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    actor: toActor(row),
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    details: readJson<AuditRecord["details"]>(row.details, {}),
    createdAt: fromDb(row.created_at),
  };
}

function auditRow(ctx: StoreContext, entry: AuditRecord) {
  const row = {
    id: entry.id,
    company_id: entry.companyId,
    ...actorColumns(entry.actor),
    action: entry.action,
    target_type: entry.target.type,
    target_id: entry.target.id,
    details: JSON.stringify(entry.details),
    created_at: ctx.toDb(entry.createdAt),
  } satisfies Record<keyof AuditTable, unknown>;
  return row;
}

/** The audit list: one row per entry, `details` as JSON text. */
export function createAuditStore(ctx: StoreContext): AuditStore {
  return {
    async append(entry) {
      await ctx.db.insertInto(ctx.table("audit")).values(auditRow(ctx, entry)).execute();
    },

    async list(companyId, options) {
      const select = selectAll(ctx, "audit", "a", "company_created").where("a.company_id", "=", companyId);
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
