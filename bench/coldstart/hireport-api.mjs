// The API the hireport side of the cold-start bench builds: createPublicApi on kyselyStorage over pg.
import { createPublicApi } from "@hireport/core";
import { kyselyStorage } from "@hireport/kysely";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";

export function hireportApi() {
  const pool = new pg.Pool({ connectionString: process.env.COLD_PG_URL, max: 4 });
  const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  return createPublicApi({
    storage: kyselyStorage({ db, tablePrefix: process.env.COLD_PREFIX }),
    publicBaseUrl: "http://bench.local",
    fileTokenSecret: process.env.COLD_SECRET,
  });
}
