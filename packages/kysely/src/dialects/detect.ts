/**
 * The one place that chooses a dialect's strategy, for the storage and the migrations alike: the
 * explicit `dialect` option when given, else the Kysely instance's adapter.
 */
import { type Kysely, MysqlAdapter, PostgresAdapter, SqliteAdapter } from "kysely";
import { mysqlStrategy } from "./mysql";
import { postgresStrategy } from "./postgres";
import { sqliteStrategy } from "./sqlite";
import type { DialectKind, DialectStrategy } from "./types";

const STRATEGIES: Readonly<Record<DialectKind, DialectStrategy>> = {
  postgres: postgresStrategy,
  mysql: mysqlStrategy,
  sqlite: sqliteStrategy,
};

const KINDS = Object.keys(STRATEGIES).map((kind) => `"${kind}"`);

/** The strategy of a dialect named by the `dialect` option (or `migrationSql`'s argument). */
export function strategyOf(kind: DialectKind): DialectStrategy {
  const strategy = Object.hasOwn(STRATEGIES, kind) ? STRATEGIES[kind] : undefined;
  if (!strategy) {
    throw new Error(
      `@hireport/kysely: unknown dialect ${JSON.stringify(kind)}: the \`dialect\` option takes ${KINDS.join(", ")}.`,
    );
  }
  return strategy;
}

/**
 * The dialect of a Kysely instance, from its adapter: Kysely's own adapters (and adapters that
 * extend them, as most third-party dialects' do). Any other adapter is an error that names the
 * `dialect` option: a wrong guess would write dates, booleans and locks the wrong way.
 */
export function detectDialect<DB>(db: Kysely<DB>): DialectKind {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof PostgresAdapter) return "postgres";
  if (adapter instanceof MysqlAdapter) return "mysql";
  if (adapter instanceof SqliteAdapter) return "sqlite";
  throw new Error(
    `@hireport/kysely cannot tell the SQL dialect of the Kysely adapter ${adapter.constructor.name}: pass the \`dialect\` option (${KINDS.join(", ")}) to kyselyStorage, migrateToLatest and installRoutines.`,
  );
}

/** The strategy of a Kysely instance: the `dialect` option's when given, else the detected one. */
export function strategyFor<DB>(db: Kysely<DB>, dialect?: DialectKind): DialectStrategy {
  return strategyOf(dialect ?? detectDialect(db));
}
