// One webhook dispatcher pass per call, for hosts without a long-lived process (Vercel Cron calls
// GET with `Authorization: Bearer $CRON_SECRET`; see vercel.json).
import { toNextCronHandler } from "@hireport/next";
import { getHireport } from "../../../../lib/hireport";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const { GET, POST } = toNextCronHandler({
  dispatcher: { runOnce: async () => (await getHireport()).dispatcher.runOnce() },
  secret: process.env.CRON_SECRET,
});
