// The CV links behind each application's `resume_url`.
import { toNextFileHandler } from "@hireport/next";
import { getHireport } from "../../../../lib/hireport";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const { GET } = toNextFileHandler({
  handleFile: async (request) => (await getHireport()).api.handleFile(request),
});
