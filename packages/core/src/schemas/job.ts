/**
 * Jobs on the wire: the JobInput of spec 2.2 (POST /jobs and PATCH /jobs/{id}) and the Job of
 * spec 2.1 as returned.
 */
import * as z from "zod";
import { JOB_INPUT_STATUSES, JOB_STATUSES } from "../domain";
import {
  currencyCode,
  isoDate,
  LIMITS,
  label,
  longText,
  requiredText,
  SALARY_PERIODS,
  stringList,
  utcDateTime,
} from "./fields";

const salaryAmount = () =>
  z
    .number()
    .min(0)
    .max(LIMITS.salary)
    .meta({ description: "Amount per `salary_period` in `salary_currency`; null clears it." });

/** The JobInput fields of spec 2.2 with their checks; create and patch add optionality and defaults. */
const jobInputFields = {
  title: requiredText(LIMITS.title).meta({ description: "Job title.", examples: ["Senior Backend Engineer"] }),
  description: longText(LIMITS.description).meta({ description: "Full description shown on the job page." }),
  short_description: longText(LIMITS.shortDescription).meta({ description: "One or two lines for listings." }),
  department: label().meta({ examples: ["Engineering"] }),
  location: label().meta({ examples: ["London"] }),
  employment_type: label().meta({
    description: "For example full_time, part_time, contract.",
    examples: ["full_time"],
  }),
  experience_level: label().meta({ examples: ["senior"] }),
  salary_min: salaryAmount(),
  salary_max: salaryAmount(),
  salary_currency: currencyCode(),
  salary_period: z.enum(SALARY_PERIODS).meta({ description: "What one salary amount pays for.", examples: ["year"] }),
  required_skills: stringList(),
  preferred_skills: stringList(),
  qualifications: stringList(),
  responsibilities: stringList(),
  benefits: stringList(),
  closing_date: isoDate().meta({ description: "Last day applications are taken, YYYY-MM-DD; null clears it." }),
  start_date: isoDate().meta({ description: "Expected start, YYYY-MM-DD; null clears it." }),
  positions: z.int().min(1).max(LIMITS.positions).meta({ description: "Number of people to hire; null clears it." }),
  status: z.enum(JOB_INPUT_STATUSES).meta({
    description:
      "active: shown on the public jobs page, the search-engine listing and the job-board feed (unless hidden by the company). draft and paused: not public. Closing is POST /jobs/{id}/close.",
  }),
} as const;

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

const f = jobInputFields;

/**
 * Body of POST /jobs: the JobInput of spec 2.2. `title` is required; every other field has the
 * default it is stored with (status `draft`, currency `GBP`, period `year`, empty text and lists,
 * null numbers and dates). Unknown fields are refused.
 */
export const jobCreateBodySchema = z
  .strictObject({
    title: f.title,
    description: f.description.default(""),
    short_description: f.short_description.default(""),
    department: f.department.default(""),
    location: f.location.default(""),
    employment_type: f.employment_type.default(""),
    experience_level: f.experience_level.default(""),
    salary_min: f.salary_min.nullable().default(null),
    salary_max: f.salary_max.nullable().default(null),
    salary_currency: f.salary_currency.default("GBP"),
    salary_period: f.salary_period.default("year"),
    required_skills: f.required_skills.default(() => []),
    preferred_skills: f.preferred_skills.default(() => []),
    qualifications: f.qualifications.default(() => []),
    responsibilities: f.responsibilities.default(() => []),
    benefits: f.benefits.default(() => []),
    closing_date: f.closing_date.nullable().default(null),
    start_date: f.start_date.nullable().default(null),
    positions: f.positions.nullable().default(null),
    status: f.status.default("draft"),
  })
  .refine(salaryInOrder, salaryOrderError())
  .meta({
    description: "A new job. Only title is required; a job is created as a draft unless status says otherwise.",
  });

/**
 * Body of PATCH /jobs/{id}: any JobInput field, all optional; an absent field is left as it is.
 * salary_min, salary_max, closing_date, start_date and positions accept null to clear them.
 * Unknown fields are refused.
 */
export const jobPatchBodySchema = z
  .strictObject({
    title: f.title.optional(),
    description: f.description.optional(),
    short_description: f.short_description.optional(),
    department: f.department.optional(),
    location: f.location.optional(),
    employment_type: f.employment_type.optional(),
    experience_level: f.experience_level.optional(),
    salary_min: f.salary_min.nullable().optional(),
    salary_max: f.salary_max.nullable().optional(),
    salary_currency: f.salary_currency.optional(),
    salary_period: f.salary_period.optional(),
    required_skills: f.required_skills.optional(),
    preferred_skills: f.preferred_skills.optional(),
    qualifications: f.qualifications.optional(),
    responsibilities: f.responsibilities.optional(),
    benefits: f.benefits.optional(),
    closing_date: f.closing_date.nullable().optional(),
    start_date: f.start_date.nullable().optional(),
    positions: f.positions.nullable().optional(),
    status: f.status.optional(),
  })
  .refine(salaryInOrder, salaryOrderError())
  .meta({
    description:
      "Changes to a job: only the fields sent are changed. Sending status active, draft or paused also reopens a closed job.",
  });

/** What POST /jobs and `api.jobs.create` accept: the JobInput of spec 2.2, only `title` required. */
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
    min: z.number().nullable(),
    max: z.number().nullable(),
    currency: z.string().meta({ examples: ["GBP"] }),
    period: z.string().meta({ examples: ["year"] }),
  })
  .meta({ description: "Always present; min and max are null when not set." });

/** A Job as returned (spec 2.1), exactly its fields. */
export const jobSchema = z
  .strictObject({
    id: z.string().meta({ examples: ["job_01j9x2k3m4n5p6q7r8s9t0v1w2"] }),
    reference: z.string().meta({ description: "Readable reference, stable per company.", examples: ["JOB-1042"] }),
    title: z.string(),
    status: z.enum(JOB_STATUSES),
    open: z.boolean().meta({ description: "True when status is active." }),
    description: z.string(),
    department: z.string(),
    location: z.string(),
    employment_type: z.string(),
    experience_level: z.string(),
    salary: salarySchema,
    required_skills: z.array(z.string()),
    closing_date: z.iso.date().nullable(),
    applications_count: z.int().min(0),
    public_url: z.url().nullable().meta({
      description:
        "Address of the public job page while the job is public (active, not hidden, closing date not passed; the closing day itself included); otherwise null.",
    }),
    created_at: utcDateTime(),
    updated_at: utcDateTime(),
    short_description: z
      .string()
      .meta({ description: "Not in the 2.1 table: every JobInput field written is returned." }),
    preferred_skills: z.array(z.string()),
    qualifications: z.array(z.string()),
    responsibilities: z.array(z.string()),
    benefits: z.array(z.string()),
    start_date: z.iso.date().nullable(),
    positions: z.int().min(1).nullable(),
  })
  .meta({
    description:
      "A job: the fields of spec 2.1, then the other JobInput fields (short_description to positions), so what a caller writes it can read back. Text fields that were never set are empty strings.",
  });
