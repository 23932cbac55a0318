/**
 * The readiness checks a Kysely database adds to `api.health()`: hireport's migrations are all
 * applied. Plugged in through the `health.checks` option of `createPublicApi`.
 */
import type { HealthCheck } from "@hireport/core/storage";
import type { Kysely } from "kysely";
import { hireportMigrations, hireportMigrationTables } from "./migrations/migrator";
import { DEFAULT_PREFIX, type MigrationOptions } from "./migrations/options";
import { inSchema } from "./schema-plugin";

// biome-ignore lint/suspicious/noExplicitAny: the migration table is not part of the host's types.
type AnyDb = Kysely<any>;

/**
 * Health checks of `@hireport/kysely` for the `health.checks` option of `createPublicApi`: the
 * `migrations` check reads the names in hireport's migration table (`{tablePrefix}migration`, one
 * small read) and fails, naming them, while a migration of this version is not applied (or the
 * table is missing: `migrateToLatest` never ran). It passes with `latest` (the newest migration's
 * name) and `applied` (how many are) as details. Use the `tablePrefix` and `schema` of `kyselyStorage`.
 */
export function kyselyHealthChecks<DB>(db: Kysely<DB>, options: MigrationOptions = {}): HealthCheck[] {
  const expected = Object.keys(hireportMigrations(options));
  const { migrationTableName } = hireportMigrationTables(options);
  const ours = inSchema(db as unknown as AnyDb, options.schema, options.tablePrefix ?? DEFAULT_PREFIX);
  const latest = expected.at(-1) ?? null;
  return [
    {
      name: "migrations",
      async run() {
        let applied: Set<string>;
        try {
          const rows = await ours.selectFrom(migrationTableName).select("name").execute();
          applied = new Set(rows.map((row: { name: string }) => row.name));
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new Error(
            `The migration table ${migrationTableName} cannot be read (run migrateToLatest if it never ran): ${reason}`,
            { cause: error },
          );
        }
        const pending = expected.filter((name) => !applied.has(name));
        if (pending.length > 0) {
          throw new Error(`Not applied: ${pending.join(", ")}. Run migrateToLatest.`);
        }
        return { latest, applied: applied.size };
      },
    },
  ];
}
