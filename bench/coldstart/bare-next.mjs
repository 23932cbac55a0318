// Cold start, the bare stack as a Next.js route handler: a Web handler doing what GET /me does
// (bare-me.mjs), answering one Web Request as the platform hands it. Run like hireport-next.mjs.
import { bareMe } from "./bare-me.mjs";

const imported = performance.now();
const me = bareMe(process.env.COLD_PG_URL, process.env.COLD_PREFIX);
async function GET(request) {
  const { status, body } = await me(request.headers.get("authorization") ?? undefined);
  return Response.json(body, { status });
}
const ready = performance.now();
const response = await GET(
  new Request("http://bench.local/api/public/v1/me", { headers: { authorization: `Bearer ${process.env.COLD_KEY}` } }),
);
await response.text();
const answered = performance.now();
process.stdout.write(`answered ${response.status} ${JSON.stringify({ imported, ready, answered })}\n`);
