// Cold start, hireport behind Fastify: import, build the API on Postgres, listen, answer the parent's
// first GET /me. Run by src/coldstart.ts with plain `node` on the packages as built (dist).
import { hireportFastify } from "@hireport/fastify";
import Fastify from "fastify";
import { hireportApi } from "./hireport-api.mjs";

const imported = performance.now();
const app = Fastify();
await app.register(hireportFastify, { api: hireportApi(), prefix: "/api/public/v1" });
await app.listen({ port: 0, host: "127.0.0.1" });
const ready = performance.now();
process.stdout.write(`listening ${app.server.address().port} ${JSON.stringify({ imported, ready })}\n`);
