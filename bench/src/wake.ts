/**
 * Waking the scaling benchmark's dispatcher process from its app processes, as the production guide
 * shows: `postgresWakeUps` of @hireport/kysely on the channel `BENCH_WAKE_CHANNEL`. Each process
 * uses a small pool of its own for it, named like its other connections (`BENCH_PG_APPLICATION_NAME`)
 * so that Postgres's CPU for the NOTIFYs counts with the process's backends.
 */
import { type PostgresWakeUps, postgresWakeUps } from "@hireport/kysely";
import pg from "pg";
import { PG_URL } from "./common";

/** The channel of this run (none: no wake-ups). */
export const WAKE_CHANNEL = process.env.BENCH_WAKE_CHANNEL ?? "";

/** Wake-ups on WAKE_CHANNEL, and `close` for them and their pool; undefined without a channel. */
export function benchWakeUps(): (PostgresWakeUps & { end: () => Promise<void> }) | undefined {
  if (!WAKE_CHANNEL) return undefined;
  const pool = new pg.Pool({
    connectionString: PG_URL,
    max: 2,
    ...(process.env.BENCH_PG_APPLICATION_NAME ? { application_name: process.env.BENCH_PG_APPLICATION_NAME } : {}),
  });
  const wakeUps = postgresWakeUps(pool, { channel: WAKE_CHANNEL });
  return {
    ...wakeUps,
    end: async () => {
      await wakeUps.close();
      await pool.end();
    },
  };
}
