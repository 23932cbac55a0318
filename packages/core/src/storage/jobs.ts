import type { JobFields, JobRecord, JobStatus } from "../model/domain";
import type { GetOptions, KeysetPosition } from "./common";

export interface JobListQuery {
  companyId: string;
  /** Only these statuses; undefined means every status, an empty array matches nothing. */
  statuses?: readonly JobStatus[];
  /** Only jobs with `updatedAt >= updatedSince`. */
  updatedSince?: Date;
  /**
   * Only the jobs that are public on this calendar day (`YYYY-MM-DD`): status `active`, `hidden`
   * false, and `closingDate` null or on or after this day (compared as `YYYY-MM-DD` text). This is
   * core's `isPublicJob` rule, which the conformance suite checks the filter against.
   */
  publicOn?: string;
  after?: KeysetPosition;
  /** How many rows to return at most. Core asks for one more than the page size to learn `has_more`. */
  take: number;
}

/** Columns of a job that a change may set. `applicationsCount` is never among them. */
export type JobPatch = Partial<JobFields> & {
  status?: JobStatus;
  hidden?: boolean;
  closedAt?: Date | null;
  publishedAt?: Date | null;
  updatedAt: Date;
};

export interface JobStore {
  /** MUST store every field of the record, `applicationsCount` included. */
  insert(record: JobRecord): Promise<void>;
  get(companyId: string, id: string, options?: GetOptions): Promise<JobRecord | null>;
  /**
   * MUST write only the columns present in `patch` and return the whole record after the change;
   * null when the company has no such job.
   */
  update(companyId: string, id: string, patch: JobPatch): Promise<JobRecord | null>;
  /**
   * MUST return at most `take` jobs matching every filter of the query (`publicOn` included), ordered by `createdAt` descending then `id`
   * descending, strictly after `after` in that order. MUST NOT use OFFSET; the cost of a page MUST
   * not grow with its depth.
   */
  list(query: JobListQuery): Promise<JobRecord[]>;
}
