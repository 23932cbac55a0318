import type { ApplicationRecord } from "@hireport/core";
import type { ApplicationListQuery, ApplicationPatch, ApplicationStore } from "@hireport/core/storage";
import { runCompiled } from "../compiled-queries";
import type { StoreContext } from "../context";
import type { NoteTable, StageChangeTable } from "../schema";
import {
  type ApplicationRow,
  noteRow,
  selectApplications,
  stageChangeRow,
  toNote,
  toStageChange,
} from "./application-rows";
import { applicationPatchColumns, toApplication } from "./generated/application-rows";
import { newestFirstAfter, pageTake } from "./newest-first";
import { onReplica } from "./replica";
import { selectAll } from "./rows";

/** One page of applications (`ApplicationStore.list`), on the primary or on the storage's `readDb`. */
async function listApplications(ctx: StoreContext, query: ApplicationListQuery): Promise<ApplicationRecord[]> {
  const { companyId, jobId, stage, updatedSince, after } = query;
  // With `updated_since` (and no job or stage) the optimizer chooses between the page-order
  // index and the `(company_id, updated_at)` one (few rows changed since the last sync).
  const index =
    updatedSince && jobId === undefined && stage === undefined
      ? undefined
      : jobId !== undefined
        ? "company_job_applied"
        : stage !== undefined
          ? "company_stage_applied"
          : "company_applied";
  const args: Record<string, unknown> = { companyId };
  const take = pageTake(args, query.take, index !== undefined);
  if (jobId !== undefined) args.jobId = jobId;
  if (stage !== undefined) args.stage = stage;
  if (updatedSince) args.updatedSince = ctx.toDb(updatedSince);
  if (after) Object.assign(args, { afterAt: ctx.toDb(after.at), afterId: after.id });
  const shape = `applications.list:${index}:${take.shape}:${Object.keys(args).join(",")}`;
  const rows = await runCompiled(ctx, shape, args, (p) => {
    let select = selectApplications(ctx, index).where("a.company_id", "=", p.companyId as string);
    if (jobId !== undefined) select = select.where("a.job_id", "=", p.jobId as string);
    if (stage !== undefined) select = select.where("a.stage", "=", p.stage as string);
    if (updatedSince) select = select.where("a.updated_at", ">=", p.updatedSince as string);
    const position = after ? { at: p.afterAt, id: p.afterId } : undefined;
    return newestFirstAfter(select, "a", position, take.limit(p), "applied_at").$castTo<ApplicationRow>();
  });
  return rows.map(toApplication);
}

/**
 * Applications with their notes and stage history. `create` is the dialect's
 * (`DialectStrategy.createApplication`): one call of the `create_application` routine on Postgres,
 * one transaction elsewhere (`createApplicationInSteps`). `list`, and `get` with `replica` (a miss
 * read again on `ctx`), run on `reads`: the storage's `readDb` when it has one (outside a
 * transaction), else `ctx` itself; every other method, `listStageChanges` and `listNotes` included,
 * on `ctx`.
 */
export function createApplicationStore(ctx: StoreContext, reads: StoreContext = ctx): ApplicationStore {
  const find = async (on: StoreContext, companyId: string, id: string, lock: boolean) => {
    const [row] = await runCompiled(on, `applications.get:${lock ? "lock" : ""}`, { id, companyId }, (p) => {
      const query = selectApplications(on).where("a.id", "=", p.id).where("a.company_id", "=", p.companyId);
      return (lock ? on.strategy.forUpdate(query, "a") : query).$castTo<ApplicationRow>();
    });
    return row ? toApplication(row) : null;
  };
  const get: ApplicationStore["get"] = async (companyId, id, options) =>
    (onReplica(ctx, reads, options) && (await find(reads, companyId, id, false))) ||
    find(ctx, companyId, id, options?.lock === true);

  /** An application's stage changes or notes, oldest first (in the order written within a millisecond). */
  const history = (table: "stage_change" | "note", companyId: string, applicationId: string) =>
    selectAll(ctx, table, "h")
      .where("h.application_id", "=", applicationId)
      .where("h.company_id", "=", companyId)
      .orderBy("h.created_at", "asc")
      .orderBy("h.seq", "asc");

  return {
    create: (write) => ctx.strategy.createApplication(ctx, write),

    get,

    async update(companyId, id, patch: ApplicationPatch) {
      await ctx.db
        .updateTable(ctx.table("application"))
        .set(applicationPatchColumns(ctx, patch))
        .where("id", "=", id)
        .where("company_id", "=", companyId)
        .execute();
      return get(companyId, id);
    },

    list: (query) => listApplications(reads, query),

    async addStageChange(record) {
      await ctx.db.insertInto(ctx.table("stage_change")).values(stageChangeRow(ctx, record)).execute();
    },

    async listStageChanges(companyId, applicationId) {
      const rows = await history("stage_change", companyId, applicationId).$castTo<StageChangeTable>().execute();
      return rows.map(toStageChange);
    },

    async addNote(record) {
      await ctx.db.insertInto(ctx.table("note")).values(noteRow(ctx, record)).execute();
    },

    async listNotes(companyId, applicationId) {
      const rows = await history("note", companyId, applicationId).$castTo<NoteTable>().execute();
      return rows.map(toNote);
    },
  };
}
