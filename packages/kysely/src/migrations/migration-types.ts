/**
 * The shapes of Kysely's migration API that hireport uses, written out: Kysely 0.28 exports them
 * from `kysely`, 0.29 from `kysely/migration`, and a package built against one must type-check
 * against both. They are structurally Kysely's own, so Kysely's values fit them and they fit
 * Kysely's parameters (a host's own `Migrator` takes `hireportMigrationProvider`).
 */
import type { Kysely } from "kysely";

// biome-ignore lint/suspicious/noExplicitAny: migrations never see the app's types.
type AnyDb = Kysely<any>;

/** One migration: Kysely's `Migration`. */
export interface HireportMigration {
  up(db: AnyDb): Promise<void>;
  down?(db: AnyDb): Promise<void>;
}

/** Kysely's `MigrationProvider`: the migrations by name. */
export interface HireportMigrationProvider {
  getMigrations(): Promise<Record<string, HireportMigration>>;
}

/** One migration run, as Kysely's `MigrationResult` reports it. */
export interface HireportMigrationResult {
  migrationName: string;
  direction: "Up" | "Down";
  status: "Success" | "Error" | "NotExecuted";
}

/** Kysely's `MigrationResultSet`: the runs, and the error that stopped them if any. */
export interface HireportMigrationResultSet {
  error?: unknown;
  results?: HireportMigrationResult[];
}

/** What `createHireportMigrator` returns: these methods of Kysely's `Migrator`, answering alike. */
export interface HireportMigrator {
  migrateToLatest(): Promise<HireportMigrationResultSet>;
  migrateUp(): Promise<HireportMigrationResultSet>;
  migrateDown(): Promise<HireportMigrationResultSet>;
}
