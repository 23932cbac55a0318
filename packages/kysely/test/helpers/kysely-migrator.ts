/**
 * Kysely's own `Migrator` of the installed version, for the tests where a host runs hireport's
 * migrations with it: exported by `kysely` in 0.28, by `kysely/migration` in 0.29 (CI's Node 24 run).
 */
import * as kysely from "kysely";
import type { HireportMigrationProvider, HireportMigrationResultSet } from "../../src/index";
import type { AnyDb } from "./databases";

/** Kysely's `Migrator`, as much of it as the tests use. */
export interface KyselyMigrator {
  migrateTo(name: string): Promise<HireportMigrationResultSet>;
  migrateToLatest(): Promise<HireportMigrationResultSet>;
  migrateDown(): Promise<HireportMigrationResultSet>;
}

export type KyselyMigratorClass = new (options: {
  db: AnyDb;
  provider: HireportMigrationProvider;
  migrationTableName: string;
  migrationLockTableName: string;
  migrationTableSchema?: string;
}) => KyselyMigrator;

/** Kysely's `Migrator` of the installed version: from `kysely` (0.28) or `kysely/migration` (0.29). */
export async function kyselyMigratorClass(): Promise<KyselyMigratorClass> {
  const root = Reflect.get(kysely, "Migrator") as KyselyMigratorClass | undefined;
  if (root) return root;
  const subpath = "kysely/migration"; // a variable: the 0.28 types have no such module
  return ((await import(/* @vite-ignore */ subpath)) as { Migrator: KyselyMigratorClass }).Migrator;
}
