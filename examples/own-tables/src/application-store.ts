/** `ApplicationStore` over `candidacies`, `candidates`, `pipeline_moves` and `recruiter_notes`. */
import type { StageChangeRecord } from "@hireport/core";
import type { ApplicationStore } from "@hireport/core/storage";
import { createApplicationInSteps } from "@hireport/core/storage";
import { type Kysely, sql, type Updateable } from "kysely";
import { toPipeline, toStage } from "./mapping";
import {
  actorColumns,
  candidacyRow,
  candidateRow,
  readTime,
  replicaFirst,
  type Scope,
  selectApplications,
  toActor,
  toApplication,
  values,
} from "./rows";
import type { CandidaciesTable, HostDatabase } from "./schema";

export function createApplicationStore(scope: Scope): ApplicationStore {
  const { time, timeOrNull, flag } = values(scope);
  const read = async (db: Kysely<HostDatabase>, companyId: string, id: string, lock = false) => {
    const query = selectApplications(db).where("c.id", "=", id).where("c.orgId", "=", companyId);
    const row = await (lock ? scope.forUpdate(query, "c") : query).executeTakeFirst();
    return row ? toApplication(row) : null;
  };
  const get: ApplicationStore["get"] = async (companyId, id, options) =>
    (replicaFirst(scope, options) ? await read(scope.readDb, companyId, id) : null) ??
    read(scope.db, companyId, id, options?.lock === true);
  const addStageChange = async (record: StageChangeRecord) => {
    await scope.db
      .insertInto("pipeline_moves")
      .values({
        ...actorColumns(record),
        fromStage: record.fromStage === null ? null : toPipeline(record.fromStage),
        toStage: toPipeline(record.toStage),
        movedAt: time(record.createdAt),
      })
      .execute();
  };

  return {
    // The duplicate rule and its race safety are core's; these are the statements it runs, in one transaction.
    create: (write) =>
      scope.atomic((tx) =>
        createApplicationInSteps(
          {
            lockJob: async (companyId, jobId) => {
              const job = await tx
                .forUpdate(
                  tx.db
                    .selectFrom("openings")
                    .select(["headline as title", "updatedAt"])
                    .where("id", "=", jobId)
                    .where("orgId", "=", companyId),
                )
                .executeTakeFirst();
              return job ? { title: job.title, updatedAt: readTime(job.updatedAt) } : null;
            },
            async findRecent(_companyId, jobId, emailNormalized, since) {
              const recent = tx.db
                .selectFrom("candidacies as c")
                .innerJoin("candidates as p", "p.id", "c.candidateId")
                .select("c.id")
                .where("c.openingId", "=", jobId)
                .where("p.emailKey", "=", emailNormalized)
                .where("c.appliedAt", ">=", time(since))
                .orderBy("c.appliedAt", "desc")
                .limit(1);
              return (await tx.currentRead(recent).executeTakeFirst())?.id ?? null;
            },
            async countApplication(companyId, jobId) {
              await tx.db
                .updateTable("openings")
                .set({ applicantCount: sql<number>`${sql.ref("applicantCount")} + 1` })
                .where("id", "=", jobId)
                .where("orgId", "=", companyId)
                .execute();
            },
            async insertApplication(record) {
              // One candidate row per candidacy: each application keeps the details sent with it.
              const candidateId = `cnd_${record.id}`;
              await tx.db
                .insertInto("candidates")
                .values(candidateRow(tx, candidateId, record))
                .execute();
              await tx.db
                .insertInto("candidacies")
                .values(candidacyRow(tx, candidateId, record))
                .execute();
            },
            insertStageChange: (record) => createApplicationStore(tx).addStageChange(record),
            appendEvent: (event) => tx.appendEvent(event),
          },
          write,
        ),
      ),

    get,

    async update(companyId, id, patch) {
      const set: Updateable<CandidaciesTable> = { updatedAt: time(patch.updatedAt) };
      if (patch.stage !== undefined) set.pipelineStage = toPipeline(patch.stage);
      if (patch.tags !== undefined) set.labels = JSON.stringify(patch.tags);
      if (patch.starred !== undefined) set.flagged = flag(patch.starred);
      if (patch.overallScore !== undefined) set.rating = patch.overallScore;
      if (patch.humanReviewRequestedAt !== undefined) {
        set.reviewRequestedAt = timeOrNull(patch.humanReviewRequestedAt);
      }
      await scope.db.updateTable("candidacies").set(set).where("id", "=", id).where("orgId", "=", companyId).execute();
      return get(companyId, id);
    },

    async list({ companyId, jobId, stage, updatedSince, after, take }) {
      let query = selectApplications(scope.readDb).where("c.orgId", "=", companyId);
      if (jobId !== undefined) query = query.where("c.openingId", "=", jobId);
      if (stage !== undefined) query = query.where("c.pipelineStage", "=", toPipeline(stage));
      if (updatedSince) query = query.where("c.updatedAt", ">=", time(updatedSince));
      if (after) {
        const at = time(after.at);
        query = query.where((eb) =>
          eb.or([eb("c.appliedAt", "<", at), eb.and([eb("c.appliedAt", "=", at), eb("c.id", "<", after.id)])]),
        );
      }
      const rows = await query
        .orderBy("c.appliedAt", "desc")
        .orderBy("c.id", "desc")
        .limit(Math.max(0, take))
        .execute();
      return rows.map(toApplication);
    },

    addStageChange,

    async listStageChanges(companyId, applicationId) {
      const rows = await scope.db
        .selectFrom("pipeline_moves")
        .selectAll()
        .where("orgId", "=", companyId)
        .where("candidacyId", "=", applicationId)
        .orderBy("movedAt", "asc")
        .orderBy("seq", "asc")
        .execute();
      return rows.map((row) => ({
        id: row.id,
        applicationId: row.candidacyId,
        companyId: row.orgId,
        fromStage: row.fromStage === null ? null : toStage(row.fromStage),
        toStage: toStage(row.toStage),
        actor: toActor(row),
        createdAt: readTime(row.movedAt),
      }));
    },

    async addNote(record) {
      await scope.db
        .insertInto("recruiter_notes")
        .values({ ...actorColumns(record), body: record.body, writtenAt: time(record.createdAt) })
        .execute();
    },

    async listNotes(companyId, applicationId) {
      const rows = await scope.db
        .selectFrom("recruiter_notes")
        .selectAll()
        .where("orgId", "=", companyId)
        .where("candidacyId", "=", applicationId)
        .orderBy("writtenAt", "asc")
        .orderBy("seq", "asc")
        .execute();
      return rows.map((row) => ({
        id: row.id,
        applicationId: row.candidacyId,
        companyId: row.orgId,
        body: row.body,
        actor: toActor(row),
        createdAt: readTime(row.writtenAt),
      }));
    },
  };
}
