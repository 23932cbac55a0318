import type { GetOptions, JobListQuery, JobPatch, JobRecord, JobStatus, JobStore } from "@hireport/core";
import type { Updateable } from "kysely";
import { runCompiled } from "../compiled-queries";
import type { StoreContext } from "../context";
import type { JobTable } from "../schema";
import { fromDb, readBool, readJson, readNumber } from "../values";
import { newestFirstAfter } from "./newest-first";
import { onReplica } from "./replica";
import { findRecord, selectAll } from "./rows";

export function toJob(row: JobTable): JobRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    reference: row.reference,
    title: row.title,
    description: row.description,
    shortDescription: row.short_description,
    department: row.department,
    location: row.location,
    employmentType: row.employment_type,
    experienceLevel: row.experience_level,
    salaryMin: readNumber(row.salary_min),
    salaryMax: readNumber(row.salary_max),
    salaryCurrency: row.salary_currency,
    salaryPeriod: row.salary_period,
    requiredSkills: readJson<string[]>(row.required_skills, []),
    preferredSkills: readJson<string[]>(row.preferred_skills, []),
    qualifications: readJson<string[]>(row.qualifications, []),
    responsibilities: readJson<string[]>(row.responsibilities, []),
    benefits: readJson<string[]>(row.benefits, []),
    closingDate: row.closing_date,
    startDate: row.start_date,
    positions: readNumber(row.positions),
    status: row.status as JobStatus,
    hidden: readBool(row.hidden),
    applicationsCount: readNumber(row.applications_count),
    createdAt: fromDb(row.created_at),
    updatedAt: fromDb(row.updated_at),
    closedAt: fromDb(row.closed_at),
    publishedAt: fromDb(row.published_at),
  };
}

/** The columns of a job row. */
function jobRow(ctx: StoreContext, record: JobRecord) {
  const row = {
    id: record.id,
    company_id: record.companyId,
    reference: record.reference,
    title: record.title,
    description: record.description,
    short_description: record.shortDescription,
    department: record.department,
    location: record.location,
    employment_type: record.employmentType,
    experience_level: record.experienceLevel,
    salary_min: record.salaryMin,
    salary_max: record.salaryMax,
    salary_currency: record.salaryCurrency,
    salary_period: record.salaryPeriod,
    required_skills: JSON.stringify(record.requiredSkills),
    preferred_skills: JSON.stringify(record.preferredSkills),
    qualifications: JSON.stringify(record.qualifications),
    responsibilities: JSON.stringify(record.responsibilities),
    benefits: JSON.stringify(record.benefits),
    closing_date: record.closingDate,
    start_date: record.startDate,
    positions: record.positions,
    status: record.status,
    hidden: ctx.bool(record.hidden),
    applications_count: record.applicationsCount,
    created_at: ctx.toDb(record.createdAt),
    updated_at: ctx.toDb(record.updatedAt),
    closed_at: ctx.toDb(record.closedAt),
    published_at: ctx.toDb(record.publishedAt),
  } satisfies Record<keyof JobTable, unknown>;
  return row;
}

/** The columns a patch writes: only the fields present in it. */
function patchColumns(ctx: StoreContext, patch: JobPatch): Updateable<JobTable> {
  const set: Updateable<JobTable> = { updated_at: ctx.toDb(patch.updatedAt) };
  const text = {
    title: "title",
    description: "description",
    shortDescription: "short_description",
    department: "department",
    location: "location",
    employmentType: "employment_type",
    experienceLevel: "experience_level",
    salaryCurrency: "salary_currency",
    salaryPeriod: "salary_period",
    status: "status",
  } as const;
  for (const [field, column] of Object.entries(text) as [keyof typeof text, (typeof text)[keyof typeof text]][]) {
    const value = patch[field];
    if (value !== undefined) set[column] = value;
  }
  const arrays = {
    requiredSkills: "required_skills",
    preferredSkills: "preferred_skills",
    qualifications: "qualifications",
    responsibilities: "responsibilities",
    benefits: "benefits",
  } as const;
  for (const [field, column] of Object.entries(arrays) as [
    keyof typeof arrays,
    (typeof arrays)[keyof typeof arrays],
  ][]) {
    const value = patch[field];
    if (value !== undefined) set[column] = JSON.stringify(value);
  }
  if (patch.salaryMin !== undefined) set.salary_min = patch.salaryMin;
  if (patch.salaryMax !== undefined) set.salary_max = patch.salaryMax;
  if (patch.closingDate !== undefined) set.closing_date = patch.closingDate;
  if (patch.startDate !== undefined) set.start_date = patch.startDate;
  if (patch.positions !== undefined) set.positions = patch.positions;
  if (patch.hidden !== undefined) set.hidden = ctx.bool(patch.hidden);
  if (patch.closedAt !== undefined) set.closed_at = ctx.toDb(patch.closedAt);
  if (patch.publishedAt !== undefined) set.published_at = ctx.toDb(patch.publishedAt);
  return set;
}

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
  const args: Record<string, unknown> = { companyId, take: Math.max(0, query.take) };
  for (const [i, status] of (statuses ?? []).entries()) args[`status${i}`] = status;
  if (updatedSince) args.updatedSince = ctx.toDb(updatedSince);
  if (publicOn !== undefined) args.publicOn = publicOn;
  if (after) Object.assign(args, { afterAt: ctx.toDb(after.at), afterId: after.id });
  // The arguments present (statuses numbered) and the index name all there is to the statement's text.
  const shape = `jobs.list:${index}:${Object.keys(args).join(",")}`;
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
    return newestFirstAfter(select, "j", position, p.take as number).$castTo<JobTable>();
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
        .set(patchColumns(ctx, patch))
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
