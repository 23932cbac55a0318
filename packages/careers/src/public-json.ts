/** `/jobs.json`: the public job list as JSON, with no personal data (open to any origin). */
import { type PublicJobFieldsJson, publicJobFields } from "@hireport/core/extend";
import type { JobView } from "./job-view";

/**
 * One public job as `/jobs.json` gives it: its id, reference and addresses, whether it is remote,
 * the Job fields declared public (`JOB_FIELDS` of core, salary grouped), and its dates.
 */
export type PublicJobJson = {
  id: string;
  reference: string;
  /** The job's page (its `public_url`). */
  url: string;
  /** Where its application form posts. */
  apply_url: string;
  remote: boolean;
} & PublicJobFieldsJson & {
    posted_at: string;
    updated_at: string;
    valid_through: string | null;
  };

export function publicJobJson(job: JobView): PublicJobJson {
  const record = job.record;
  return {
    id: job.id,
    reference: job.reference,
    url: job.url,
    apply_url: `${job.url}/apply`,
    remote: job.location.remote,
    ...publicJobFields(record),
    posted_at: job.postedAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
    valid_through: job.validThrough?.toISOString() ?? null,
  };
}
