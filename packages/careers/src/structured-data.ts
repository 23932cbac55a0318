/**
 * The schema.org `JobPosting` of a job page, with every property Google requires for job postings
 * (title, description, datePosted, hiringOrganization, jobLocation or jobLocationType TELECOMMUTE)
 * and the recommended ones hireport has (validThrough, employmentType, baseSalary, identifier,
 * directApply), plus schema.org's own (skills, qualifications, responsibilities, jobBenefits,
 * totalJobOpenings, jobStartDate). Only public jobs' pages carry it. Countries are ISO 3166-1
 * alpha-2 codes (`addressCountry`, `applicantLocationRequirements`), never names.
 */
import type { JobView } from "./job-view";
import type { ResolvedTheme } from "./options";
import { paragraphsHtml } from "./pages/text-blocks";
import { currencyCodeOf } from "./pay";

export type JsonLd = Record<string, unknown>;

function absolute(url: string | null, siteUrl: string): string | null {
  if (!url) return null;
  if (url.startsWith("/")) return `${new URL(siteUrl).origin}${url}`;
  return url;
}

export function jobPosting(job: JobView, theme: ResolvedTheme, siteUrl: string): JsonLd {
  const record = job.record;
  const organization: JsonLd = { "@type": "Organization", name: theme.name, sameAs: siteUrl };
  const logo = absolute(theme.logoUrl, siteUrl);
  if (logo) organization.logo = logo;
  const posting: JsonLd = {
    "@context": "https://schema.org/",
    "@type": "JobPosting",
    title: job.title,
    description: paragraphsHtml(record.description || record.shortDescription || job.title),
    datePosted: job.postedAt.toISOString(),
    hiringOrganization: organization,
    identifier: { "@type": "PropertyValue", name: theme.name, value: job.reference },
    directApply: true,
    url: job.url,
  };
  if (job.validThrough) posting.validThrough = job.validThrough.toISOString();
  if (job.employmentType) posting.employmentType = job.employmentType;
  const { location } = job;
  // TELECOMMUTE is for fully remote work only (Google's rule): a hybrid job gives its address.
  if (location.remote) {
    posting.jobLocationType = "TELECOMMUTE";
    if (location.country) posting.applicantLocationRequirements = { "@type": "Country", name: location.country };
  } else {
    const address: JsonLd = { "@type": "PostalAddress" };
    if (location.city) address.addressLocality = location.city;
    if (location.region) address.addressRegion = location.region;
    if (location.postalCode) address.postalCode = location.postalCode;
    if (location.country) address.addressCountry = location.country;
    if (Object.keys(address).length > 1) posting.jobLocation = { "@type": "Place", address };
  }
  // Google reads baseSalary only with an ISO 4217 currency: with another (`£`, `pounds`) there is none.
  const currency = currencyCodeOf(record.salaryCurrency);
  if (currency && (record.salaryMin !== null || record.salaryMax !== null)) {
    const value: JsonLd = { "@type": "QuantitativeValue" };
    if (record.salaryMin !== null && record.salaryMax !== null && record.salaryMin !== record.salaryMax) {
      value.minValue = record.salaryMin;
      value.maxValue = record.salaryMax;
    } else value.value = record.salaryMin ?? record.salaryMax;
    if (job.salaryUnit) value.unitText = job.salaryUnit;
    posting.baseSalary = { "@type": "MonetaryAmount", currency, value };
  }
  if (record.requiredSkills.length > 0) posting.skills = record.requiredSkills.join(", ");
  if (record.qualifications.length > 0) posting.qualifications = record.qualifications.join("\n");
  if (record.responsibilities.length > 0) posting.responsibilities = record.responsibilities.join("\n");
  if (record.benefits.length > 0) posting.jobBenefits = record.benefits.join("\n");
  if (record.experienceLevel) posting.experienceRequirements = record.experienceLevel;
  if (record.positions !== null) posting.totalJobOpenings = record.positions;
  if (record.startDate) posting.jobStartDate = record.startDate;
  return posting;
}

/**
 * JSON for a `<script type="application/ld+json">` block: `<`, `>`, `&` and the two line
 * separators escaped, so that no text of a job can close the script element or break the page.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
