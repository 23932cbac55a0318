import type { StoreContext } from "../context";
import { FUNCTION_MIGRATIONS } from "../migrations";
import type { TableName } from "../schema";

export type PostgresFunction = keyof typeof FUNCTION_MIGRATIONS;

/** The prefixed name of one of hireport's Postgres functions, as its migration created it. */
export function functionName(ctx: StoreContext, name: PostgresFunction): string {
  return ctx.table(name as TableName);
}

/** Postgres error code of an unknown function. */
const UNDEFINED_FUNCTION = "42883";

/**
 * Runs a statement that calls one of hireport's Postgres functions; when the database does not
 * have it, says which migration is missing instead of Postgres's bare "function does not exist".
 */
export async function withFunction<T>(ctx: StoreContext, name: PostgresFunction, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === UNDEFINED_FUNCTION && String((error as Error).message).includes(name)) {
      throw new Error(
        `hireport: the database has no function ${functionName(ctx, name)}: run hireport's migrations (migrateToLatest) after upgrading @hireport/kysely; migration ${FUNCTION_MIGRATIONS[name]} creates it`,
        { cause: error },
      );
    }
    throw error;
  }
}
