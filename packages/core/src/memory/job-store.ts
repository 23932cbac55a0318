import { JOB_FIELDS } from "../fields/job";
import type { JobFields, JobRecord } from "../model/domain";
import { isPublicJob } from "../model/public-jobs";
import type { JobPatch, JobStore } from "../storage";
import type { StateAccess } from "./access";
import { copy } from "./copy";
import { createdPage } from "./keyset";
import { insertNew, ownRow, patchOwnRow } from "./rows";

/** The fields a job patch may write: the declared Job fields and the ones the service sets; never `applicationsCount`. */
const JOB_PATCH_KEYS: readonly (keyof JobPatch)[] = [
  ...(Object.keys(JOB_FIELDS) as (keyof JobFields)[]),
  "status",
  "hidden",
  "closedAt",
  "publishedAt",
  "updatedAt",
];

export function createJobStore(access: StateAccess): JobStore {
  return {
    insert: (record) => access.write((state) => insertNew(state.write("jobs"), record, "a job with id")),

    get: (companyId, id) => access.read((state) => copy(ownRow(state.read("jobs"), companyId, id))),

    update: (companyId, id, patch) =>
      access.write((state) => copy(patchOwnRow(state.write("jobs"), companyId, id, patch, JOB_PATCH_KEYS))),

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
        return createdPage(rows, query);
      }),
  };
}
