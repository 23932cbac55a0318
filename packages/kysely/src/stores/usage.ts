import type { UsageRecord, UsageStore } from "@hireport/core";
import type { StoreContext } from "../context";
import type { UsageTable } from "../schema";
import { fromDb, readNumber } from "../values";
import { afterPosition } from "./keyset";

/** Rows per INSERT: well below every dialect's limit of bound parameters. */
const CHUNK = 500;

function toUsage(row: UsageTable): UsageRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    keyId: row.key_id,
    method: row.method,
    route: row.route,
    status: readNumber(row.status),
    durationMs: readNumber(row.duration_ms),
    requestId: row.request_id,
    ip: row.ip,
    createdAt: fromDb(row.created_at),
  };
}

export function createUsageStore(ctx: StoreContext): UsageStore {
  return {
    async appendMany(entries) {
      for (let start = 0; start < entries.length; start += CHUNK) {
        await ctx.db
          .insertInto(ctx.table("usage"))
          .values(
            entries.slice(start, start + CHUNK).map((entry) => ({
              id: entry.id,
              company_id: entry.companyId,
              key_id: entry.keyId,
              method: entry.method,
              route: entry.route,
              status: entry.status,
              duration_ms: entry.durationMs,
              request_id: entry.requestId,
              ip: entry.ip,
              created_at: ctx.toDb(entry.createdAt),
            })),
          )
          .execute();
      }
    },

    async list(query) {
      let select = ctx.db
        .selectFrom(ctx.tableAs("usage", "u"))
        .select(ctx.columns("usage", "u"))
        .where("u.company_id", "=", query.companyId);
      if (query.keyId !== undefined) select = select.where("u.key_id", "=", query.keyId);
      if (query.since) select = select.where("u.created_at", ">=", ctx.toDb(query.since));
      const after = query.after;
      if (after) select = select.where((eb) => afterPosition(ctx, eb, "u.created_at", "u.id", after));
      const rows = await ctx.list(
        select
          .orderBy("u.created_at", "desc")
          .orderBy("u.id", "desc")
          .limit(Math.max(0, query.take))
          .$castTo<UsageTable>(),
        "usage",
        "u",
        query.keyId !== undefined ? "company_key_created" : "company_created",
      );
      return rows.map(toUsage);
    },

    async purge(before) {
      const result = await ctx.db
        .deleteFrom(ctx.table("usage"))
        .where("created_at", "<", ctx.toDb(before))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
