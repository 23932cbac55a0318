// The whole public API (and /openapi.json) behind one catch-all route.
import { toNextHandlers } from "@hireport/next";
import { getHireport } from "../../../../../lib/hireport";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const { GET, POST, PATCH } = toNextHandlers({
  fetch: async (request, context) => (await getHireport()).api.fetch(request, context),
});
