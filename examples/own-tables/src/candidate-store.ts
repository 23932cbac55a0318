/** `CandidateStore` over `candidacies` and `candidates`: by e-mail, erasure, retention. */
import type { CandidateStore } from "@hireport/core";
import { emptyErasureResult } from "@hireport/core";
import { toPipeline } from "./mapping";
import { chunks, type Scope, selectApplications, toApplication, values } from "./rows";

export function createCandidateStore(scope: Scope): CandidateStore {
  const { time } = values(scope);
  return {
    async listByEmail(companyId, emailNormalized) {
      const rows = await selectApplications(scope.db)
        .where("c.orgId", "=", companyId)
        .where("p.emailKey", "=", emailNormalized)
        .orderBy("c.appliedAt", "asc")
        .orderBy("c.id", "asc")
        .execute();
      return rows.map(toApplication);
    },

    erase: ({ companyId, applicationIds, erasedAt, updatedBefore }) =>
      scope.atomic(async (tx) => {
        const result = emptyErasureResult();
        // The candidacies first, locked in id order, as every writer of them takes their locks.
        const locked: { id: string; candidateId: string; cvFileId: string | null }[] = [];
        for (const part of chunks([...new Set(applicationIds)].sort())) {
          let read = tx.db
            .selectFrom("candidacies as c")
            .select(["c.id", "c.candidateId", "c.cvFileId"])
            .where("c.orgId", "=", companyId)
            .where("c.id", "in", part)
            .where("c.anonymizedAt", "is", null);
          if (updatedBefore) read = read.where("c.updatedAt", "<", time(updatedBefore));
          locked.push(...(await tx.forUpdate(read.orderBy("c.id", "asc"), "c").execute()));
        }
        if (locked.length === 0) return result;
        const ids = locked.map((row) => row.id);
        result.fileIds = locked.flatMap((row) => (row.cvFileId === null ? [] : [row.cvFileId]));
        const at = time(erasedAt);
        for (const part of chunks(locked)) {
          const partIds = part.map((row) => row.id);
          await tx.db
            .updateTable("candidacies")
            .set({
              coverNote: "",
              cvLink: null,
              cvFileId: null,
              screeningAnswers: "[]",
              anonymizedAt: at,
              updatedAt: at,
            })
            .where("orgId", "=", companyId)
            .where("id", "in", partIds)
            .execute();
          await tx.db
            .updateTable("candidates")
            .set({
              fullName: "",
              email: "",
              emailKey: "",
              phone: "",
              city: "",
              linkedin: "",
              headline: "",
              skills: "[]",
            })
            .where("orgId", "=", companyId)
            .where(
              "id",
              "in",
              part.map((row) => row.candidateId),
            )
            .execute();
          const notes = await tx.db
            .deleteFrom("recruiter_notes")
            .where("orgId", "=", companyId)
            .where("candidacyId", "in", partIds)
            .executeTakeFirst();
          result.notes += Number(notes.numDeletedRows);
        }
        // hireport's side, on the same transaction: the outbox, delivery attempts, stored answers.
        Object.assign(result, await tx.redactErasure({ companyId, applicationIds: ids, erasedAt }));
        for (const part of chunks(ids)) {
          const rows = await selectApplications(tx.db)
            .where("c.orgId", "=", companyId)
            .where("c.id", "in", part)
            .execute();
          result.erased.push(...rows.map(toApplication));
        }
        result.erased.sort((a, b) => a.appliedAt.getTime() - b.appliedAt.getTime() || (a.id < b.id ? -1 : 1));
        return result;
      }),

    async listForRetention({ stages, updatedBefore, take }) {
      if (stages.length === 0) return [];
      const rows = await scope.db
        .selectFrom("candidacies")
        .select(["orgId", "id"])
        .where("anonymizedAt", "is", null)
        .where("pipelineStage", "in", stages.map(toPipeline))
        .where("updatedAt", "<", time(updatedBefore))
        .orderBy("updatedAt", "asc")
        .orderBy("id", "asc")
        .limit(Math.max(0, take))
        .execute();
      return rows.map((row) => ({ companyId: row.orgId, id: row.id }));
    },

    async resumeFilesInUse(fileIds) {
      const named = new Set<string>();
      for (const part of chunks([...new Set(fileIds)])) {
        const rows = await scope.db
          .selectFrom("candidacies")
          .select("cvFileId")
          .where("cvFileId", "in", part)
          .execute();
        for (const row of rows) if (row.cvFileId !== null) named.add(row.cvFileId);
      }
      return [...named];
    },
  };
}
