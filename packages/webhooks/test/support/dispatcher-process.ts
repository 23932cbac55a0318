/**
 * A dispatcher in its own process, for the multi-process tests: two of them on one database, and
 * one killed with SIGKILL mid-batch. Run with tsx from the package folder; configured through
 * HIREPORT_TEST_* variables; prints `ready` once started and a JSON line per finished pass.
 * HIREPORT_TEST_WAKE_CHANNEL (Postgres): also listens with `postgresWakeUps` on that channel, on a
 * pool of its own, and prints `ready` once listening.
 */
import { postgresWakeUps } from "@hireport/kysely";
import { kyselyWebhookStorage } from "@hireport/kysely/webhooks";
import pg from "pg";
import { createWebhookDispatcher } from "../../src/index";
import { openDb, PG_URL, type SqlDialect } from "./kysely-factories";

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
};

const db = openDb(env("HIREPORT_TEST_DIALECT") as SqlDialect, env("HIREPORT_TEST_SQLITE_FILE"));
const storage = kyselyWebhookStorage({ db, tablePrefix: env("HIREPORT_TEST_PREFIX") });
const dispatcher = createWebhookDispatcher({
  storage,
  allowPrivateAddresses: true,
  tls: { ca: env("HIREPORT_TEST_CA") },
  pollIntervalMs: Number(process.env.HIREPORT_TEST_POLL_MS ?? "20"),
  userAgent: process.env.HIREPORT_TEST_USER_AGENT ?? "hireport-webhooks-test",
  concurrency: Number(process.env.HIREPORT_TEST_CONCURRENCY ?? "16"),
  perEndpointConcurrency: Number(process.env.HIREPORT_TEST_PER_ENDPOINT ?? "8"),
  // HIREPORT_TEST_DEFAULT_LEASE=1: the dispatcher's own timeout and lease, as a host gets them.
  ...(process.env.HIREPORT_TEST_DEFAULT_LEASE === "1"
    ? {}
    : {
        timeoutMs: Number(process.env.HIREPORT_TEST_TIMEOUT_MS ?? "5000"),
        leaseMs: Number(process.env.HIREPORT_TEST_LEASE_MS ?? "30000"),
      }),
  // HIREPORT_TEST_RETRY_MS: a retry schedule in milliseconds, comma-separated.
  ...(process.env.HIREPORT_TEST_RETRY_MS
    ? { retrySchedule: process.env.HIREPORT_TEST_RETRY_MS.split(",").map(Number) }
    : {}),
  logger: { warn: () => {}, error: (message, details) => console.error(message, JSON.stringify(details)) },
});

dispatcher.start();
const wakeChannel = process.env.HIREPORT_TEST_WAKE_CHANNEL;
const wakePool = wakeChannel ? new pg.Pool({ connectionString: PG_URL, max: 1 }) : undefined;
const wakeUps = wakePool ? postgresWakeUps(wakePool, { channel: wakeChannel }) : undefined;
await wakeUps?.listen(() => dispatcher.notify());
process.stdout.write("ready\n");

process.on("SIGTERM", () => {
  dispatcher
    .stop()
    .then(() => wakeUps?.close())
    .then(() => wakePool?.end())
    .then(() => db.destroy())
    .then(() => process.exit(0));
});
