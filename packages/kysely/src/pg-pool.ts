import type { Logger } from "@hireport/core";
import { type PgQueryClient, prepareMarkedStatements, statementNames } from "./pg-prepared";

/** A client of a `pg` pool, as `hardenPgPool` sees it. */
export interface PgPoolClientEvents {
  on(event: "error", listener: (error: Error) => void): unknown;
}

/**
 * The part of a `pg` Pool (node-postgres) that `hardenPgPool` uses: its `error` and `connect` events,
 * one signature each, so that the `Pool` of every `@types/pg` 8 fits (before 8.16 its `on` is
 * overloads, none of which takes both events; from 8.16 on, one generic signature).
 */
export interface PgPoolEvents {
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "connect", listener: (client: PgPoolClientEvents & PgQueryClient) => void): unknown;
}

export interface HardenPgPoolOptions {
  /** Where each lost connection is reported. @default console */
  logger?: Pick<Logger, "warn">;
  /**
   * Run hireport's hot statements (key admission, the lists and reads of the API's GETs) as named
   * prepared statements: node-postgres parses each once per connection and Postgres keeps its
   * plan, which saves the planning of every request (see the production guide's "Scaling"). Turn
   * it off behind a proxy that pools connections per transaction without support for prepared
   * statements (PgBouncer before 1.21, or with `max_prepared_statements = 0`). Your own queries are
   * never prepared.
   * @default true
   */
  preparedStatements?: boolean;
}

/**
 * Readies a `pg` pool for hireport: call it on the pool you give Kysely's `PostgresDialect`, right
 * after creating it. It keeps the pool's lost connections from ending the process, and runs
 * hireport's hot statements as named prepared statements (`preparedStatements`).
 *
 * When Postgres ends a connection (`pg_terminate_backend`, a restart, a failover, an idle timeout
 * of a proxy), node-postgres emits `error` on the client and, for an idle one, on the pool. An
 * `error` event nobody listens to ends a Node process, and Kysely attaches no listener to the
 * clients it checks out, so a pool without these listeners takes the whole app down with one lost
 * connection (a pool `error` listener alone does not help: a client in use emits on itself). With
 * them, a query on the lost connection fails (the API answers 500 `server_error`, logged), the pool
 * drops the client and opens a new one for the next query: nothing else is needed to recover.
 *
 * @param options the options, or (as before) the logger alone
 * @returns the pool
 */
export function hardenPgPool<P extends PgPoolEvents>(
  pool: P,
  options: HardenPgPoolOptions | Pick<Logger, "warn"> = {},
): P {
  const { logger = console, preparedStatements = true }: HardenPgPoolOptions =
    "warn" in options ? { logger: options } : options;
  const names = statementNames();
  const report = (where: string) => (error: Error) =>
    logger.warn(`hireport: a Postgres connection ${where} was lost; the pool replaces it`, {
      error: error instanceof Error ? error.message : String(error),
    });
  pool.on("error", report("idle in the pool"));
  pool.on("connect", (client: PgPoolClientEvents & PgQueryClient) => {
    client.on("error", report("in use"));
    if (preparedStatements) prepareMarkedStatements(client, names);
  });
  return pool;
}
