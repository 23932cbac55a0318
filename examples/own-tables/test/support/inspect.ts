/**
 * The raw reads of the conformance suite over the example's database: `kyselyConformanceInspector`
 * of `@hireport/kysely/testing` reads and cleans hireport's tables (prefix `hireport_`), and its
 * `domain` part the host's tables for jobs, applications and notes; `findText` scans the text
 * columns of both for the erasure checks.
 */
import type { ConformanceInspector } from "@hireport/core/testing";
import { kyselyConformanceInspector } from "@hireport/kysely/testing";
import { type Kysely, type RawBuilder, sql } from "kysely";
import { HOST_TABLES } from "../../src/schema";
import type { TestDatabase } from "./databases";

export function inspectTables({ db: typed }: TestDatabase): ConformanceInspector {
  const db = typed as unknown as Kysely<unknown>;
  const count = async (query: RawBuilder<{ n: number | string }>) => Number((await query.execute(db)).rows[0]?.n ?? 0);
  return kyselyConformanceInspector({
    db,
    tablePrefix: "hireport_",
    domain: {
      tables: HOST_TABLES,
      async jobApplicationsCount(companyId, jobId) {
        const { rows } = await sql<{ n: number | string }>`select ${sql.ref("applicantCount")} as n from openings
          where ${sql.ref("orgId")} = ${companyId} and id = ${jobId}`.execute(db);
        return rows[0] ? Number(rows[0].n) : null;
      },
      countApplications: (companyId, jobId) =>
        count(sql`select count(*) as n from candidacies where ${sql.ref("orgId")} = ${companyId}
          ${jobId === undefined ? sql`` : sql`and ${sql.ref("openingId")} = ${jobId}`}`),
      countNotes: (companyId, applicationId) =>
        count(sql`select count(*) as n from recruiter_notes
          where ${sql.ref("orgId")} = ${companyId} and ${sql.ref("candidacyId")} = ${applicationId}`),
      async removeRows({ companyIds }) {
        if (companyIds.length === 0) return;
        // Children first: the host's tables have foreign keys.
        for (const table of HOST_TABLES) {
          await sql`delete from ${sql.table(table)} where ${sql.ref("orgId")} in (${sql.join(companyIds)})`.execute(db);
        }
      },
    },
  });
}
