// Cold start, the bare stack as a Next.js route handler: a Web handler doing what GET /me does
// (bare-me.mjs), answering one GET /me (answer-once.mjs). Run like hireport-next.mjs.
import { answerOnce } from "./answer-once.mjs";
import { bareMe } from "./bare-me.mjs";

const imported = performance.now();
const me = bareMe(process.env.COLD_PG_URL, process.env.COLD_PREFIX);
async function GET(request) {
  const { status, body } = await me(request.headers.get("authorization") ?? undefined);
  return Response.json(body, { status });
}
await answerOnce(GET, imported, performance.now());
