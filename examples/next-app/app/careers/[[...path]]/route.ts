// The careers site under /careers: /careers/jobs, the job pages, apply, the feeds and the sitemap.
import { toNextHandlers } from "@hireport/next";
import { getHireport } from "../../../lib/hireport";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, OPTIONS } = toNextHandlers({
  fetch: async (request, context) => (await getHireport()).careers.fetch(request, context),
});
