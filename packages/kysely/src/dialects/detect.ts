/**
 * The one place that chooses a dialect's strategy, for the storage and the migrations alike: the
 * explicit `dialect` option when given, else the Kysely instance's adapter (see `detectDialect`).
 */
import { type DialectAdapter, type Kysely, MysqlAdapter, PostgresAdapter, SqliteAdapter } from "kysely";
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
 * Kysely's own adapters by class name, with the `supportsReturning` each reports: how an adapter
 * made by another copy of Kysely is recognised (see {@link detectDialect}).
 */
const KYSELY_ADAPTERS: Readonly<Record<string, { kind: DialectKind; supportsReturning: boolean }>> = {
  PostgresAdapter: { kind: "postgres", supportsReturning: true },
  MysqlAdapter: { kind: "mysql", supportsReturning: false },
  SqliteAdapter: { kind: "sqlite", supportsReturning: true },
};

/**
 * The dialect of an adapter of another copy of Kysely (a host that loads both its ES module and its
 * CommonJS build, or two versions), where `instanceof` fails: the nearest class in its prototype
 * chain named as one of Kysely's adapters decides, and its `supportsReturning` must be the one that
 * adapter reports (so a class that merely shares the name is not taken for it). Undefined otherwise.
 */
function dialectByName(adapter: DialectAdapter): DialectKind | undefined {
  for (
    let prototype: unknown = Object.getPrototypeOf(adapter);
    prototype !== null && prototype !== Object.prototype;
    prototype = Object.getPrototypeOf(prototype)
  ) {
    const name: unknown = (prototype as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name !== "string" || !Object.hasOwn(KYSELY_ADAPTERS, name)) continue;
    const known = KYSELY_ADAPTERS[name];
    return known && adapter.supportsReturning === known.supportsReturning ? known.kind : undefined;
  }
  return undefined;
}

/**
 * The dialect of a Kysely instance, from its adapter. First `instanceof` Kysely's own adapters (and
 * adapters that extend them, as most third-party dialects' do); then, for an adapter made by another
 * copy of Kysely (its ES module and CommonJS builds both loaded), the class name of one of them in
 * its prototype chain together with its `supportsReturning`. Any other adapter (a dialect of its own,
 * or class names a minifier changed) is an error that names the `dialect` option: a wrong guess
 * would write dates, booleans and locks the wrong way.
 */
export function detectDialect<DB>(db: Kysely<DB>): DialectKind {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof PostgresAdapter) return "postgres";
  if (adapter instanceof MysqlAdapter) return "mysql";
  if (adapter instanceof SqliteAdapter) return "sqlite";
  const named = dialectByName(adapter);
  if (named) return named;
  throw new Error(
    `@hireport/kysely cannot tell the SQL dialect of the Kysely adapter ${adapter.constructor.name}: pass the \`dialect\` option (${KINDS.join(", ")}) to kyselyStorage, migrateToLatest and installRoutines.`,
  );
}

/** The strategy of a Kysely instance: the `dialect` option's when given, else the detected one. */
export function strategyFor<DB>(db: Kysely<DB>, dialect?: DialectKind): DialectStrategy {
  return strategyOf(dialect ?? detectDialect(db));
}
