/**
 * Jobs on the wire: the JobInput (POST /jobs and PATCH /jobs/{id}) and the Job as returned (see
 * docs/api-reference.md#jobs). The fields a client writes come from their declaration in
 * `fields/job.ts`; `status` and the fields the service sets are written here.
 */
import * as z from "zod";
import { createShape, mainShapeWithSalary, outputShape, patchShape } from "../fields/field";
import { JOB_FIELDS } from "../fields/job";
import { utcDateTime } from "../fields/value-schemas";
import { JOB_INPUT_STATUSES, JOB_STATUSES } from "../model/domain";

/** `status` as a client sends it: active, draft or paused (closing is POST /jobs/{id}/close). */
const inputStatus = z.enum(JOB_INPUT_STATUSES).meta({
  description:
    "active: shown on the public jobs page, the search-engine listing and the job-board feed (unless hidden by the company). draft and paused: not public. Closing is POST /jobs/{id}/close.",
});

type SalaryPair = { salary_min?: number | null | undefined; salary_max?: number | null | undefined };

/** salary_min <= salary_max when both are in the same body (a PATCH is checked again against the stored job). */
function salaryInOrder(body: SalaryPair): boolean {
  const { salary_min: min, salary_max: max } = body;
  return min === undefined || min === null || max === undefined || max === null || min <= max;
}

const salaryOrderError = () => ({
  path: ["salary_max"],
  error: "Must be greater than or equal to salary_min.",
});

/**
 * Body of POST /jobs. `title` is required; every other field has the default it is stored with
 * (status `draft`, currency `GBP`, period `year`, empty text and lists, null numbers and dates).
 * Unknown fields are refused.
 */
export const jobCreateBodySchema = z
  .strictObject({ ...createShape(JOB_FIELDS), status: inputStatus.default("draft") })
  .refine(salaryInOrder, salaryOrderError())
  .meta({
    description: "A new job. Only title is required; a job is created as a draft unless status says otherwise.",
  });

/**
 * Body of PATCH /jobs/{id}: any JobInput field, all optional; an absent field is left as it is.
 * The nullable fields (salary_min, salary_max, closing_date, start_date, positions) accept null to
 * clear them. Unknown fields are refused.
 */
export const jobPatchBodySchema = z
  .strictObject({ ...patchShape(JOB_FIELDS), status: inputStatus.optional() })
  .refine(salaryInOrder, salaryOrderError())
  .meta({
    description:
      "Changes to a job: only the fields sent are changed. Sending status active, draft or paused also reopens a closed job.",
  });

/** What POST /jobs and `api.jobs.create` accept: the JobInput, only `title` required. */
export type JobCreateInput = z.input<typeof jobCreateBodySchema>;
/** What PATCH /jobs/{id} and `api.jobs.update` accept: any JobInput field; null clears the clearable ones. */
export type JobPatchInput = z.input<typeof jobPatchBodySchema>;
/** Parsed body of POST /jobs, defaults applied. */
export type JobCreateBody = z.output<typeof jobCreateBodySchema>;
/** Parsed body of PATCH /jobs/{id}; absent fields are `undefined`, cleared ones `null`. */
export type JobPatchBody = z.output<typeof jobPatchBodySchema>;

/** The salary object of a returned job: unset amounts are null. */
export const salarySchema = z
  .strictObject({
    min: JOB_FIELDS.salaryMin.output,
    max: JOB_FIELDS.salaryMax.output,
    currency: JOB_FIELDS.salaryCurrency.output,
    period: JOB_FIELDS.salaryPeriod.output,
  })
  .meta({ description: "Always present; min and max are null when not set." });

/**
 * A Job as returned: `id`, `reference`, the first JobInput fields with `status`, `open` and the
 * salary object, the counts, address and times the service keeps, then the other JobInput fields.
 */
export const jobSchema = z
  .strictObject({
    id: z.string().meta({ examples: ["job_01j9x2k3m4n5p6q7r8s9t0v1w2"] }),
    reference: z.string().meta({ description: "Readable reference, stable per company.", examples: ["JOB-1042"] }),
    ...outputShape(JOB_FIELDS, "lead"),
    status: z.enum(JOB_STATUSES),
    open: z.boolean().meta({ description: "True when status is active." }),
    ...mainShapeWithSalary(JOB_FIELDS, salarySchema),
    applications_count: z.int().min(0),
    public_url: z.url().nullable().meta({
      description:
        "Address of the public job page while the job is public (active, not hidden, closing date not passed; the closing day itself included); otherwise null, and always null where the service has no public job pages.",
    }),
    created_at: utcDateTime(),
    updated_at: utcDateTime(),
    ...outputShape(JOB_FIELDS, "tail"),
  })
  .meta({
    description:
      "A job: every JobInput field is returned (short_description to positions after updated_at), so what a caller writes it can read back. Text fields that were never set are empty strings.",
  });

/** The Job as returned, exactly its fields: the output type of the schema that documents it. */
export type JobWire = z.output<typeof jobSchema>;
