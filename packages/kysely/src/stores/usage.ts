import { statusClassOf, type UsageRecord, type UsageStore, utcDay } from "@hireport/core/storage";
import { sql } from "kysely";
import type { StoreContext } from "../context";
import type { UsageTable } from "../schema";
import { fromDb, readNumber } from "../values";
import { newestFirstPage } from "./newest-first";
import { selectAll } from "./rows";

/** Entries per write: well below every dialect's limit of bound parameters. */
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

/** One row of the roll-up to add: the requests of a batch for one company, day and class. */
export interface UsageDayIncrement {
  companyId: string;
  day: string;
  statusClass: number;
  requests: number;
}

/**
 * What a batch adds to the roll-up, one row per company, UTC day and status class, in key order
 * (every writer locks roll-up rows in the same order, so concurrent batches never deadlock).
 */
export function dailyIncrements(entries: readonly UsageRecord[]): UsageDayIncrement[] {
  const rows = new Map<string, UsageDayIncrement>();
  for (const entry of entries) {
    if (entry.companyId === null) continue;
    const day = utcDay(entry.createdAt);
    const statusClass = statusClassOf(entry.status);
    const key = `${entry.companyId}\u0000${day}\u0000${statusClass}`;
    const row = rows.get(key);
    if (row) row.requests += 1;
    else rows.set(key, { companyId: entry.companyId, day, statusClass, requests: 1 });
  }
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/**
 * The portable write of a batch: one multi-row insert of the entries, then one upsert per roll-up
 * row (`requests = requests + n`), in one transaction (the caller's, or a new one).
 */
export function insertUsageRows(ctx: StoreContext, entries: readonly UsageRecord[]): Promise<void> {
  return ctx.atomic(async (tx) => {
    await tx.db
      .insertInto(tx.table("usage"))
      .values(
        entries.map((entry) => ({
          id: entry.id,
          company_id: entry.companyId,
          key_id: entry.keyId,
          method: entry.method,
          route: entry.route,
          status: entry.status,
          duration_ms: entry.durationMs,
          request_id: entry.requestId,
          ip: entry.ip,
          created_at: tx.toDb(entry.createdAt),
        })),
      )
      .execute();
    const table = tx.table("usage_daily");
    for (const row of dailyIncrements(entries)) {
      const insert = tx.db.insertInto(table).values({
        company_id: row.companyId,
        day: row.day,
        status_class: row.statusClass,
        requests: row.requests,
      });
      await tx.strategy
        .upsert(insert, ["company_id", "day", "status_class"], {
          requests: sql<number>`${sql.ref(`${table}.requests`)} + ${row.requests}`,
        })
        .execute();
    }
  });
}

export function createUsageStore(ctx: StoreContext): UsageStore {
  return {
    async appendMany(entries) {
      for (let start = 0; start < entries.length; start += CHUNK) {
        await ctx.strategy.insertUsage(ctx, entries.slice(start, start + CHUNK));
      }
    },

    async list(query) {
      let select = selectAll(
        ctx,
        "usage",
        "u",
        query.keyId !== undefined ? "company_key_created" : "company_created",
      ).where("u.company_id", "=", query.companyId);
      if (query.keyId !== undefined) select = select.where("u.key_id", "=", query.keyId);
      if (query.since) select = select.where("u.created_at", ">=", ctx.toDb(query.since));
      if (query.until) select = select.where("u.created_at", "<", ctx.toDb(query.until));
      if (query.status !== undefined) select = select.where("u.status", "=", query.status);
      if (query.statusClass !== undefined) {
        select = select
          .where("u.status", ">=", query.statusClass * 100)
          .where("u.status", "<", (query.statusClass + 1) * 100);
      }
      if (query.route !== undefined) select = select.where("u.route", "=", query.route);
      const rows = await newestFirstPage(ctx, select, "u", query).$castTo<UsageTable>().execute();
      return rows.map(toUsage);
    },

    async daily(query) {
      const rows = await ctx.db
        .selectFrom(ctx.tableAs("usage_daily", "d"))
        .select(["d.day", "d.status_class", "d.requests"])
        .where("d.company_id", "=", query.companyId)
        .where("d.day", ">=", query.from)
        .where("d.day", "<=", query.to)
        .orderBy("d.day", "asc")
        .orderBy("d.status_class", "asc")
        .execute();
      return rows.map((row) => ({
        day: row.day,
        statusClass: readNumber(row.status_class),
        count: readNumber(row.requests),
      }));
    },

    purge: (before, limit) =>
      ctx.atomic(async (tx) => {
        let old = tx.db.deleteFrom(tx.table("usage")).where("created_at", "<", tx.toDb(before));
        if (limit !== undefined) {
          // A batch: the oldest `limit` ids (a delete with a limit is not portable).
          const picked = await tx.db
            .selectFrom(tx.from("usage", "u", "created"))
            .select("u.id")
            .where("u.created_at", "<", tx.toDb(before))
            .orderBy("u.created_at", "asc")
            .orderBy("u.id", "asc")
            .limit(Math.max(0, limit))
            .execute();
          if (picked.length === 0) return 0;
          old = old.where(
            "id",
            "in",
            picked.map((row) => row.id),
          );
        }
        const result = await old.executeTakeFirst();
        await tx.db.deleteFrom(tx.table("usage_daily")).where("day", "<", utcDay(before)).execute();
        return Number(result.numDeletedRows);
      }),
  };
}
