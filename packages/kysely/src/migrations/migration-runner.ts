/**
 * hireport's own migration runner. It keeps the bookkeeping Kysely's `Migrator` keeps (the same two
 * tables, rows and migration lock), so that the two can run the same migrations one after the other,
 * or at once during a rolling deploy, but it uses only what the root of `kysely` exports in 0.28 and
 * 0.29 alike: the query builder and the dialect adapter's migration lock. Kysely 0.29 moved its
 * `Migrator` to `kysely/migration`, a subpath 0.28 does not have; loading it from wherever the
 * installed version keeps it takes an import a bundler cannot resolve for both versions.
 */
import { type Kysely, sql } from "kysely";
import { strategyFor } from "../dialects/detect";
import type { DialectKind } from "../dialects/types";
import type {
  HireportMigration,
  HireportMigrationProvider,
  HireportMigrationResult,
  HireportMigrationResultSet,
  HireportMigrator,
} from "./migration-types";

// biome-ignore lint/suspicious/noExplicitAny: migrations never see the app's types.
type AnyDb = Kysely<any>;

/** The one row of the lock table: the id Kysely's `Migrator` gives it. */
const LOCK_ROW_ID = "migration_lock";

export interface MigrationRunnerOptions {
  provider: HireportMigrationProvider;
  /** Holds a row (`name`, `timestamp`: ISO 8601 text) per applied migration. */
  migrationTableName: string;
  /** Holds the lock row; the lock itself is the dialect's (an advisory lock, or none). */
  migrationLockTableName: string;
  /** Postgres: the schema of the tables (`db` qualifies hireport's names with it), created when missing. */
  schema?: string | undefined;
  /** The dialect, for a third-party Kysely dialect; found from the adapter when absent. */
  dialect?: DialectKind | undefined;
}

/** What one run does: up to `steps` pending migrations up, or applied ones down. */
interface Plan {
  direction: "Up" | "Down";
  steps: number;
}

/** `migrateToLatest`, `migrateUp` and `migrateDown` over `options`' migrations and tables. */
export function createMigrationRunner(db: AnyDb, options: MigrationRunnerOptions): HireportMigrator {
  const settings = Object.freeze({ ...options });
  return Object.freeze({
    migrateToLatest: () => migrate(db, settings, { direction: "Up", steps: Number.POSITIVE_INFINITY }),
    migrateUp: () => migrate(db, settings, { direction: "Up", steps: 1 }),
    migrateDown: () => migrate(db, settings, { direction: "Down", steps: 1 }),
  });
}

/**
 * One run, as Kysely's `Migrator` runs it: the bookkeeping tables created when missing, then, on one
 * connection holding the migration lock, the applied migrations read and checked and the plan
 * applied, inside one transaction where DDL is transactional (Postgres, SQLite; MySQL commits each
 * statement). The lock is the one Kysely's `Migrator` takes: on Postgres the dialect's
 * (`lockMigrations`, on the transaction), elsewhere the adapter's, on the connection. Never throws:
 * a failed migration is `Error` in `results`, those after it `NotExecuted`, and its error is
 * `error`; a failure before any migration ran has no `results`.
 */
async function migrate(db: AnyDb, options: MigrationRunnerOptions, plan: Plan): Promise<HireportMigrationResultSet> {
  const results: HireportMigrationResult[] = [];
  let started = false;
  try {
    await ensureBookkeeping(db, options);
    const adapter = db.getExecutor().adapter;
    const { lockMigrations } = strategyFor(db, options.dialect);
    const lock = { lockTable: options.migrationLockTableName, lockRowId: LOCK_ROW_ID };
    const run = async (session: AnyDb) => {
      const steps = await planned(session, options, plan);
      started = steps.length > 0;
      await apply(session, options, steps, results);
    };
    await db.connection().execute(async (connection) => {
      if (lockMigrations && adapter.supportsTransactionalDdl) {
        await connection.transaction().execute(async (trx) => {
          await lockMigrations(trx as unknown as Kysely<unknown>);
          await run(trx);
        });
        return;
      }
      await adapter.acquireMigrationLock(connection, lock);
      try {
        if (adapter.supportsTransactionalDdl) await connection.transaction().execute(run);
        else await run(connection);
      } finally {
        await adapter.releaseMigrationLock(connection, lock);
      }
    });
    return { results };
  } catch (error) {
    return started ? { error, results } : { error };
  }
}

/** A migration of the plan, with its name. */
interface Step {
  name: string;
  migration: HireportMigration;
  direction: "Up" | "Down";
}

/**
 * The migrations a run applies, in order. The applied ones must be the first ones by name, as
 * Kysely's `Migrator` requires: a recorded name this version lacks (a newer version ran, or a
 * migration was renamed) or a new migration named before an applied one is an error, and nothing runs.
 */
async function planned(db: AnyDb, options: MigrationRunnerOptions, plan: Plan): Promise<Step[]> {
  const migrations = await options.provider.getMigrations();
  const names = Object.keys(migrations).sort();
  const rows: Array<{ name: string }> = await db.selectFrom(options.migrationTableName).select("name").execute();
  const applied = rows.map((row) => row.name).sort();
  for (const name of applied) {
    if (!Object.hasOwn(migrations, name)) {
      throw new Error(
        `hireport: the migration table ${options.migrationTableName} records the migration ${name}, which this version does not have: was a newer version deployed, or a migration renamed?`,
      );
    }
  }
  applied.forEach((name, index) => {
    if (names[index] !== name) {
      throw new Error(
        `hireport: the migration ${names[index]} is not applied but ${name}, after it by name, is: a new migration must be named after every applied one.`,
      );
    }
  });
  const step = (name: string, direction: Step["direction"]): Step => ({
    name,
    migration: migrations[name] as HireportMigration,
    direction,
  });
  if (plan.direction === "Up") {
    return names.slice(applied.length, applied.length + plan.steps).map((name) => step(name, "Up"));
  }
  return applied
    .slice(-plan.steps)
    .reverse()
    .map((name) => step(name, "Down"));
}

/**
 * Applies the steps in order, recording each in the migration table in the same session, and
 * reports each in `results`. A migration going down without a `down` stays recorded (`NotExecuted`).
 */
async function apply(db: AnyDb, options: MigrationRunnerOptions, steps: Step[], results: HireportMigrationResult[]) {
  results.push(
    ...steps.map(({ name, direction }) => ({ migrationName: name, direction, status: "NotExecuted" as const })),
  );
  for (const [index, { name, migration, direction }] of steps.entries()) {
    const result = results[index] as HireportMigrationResult;
    try {
      if (direction === "Up") {
        await migration.up(db);
        await db.insertInto(options.migrationTableName).values({ name, timestamp: new Date().toISOString() }).execute();
      } else {
        if (!migration.down) continue;
        await migration.down(db);
        await db.deleteFrom(options.migrationTableName).where("name", "=", name).execute();
      }
      result.status = "Success";
    } catch (error) {
      result.status = "Error";
      throw error;
    }
  }
}

/**
 * The migration table, the lock table and its row, as Kysely's `Migrator` creates them, each when it
 * is missing. Several processes may start at once: a creation that fails is fine when the table (or
 * row) is then found, since `if not exists` does not keep Postgres from failing on a table another
 * session creates at that moment.
 */
async function ensureBookkeeping(db: AnyDb, options: MigrationRunnerOptions): Promise<void> {
  const ifNotExists = db.getExecutor().adapter.supportsCreateIfNotExists === true;
  const { migrationTableName, migrationLockTableName } = options;
  const ensure = async (exists: () => Promise<boolean>, create: () => Promise<unknown>) => {
    if (await exists()) return;
    try {
      await create();
    } catch (error) {
      if (!(await exists())) throw error;
    }
  };
  if (options.schema !== undefined) {
    const schema = options.schema;
    await ensure(
      async () =>
        (await sql<{ found: boolean }>`select to_regnamespace(${schema}) is not null as found`.execute(db)).rows[0]
          ?.found === true,
      () => db.schema.createSchema(schema).ifNotExists().execute(),
    );
  }
  const table = (name: string) => {
    const builder = db.schema.createTable(name);
    return ifNotExists ? builder.ifNotExists() : builder;
  };
  await ensure(
    () => readable(db.selectFrom(migrationTableName).select("name").limit(1)),
    () =>
      table(migrationTableName)
        .addColumn("name", "varchar(255)", (column) => column.notNull().primaryKey())
        // When it was applied, as ISO 8601 text, as Kysely writes it.
        .addColumn("timestamp", "varchar(255)", (column) => column.notNull())
        .execute(),
  );
  await ensure(
    () => readable(db.selectFrom(migrationLockTableName).select("id").limit(1)),
    () =>
      table(migrationLockTableName)
        .addColumn("id", "varchar(255)", (column) => column.notNull().primaryKey())
        .addColumn("is_locked", "integer", (column) => column.notNull().defaultTo(0))
        .execute(),
  );
  await ensure(
    async () =>
      (await db.selectFrom(migrationLockTableName).select("id").where("id", "=", LOCK_ROW_ID).executeTakeFirst()) !==
      undefined,
    () => db.insertInto(migrationLockTableName).values({ id: LOCK_ROW_ID, is_locked: 0 }).execute(),
  );
}

/** Whether a table can be read: false when the query fails (the table is missing, or anything else). */
async function readable(query: { execute(): Promise<unknown> }): Promise<boolean> {
  try {
    await query.execute();
    return true;
  } catch {
    return false;
  }
}
