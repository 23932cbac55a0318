import type { StoreContext } from "../context";
import type { TableName } from "../schema";

/** hireport's Postgres functions, with the migration that creates each. */
const MIGRATION_OF = {
  count_requests: "2026-11-23-0002-count-requests",
  create_application: "2026-11-23-0003-create-application",
} as const;

export type PostgresFunction = keyof typeof MIGRATION_OF;

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
        `hireport: the database has no function ${functionName(ctx, name)}: run hireport's migrations (migrateToLatest) after upgrading @hireport/kysely; migration ${MIGRATION_OF[name]} creates it`,
        { cause: error },
      );
    }
    throw error;
  }
}
