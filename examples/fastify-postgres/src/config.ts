/**
 * Configuration from the environment, shared by every process of the example (migrate, the apps,
 * the dispatcher, create-key). Each process reads the same variables, so they all agree on the
 * database, the table prefix and the secrets.
 */
import { createHmac, randomBytes } from "node:crypto";
import { hardenPgPool } from "@hireport/kysely";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";

export const DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test";
/** Not hireport's default (`hireport_`): the example's tables never collide with a test run's. */
export const DEFAULT_TABLE_PREFIX = "hireport_example_";

export const env = (name: string): string | undefined => {
  const value = process.env[name]?.trim();
  return value ? value : undefined;
};

export const isProduction = (): boolean => env("NODE_ENV") === "production";

export interface ExampleConfig {
  databaseUrl: string;
  tablePrefix: string;
  companyId: string;
  companyName: string;
}

export function loadConfig(): ExampleConfig {
  const tablePrefix = env("HIREPORT_TABLE_PREFIX") ?? DEFAULT_TABLE_PREFIX;
  if (!/^[a-z_][a-z0-9_]*$/.test(tablePrefix)) {
    throw new TypeError(`HIREPORT_TABLE_PREFIX must be lower-case letters, digits and _ (got ${tablePrefix})`);
  }
  return {
    databaseUrl: env("DATABASE_URL") ?? DEFAULT_DATABASE_URL,
    tablePrefix,
    companyId: env("HIREPORT_COMPANY_ID") ?? "example-company",
    companyName: env("HIREPORT_COMPANY_NAME") ?? "Example Ltd",
  };
}

/**
 * One `pg` pool per process, shared by hireport and the rest of the host app. `hardenPgPool`
 * listens for lost connections (a Postgres restart, a failover, `pg_terminate_backend`): without
 * it the first one ends the process; with it the requests on it answer 500 and the pool reconnects.
 * The connections' `application_name` is `PGAPPNAME` when set (node-postgres reads it).
 */
export function createDatabase(config: ExampleConfig, poolSize = 10): { db: Kysely<unknown>; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: poolSize, connectionTimeoutMillis: 5000 });
  return { db: new Kysely<unknown>({ dialect: new PostgresDialect({ pool: hardenPgPool(pool) }) }), pool };
}

/** `createDatabase` for the processes that need only Kysely. */
export function createDb(config: ExampleConfig, poolSize = 10): Kysely<unknown> {
  return createDatabase(config, poolSize).db;
}

/**
 * The NOTIFY channel on which the app processes wake the dispatcher (`postgresWakeUps`): one per
 * table prefix, so that two deployments on one Postgres server never wake each other.
 */
export function wakeChannel(config: ExampleConfig): string {
  return `${config.tablePrefix}events`.slice(0, 63);
}

/**
 * The secret that signs CV links and list cursors. Every app process behind one address needs the
 * same value (a cursor from app A must be accepted by app B), so it comes from the environment.
 * Production refuses to start without it; a local run generates one, loudly (`start-all` generates
 * it once and hands the same value to both apps).
 */
export function fileTokenSecret(who: string): string {
  const secret = env("HIREPORT_FILE_SECRET");
  if (secret) {
    if (secret.length < 32) throw new TypeError("HIREPORT_FILE_SECRET must be at least 32 characters");
    return secret;
  }
  if (isProduction()) {
    throw new TypeError(
      "HIREPORT_FILE_SECRET is required in production (32 characters or more, the same for every app process)",
    );
  }
  const generated = randomBytes(32).toString("base64url");
  warn(
    who,
    "HIREPORT_FILE_SECRET is not set: generated a random one for this local run.",
    "CV links and list cursors will not survive a restart and other processes will not accept them.",
    "Set HIREPORT_FILE_SECRET (32+ characters, the same in every app process) outside local development.",
  );
  return generated;
}

/**
 * The secret of the careers site's form tokens and human-review links: `HIREPORT_CAREERS_SECRET`, or
 * one derived from the file secret (so every app process agrees without another variable).
 */
export function careersSecret(fileSecret: string): string {
  const secret = env("HIREPORT_CAREERS_SECRET");
  if (secret) {
    if (secret.length < 32) throw new TypeError("HIREPORT_CAREERS_SECRET must be at least 32 characters");
    return secret;
  }
  return createHmac("sha256", fileSecret).update("hireport careers site").digest("base64url");
}

/** A warning that cannot be missed in a terminal full of logs. */
export function warn(who: string, ...lines: string[]): void {
  const bar = "!".repeat(100);
  process.stderr.write(`${[bar, ...lines.map((line) => `!!! [${who}] ${line}`), bar].join("\n")}\n`);
}

/** Runs `stop` once on SIGTERM or SIGINT, then exits. */
export function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`failed to stop cleanly after ${signal}:`, error);
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", handler);
  process.once("SIGINT", handler);
}
