import type { Logger } from "@hireport/core";

/** A client of a `pg` pool, as `hardenPgPool` sees it. */
export interface PgPoolClientEvents {
  on(event: "error", listener: (error: Error) => void): unknown;
}

/** The part of a `pg` Pool (node-postgres) that `hardenPgPool` uses: its events. */
export interface PgPoolEvents {
  on(event: "error" | "connect", listener: (...args: never[]) => void): unknown;
}

/**
 * Keeps a `pg` pool's lost connections from ending the process: call it on the pool you give
 * Kysely's `PostgresDialect`, right after creating it.
 *
 * When Postgres ends a connection (`pg_terminate_backend`, a restart, a failover, an idle timeout
 * of a proxy), node-postgres emits `error` on the client and, for an idle one, on the pool. An
 * `error` event nobody listens to ends a Node process, and Kysely attaches no listener to the
 * clients it checks out, so a pool without these listeners takes the whole app down with one lost
 * connection (a pool `error` listener alone does not help: a client in use emits on itself). With
 * them, a query on the lost connection fails (the API answers 500 `server_error`, logged), the pool
 * drops the client and opens a new one for the next query: nothing else is needed to recover.
 *
 * @param logger where each lost connection is reported. @default console
 * @returns the pool
 */
export function hardenPgPool<P extends PgPoolEvents>(pool: P, logger: Pick<Logger, "warn"> = console): P {
  const report = (where: string) => (error: Error) =>
    logger.warn(`hireport: a Postgres connection ${where} was lost; the pool replaces it`, {
      error: error instanceof Error ? error.message : String(error),
    });
  pool.on("error", report("idle in the pool"));
  pool.on("connect", (client: PgPoolClientEvents) => {
    client.on("error", report("in use"));
  });
  return pool;
}
