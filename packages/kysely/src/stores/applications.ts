import type { ApplicationPatch, ApplicationStore } from "@hireport/core";
import type { Updateable } from "kysely";
import type { StoreContext } from "../context";
import type { ApplicationTable, NoteTable, StageChangeTable } from "../schema";
import { type ApplicationRow, stageChangeRow, toApplication, toNote, toStageChange } from "./application-rows";
import { afterPosition } from "./keyset";

/**
 * Applications with their notes and stage history. `create` is the dialect's
 * (`DialectStrategy.createApplication`): one call of the `create_application` routine on Postgres,
 * one transaction elsewhere (`createApplicationInSteps`).
 */
export function createApplicationStore(ctx: StoreContext): ApplicationStore {
  /** Applications with their job's title, joined: one query whatever the number of rows. */
  const selectApplications = (from: "application as a") =>
    ctx.db
      .selectFrom(from)
      .innerJoin(ctx.tableAs("job", "j"), "j.id", "a.job_id")
      .select(ctx.columns("application", "a"))
      .select("j.title as job_title");

  const get: ApplicationStore["get"] = async (companyId, id, options) => {
    let query = selectApplications(ctx.tableAs("application", "a"))
      .where("a.id", "=", id)
      .where("a.company_id", "=", companyId);
    if (options?.lock) query = ctx.strategy.forUpdate(query, "a");
    const row = await query.$castTo<ApplicationRow>().executeTakeFirst();
    return row ? toApplication(row) : null;
  };

  return {
    create: (write) => ctx.strategy.createApplication(ctx, write),

    get,

    async update(companyId, id, patch: ApplicationPatch) {
      const set: Updateable<ApplicationTable> = { updated_at: ctx.toDb(patch.updatedAt) };
      if (patch.stage !== undefined) set.stage = patch.stage;
      if (patch.tags !== undefined) set.tags = JSON.stringify(patch.tags);
      if (patch.starred !== undefined) set.starred = ctx.bool(patch.starred);
      if (patch.overallScore !== undefined) set.overall_score = patch.overallScore;
      if (patch.humanReviewRequestedAt !== undefined) {
        set.human_review_requested_at = ctx.toDb(patch.humanReviewRequestedAt);
      }
      await ctx.db
        .updateTable(ctx.table("application"))
        .set(set)
        .where("id", "=", id)
        .where("company_id", "=", companyId)
        .execute();
      return get(companyId, id);
    },

    async list(query) {
      // With `updated_since` (and no job or stage) the optimizer chooses between the page-order
      // index and the `(company_id, updated_at)` one (few rows changed since the last sync).
      const from =
        query.updatedSince && query.jobId === undefined && query.stage === undefined
          ? ctx.tableAs("application", "a")
          : ctx.from(
              "application",
              "a",
              query.jobId !== undefined
                ? "company_job_applied"
                : query.stage !== undefined
                  ? "company_stage_applied"
                  : "company_applied",
            );
      let select = selectApplications(from).where("a.company_id", "=", query.companyId);
      if (query.jobId !== undefined) select = select.where("a.job_id", "=", query.jobId);
      if (query.stage !== undefined) select = select.where("a.stage", "=", query.stage);
      if (query.updatedSince) select = select.where("a.updated_at", ">=", ctx.toDb(query.updatedSince));
      const after = query.after;
      if (after) select = select.where((eb) => afterPosition(ctx, eb, "a.applied_at", "a.id", after));
      const rows = await select
        .orderBy("a.applied_at", "desc")
        .orderBy("a.id", "desc")
        .limit(Math.max(0, query.take))
        .$castTo<ApplicationRow>()
        .execute();
      return rows.map(toApplication);
    },

    async addStageChange(record) {
      await ctx.db.insertInto(ctx.table("stage_change")).values(stageChangeRow(ctx, record)).execute();
    },

    async listStageChanges(companyId, applicationId) {
      const rows = await ctx.db
        .selectFrom(ctx.tableAs("stage_change", "s"))
        .select(ctx.columns("stage_change", "s"))
        .where("s.application_id", "=", applicationId)
        .where("s.company_id", "=", companyId)
        .orderBy("s.created_at", "asc")
        .orderBy("s.seq", "asc")
        .$castTo<StageChangeTable>()
        .execute();
      return rows.map(toStageChange);
    },

    async addNote(record) {
      await ctx.db
        .insertInto(ctx.table("note"))
        .values({
          id: record.id,
          application_id: record.applicationId,
          company_id: record.companyId,
          body: record.body,
          actor_type: record.actor.type,
          actor_id: record.actor.id,
          actor_name: record.actor.name,
          created_at: ctx.toDb(record.createdAt),
        })
        .execute();
    },

    async listNotes(companyId, applicationId) {
      const rows = await ctx.db
        .selectFrom(ctx.tableAs("note", "n"))
        .select(ctx.columns("note", "n"))
        .where("n.application_id", "=", applicationId)
        .where("n.company_id", "=", companyId)
        .orderBy("n.created_at", "asc")
        .orderBy("n.seq", "asc")
        .$castTo<NoteTable>()
        .execute();
      return rows.map(toNote);
    },
  };
}
