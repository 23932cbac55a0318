/**
 * The Job fields as returned: the serializer's Job and the careers site's public fields.
 * Generated from JOB_FIELDS (packages/core/src/fields/job.ts) by packages/core/scripts/generate-fields.ts.
 * Do not edit: run `pnpm --filter @hireport/core generate`.
 */
import type { JobRecord } from "../../model/domain";
import type { JobWire } from "../../schemas/job";
import type { PublicJobFieldsJson } from "../public-job";

/** The Job of `job` as the API returns it, its keys in the order of `jobSchema`. */
export function jobWire(job: JobRecord, publicUrl: string | null): JobWire {
  return {
    id: job.id,
    reference: job.reference,
    title: job.title,
    status: job.status,
    open: job.status === "active",
    description: job.description,
    department: job.department,
    location: job.location,
    employment_type: job.employmentType,
    experience_level: job.experienceLevel,
    salary: {
      min: job.salaryMin,
      max: job.salaryMax,
      currency: job.salaryCurrency,
      period: job.salaryPeriod,
    },
    required_skills: job.requiredSkills,
    closing_date: job.closingDate,
    applications_count: job.applicationsCount,
    public_url: publicUrl,
    created_at: job.createdAt.toISOString(),
    updated_at: job.updatedAt.toISOString(),
    short_description: job.shortDescription,
    preferred_skills: job.preferredSkills,
    qualifications: job.qualifications,
    responsibilities: job.responsibilities,
    benefits: job.benefits,
    start_date: job.startDate,
    positions: job.positions,
    country: job.country,
    region: job.region,
    locality: job.locality,
    postal_code: job.postalCode,
    workplace_type: job.workplaceType,
    questions: job.questions,
  };
}

/** The public fields of `job` (those declared `public`), lists copied. */
export function publicJobFields(job: JobRecord): PublicJobFieldsJson {
  return {
    title: job.title,
    description: job.description,
    short_description: job.shortDescription,
    department: job.department,
    location: job.location,
    employment_type: job.employmentType,
    experience_level: job.experienceLevel,
    salary: {
      min: job.salaryMin,
      max: job.salaryMax,
      currency: job.salaryCurrency,
      period: job.salaryPeriod,
    },
    required_skills: [...job.requiredSkills],
    preferred_skills: [...job.preferredSkills],
    qualifications: [...job.qualifications],
    responsibilities: [...job.responsibilities],
    benefits: [...job.benefits],
    closing_date: job.closingDate,
    start_date: job.startDate,
    positions: job.positions,
    country: job.country,
    region: job.region,
    locality: job.locality,
    postal_code: job.postalCode,
    workplace_type: job.workplaceType,
  };
}
