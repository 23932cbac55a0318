/** `/jobs.json`: the public job list as JSON, with no personal data (open to any origin). */
import type { JobView } from "./job-view";

/** One public job as `/jobs.json` gives it. */
export interface PublicJobJson {
  id: string;
  reference: string;
  title: string;
  /** The job's page (its `public_url`). */
  url: string;
  /** Where its application form posts. */
  apply_url: string;
  department: string;
  location: string;
  remote: boolean;
  employment_type: string;
  experience_level: string;
  salary: { min: number | null; max: number | null; currency: string; period: string };
  short_description: string;
  description: string;
  required_skills: string[];
  preferred_skills: string[];
  qualifications: string[];
  responsibilities: string[];
  benefits: string[];
  closing_date: string | null;
  start_date: string | null;
  positions: number | null;
  posted_at: string;
  updated_at: string;
  valid_through: string | null;
}

export function publicJobJson(job: JobView): PublicJobJson {
  const record = job.record;
  return {
    id: job.id,
    reference: job.reference,
    title: job.title,
    url: job.url,
    apply_url: `${job.url}/apply`,
    department: record.department,
    location: record.location,
    remote: job.location.remote,
    employment_type: record.employmentType,
    experience_level: record.experienceLevel,
    salary: {
      min: record.salaryMin,
      max: record.salaryMax,
      currency: record.salaryCurrency,
      period: record.salaryPeriod,
    },
    short_description: record.shortDescription,
    description: record.description,
    required_skills: [...record.requiredSkills],
    preferred_skills: [...record.preferredSkills],
    qualifications: [...record.qualifications],
    responsibilities: [...record.responsibilities],
    benefits: [...record.benefits],
    closing_date: record.closingDate,
    start_date: record.startDate,
    positions: record.positions,
    posted_at: job.postedAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
    valid_through: job.validThrough?.toISOString() ?? null,
  };
}
