/**
 * A public job as the careers site shows it: the stored record with what the pages, the feeds and
 * the structured data derive from it (its addresses, where it is, its type of work, its pay), in
 * one place so that each of them says the same.
 */
import type { HostPublicJobs, JobRecord } from "@hireport/core";
import { type SalaryUnit, salaryTextOf, salaryUnitOf } from "./pay";
import { type JobPlace, jobPlace } from "./place";

/** Google's `employmentType` values. */
export type EmploymentType =
  | "FULL_TIME"
  | "PART_TIME"
  | "CONTRACTOR"
  | "TEMPORARY"
  | "INTERN"
  | "VOLUNTEER"
  | "PER_DIEM"
  | "OTHER";

const EMPLOYMENT_TYPES: Record<string, EmploymentType> = {
  full_time: "FULL_TIME",
  fulltime: "FULL_TIME",
  permanent: "FULL_TIME",
  part_time: "PART_TIME",
  parttime: "PART_TIME",
  contract: "CONTRACTOR",
  contractor: "CONTRACTOR",
  freelance: "CONTRACTOR",
  temporary: "TEMPORARY",
  temp: "TEMPORARY",
  fixed_term: "TEMPORARY",
  intern: "INTERN",
  internship: "INTERN",
  volunteer: "VOLUNTEER",
  per_diem: "PER_DIEM",
  other: "OTHER",
};

const EMPLOYMENT_LABELS: Record<EmploymentType, string> = {
  FULL_TIME: "Full time",
  PART_TIME: "Part time",
  CONTRACTOR: "Contract",
  TEMPORARY: "Temporary",
  INTERN: "Internship",
  VOLUNTEER: "Volunteer",
  PER_DIEM: "Per diem",
  OTHER: "Other",
};

/** Indeed's `jobtype` values for Google's types (Indeed has no volunteer, per-diem or other). */
const INDEED_JOB_TYPES: Partial<Record<EmploymentType, string>> = {
  FULL_TIME: "fulltime",
  PART_TIME: "parttime",
  CONTRACTOR: "contract",
  TEMPORARY: "temporary",
  INTERN: "internship",
};

export interface JobView {
  record: JobRecord;
  id: string;
  reference: string;
  title: string;
  /** The job's page: an absolute address (`public_url`). */
  url: string;
  /** The job's page, as a link within the site (from the mount). */
  href: string;
  /** Where the apply form posts, within the site. */
  applyHref: string;
  /** When it was first public (`datePosted`). */
  postedAt: Date;
  /** When it stops being public (the end of its closing day in the company's time zone), or null. */
  validThrough: Date | null;
  /** Where it is: its place parts, else what its free-text location names; the country an ISO 3166-1 alpha-2 code. */
  location: JobPlace;
  employmentType: EmploymentType | null;
  /** A reader's words for the type of work (`Full time`), or the stored text. */
  employmentLabel: string;
  indeedJobType: string | null;
  /** The pay in words (`£50,000 – £70,000 a year`, `£12.50 – £14.00 an hour`), or null when no figure is set. */
  salaryText: string | null;
  /** schema.org's `unitText` of the pay's period, or null for a period the site does not know. */
  salaryUnit: SalaryUnit | null;
}

/** Google's type of work for the stored `employment_type` (`full_time`, `Part-time`…), or null. */
export function employmentTypeOf(text: string): EmploymentType | null {
  const key = text
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  return EMPLOYMENT_TYPES[key] ?? null;
}

/** What a job view reads of the public-job rule: `api.publicJobs`. */
export type PublicJobAddresses = Pick<HostPublicJobs, "url" | "siteUrl" | "validThrough">;

/**
 * A public job as the site shows it. `publicJobs` is `api.publicJobs`; `base` is the link root of
 * the company's pages (the mount and the company's path segment); `lang` is the language the pay's
 * figures are formatted in and the country is named in (the theme's `lang`); `defaultCountry` is the
 * company's country for a job whose place names none (the `defaultCountry` option).
 */
export function jobView(
  publicJobs: PublicJobAddresses,
  job: JobRecord,
  base: string,
  lang = "en",
  defaultCountry: string | null = null,
): JobView {
  const employmentType = employmentTypeOf(job.employmentType);
  const href = `${base}/jobs/${encodeURIComponent(job.id)}`;
  // Formatting money makes an Intl formatter: only for the pages and feeds that show it.
  let salaryText: string | null | undefined;
  return {
    record: job,
    id: job.id,
    reference: job.reference,
    title: job.title,
    url: publicJobs.url(job) ?? `${publicJobs.siteUrl(job.companyId)}/jobs/${encodeURIComponent(job.id)}`,
    href,
    applyHref: `${href}/apply`,
    postedAt: job.publishedAt ?? job.createdAt,
    validThrough: publicJobs.validThrough(job),
    location: jobPlace(job, lang, defaultCountry),
    employmentType,
    employmentLabel: employmentType ? EMPLOYMENT_LABELS[employmentType] : job.employmentType,
    indeedJobType: employmentType ? (INDEED_JOB_TYPES[employmentType] ?? null) : null,
    get salaryText() {
      if (salaryText === undefined) salaryText = salaryTextOf(job, lang);
      return salaryText;
    },
    salaryUnit: salaryUnitOf(job.salaryPeriod),
  };
}
