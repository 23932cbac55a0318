/**
 * `/feeds/jobs.xml`: every public job in the Indeed XML feed format (`source`, `publisher`,
 * `publisherurl`, `lastBuildDate`, then one `job` each with title, date, referencenumber, url,
 * company, city, state, country (an ISO 3166-1 alpha-2 code) and postalcode where the job's place
 * gives them, remotetype for fully remote and hybrid work, description, salary, jobtype,
 * expirationdate). Text goes in CDATA sections, as Indeed asks.
 */
import type { WorkplaceType } from "@hireport/core/schemas";
import { create } from "xmlbuilder2";
import type { JobView } from "../job-view";
import { paragraphsHtml } from "../pages/text-blocks";
import { cdataElement } from "./xml";

/** Indeed's `remotetype` values for fully remote and hybrid work (on-site work has none). */
const REMOTE_TYPES: Partial<Record<WorkplaceType, string>> = { remote: "Fully remote", hybrid: "Hybrid remote" };

/** Indeed's date format: `Tue, 10 Mar 2026 09:00:00 GMT`. */
function feedDate(date: Date): string {
  return date.toUTCString();
}

export function indeedFeed(input: { publisher: string; siteUrl: string; jobs: readonly JobView[]; now: Date }): string {
  const source = create({ version: "1.0", encoding: "UTF-8" }).ele("source");
  source.ele("publisher").txt(input.publisher);
  source.ele("publisherurl").txt(input.siteUrl);
  source.ele("lastBuildDate").txt(feedDate(input.now));
  for (const job of input.jobs) {
    const record = job.record;
    const element = source.ele("job");
    cdataElement(element, "title", job.title);
    cdataElement(element, "date", feedDate(job.postedAt));
    cdataElement(element, "referencenumber", job.reference);
    cdataElement(element, "url", job.url);
    cdataElement(element, "company", input.publisher);
    const { location } = job;
    if (location.city) cdataElement(element, "city", location.city);
    if (location.region) cdataElement(element, "state", location.region);
    if (location.country) cdataElement(element, "country", location.country);
    if (location.postalCode) cdataElement(element, "postalcode", location.postalCode);
    const remoteType = location.workplaceType ? REMOTE_TYPES[location.workplaceType] : undefined;
    if (remoteType) cdataElement(element, "remotetype", remoteType);
    cdataElement(element, "description", paragraphsHtml(record.description || record.shortDescription || job.title));
    if (job.salaryText) cdataElement(element, "salary", job.salaryText);
    if (job.indeedJobType) cdataElement(element, "jobtype", job.indeedJobType);
    if (record.department) cdataElement(element, "category", record.department);
    if (record.experienceLevel) cdataElement(element, "experience", record.experienceLevel);
    if (job.validThrough) cdataElement(element, "expirationdate", feedDate(job.validThrough));
  }
  return source.end({ prettyPrint: true });
}
