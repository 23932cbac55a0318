import { type CandidateErasureSteps, type CandidateStore, eraseInSteps } from "@hireport/core/storage";
import type { StoreContext } from "../context";
import { type ApplicationRow, selectApplications } from "./application-rows";
import { chunks, IN_LIST_SIZE, redactErasedApplications } from "./erasure-redactions";
import { erasedApplicationColumns, toApplication } from "./generated/application-rows";
import { selectAll } from "./rows";

/** Deletes the notes of the company's applications `applicationIds` from hireport's note table; how many. */
export async function deleteNotes(
  ctx: StoreContext,
  companyId: string,
  applicationIds: readonly string[],
): Promise<number> {
  if (applicationIds.length === 0) return 0;
  const notes = await ctx.db
    .deleteFrom(ctx.table("note"))
    .where("company_id", "=", companyId)
    .where("application_id", "in", applicationIds)
    .executeTakeFirst();
  return Number(notes.numDeletedRows);
}

/**
 * The statements of core's `eraseInSteps` on one transaction, each for a batch of up to
 * `IN_LIST_SIZE` applications. The locked read takes the application rows alone (on MySQL/MariaDB
 * a locking read of a join would lock the jobs' rows too), then reads their jobs' titles.
 */
function erasureSteps(tx: StoreContext, erasedAt: Date): CandidateErasureSteps {
  return {
    async lockApplications(companyId, ids) {
      const read = selectAll(tx, "application", "a")
        .where("a.company_id", "=", companyId)
        .where("a.id", "in", ids)
        .orderBy("a.id", "asc");
      const rows = await tx.strategy.forUpdate(read, "a").$castTo<Omit<ApplicationRow, "job_title">>().execute();
      if (rows.length === 0) return [];
      const jobs = await tx.db
        .selectFrom(tx.tableAs("job", "j"))
        .select(["j.id", "j.title"])
        .where("j.id", "in", [...new Set(rows.map((row) => row.job_id))])
        .execute();
      const titles = new Map(jobs.map((job) => [job.id, job.title]));
      return rows.map((row) => toApplication({ ...row, job_title: titles.get(row.job_id) ?? "" }));
    },
    // Every application of one erasure is stored alike (`erasedApplication`, one `erasedAt`): one UPDATE.
    async storeErased(records) {
      const [first] = records;
      if (!first) return;
      const ids = records.map((record) => record.id);
      await tx.db
        .updateTable(tx.table("application"))
        .set(erasedApplicationColumns(tx, erasedAt))
        .where("company_id", "=", first.companyId)
        .where("id", "in", ids)
        .execute();
    },
    deleteNotes: (companyId, applicationIds) => deleteNotes(tx, companyId, applicationIds),
    redactErasure: ({ companyId, applicationIds, erasedAt: at }) =>
      redactErasedApplications(tx, companyId, applicationIds, at),
  };
}

/**
 * One person's data: their applications by address, their erasure, and retention's choice of
 * applications. `erase` is core's `eraseInSteps`, one transaction of plain statements on every
 * dialect (the caller's when called on a `tx`), each step one statement per batch of
 * `IN_LIST_SIZE` ids: the locks first (applications, then the deliveries of their events, in id
 * order, as every writer of those rows takes them), then the writes and the redactions.
 */
export function createCandidateStore(ctx: StoreContext): CandidateStore {
  return {
    async listByEmail(companyId, emailNormalized) {
      const rows = await selectApplications(ctx)
        .where("a.company_id", "=", companyId)
        .where("a.email_normalized", "=", emailNormalized)
        .orderBy("a.applied_at", "asc")
        .orderBy("a.id", "asc")
        .$castTo<ApplicationRow>()
        .execute();
      return rows.map(toApplication);
    },

    erase: (input) =>
      ctx.atomic((tx) => eraseInSteps(erasureSteps(tx, input.erasedAt), input, { batchSize: IN_LIST_SIZE })),

    async listForRetention(query) {
      if (query.stages.length === 0) return [];
      const rows = await ctx.db
        .selectFrom(ctx.from("application", "a", "retention"))
        .select(["a.company_id", "a.id"])
        .where("a.erased_at", "is", null)
        .where("a.stage", "in", [...query.stages])
        .where("a.updated_at", "<", ctx.toDb(query.updatedBefore))
        .orderBy("a.updated_at", "asc")
        .orderBy("a.id", "asc")
        .limit(Math.max(0, query.take))
        .execute();
      return rows.map((row) => ({ companyId: row.company_id, id: row.id }));
    },

    async resumeFilesInUse(fileIds) {
      const named = new Set<string>();
      for (const ids of chunks([...new Set(fileIds)])) {
        const rows = await ctx.db
          .selectFrom(ctx.from("application", "a", "resume_file"))
          .select("a.resume_file_id")
          .where("a.resume_file_id", "in", ids)
          .execute();
        for (const row of rows) if (row.resume_file_id !== null) named.add(row.resume_file_id);
      }
      return [...named];
    },
  };
}
