/**
 * The host's app: its own tables for openings, candidates and candidacies behind hireport's public
 * API, served with Fastify.
 *
 *   pnpm --filter @hireport-examples/own-tables start
 *
 * Environment: PORT (default 3000); DATABASE_URL (a Postgres address) or, without it, the SQLite
 * file OWN_TABLES_DB (default ./.data/own-tables.sqlite beside this example).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createPublicApi, type Scope } from "@hireport/core";
import { installChangeTriggers, kyselyStorage, migrateToLatest } from "@hireport/kysely";
import Database from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { domain } from "./domain";
import { type HostDatabase, migrateHostTables } from "./schema";
import { serve } from "./server";

const COMPANY = { id: "org_acme", name: "Acme Ltd" };
const ALL_SCOPES: Scope[] = ["jobs:read", "jobs:write", "applications:read", "applications:write"];

function openDatabase(): { db: Kysely<HostDatabase>; dialect: "postgres" | "sqlite"; where: string } {
  const url = process.env.DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url });
    return { db: new Kysely({ dialect: new PostgresDialect({ pool }) }), dialect: "postgres", where: url };
  }
  const here = dirname(fileURLToPath(import.meta.url));
  const file = process.env.OWN_TABLES_DB ?? join(here, "..", ".data", "own-tables.sqlite");
  mkdirSync(dirname(file), { recursive: true });
  return {
    db: new Kysely({ dialect: new SqliteDialect({ database: new Database(file) }) }),
    dialect: "sqlite",
    where: file,
  };
}

async function main(): Promise<void> {
  const { db, dialect, where } = openDatabase();
  // The host's migration for its own tables, then hireport's infrastructure tables beside them.
  await migrateHostTables(db as Kysely<unknown>, dialect);
  // `domainTables: false`: jobs and applications are the product's tables, so hireport makes none of its own.
  const migration = await migrateToLatest(db, { domainTables: false });
  if (migration.error) throw migration.error;
  // Updates made in the product's own screens that forget `updatedAt` still move it (and reach partners).
  await installChangeTriggers(db, domain);

  const port = Number(process.env.PORT ?? 3000);
  const api = createPublicApi({
    storage: kyselyStorage({ db, domain }),
    publicBaseUrl: `http://localhost:${port}`,
    // A new secret each start: CV links and cursors of an earlier run stop working, fine for a demo.
    fileTokenSecret: randomBytes(32).toString("base64url"),
  });
  await api.companies.upsert(COMPANY);
  const existing = await api.jobs.list(COMPANY.id, { limit: 1 });
  if (existing.data.length === 0) {
    await api.jobs.create(COMPANY.id, { title: "Backend Engineer", status: "active", location: "Leeds" });
  }
  const { key } = await api.keys.create({
    companyId: COMPANY.id,
    name: `Demo key ${new Date().toISOString()}`,
    scopes: ALL_SCOPES,
  });

  // Changes made in the product's own screens, scripts or SQL become events too.
  api.changes.start();
  const app = await serve(api);
  await app.listen({ port, host: "127.0.0.1" });
  const log = (line: string) => process.stdout.write(`${line}\n`);
  log(`Listening on http://localhost:${port}/api/public/v1 (${dialect}: ${where})`);
  log(`API key: ${key}`);
  log(`  curl -H "Authorization: Bearer ${key}" http://localhost:${port}/api/public/v1/jobs`);
  log("Jobs and applications land in the tables openings, candidates, candidacies, pipeline_moves, recruiter_notes.");
  log("Changes made to those tables by other code (plain SQL too) are announced as events within seconds.");

  const stop = async () => {
    await app.close();
    await api.close();
    await db.destroy();
  };
  process.once("SIGINT", () => void stop());
  process.once("SIGTERM", () => void stop());
}

await main();
