import { type CandidateErasureResult, type CandidateStore, emptyErasureResult } from "@hireport/core";
import type { StoreContext } from "../context";
import { type ApplicationRow, selectApplications } from "./application-rows";
import { chunks, redactErasedApplications } from "./erasure-redactions";
import { erasedApplicationColumns, toApplication } from "./generated/application-rows";

/**
 * One person's data: their applications by address, their erasure, and retention's choice of
 * applications. `erase` is one transaction of plain statements on every dialect (the caller's when
 * called on a `tx`), each step one statement per 500 ids: the locks first (applications, then the
 * deliveries of their events, in id order, as every writer of those rows takes them), then the
 * redactions. Core's `eraseInSteps` keeps the same rules with a locked read and a write per
 * application; this store does each step for 500 applications at once instead.
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
      ctx.atomic(async (tx): Promise<CandidateErasureResult> => {
        const result = emptyErasureResult();
        const { companyId, erasedAt } = input;
        const requested = [...new Set(input.applicationIds)].sort();
        const locked: { id: string; resume_file_id: string | null }[] = [];
        for (const ids of chunks(requested)) {
          let read = tx.db
            .selectFrom(tx.tableAs("application", "a"))
            .select(["a.id", "a.resume_file_id"])
            .where("a.company_id", "=", companyId)
            .where("a.id", "in", ids)
            .where("a.erased_at", "is", null);
          if (input.updatedBefore) read = read.where("a.updated_at", "<", tx.toDb(input.updatedBefore));
          locked.push(...(await tx.strategy.forUpdate(read.orderBy("a.id", "asc"), "a").execute()));
        }
        if (locked.length === 0) return result;
        const ids = locked.map((row) => row.id);
        result.fileIds = locked.flatMap((row) => (row.resume_file_id === null ? [] : [row.resume_file_id]));

        for (const part of chunks(ids)) {
          await tx.db
            .updateTable(tx.table("application"))
            .set(erasedApplicationColumns(tx, erasedAt))
            .where("company_id", "=", companyId)
            .where("id", "in", part)
            .execute();
          const notes = await tx.db
            .deleteFrom(tx.table("note"))
            .where("company_id", "=", companyId)
            .where("application_id", "in", part)
            .executeTakeFirst();
          result.notes += Number(notes.numDeletedRows);
        }

        Object.assign(result, await redactErasedApplications(tx, companyId, ids, erasedAt));

        for (const part of chunks(ids)) {
          const rows = await selectApplications(tx)
            .where("a.company_id", "=", companyId)
            .where("a.id", "in", part)
            .$castTo<ApplicationRow>()
            .execute();
          result.erased.push(...rows.map(toApplication));
        }
        result.erased.sort((a, b) => a.appliedAt.getTime() - b.appliedAt.getTime() || (a.id < b.id ? -1 : 1));
        return result;
      }),

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
