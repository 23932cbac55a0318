import type { ConformanceInspector, ConformanceRows } from "@hireport/core/testing";
import { sql } from "kysely";
import { TABLE_NAMES } from "../../src/index";
import type { AnyDb } from "./databases";
import { findText } from "./text-scan";

/** The tables whose rows do not name their company: found through another table, or by key. */
const NO_COMPANY_COLUMN = new Set(["company", "rate_limit", "idempotency", "webhook_attempt", "file_chunk"]);

/** `ids` in slices small enough for one statement's parameters on every dialect. */
function slices(ids: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(ids.slice(i, i + 500));
  return out;
}

/**
 * Deletes the rows a conformance run wrote (see `ConformanceInspector.removeRows`) from hireport's
 * tables under a prefix: every table with a `company_id` (the list is `TABLE_NAMES`, so a new table
 * is covered), and through them the attempts, the file chunks and the company rows; idempotency
 * records and usage entries by key id, rate-limit counters by key.
 */
export async function removeRows(db: AnyDb, prefix: string, rows: ConformanceRows): Promise<void> {
  const table = (name: string) => sql.table(`${prefix}${name}`);
  for (const ids of slices(rows.companyIds)) {
    const companies = sql.join(ids);
    await sql`delete from ${table("webhook_attempt")}
      where endpoint_id in (select id from ${table("webhook_endpoint")} where company_id in (${companies}))
      or delivery_id in (select id from ${table("webhook_delivery")} where company_id in (${companies}))`.execute(db);
    await sql`delete from ${table("file_chunk")}
      where file_id in (select id from ${table("file")} where company_id in (${companies}))`.execute(db);
    for (const name of TABLE_NAMES) {
      if (NO_COMPANY_COLUMN.has(name)) continue;
      await sql`delete from ${table(name)} where company_id in (${companies})`.execute(db);
    }
    await sql`delete from ${table("company")} where id in (${companies})`.execute(db);
  }
  for (const ids of slices(rows.keyIds)) {
    await sql`delete from ${table("idempotency")} where key_id in (${sql.join(ids)})`.execute(db);
    await sql`delete from ${table("usage")} where key_id in (${sql.join(ids)})`.execute(db);
  }
  for (const keys of slices(rows.rateLimitKeys)) {
    await sql`delete from ${table("rate_limit")} where bucket_key in (${sql.join(keys)})`.execute(db);
  }
}

/**
 * Raw SQL reads of hireport's tables under a prefix, past the storage's own read methods, and the
 * removal of a conformance run's rows.
 */
export function rawReads(db: AnyDb, prefix: string): ConformanceInspector {
  const table = (name: string) => sql.table(`${prefix}${name}`);
  const count = async (query: ReturnType<typeof sql<{ n: number | string }>>) =>
    Number((await query.execute(db)).rows[0]?.n ?? 0);
  return {
    removeRows: (rows) => removeRows(db, prefix, rows),
    async jobApplicationsCount(companyId, jobId) {
      const { rows } = await sql<{ n: number | string }>`select applications_count as n from ${table("job")}
        where company_id = ${companyId} and id = ${jobId}`.execute(db);
      return rows[0] ? Number(rows[0].n) : null;
    },
    countApplications: (companyId, jobId) =>
      count(
        jobId === undefined
          ? sql`select count(*) as n from ${table("application")} where company_id = ${companyId}`
          : sql`select count(*) as n from ${table("application")} where company_id = ${companyId} and job_id = ${jobId}`,
      ),
    countEvents: (companyId) => count(sql`select count(*) as n from ${table("event")} where company_id = ${companyId}`),
    countKeys: (companyId) => count(sql`select count(*) as n from ${table("api_key")} where company_id = ${companyId}`),
    async rateLimitCount(key) {
      const { rows } = await sql<{ n: number | string }>`select hits as n from ${table("rate_limit")}
        where bucket_key = ${key}`.execute(db);
      return rows[0] ? Number(rows[0].n) : null;
    },
    countUsage: (companyId) => count(sql`select count(*) as n from ${table("usage")} where company_id = ${companyId}`),
    async usageDayCount(companyId, day, statusClass) {
      const { rows } = await sql<{ n: number | string }>`select requests as n from ${table("usage_daily")}
        where company_id = ${companyId} and day = ${day} and status_class = ${statusClass}`.execute(db);
      return rows[0] ? Number(rows[0].n) : null;
    },
    countIdempotencyRecords: (keyId) =>
      count(sql`select count(*) as n from ${table("idempotency")} where key_id = ${keyId}`),
    countDeliveries: (endpointId) =>
      count(sql`select count(*) as n from ${table("webhook_delivery")} where endpoint_id = ${endpointId}`),
    countAttempts: (deliveryId) =>
      count(sql`select count(*) as n from ${table("webhook_attempt")} where delivery_id = ${deliveryId}`),
    countNotes: (companyId, applicationId) =>
      count(
        sql`select count(*) as n from ${table("note")} where company_id = ${companyId} and application_id = ${applicationId}`,
      ),
    findText: (text) => findText(db, prefix, text),
  };
}
