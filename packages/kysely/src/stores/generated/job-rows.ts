/**
 * Job rows to records and back, and the columns a job patch writes.
 * Generated from JOB_FIELDS (packages/core/src/fields/job.ts) by packages/core/scripts/generate-fields.ts.
 * Do not edit: run `pnpm --filter @hireport/core generate`.
 */
import type { JobRecord, JobStatus } from "@hireport/core";
import type { JobPatch } from "@hireport/core/storage";
import type { Updateable } from "kysely";
import type { StoreContext } from "../../context";
import type { JobTable } from "../../schema";
import { fromDb, readBool, readJson, readNumber } from "../../values";

/** The record of a job row. */
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
    country: row.country,
    region: row.region,
    locality: row.locality,
    postalCode: row.postal_code,
    workplaceType: row.workplace_type,
    questions: readJson<JobRecord["questions"]>(row.questions, []),
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
export function jobRow(ctx: StoreContext, record: JobRecord) {
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
    country: record.country,
    region: record.region,
    locality: record.locality,
    postal_code: record.postalCode,
    workplace_type: record.workplaceType,
    questions: JSON.stringify(record.questions),
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
export function jobPatchColumns(ctx: StoreContext, patch: JobPatch): Updateable<JobTable> {
  const set: Updateable<JobTable> = { updated_at: ctx.toDb(patch.updatedAt) };
  if (patch.title !== undefined) set.title = patch.title;
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.shortDescription !== undefined) set.short_description = patch.shortDescription;
  if (patch.department !== undefined) set.department = patch.department;
  if (patch.location !== undefined) set.location = patch.location;
  if (patch.employmentType !== undefined) set.employment_type = patch.employmentType;
  if (patch.experienceLevel !== undefined) set.experience_level = patch.experienceLevel;
  if (patch.salaryMin !== undefined) set.salary_min = patch.salaryMin;
  if (patch.salaryMax !== undefined) set.salary_max = patch.salaryMax;
  if (patch.salaryCurrency !== undefined) set.salary_currency = patch.salaryCurrency;
  if (patch.salaryPeriod !== undefined) set.salary_period = patch.salaryPeriod;
  if (patch.requiredSkills !== undefined) set.required_skills = JSON.stringify(patch.requiredSkills);
  if (patch.preferredSkills !== undefined) set.preferred_skills = JSON.stringify(patch.preferredSkills);
  if (patch.qualifications !== undefined) set.qualifications = JSON.stringify(patch.qualifications);
  if (patch.responsibilities !== undefined) set.responsibilities = JSON.stringify(patch.responsibilities);
  if (patch.benefits !== undefined) set.benefits = JSON.stringify(patch.benefits);
  if (patch.closingDate !== undefined) set.closing_date = patch.closingDate;
  if (patch.startDate !== undefined) set.start_date = patch.startDate;
  if (patch.positions !== undefined) set.positions = patch.positions;
  if (patch.country !== undefined) set.country = patch.country;
  if (patch.region !== undefined) set.region = patch.region;
  if (patch.locality !== undefined) set.locality = patch.locality;
  if (patch.postalCode !== undefined) set.postal_code = patch.postalCode;
  if (patch.workplaceType !== undefined) set.workplace_type = patch.workplaceType;
  if (patch.questions !== undefined) set.questions = JSON.stringify(patch.questions);
  if (patch.status !== undefined) set.status = patch.status;
  if (patch.hidden !== undefined) set.hidden = ctx.bool(patch.hidden);
  if (patch.closedAt !== undefined) set.closed_at = ctx.toDb(patch.closedAt);
  if (patch.publishedAt !== undefined) set.published_at = ctx.toDb(patch.publishedAt);
  return set;
}
