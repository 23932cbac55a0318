// Cold start, hireport behind Fastify: import, build the API on Postgres, listen, answer the parent's
// first GET /me. Run by src/coldstart.ts with plain `node` on the packages as built (dist).
import { createPublicApi } from "@hireport/core";
import { hireportFastify } from "@hireport/fastify";
import { kyselyStorage } from "@hireport/kysely";
import Fastify from "fastify";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";

const imported = performance.now();
const db = new Kysely({
  dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: process.env.COLD_PG_URL, max: 4 }) }),
});
const api = createPublicApi({
  storage: kyselyStorage({ db, tablePrefix: process.env.COLD_PREFIX }),
  publicBaseUrl: "http://bench.local",
  fileTokenSecret: process.env.COLD_SECRET,
});
const app = Fastify();
await app.register(hireportFastify, { api, prefix: "/api/public/v1" });
await app.listen({ port: 0, host: "127.0.0.1" });
const ready = performance.now();
process.stdout.write(`listening ${app.server.address().port} ${JSON.stringify({ imported, ready })}\n`);
