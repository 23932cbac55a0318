/**
 * hireport's migrations, as code held in memory (no folder is read at run time, so they survive
 * bundling), and the helpers that run them. The migrations hold the schema (tables and indexes);
 * the routines the storage calls on Postgres are installed after them (`installRoutines`). They run
 * on hireport's own runner (`migration-runner.ts`), which loads nothing at run time either.
 */
import { JOB_FIELDS } from "@hireport/core/storage";
import type { Kysely } from "kysely";
import { strategyFor } from "../dialects/detect";
import type { DialectKind } from "../dialects/types";
import { checkSchemaOption, inSchema } from "../schema-plugin";
import { addFieldColumnMigration } from "./add-field-column";
import { applicationAnswersMigration } from "./application-answers";
import { attemptEndpointTimeIndexMigration } from "./attempt-endpoint-time-index";
import { changePositionMigration } from "./change-position";
import { deliveryDuePendingMigration } from "./delivery-due-pending";
import { endpointDeliveryOrderMigration } from "./endpoint-delivery-order";
import { endpointSignatureSchemeMigration } from "./endpoint-signature-scheme";
import { eventFeedPositionMigration } from "./event-feed-position";
import { initialMigration } from "./initial";
import { jobIndexMigration } from "./job-index";
import { createMigrationRunner } from "./migration-runner";
import type {
  HireportMigration,
  HireportMigrationProvider,
  HireportMigrationResultSet,
  HireportMigrator,
} from "./migration-types";
import { DEFAULT_PREFIX, type MigrationOptions } from "./options";
import { installRoutines } from "./routines";

// biome-ignore lint/suspicious/noExplicitAny: migrations never see the app's types.
type AnyDb = Kysely<any>;

/** The migrations of hireport, by name, in order. */
export function hireportMigrations(options: MigrationOptions = {}): Record<string, HireportMigration> {
  const prefix = options.tablePrefix ?? DEFAULT_PREFIX;
  const migrations = allMigrations(prefix, options.dialect, options.domainTables ?? true);
  const { schema } = options;
  if (schema === undefined) return migrations;
  return Object.fromEntries(
    Object.entries(migrations).map(([name, migration], index) => [
      name,
      inSchemaMigration(migration, { schema, prefix, dialect: options.dialect, createSchema: index === 0 }),
    ]),
  );
}

/**
 * A migration run with hireport's names in `schema`; the first one creates the schema when it is
 * missing (a host's own `Migrator` runs the migrations without hireport's runner).
 */
function inSchemaMigration(
  migration: HireportMigration,
  names: { schema: string; prefix: string; dialect: DialectKind | undefined; createSchema: boolean },
): HireportMigration {
  const on = async (db: AnyDb) => {
    checkSchemaOption(names.schema, names.prefix, strategyFor(db, names.dialect).kind);
    if (names.createSchema) await db.schema.createSchema(names.schema).ifNotExists().execute();
    return inSchema(db, names.schema, names.prefix);
  };
  const down = migration.down;
  return {
    up: async (db) => migration.up(await on(db)),
    ...(down ? { down: async (db: AnyDb) => down(await on(db)) } : {}),
  };
}

/** A migration recorded as applied that does nothing (one of the domain tables', with `domainTables: false`). */
const NOTHING: HireportMigration = { up: async () => undefined, down: async () => undefined };

function allMigrations(
  prefix: string,
  dialect: DialectKind | undefined,
  domainTables: boolean,
): Record<string, HireportMigration> {
  const options = { dialect };
  const domain = (migration: HireportMigration) => (domainTables ? migration : NOTHING);
  return {
    "2026-11-21-0001-initial": initialMigration(prefix, options.dialect, domainTables),
    "2026-11-27-0002-endpoint-signature-scheme": endpointSignatureSchemeMigration(prefix, options.dialect),
    "2026-11-27-0003-job-index": jobIndexMigration(prefix, options.dialect),
    "2026-11-27-0004-endpoint-delivery-order": endpointDeliveryOrderMigration(prefix, options.dialect),
    // The place of a job in parts: country, region, locality, postal code, workplace type.
    "2026-11-27-0005-job-country": domain(addFieldColumnMigration(prefix, options.dialect, "job", JOB_FIELDS.country)),
    "2026-11-27-0006-job-region": domain(addFieldColumnMigration(prefix, options.dialect, "job", JOB_FIELDS.region)),
    "2026-11-27-0007-job-locality": domain(
      addFieldColumnMigration(prefix, options.dialect, "job", JOB_FIELDS.locality),
    ),
    "2026-11-27-0008-job-postal-code": domain(
      addFieldColumnMigration(prefix, options.dialect, "job", JOB_FIELDS.postalCode),
    ),
    "2026-11-27-0009-job-workplace-type": domain(
      addFieldColumnMigration(prefix, options.dialect, "job", JOB_FIELDS.workplaceType),
    ),
    "2026-11-27-0010-attempt-endpoint-time-index": attemptEndpointTimeIndexMigration(prefix, options.dialect),
    // Application questions: a job's questions, and the answers stored with each application.
    "2026-11-27-0011-job-questions": domain(
      addFieldColumnMigration(prefix, options.dialect, "job", JOB_FIELDS.questions),
    ),
    "2026-11-27-0012-application-answers": domain(applicationAnswersMigration(prefix, options.dialect)),
    "2026-11-28-0013-delivery-due-pending": deliveryDuePendingMigration(prefix, options.dialect),
    // The events feed (GET /events): each event's position, given in commit order after its commit.
    "2026-12-08-0014-event-feed-position": eventFeedPositionMigration(prefix, options.dialect),
    "2026-12-08-0015-change-position": changePositionMigration(prefix, options.dialect),
  };
}

/** A `MigrationProvider` holding hireport's migrations in memory, for a host's own `Migrator`. */
export function hireportMigrationProvider(options: MigrationOptions = {}): HireportMigrationProvider {
  const migrations = hireportMigrations(options);
  return { getMigrations: async () => migrations };
}

/**
 * The names of hireport's migration table and its lock table for a prefix, and their schema when
 * there is one: the options of a Kysely `Migrator` running `hireportMigrationProvider`.
 */
export function hireportMigrationTables(options: Pick<MigrationOptions, "tablePrefix" | "schema"> = {}): {
  migrationTableName: string;
  migrationLockTableName: string;
  migrationTableSchema?: string;
} {
  const prefix = options.tablePrefix ?? DEFAULT_PREFIX;
  return {
    migrationTableName: `${prefix}migration`,
    migrationLockTableName: `${prefix}migration_lock`,
    ...(options.schema === undefined ? {} : { migrationTableSchema: options.schema }),
  };
}

/**
 * A migrator for hireport's migrations, with hireport's own migration tables (for `migrateDown` and
 * the like). It keeps the tables, rows and lock of a Kysely `Migrator` given
 * `hireportMigrationProvider` and `hireportMigrationTables`, so either runs after the other, but it
 * needs nothing of Kysely beyond its root export, the same in 0.28 and 0.29 (whose `Migrator` moved
 * to `kysely/migration`): a bundler has no import to follow. Async for the signature it always had.
 */
export async function createHireportMigrator<DB>(
  db: Kysely<DB>,
  options: MigrationOptions = {},
): Promise<HireportMigrator> {
  const prefix = options.tablePrefix ?? DEFAULT_PREFIX;
  const { migrationTableName, migrationLockTableName } = hireportMigrationTables(options);
  if (options.schema !== undefined) {
    checkSchemaOption(options.schema, prefix, strategyFor(db, options.dialect).kind);
  }
  return createMigrationRunner(inSchema(db as unknown as AnyDb, options.schema, prefix), {
    provider: hireportMigrationProvider(options),
    migrationTableName,
    migrationLockTableName,
    schema: options.schema,
    dialect: options.dialect,
  });
}

/** Tries of a migration run that fails before any migration ran. */
const MIGRATE_TRIES = 4;

/**
 * Runs every pending hireport migration, then installs this version's routines (`installRoutines`):
 * what a host runs on every deploy, before serving. Never throws: the outcome, error included, is
 * in the returned result set (`{ error, results }`), as with Kysely's own `migrateToLatest`; a
 * failed routine installation is the `error` of a result set whose migrations succeeded.
 *
 * A run that fails before any migration ran (no `results`: creating the migration tables, taking the
 * lock, reading the applied migrations) is tried again, up to 4 times: nothing was applied then, so
 * trying again is safe, and a connection lost at that moment does not fail a deploy. (Kysely's own
 * migrator, which hireport used before, read the list of every table first, which fails on Postgres
 * when another table is dropped at that moment: kysely-org/kysely#1313.) A failing migration itself
 * is never retried.
 */
export async function migrateToLatest<DB>(
  db: Kysely<DB>,
  options: MigrationOptions = {},
): Promise<HireportMigrationResultSet> {
  let outcome: HireportMigrationResultSet = { error: new Error("hireport: the migrations did not run") };
  for (let attempt = 1; attempt <= MIGRATE_TRIES; attempt++) {
    try {
      outcome = await (await createHireportMigrator(db, options)).migrateToLatest();
    } catch (error) {
      outcome = { error };
    }
    if (outcome.error === undefined || outcome.results !== undefined) break;
    if (attempt < MIGRATE_TRIES) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
  }
  if (outcome.error !== undefined) return outcome;
  try {
    await installRoutines(db, options);
  } catch (error) {
    return { ...outcome, error };
  }
  return outcome;
}
