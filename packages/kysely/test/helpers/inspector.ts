import type { ConformanceInspector } from "@hireport/core/testing";
import { sql } from "kysely";
import type { AnyDb } from "./databases";
import { findText } from "./text-scan";

/** Raw SQL reads of hireport's tables under a prefix, past the storage's own read methods. */
export function rawReads(db: AnyDb, prefix: string): ConformanceInspector {
  const table = (name: string) => sql.table(`${prefix}${name}`);
  const count = async (query: ReturnType<typeof sql<{ n: number | string }>>) =>
    Number((await query.execute(db)).rows[0]?.n ?? 0);
  return {
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
