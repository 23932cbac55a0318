import type { JobRecord } from "@hireport/core";
import type { GetOptions, JobListQuery, JobStore } from "@hireport/core/storage";
import { runCompiled } from "../compiled-queries";
import type { StoreContext } from "../context";
import type { JobTable } from "../schema";
import { jobPatchColumns, jobRow, toJob } from "./generated/job-rows";
import { newestFirstAfter, pageTake } from "./newest-first";
import { onReplica } from "./replica";
import { findRecord, selectAll } from "./rows";

/** One page of jobs (`JobStore.list`), on the primary or on the storage's `readDb`. */
async function listJobs(ctx: StoreContext, query: JobListQuery): Promise<JobRecord[]> {
  const { companyId, statuses = null, updatedSince, publicOn, after } = query;
  if (statuses?.length === 0) return [];
  // With `updated_since` the optimizer chooses between the page-order index and the
  // `(company_id, updated_at)` one (few rows changed since the last sync).
  const index = updatedSince
    ? undefined
    : statuses?.length === 1 || publicOn !== undefined
      ? "company_status_created"
      : "company_created";
  const args: Record<string, unknown> = { companyId };
  const take = pageTake(args, query.take, index !== undefined);
  for (const [i, status] of (statuses ?? []).entries()) args[`status${i}`] = status;
  if (updatedSince) args.updatedSince = ctx.toDb(updatedSince);
  if (publicOn !== undefined) args.publicOn = publicOn;
  if (after) Object.assign(args, { afterAt: ctx.toDb(after.at), afterId: after.id });
  // The arguments present (statuses numbered) and the index name all there is to the statement's text.
  const shape = `jobs.list:${index}:${take.shape}:${Object.keys(args).join(",")}`;
  const rows = await runCompiled(ctx, shape, args, (p) => {
    let select = selectAll(ctx, "job", "j", index).where("j.company_id", "=", p.companyId as string);
    if (statuses) {
      const values = statuses.map((_, i) => p[`status${i}`] as string);
      select =
        values.length === 1
          ? select.where("j.status", "=", values[0] as string)
          : select.where("j.status", "in", values);
    }
    if (updatedSince) select = select.where("j.updated_at", ">=", p.updatedSince as string);
    // Core's `isPublicJob`, as a filter (the conformance suite checks the two agree).
    if (publicOn !== undefined) {
      const day = p.publicOn as string;
      select = select
        .where("j.status", "=", "active")
        .where("j.hidden", "=", ctx.bool(false))
        .where((eb) => eb.or([eb("j.closing_date", "is", null), eb("j.closing_date", ">=", day)]));
    }
    const position = after ? { at: p.afterAt, id: p.afterId } : undefined;
    return newestFirstAfter(select, "j", position, take.limit(p)).$castTo<JobTable>();
  });
  return rows.map(toJob);
}

/**
 * Jobs on `ctx`. `list`, and `get` with `replica` (a miss read again on `ctx`), run on `reads`: the
 * storage's `readDb` when it has one (outside a transaction), else `ctx` itself; every other
 * method on `ctx`.
 */
export function createJobStore(ctx: StoreContext, reads: StoreContext = ctx): JobStore {
  const find = (on: StoreContext, companyId: string, id: string, options?: GetOptions) =>
    findRecord(on, "job", { id, company_id: companyId }, toJob, options);
  const get: JobStore["get"] = async (companyId, id, options) =>
    (onReplica(ctx, reads, options) && (await find(reads, companyId, id))) || find(ctx, companyId, id, options);

  return {
    async insert(record) {
      await ctx.db.insertInto(ctx.table("job")).values(jobRow(ctx, record)).execute();
    },

    get,

    async update(companyId, id, patch) {
      await ctx.db
        .updateTable(ctx.table("job"))
        .set(jobPatchColumns(ctx, patch))
        .where("id", "=", id)
        .where("company_id", "=", companyId)
        .execute();
      // Read back (null when the company has no such job): the count of updated rows would not
      // tell, as MySQL counts matched rows only with CLIENT_FOUND_ROWS.
      return get(companyId, id);
    },

    list: (query) => listJobs(reads, query),
  };
}
