/**
 * The raw reads of the conformance suite over the example's database: the host's tables for jobs,
 * applications and notes, hireport's (prefix `hireport_`) for the rest, and a scan of every text
 * column of every table, the host's and hireport's, for the erasure checks; and the removal of
 * the suite's rows from both after its last test.
 */
import type { ConformanceInspector } from "@hireport/core/testing";
import { TABLE_NAMES } from "@hireport/kysely";
import { type Kysely, sql } from "kysely";
import { HOST_TABLES } from "../../src/schema";
import type { TestDatabase } from "./databases";

/** hireport's tables whose rows do not name their company: found through another table, or by key. */
const NO_COMPANY_COLUMN = new Set(["company", "rate_limit", "idempotency", "webhook_attempt", "file_chunk"]);

const TEXT_TYPES = ["text", "character varying", "character", "json", "jsonb"];

export function inspectTables({ db: typed, dialect }: TestDatabase): ConformanceInspector {
  const db = typed as unknown as Kysely<unknown>;
  const hireport = (name: string) => sql.table(`hireport_${name}`);
  const count = async (query: ReturnType<typeof sql<{ n: number | string }>>) =>
    Number((await query.execute(db)).rows[0]?.n ?? 0);
  const one = async (query: ReturnType<typeof sql<{ n: number | string }>>) => {
    const row = (await query.execute(db)).rows[0];
    return row ? Number(row.n) : null;
  };

  async function textColumns(): Promise<{ table: string; column: string }[]> {
    if (dialect === "postgres") {
      const { rows } = await sql<{
        table: string;
        column: string;
      }>`select table_name as "table", column_name as "column"
        from information_schema.columns
        where table_schema = current_schema() and data_type in (${sql.join(TEXT_TYPES)})`.execute(db);
      return rows;
    }
    const { rows: tables } = await sql<{ name: string }>`select name from sqlite_master
      where type = 'table' and name not like 'sqlite_%'`.execute(db);
    const columns: { table: string; column: string }[] = [];
    for (const { name } of tables) {
      const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${name})`.execute(db);
      columns.push(...rows.map((row) => ({ table: name, column: row.name })));
    }
    return columns;
  }

  return {
    async removeRows({ companyIds, keyIds, rateLimitKeys }) {
      if (companyIds.length > 0) {
        const ids = sql.join(companyIds);
        // The host's tables, children first (they have foreign keys), then hireport's.
        for (const table of HOST_TABLES) {
          await sql`delete from ${sql.table(table)} where ${sql.ref("orgId")} in (${ids})`.execute(db);
        }
        await sql`delete from ${hireport("webhook_attempt")}
          where endpoint_id in (select id from ${hireport("webhook_endpoint")} where company_id in (${ids}))
          or delivery_id in (select id from ${hireport("webhook_delivery")} where company_id in (${ids}))`.execute(db);
        await sql`delete from ${hireport("file_chunk")}
          where file_id in (select id from ${hireport("file")} where company_id in (${ids}))`.execute(db);
        for (const name of TABLE_NAMES) {
          if (NO_COMPANY_COLUMN.has(name)) continue;
          await sql`delete from ${hireport(name)} where company_id in (${ids})`.execute(db);
        }
        await sql`delete from ${hireport("company")} where id in (${ids})`.execute(db);
      }
      if (keyIds.length > 0) {
        await sql`delete from ${hireport("idempotency")} where key_id in (${sql.join(keyIds)})`.execute(db);
        await sql`delete from ${hireport("usage")} where key_id in (${sql.join(keyIds)})`.execute(db);
      }
      if (rateLimitKeys.length > 0) {
        await sql`delete from ${hireport("rate_limit")} where bucket_key in (${sql.join(rateLimitKeys)})`.execute(db);
      }
    },
    jobApplicationsCount: (companyId, jobId) =>
      one(sql`select ${sql.ref("applicantCount")} as n from openings
        where ${sql.ref("orgId")} = ${companyId} and id = ${jobId}`),
    countApplications: (companyId, jobId) =>
      count(sql`select count(*) as n from candidacies where ${sql.ref("orgId")} = ${companyId}
        ${jobId === undefined ? sql`` : sql`and ${sql.ref("openingId")} = ${jobId}`}`),
    countNotes: (companyId, applicationId) =>
      count(sql`select count(*) as n from recruiter_notes
        where ${sql.ref("orgId")} = ${companyId} and ${sql.ref("candidacyId")} = ${applicationId}`),
    countEvents: (companyId) =>
      count(sql`select count(*) as n from ${hireport("event")} where company_id = ${companyId}`),
    countKeys: (companyId) =>
      count(sql`select count(*) as n from ${hireport("api_key")} where company_id = ${companyId}`),
    rateLimitCount: (key) => one(sql`select hits as n from ${hireport("rate_limit")} where bucket_key = ${key}`),
    countUsage: (companyId) =>
      count(sql`select count(*) as n from ${hireport("usage")} where company_id = ${companyId}`),
    usageDayCount: (companyId, day, statusClass) =>
      one(sql`select requests as n from ${hireport("usage_daily")}
        where company_id = ${companyId} and day = ${day} and status_class = ${statusClass}`),
    countIdempotencyRecords: (keyId) =>
      count(sql`select count(*) as n from ${hireport("idempotency")} where key_id = ${keyId}`),
    countDeliveries: (endpointId) =>
      count(sql`select count(*) as n from ${hireport("webhook_delivery")} where endpoint_id = ${endpointId}`),
    countAttempts: (deliveryId) =>
      count(sql`select count(*) as n from ${hireport("webhook_attempt")} where delivery_id = ${deliveryId}`),
    async findText(text) {
      const found: string[] = [];
      for (const { table, column } of await textColumns()) {
        const ref = sql.ref(`${table}.${column}`);
        const holds =
          dialect === "postgres"
            ? sql`strpos(lower(${ref}::text), lower(${text})) > 0`
            : sql`instr(lower(cast(${ref} as text)), lower(${text})) > 0`;
        const n = await count(sql`select count(*) as n from ${sql.table(table)} where ${holds}`);
        if (n > 0) found.push(`${table}.${column}`);
      }
      return found.sort();
    },
  };
}
