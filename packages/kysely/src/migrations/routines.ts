import type { Kysely } from "kysely";
import { strategyFor } from "../dialects/detect";
import type { AnyKysely } from "../dialects/types";
import { checkSchemaOption } from "../schema-plugin";
import { DEFAULT_PREFIX, type MigrationOptions } from "./options";

/**
 * Installs the routines (stored functions) this version of @hireport/kysely calls: on Postgres
 * `{prefix}count_requests_…`, `{prefix}append_event_…` and `{prefix}create_application_…`, each
 * named with a digest of its definition; nothing on MySQL/MariaDB and SQLite. It creates only the
 * ones missing, so running it on every deploy costs one query; routines of earlier versions stay,
 * for processes of the previous version still running during a rolling deploy.
 *
 * `migrateToLatest` calls it after the migrations. Hosts that run hireport's migrations with their
 * own migrator (`hireportMigrationProvider`) call it after theirs, on every deploy. Inside a
 * transaction (`db` a Kysely transaction) it runs in it.
 */
export async function installRoutines<DB>(db: Kysely<DB>, options: MigrationOptions = {}): Promise<void> {
  const strategy = strategyFor(db, options.dialect);
  const prefix = options.tablePrefix ?? DEFAULT_PREFIX;
  if (options.schema !== undefined) checkSchemaOption(options.schema, prefix, strategy.kind);
  await strategy.installRoutines(db as unknown as AnyKysely, prefix, options.schema ?? null);
}
