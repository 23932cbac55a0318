/** `CandidateStore` over `candidacies` and `candidates`: by e-mail, erasure, retention. */
import type { CandidateStore } from "@hireport/core/storage";
import { eraseInSteps } from "@hireport/core/storage";
import { toPipeline } from "./mapping";
import { candidacyRow, candidateRow, chunks, type Scope, selectApplications, toApplication, values } from "./rows";

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

    // The locks, the choice and the result are core's; these are the statements it runs, in one
    // transaction, each for a batch of up to 500 candidacies.
    erase: (input) =>
      scope.atomic((tx) =>
        eraseInSteps(
          {
            async lockApplications(companyId, ids) {
              const read = selectApplications(tx.db)
                .where("c.orgId", "=", companyId)
                .where("c.id", "in", ids)
                .orderBy("c.id", "asc");
              return (await tx.forUpdate(read, "c").execute()).map(toApplication);
            },
            async storeErased(records) {
              for (const record of records) {
                const { id, orgId, candidateId, ...candidacy } = candidacyRow(tx, "", record);
                await tx.db
                  .updateTable("candidacies")
                  .set(candidacy)
                  .where("orgId", "=", orgId)
                  .where("id", "=", id)
                  .execute();
                const { id: _, createdAt, ...candidate } = candidateRow(tx, "", record);
                const candidateOf = tx.db.selectFrom("candidacies").select("candidateId").where("id", "=", id);
                await tx.db
                  .updateTable("candidates")
                  .set(candidate)
                  .where("orgId", "=", orgId)
                  .where("id", "=", candidateOf)
                  .execute();
              }
            },
            async deleteNotes(companyId, applicationIds) {
              const notes = await tx.db
                .deleteFrom("recruiter_notes")
                .where("orgId", "=", companyId)
                .where("candidacyId", "in", applicationIds)
                .executeTakeFirst();
              return Number(notes.numDeletedRows);
            },
            // hireport's side: the outbox, delivery attempts, stored answers.
            redactErasure: tx.redactErasure,
          },
          input,
        ),
      ),

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
