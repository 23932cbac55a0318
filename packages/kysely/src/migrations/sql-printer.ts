import { Kysely } from "kysely";
import { strategyOf } from "../dialects/detect";
import type { DialectKind } from "../dialects/types";
import { hireportMigrations } from "./migrator";
import { DEFAULT_PREFIX, type MigrationSqlOptions } from "./options";

/**
 * The SQL that sets hireport's schema up on a dialect, for review: the migrations, then (Postgres)
 * the routines; with `direction: "down"`, the SQL that takes it down. Compiled with a dummy driver
 * (nothing is connected to). Statements end with `;` and are separated by blank lines.
 */
export async function migrationSql(dialect: DialectKind, options: MigrationSqlOptions = {}): Promise<string> {
  const strategy = strategyOf(dialect);
  const prefix = options.tablePrefix ?? DEFAULT_PREFIX;
  const direction = options.direction ?? "up";
  const statements: string[] = [];
  const db = new Kysely<unknown>({
    dialect: strategy.compileOnly(),
    log: (event) => {
      if (event.level === "query") statements.push(`${event.query.sql};`);
    },
  });
  const routines = () => {
    const list = strategy.routineStatements(prefix, direction, options.schema ?? null);
    if (list.length === 0) return;
    statements.push(`-- routines (${direction}: ${direction === "up" ? "installRoutines" : "dropped"})`);
    statements.push(...list.map((statement) => `${statement};`));
  };
  const migrations = Object.entries(
    hireportMigrations({
      tablePrefix: prefix,
      dialect,
      ...(options.schema === undefined ? {} : { schema: options.schema }),
      ...(options.domainTables === undefined ? {} : { domainTables: options.domainTables }),
    }),
  );
  if (direction === "down") routines();
  for (const [name, migration] of direction === "up" ? migrations : migrations.reverse()) {
    statements.push(`-- ${name} (${direction})`);
    if (direction === "up") await migration.up(db);
    else await migration.down?.(db);
  }
  if (direction === "up") routines();
  await db.destroy();
  return statements.join("\n\n");
}
