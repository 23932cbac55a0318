import type { JobRecord } from "../domain";
import { isPublicJob } from "../public-jobs";
import type { JobPatch, JobStore } from "../storage";
import type { StateAccess } from "./access";
import { copy, pickPatch, toStored } from "./copy";
import { keysetPage } from "./keyset";

/** The columns a job patch may write; `applicationsCount` is never among them. */
const JOB_PATCH_KEYS = [
  "title",
  "description",
  "shortDescription",
  "department",
  "location",
  "employmentType",
  "experienceLevel",
  "salaryMin",
  "salaryMax",
  "salaryCurrency",
  "salaryPeriod",
  "requiredSkills",
  "preferredSkills",
  "qualifications",
  "responsibilities",
  "benefits",
  "closingDate",
  "startDate",
  "positions",
  "status",
  "hidden",
  "closedAt",
  "publishedAt",
  "updatedAt",
] as const satisfies readonly (keyof JobPatch)[];

export function createJobStore(access: StateAccess): JobStore {
  return {
    insert: (record) =>
      access.write((state) => {
        const jobs = state.write("jobs");
        if (jobs.has(record.id)) throw new Error(`The memory storage already has a job with id ${record.id}.`);
        jobs.set(record.id, toStored(record));
      }),

    get: (companyId, id) =>
      access.read((state) => {
        const job = state.read("jobs").get(id);
        return job && job.companyId === companyId ? copy(job) : null;
      }),

    update: (companyId, id, patch) =>
      access.write((state) => {
        const jobs = state.write("jobs");
        const job = jobs.get(id);
        if (!job || job.companyId !== companyId) return null;
        const updated: JobRecord = toStored({ ...job, ...pickPatch(patch, JOB_PATCH_KEYS) });
        jobs.set(id, updated);
        return copy(updated);
      }),

    list: (query) =>
      access.read((state) => {
        const since = query.updatedSince?.getTime();
        const rows: JobRecord[] = [];
        for (const job of state.read("jobs").values()) {
          if (job.companyId !== query.companyId) continue;
          if (query.statuses && !query.statuses.includes(job.status)) continue;
          if (since !== undefined && job.updatedAt.getTime() < since) continue;
          if (query.publicOn !== undefined && !isPublicJob(job, query.publicOn)) continue;
          rows.push(job);
        }
        return keysetPage(
          rows,
          (job) => job.createdAt,
          (job) => job.id,
          query.after,
          query.take,
        ).map((job) => copy(job));
      }),
  };
}
