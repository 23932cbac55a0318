/**
 * Runs hireport's pending migrations, then exits: a step of the deploy, run once before the app
 * processes start, so that several app processes never race to migrate the same database.
 *
 *   pnpm migrate
 */
import { setTimeout as sleep } from "node:timers/promises";
import { migrateToLatest } from "@hireport/kysely";
import type { MigrationResultSet } from "kysely";
import { createDb, loadConfig } from "./config";

const ATTEMPTS = 5;

async function main(): Promise<void> {
  const config = loadConfig();
  const db = createDb(config, 1);
  try {
    let outcome: MigrationResultSet;
    for (let attempt = 1; ; attempt++) {
      outcome = await migrateToLatest(db, { tablePrefix: config.tablePrefix });
      // Kysely's Migrator looks for its own tables by introspecting every table of the database; a
      // table dropped by someone else at that moment fails the run before any migration started
      // ("relation … does not exist"). Nothing was applied then, so it is safe to try again.
      if (!outcome.error || (outcome.results?.length ?? 0) > 0 || attempt === ATTEMPTS) break;
      console.warn(`migration attempt ${attempt} failed before running anything, retrying: ${String(outcome.error)}`);
      await sleep(250 * attempt);
    }
    const { error, results } = outcome;
    for (const result of results ?? []) console.log(`${result.status.padEnd(8)} ${result.migrationName}`);
    if (error) throw error;
    console.log(
      results?.length
        ? `migrated ${results.length} step(s) with table prefix ${config.tablePrefix}`
        : `already up to date (table prefix ${config.tablePrefix})`,
    );
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error("migration failed:", error);
  process.exit(1);
});
