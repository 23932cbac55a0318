/**
 * The company's jobs with each search engine's last notice (the `indexing` option), for owners and
 * admins: when it was sent, what it said, and what the service answered.
 */
import type { Call } from "../call";
import { canChange } from "../options";
import { IndexingPage } from "../pages/indexing-page";

const PAGE_SIZE = 50;

export async function showIndexing(call: Call) {
  const { indexing } = call.options;
  const ctx = await call.page();
  if (indexing === null) return call.render(<IndexingPage ctx={ctx} state="off" />, 404);
  if (!canChange(call.principal)) return call.render(<IndexingPage ctx={ctx} state="forbidden" />, 403);
  const cursor = call.query.get("cursor") ?? undefined;
  const page = await call.options.api.jobs.list(call.companyId, { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) });
  const notices = await indexing.notices(
    call.companyId,
    page.data.map((job) => job.id),
  );
  const rows = page.data.map((job) => ({
    job,
    isPublic: call.options.api.publicJobs.isPublic(job),
    notices: notices.filter((notice) => notice.jobId === job.id),
  }));
  return call.render(
    <IndexingPage ctx={ctx} state="shown" services={indexing.services} rows={rows} nextCursor={page.nextCursor} />,
  );
}
