export type { DialectKind } from "./dialect";
export { type KyselyStorageOptions, kyselyStorage } from "./kysely-storage";
export {
  createHireportMigrator,
  hireportMigrationProvider,
  hireportMigrations,
  hireportMigrationTables,
  type MigrationOptions,
  type MigrationSqlOptions,
  migrateToLatest,
  migrationSql,
} from "./migrations";
export { TABLE_NAMES } from "./schema";
