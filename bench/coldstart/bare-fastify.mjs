// Cold start, the bare stack behind Fastify: Fastify, Kysely on pg and zod doing what GET /me does
// (bare-me.mjs). Run by src/coldstart.ts with plain `node`, like hireport-fastify.mjs.
import Fastify from "fastify";
import { bareMe } from "./bare-me.mjs";

const imported = performance.now();
const me = bareMe(process.env.COLD_PG_URL, process.env.COLD_PREFIX);
const app = Fastify();
app.get("/api/public/v1/me", async (request, reply) => {
  const { status, body } = await me(request.headers.authorization);
  return reply.code(status).send(body);
});
await app.listen({ port: 0, host: "127.0.0.1" });
const ready = performance.now();
process.stdout.write(`listening ${app.server.address().port} ${JSON.stringify({ imported, ready })}\n`);
