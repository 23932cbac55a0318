/** `/feeds/jobs.rss`: every public job as an RSS 2.0 item; its `guid` is the job's page (a permalink). */
import { create } from "xmlbuilder2";
import type { JobView } from "../job-view";
import { xmlSafe } from "./xml";

export function rssFeed(input: { title: string; siteUrl: string; jobs: readonly JobView[]; now: Date }): string {
  const rss = create({ version: "1.0", encoding: "UTF-8" }).ele("rss", { version: "2.0" });
  const channel = rss.ele("channel");
  channel.ele("title").txt(xmlSafe(`Jobs at ${input.title}`));
  channel.ele("link").txt(`${input.siteUrl}/jobs`);
  channel.ele("description").txt(xmlSafe(`Open jobs at ${input.title}`));
  channel.ele("lastBuildDate").txt(input.now.toUTCString());
  for (const job of input.jobs) {
    const record = job.record;
    const item = channel.ele("item");
    item.ele("title").txt(xmlSafe(job.title));
    item.ele("link").txt(job.url);
    item.ele("guid", { isPermaLink: "true" }).txt(job.url);
    item.ele("pubDate").txt(job.postedAt.toUTCString());
    const summary = [job.location.words, job.employmentLabel, job.salaryText, record.shortDescription]
      .filter(Boolean)
      .join(" · ");
    item.ele("description").txt(xmlSafe(summary || job.title));
    if (record.department) item.ele("category").txt(xmlSafe(record.department));
  }
  return rss.end({ prettyPrint: true });
}
