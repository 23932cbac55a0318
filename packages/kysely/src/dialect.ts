import { type Kysely, MysqlAdapter, PostgresAdapter, SqliteAdapter } from "kysely";

/** The SQL dialects hireport knows how to store on. */
export type DialectKind = "postgres" | "mysql" | "sqlite";

/**
 * Finds the dialect of a Kysely instance from its adapter. Kysely's own adapters are recognised
 * with `instanceof`; adapters of third-party dialects are recognised by the adapter they extend
 * (most wrap or extend one of the three), else by their class name.
 */
export function detectDialect<DB>(db: Kysely<DB>): DialectKind {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof PostgresAdapter) return "postgres";
  if (adapter instanceof MysqlAdapter) return "mysql";
  if (adapter instanceof SqliteAdapter) return "sqlite";
  const name = adapter.constructor.name.toLowerCase();
  if (name.includes("postgres") || name.includes("pg")) return "postgres";
  if (name.includes("mysql") || name.includes("maria")) return "mysql";
  if (name.includes("sqlite") || name.includes("libsql") || name.includes("d1")) return "sqlite";
  throw new Error(
    `@hireport/kysely cannot tell the dialect of adapter ${adapter.constructor.name}; pass the \`dialect\` option.`,
  );
}
