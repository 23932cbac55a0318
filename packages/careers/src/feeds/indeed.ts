/**
 * `/feeds/jobs.xml`: every public job in the Indeed XML feed format (`source`, `publisher`,
 * `publisherurl`, `lastBuildDate`, then one `job` each with title, date, referencenumber, url,
 * company, city and country where the location names them, description, salary, jobtype,
 * expirationdate). Text goes in CDATA sections, as Indeed asks.
 */
import { create } from "xmlbuilder2";
import type { JobView } from "../job-view";
import { paragraphsHtml } from "../pages/text-blocks";
import { cdataElement } from "./xml";

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
    if (job.location.city) cdataElement(element, "city", job.location.city);
    if (job.location.country) cdataElement(element, "country", job.location.country);
    if (job.location.remote) cdataElement(element, "remotetype", "Fully remote");
    cdataElement(element, "description", paragraphsHtml(record.description || record.shortDescription || job.title));
    if (job.salaryText) cdataElement(element, "salary", job.salaryText);
    if (job.indeedJobType) cdataElement(element, "jobtype", job.indeedJobType);
    if (record.department) cdataElement(element, "category", record.department);
    if (record.experienceLevel) cdataElement(element, "experience", record.experienceLevel);
    if (job.validThrough) cdataElement(element, "expirationdate", feedDate(job.validThrough));
  }
  return source.end({ prettyPrint: true });
}
