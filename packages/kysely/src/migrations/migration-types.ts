/**
 * The shapes of Kysely's migration API that hireport uses, written out: Kysely 0.28 exports them
 * from `kysely`, 0.29 from `kysely/migration`, and a package built against one must type-check
 * against both. They are structurally Kysely's own, so Kysely's values fit them and they fit
 * Kysely's parameters.
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

/** The methods of Kysely's `Migrator` hireport hands out. */
export interface HireportMigrator {
  migrateToLatest(): Promise<HireportMigrationResultSet>;
  migrateUp(): Promise<HireportMigrationResultSet>;
  migrateDown(): Promise<HireportMigrationResultSet>;
}

interface MigratorConstructor {
  new (options: {
    db: AnyDb;
    provider: HireportMigrationProvider;
    migrationTableName: string;
    migrationLockTableName: string;
  }): HireportMigrator;
}

let migratorClass: Promise<MigratorConstructor> | undefined;

/**
 * Kysely's `Migrator` class, from wherever the installed Kysely keeps it: `kysely/migration` (0.29)
 * or `kysely` (0.28). The specifier is a variable so that TypeScript, built against one version,
 * does not check a path the other lacks.
 */
export function loadMigrator(): Promise<MigratorConstructor> {
  migratorClass ??= (async () => {
    const subpath = "kysely/migration";
    try {
      const module = (await import(subpath)) as { Migrator?: MigratorConstructor };
      if (typeof module.Migrator === "function") return module.Migrator;
    } catch {
      // Kysely 0.28 has no such subpath: its root exports the Migrator.
    }
    const root = (await import("kysely")) as unknown as { Migrator?: MigratorConstructor };
    if (typeof root.Migrator !== "function") {
      throw new Error("hireport: the installed Kysely exports no Migrator (from 'kysely/migration' nor 'kysely').");
    }
    return root.Migrator;
  })();
  return migratorClass;
}
