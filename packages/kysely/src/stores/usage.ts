import type { UsageRecord, UsageStore } from "@hireport/core";
import { sql } from "kysely";
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

/**
 * Postgres: one row per array element, ten array parameters in all. Kysely's multi-row `VALUES`
 * binds ten parameters per row; for a batch of 100 entries (1,000 parameters to build, send, parse
 * and plan) that took 1.8 to 4.0 ms of server CPU and 4.6 to 6.5 ms in all, against 1.2 ms and 2.6
 * to 3.3 ms for this.
 */
async function insertUnnested(ctx: StoreContext, entries: readonly UsageRecord[]): Promise<void> {
  const column = <T>(value: (entry: UsageRecord) => T): T[] => entries.map(value);
  await sql`
    insert into ${sql.table(ctx.table("usage"))}
      (id, company_id, key_id, method, route, status, duration_ms, request_id, ip, created_at)
    select * from unnest(
      ${column((e) => e.id)}::text[], ${column((e) => e.companyId)}::text[], ${column((e) => e.keyId)}::text[],
      ${column((e) => e.method)}::text[], ${column((e) => e.route)}::text[], ${column((e) => e.status)}::integer[],
      ${column((e) => e.durationMs)}::double precision[], ${column((e) => e.requestId)}::text[],
      ${column((e) => e.ip)}::text[], ${column((e) => ctx.toDb(e.createdAt))}::timestamptz[]
    )`.execute(ctx.db);
}

export function createUsageStore(ctx: StoreContext): UsageStore {
  return {
    async appendMany(entries) {
      for (let start = 0; start < entries.length; start += CHUNK) {
        if (ctx.dialect === "postgres") {
          await insertUnnested(ctx, entries.slice(start, start + CHUNK));
          continue;
        }
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
