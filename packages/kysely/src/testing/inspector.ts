import type { ConformanceInspector, ConformanceRows } from "@hireport/core/storage";
import { type Kysely, type RawBuilder, sql } from "kysely";
import { detectDialect } from "../dialects/detect";
import type { DialectKind } from "../dialects/types";
import { TABLE_NAMES } from "../schema";
import { inSchema } from "../schema-plugin";
import { declaredTablesInspector, isDeclaredDomain } from "./declared-inspector";
import { findText } from "./text-scan";

/**
 * The part of a conformance inspector that reads a host's own tables, for a host whose domain
 * stores (`kyselyStorage({ domain })`) keep jobs, applications and notes there.
 */
export interface DomainTablesInspector {
  /** The host's tables that hold the domain's rows: `findText` scans every text column of these too. */
  tables: readonly string[];
  /** The stored applications count of a job, or null when the company has no such job row. */
  jobApplicationsCount(companyId: string, jobId: string): Promise<number | null>;
  /** Application rows of the company; of one job when `jobId` is given. */
  countApplications(companyId: string, jobId?: string): Promise<number>;
  /** Note rows of the application. */
  countNotes(companyId: string, applicationId: string): Promise<number>;
  /**
   * Deletes the rows of the suite's companies (`rows.companyIds`) from the host's tables, and
   * nothing else. Runs before hireport's own tables are cleaned.
   */
  removeRows(rows: ConformanceRows): Promise<void>;
}

export interface KyselyConformanceInspectorOptions {
  /** The same Kysely instance (or one on the same database) as the storage's `db`. */
  // biome-ignore lint/suspicious/noExplicitAny: the inspector reads any database's tables by name.
  db: Kysely<any>;
  /** The storage's `tablePrefix`. @default "hireport_" */
  tablePrefix?: string;
  /** The storage's `schema` (Postgres). @default none */
  schema?: string;
  /** The SQL dialect, as `kyselyStorage`'s option. @default detected from the adapter */
  dialect?: DialectKind;
  /**
   * For a host with its own domain tables: how to read and clean them, or the storage's
   * `declaredDomain(…)` itself (any object with its `declaration`), whose declaration says it. Without it, jobs, applications and notes
   * are read from hireport's own tables.
   */
  domain?: DomainTablesInspector | { readonly declaration: object };
}

/** hireport's tables whose rows do not name their company: found through another table, or by key. */
const NO_COMPANY_COLUMN = new Set([
  "company",
  "rate_limit",
  "idempotency",
  "webhook_attempt",
  "file_chunk",
  "change_position",
]);

/** hireport's tables of jobs and applications, which a host's own domain replaces. */
const DOMAIN_TABLES = new Set(["job", "application"]);

/** `ids` in slices small enough for one statement's parameters on every dialect. */
function slices(ids: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(ids.slice(i, i + 500));
  return out;
}

/**
 * The `inspect` of the conformance suites (`runStorageConformance`, `runDomainConformance` and the
 * webhook suites) for a Kysely storage: raw reads of hireport's tables past the storage's own
 * methods, a scan of their text columns for the erasure checks, and the removal of a run's rows
 * from every hireport table (`TABLE_NAMES`, so a table added later is covered), the webhook tables
 * included. A host with its own domain tables passes `domain` for the reads and rows of those.
 *
 * ```ts
 * runStorageConformance({
 *   name: "my app",
 *   setup: async () => ({ storage, inspect: kyselyConformanceInspector({ db }), teardown: async () => {} }),
 * });
 * ```
 */
export function kyselyConformanceInspector(options: KyselyConformanceInspectorOptions): ConformanceInspector {
  const host = options.db as Kysely<unknown>;
  const prefix = options.tablePrefix ?? "hireport_";
  const dialect = options.dialect ?? detectDialect(host);
  // hireport's tables, in its schema when it has one; the domain's tables are read on `host`.
  const db = inSchema(host, options.schema, prefix);
  const domain = isDeclaredDomain(options.domain)
    ? declaredTablesInspector(host, db, dialect, prefix, options.domain)
    : options.domain;
  const table = (name: string) => sql.table(`${prefix}${name}`);
  const one = async (query: RawBuilder<{ n: number | string }>) => {
    const row = (await query.execute(db)).rows[0];
    return row ? Number(row.n) : null;
  };
  const count = async (query: RawBuilder<{ n: number | string }>) => (await one(query)) ?? 0;

  async function removeRows(rows: ConformanceRows): Promise<void> {
    await domain?.removeRows(rows);
    for (const ids of slices(rows.companyIds)) {
      const companies = sql.join(ids);
      await sql`delete from ${table("webhook_attempt")}
        where endpoint_id in (select id from ${table("webhook_endpoint")} where company_id in (${companies}))
        or delivery_id in (select id from ${table("webhook_delivery")} where company_id in (${companies}))`.execute(db);
      await sql`delete from ${table("file_chunk")}
        where file_id in (select id from ${table("file")} where company_id in (${companies}))`.execute(db);
      for (const name of TABLE_NAMES) {
        if (NO_COMPANY_COLUMN.has(name)) continue;
        // With a domain of the host's, hireport's job and application tables hold nothing (and
        // are not there at all when migrated with `domainTables: false`).
        if (domain && DOMAIN_TABLES.has(name)) continue;
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

  return {
    removeRows,
    jobApplicationsCount: domain
      ? (companyId, jobId) => domain.jobApplicationsCount(companyId, jobId)
      : (companyId, jobId) =>
          one(sql`select applications_count as n from ${table("job")}
            where company_id = ${companyId} and id = ${jobId}`),
    countApplications: domain
      ? (companyId, jobId) => domain.countApplications(companyId, jobId)
      : (companyId, jobId) =>
          count(sql`select count(*) as n from ${table("application")} where company_id = ${companyId}
            ${jobId === undefined ? sql`` : sql`and job_id = ${jobId}`}`),
    countNotes: domain
      ? (companyId, applicationId) => domain.countNotes(companyId, applicationId)
      : (companyId, applicationId) =>
          count(sql`select count(*) as n from ${table("note")}
            where company_id = ${companyId} and application_id = ${applicationId}`),
    countEvents: (companyId) => count(sql`select count(*) as n from ${table("event")} where company_id = ${companyId}`),
    countKeys: (companyId) => count(sql`select count(*) as n from ${table("api_key")} where company_id = ${companyId}`),
    rateLimitCount: (key) => one(sql`select hits as n from ${table("rate_limit")} where bucket_key = ${key}`),
    countUsage: (companyId) => count(sql`select count(*) as n from ${table("usage")} where company_id = ${companyId}`),
    usageDayCount: (companyId, day, statusClass) =>
      one(sql`select requests as n from ${table("usage_daily")}
        where company_id = ${companyId} and day = ${day} and status_class = ${statusClass}`),
    countIdempotencyRecords: (keyId) =>
      count(sql`select count(*) as n from ${table("idempotency")} where key_id = ${keyId}`),
    countDeliveries: (endpointId) =>
      count(sql`select count(*) as n from ${table("webhook_delivery")} where endpoint_id = ${endpointId}`),
    countAttempts: (deliveryId) =>
      count(sql`select count(*) as n from ${table("webhook_attempt")} where delivery_id = ${deliveryId}`),
    findText: (text) => findText(host, dialect, text, prefix, domain?.tables, options.schema ?? null),
  };
}
