/**
 * Every field a client can write on a Job, declared once: what `POST /jobs` and `PATCH /jobs/{id}`
 * accept, what a Job returns, how the domain record and the database row name it, and what the
 * careers site's public JSON shows. To add a field, add it here (at the end, before nothing else
 * moves), add its column in a migration of `@hireport/kysely`, then run the generate script: see
 * CONTRIBUTING.md.
 *
 * The fields not declared here are written by hand where they are used: `id`, `reference`,
 * `status` (a client sends active, draft or paused; closed comes from POST /jobs/{id}/close),
 * `hidden`, `applications_count`, the times, and the `salary` object around the salary fields.
 */
import * as z from "zod";
import { field, fieldDefault, type RecordOf, type RowOf } from "./field";
import { questionListSchema } from "./questions";
import {
  countryCode,
  currencyCode,
  isoDate,
  LIMITS,
  label,
  longText,
  requiredText,
  SALARY_PERIODS,
  stringList,
  WORKPLACE_TYPES,
} from "./value-schemas";

const salaryAmount = () =>
  z
    .number()
    .min(0)
    .max(LIMITS.salary)
    .meta({ description: "Amount per `salary_period` in `salary_currency`; null clears it." });

/** The Job fields, by record name, in the order the request bodies list them. */
export const JOB_FIELDS = {
  title: field({
    kind: "text",
    wire: "title",
    required: true,
    input: requiredText(LIMITS.title).meta({ description: "Job title.", examples: ["Senior Backend Engineer"] }),
    placement: "lead",
  }),
  description: field({
    kind: "text",
    wire: "description",
    input: longText(LIMITS.description).meta({ description: "Full description shown on the job page." }),
    placement: "main",
  }),
  shortDescription: field({
    kind: "text",
    wire: "short_description",
    input: longText(LIMITS.shortDescription).meta({ description: "One or two lines for listings." }),
    output: z.string().meta({ description: "One or two lines for listings." }),
  }),
  department: field({
    kind: "label",
    wire: "department",
    input: label().meta({ examples: ["Engineering"] }),
    placement: "main",
  }),
  location: field({
    kind: "label",
    wire: "location",
    input: label().meta({ examples: ["London"] }),
    placement: "main",
  }),
  employmentType: field({
    kind: "label",
    wire: "employment_type",
    input: label().meta({ description: "For example full_time, part_time, contract.", examples: ["full_time"] }),
    placement: "main",
  }),
  experienceLevel: field({
    kind: "label",
    wire: "experience_level",
    input: label().meta({ examples: ["senior"] }),
    placement: "main",
  }),
  salaryMin: field({
    kind: "number",
    wire: "salary_min",
    nullable: true,
    input: salaryAmount(),
    placement: "salary",
    salaryKey: "min",
  }),
  salaryMax: field({
    kind: "number",
    wire: "salary_max",
    nullable: true,
    input: salaryAmount(),
    placement: "salary",
    salaryKey: "max",
  }),
  salaryCurrency: field({
    kind: "code",
    wire: "salary_currency",
    input: currencyCode(),
    output: z.string().meta({ examples: ["GBP"] }),
    default: "GBP",
    placement: "salary",
    salaryKey: "currency",
  }),
  salaryPeriod: field({
    kind: "enum",
    wire: "salary_period",
    input: z.enum(SALARY_PERIODS).meta({ description: "What one salary amount pays for.", examples: ["year"] }),
    output: z.string().meta({ examples: ["year"] }),
    default: "year",
    placement: "salary",
    salaryKey: "period",
  }),
  requiredSkills: field({ kind: "list", wire: "required_skills", input: stringList(), placement: "main" }),
  preferredSkills: field({ kind: "list", wire: "preferred_skills", input: stringList() }),
  qualifications: field({ kind: "list", wire: "qualifications", input: stringList() }),
  responsibilities: field({ kind: "list", wire: "responsibilities", input: stringList() }),
  benefits: field({ kind: "list", wire: "benefits", input: stringList() }),
  closingDate: field({
    kind: "date",
    wire: "closing_date",
    nullable: true,
    input: isoDate().meta({ description: "Last day applications are taken, YYYY-MM-DD; null clears it." }),
    placement: "main",
  }),
  startDate: field({
    kind: "date",
    wire: "start_date",
    nullable: true,
    input: isoDate().meta({ description: "Expected start, YYYY-MM-DD; null clears it." }),
  }),
  positions: field({
    kind: "number",
    wire: "positions",
    nullable: true,
    input: z.int().min(1).max(LIMITS.positions).meta({ description: "Number of people to hire; null clears it." }),
    output: z.int().min(1).nullable(),
  }),
  // Where the job is, in parts (docs/api-reference.md#where-a-job-is); `location` stays the free text.
  country: field({
    kind: "code",
    wire: "country",
    nullable: true,
    input: countryCode().meta({ description: "ISO 3166-1 alpha-2 code of the job's country; null clears it." }),
  }),
  region: field({
    kind: "label",
    wire: "region",
    nullable: true,
    input: requiredText(LIMITS.label).meta({
      description: "State, county or province of the job's place; null clears it.",
      examples: ["West Yorkshire"],
    }),
  }),
  locality: field({
    kind: "label",
    wire: "locality",
    nullable: true,
    input: requiredText(LIMITS.label).meta({
      description: "Town or city of the job's place; null clears it.",
      examples: ["Leeds"],
    }),
  }),
  postalCode: field({
    kind: "label",
    wire: "postal_code",
    nullable: true,
    input: requiredText(LIMITS.postalCode).meta({
      description: "Postal code of the job's place; null clears it.",
      examples: ["LS1 4DY"],
    }),
  }),
  workplaceType: field({
    kind: "enum",
    wire: "workplace_type",
    nullable: true,
    input: z.enum(WORKPLACE_TYPES).meta({
      description:
        "Where the work is done: `on_site` at the job's place, `hybrid` partly there and partly remote, `remote` fully remote; null clears it.",
      examples: ["hybrid"],
    }),
    output: z.enum(WORKPLACE_TYPES).nullable(),
  }),
  questions: field({
    kind: "json",
    wire: "questions",
    input: questionListSchema,
    default: [],
    // Not in the careers site's public JSON: which choices knock an application out stays with the company.
    public: false,
  }),
} as const;

/** The Job fields' declarations (see {@link JOB_FIELDS}). */
export type JobFieldSet = typeof JOB_FIELDS;

/** Every JobInput field as the domain record holds it, stored whether or not the Job wire shape returns it. */
export type JobFields = RecordOf<JobFieldSet>;

/** The columns of the Job fields in a job row, as the database drivers return them. */
export type JobFieldColumns = RowOf<JobFieldSet>;

/** Every Job field at its default: what create stores for a field the body leaves out (fresh arrays each call). */
export function jobFieldDefaults(): JobFields {
  const fields: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(JOB_FIELDS)) fields[name] = fieldDefault(spec);
  return fields as JobFields;
}
