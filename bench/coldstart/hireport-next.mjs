// Cold start, hireport as a Next.js route handler on a function platform: import, build the API on
// Postgres, answer one GET /me as the platform hands it (a Web Request), print the time. Run by
// src/coldstart.ts with plain `node` on the packages as built (dist).
import { createPublicApi } from "@hireport/core";
import { kyselyStorage } from "@hireport/kysely";
import { toNextHandlers } from "@hireport/next";
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
const { GET } = toNextHandlers(api);
const ready = performance.now();
const response = await GET(
  new Request("http://bench.local/api/public/v1/me", { headers: { authorization: `Bearer ${process.env.COLD_KEY}` } }),
);
await response.text();
const answered = performance.now();
process.stdout.write(`answered ${response.status} ${JSON.stringify({ imported, ready, answered })}\n`);
