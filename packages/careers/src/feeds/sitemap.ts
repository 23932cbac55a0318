/** `/sitemap.xml`: the jobs list and every public job's page, each with its `lastmod`. */
import { create } from "xmlbuilder2";
import type { JobView } from "../job-view";

export function sitemap(input: { siteUrl: string; jobs: readonly JobView[] }): string {
  const urlset = create({ version: "1.0", encoding: "UTF-8" }).ele("urlset", {
    xmlns: "http://www.sitemaps.org/schemas/sitemap/0.9",
  });
  const newest = input.jobs.reduce<Date | null>(
    (latest, job) => (latest === null || job.record.updatedAt > latest ? job.record.updatedAt : latest),
    null,
  );
  const list = urlset.ele("url");
  list.ele("loc").txt(`${input.siteUrl}/jobs`);
  if (newest) list.ele("lastmod").txt(newest.toISOString());
  for (const job of input.jobs) {
    const url = urlset.ele("url");
    url.ele("loc").txt(job.url);
    url.ele("lastmod").txt(job.record.updatedAt.toISOString());
  }
  return urlset.end({ prettyPrint: true });
}
