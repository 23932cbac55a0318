/**
 * The `domain` part of the conformance inspector for a declared domain: the reads and clean-up of
 * the product's tables, derived from the same declaration the stores are built from.
 */
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { AnyDomainDeclaration } from "../declared/declaration";
import { domainPlan, type TablePlan } from "../declared/plan";
import { storedId } from "../declared/rows";
import type { DialectKind } from "../dialects/types";
import type { DomainTablesInspector } from "./inspector";

/** Whether a `domain` option is a declared domain (`declaredDomain`'s result) rather than hand-written reads. */
export function isDeclaredDomain(domain: unknown): domain is { readonly declaration: object } {
  return typeof domain === "function" && "declaration" in domain;
}

/**
 * `db` reads the product's tables; `ours` (the same database, with hireport's schema when it has
 * one) reads hireport's tables named with `prefix`.
 */
export function declaredTablesInspector(
  db: Kysely<unknown>,
  ours: Kysely<unknown>,
  dialect: DialectKind,
  prefix: string,
  domain: { readonly declaration: object },
): DomainTablesInspector {
  const plan = domainPlan(domain.declaration as unknown as AnyDomainDeclaration, dialect);
  const { jobs, applications: apps } = plan;
  const person = apps.candidate.from === null ? null : apps.candidate;
  const history = [plan.stageChanges, plan.notes].filter((table) => table !== null);
  const one = async (query: RawBuilder<{ n: number | string }>, on: Kysely<unknown> = db) => {
    const row = (await query.execute(on)).rows[0];
    return row ? Number(row.n) : null;
  };
  /** `and company = …`, or nothing on a single-company table. */
  const ofCompany = (table: TablePlan, companyId: string) =>
    table.companyColumn === null ? sql`` : sql`and ${sql.ref(table.companyColumn)} = ${companyId}`;
  const job = (jobId: string) => storedId(jobs, jobId) ?? jobId;

  return {
    tables: [
      ...new Set([...history.map((table) => table.table), apps.table, ...(person ? [person.table] : []), jobs.table]),
    ],
    async jobApplicationsCount(companyId, jobId) {
      const exists = await one(sql`select count(*) as n from ${sql.table(jobs.table)}
        where ${sql.ref(jobs.idColumn)} = ${job(jobId)} ${ofCompany(jobs, companyId)}`);
      if (!exists) return null;
      if (jobs.countColumn !== null) {
        return one(sql`select ${sql.ref(jobs.countColumn)} as n from ${sql.table(jobs.table)}
          where ${sql.ref(jobs.idColumn)} = ${job(jobId)} ${ofCompany(jobs, companyId)}`);
      }
      return one(
        sql`select count(*) as n from ${sql.table(apps.table)} where ${sql.ref(apps.jobColumn)} = ${job(jobId)}`,
      );
    },
    async countApplications(companyId, jobId) {
      if (apps.companyColumn === null && apps.company !== companyId) return 0;
      return (
        (await one(sql`select count(*) as n from ${sql.table(apps.table)} where 1 = 1 ${ofCompany(apps, companyId)}
          ${jobId === undefined ? sql`` : sql`and ${sql.ref(apps.jobColumn)} = ${job(jobId)}`}`)) ?? 0
      );
    },
    async countNotes(companyId, applicationId) {
      const application = storedId(apps, applicationId) ?? applicationId;
      const notes = plan.notes;
      if (notes === null) {
        return (
          (await one(
            sql`select count(*) as n from ${sql.table(`${prefix}note`)}
              where company_id = ${companyId} and application_id = ${applicationId}`,
            ours,
          )) ?? 0
        );
      }
      if (notes.companyColumn === null && notes.company !== companyId) return 0;
      return (
        (await one(sql`select count(*) as n from ${sql.table(notes.table)}
          where ${sql.ref(notes.application)} = ${application} ${ofCompany(notes, companyId)}`)) ?? 0
      );
    },
    async removeRows({ companyIds }) {
      if (companyIds.length === 0) return;
      // Children first: a product's tables often have foreign keys.
      for (const table of [...history, apps, ...(person ? [person] : []), jobs]) {
        if (table.companyColumn === null) {
          if (table.company !== null && companyIds.includes(table.company)) {
            await sql`delete from ${sql.table(table.table)}`.execute(db);
          }
          continue;
        }
        for (let i = 0; i < companyIds.length; i += 500) {
          const ids = companyIds.slice(i, i + 500);
          await sql`delete from ${sql.table(table.table)} where ${sql.ref(table.companyColumn)} in (${sql.join(ids)})`.execute(
            db,
          );
        }
      }
    },
  };
}
