export type {
  ActorColumns,
  ApplicationColumnField,
  ApplicationTableDeclaration,
  CandidateColumnField,
  CandidateTableDeclaration,
  ColumnCodec,
  ColumnSpec,
  DomainDeclaration,
  IdStyle,
  JobColumnField,
  JobTableDeclaration,
  NoteTableDeclaration,
  StageChangeTableDeclaration,
  WordColumn,
} from "./declared/declaration";
export { type DeclaredDomain, declaredDomain } from "./declared/declared-domain";
export { DeclarationError } from "./declared/errors";
export { changeTriggerSql, installChangeTriggers } from "./declared/triggers";
export type { DialectKind } from "./dialects/types";
export type { DomainErasure, DomainFactory, DomainScope } from "./domain-scope";
export { kyselyHealthChecks } from "./health-checks";
export { FILE_CHUNK_BYTES, type KyselyFileStoreOptions, kyselyFileStore } from "./kysely-file-store";
export { type KyselyStorageOptions, kyselyStorage } from "./kysely-storage";
export type {
  HireportMigration,
  HireportMigrationProvider,
  HireportMigrationResult,
  HireportMigrationResultSet,
  HireportMigrator,
} from "./migrations/migration-types";
export {
  createHireportMigrator,
  hireportMigrationProvider,
  hireportMigrations,
  hireportMigrationTables,
  migrateToLatest,
} from "./migrations/migrator";
export type { MigrationOptions, MigrationSqlOptions } from "./migrations/options";
export { installRoutines } from "./migrations/routines";
export { migrationSql } from "./migrations/sql-printer";
export { type HardenPgPoolOptions, hardenPgPool, type PgPoolClientEvents, type PgPoolEvents } from "./pg-pool";
export {
  type PgListeningClient,
  type PgNotification,
  type PgWakePool,
  type PostgresWakeUps,
  type PostgresWakeUpsOptions,
  postgresWakeUps,
} from "./pg-wake-ups";
export { TABLE_NAMES } from "./schema";
export type { ErasureRedactions } from "./stores/erasure-redactions";
