/**
 * The one place that creates hireport for this app: the database, the API, the careers site (under
 * `/careers`) and the webhook dispatcher, once per process.
 *
 * - SQLite by default (better-sqlite3, `.data/hireport.sqlite`, git-ignored), Postgres when
 *   DATABASE_URL is set.
 * - Nothing happens at import time (`next build` imports the route modules): the first call of
 *   `getHireport()` opens the database and runs the migrations, once.
 * - The instance lives on `globalThis`: Next may load this module in several bundles (routes,
 *   instrumentation) and `next dev` re-evaluates it on every change; all of them get the same
 *   connection pool instead of opening a new one each time.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createCareers, type HireportCareers } from "@hireport/careers";
import { createPublicApi, type PublicApi } from "@hireport/core";
import { hardenPgPool, kyselyFileStore, migrateToLatest } from "@hireport/kysely";
import { kyselyWebhookStorage } from "@hireport/kysely/webhooks";
import { createWebhookDispatcher, type WebhookDispatcher } from "@hireport/webhooks";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";

export interface Hireport {
  api: PublicApi;
  /** The careers site, mounted by `app/careers/[[...path]]/route.ts`. */
  careers: HireportCareers;
  dispatcher: WebhookDispatcher;
  db: Kysely<unknown>;
  /** Where the data lives, for logs: the SQLite file or the Postgres address without password. */
  location: string;
}

const env = (name: string): string | undefined => process.env[name]?.trim() || undefined;

/**
 * The SQLite file and the folder of the local data (generated secret): `.data/` beside the app, or
 * beside HIREPORT_SQLITE_FILE. (`turbopackIgnore`: these are data paths known at run time, not code
 * for Next's file tracing to follow.)
 */
function sqliteFile(): string {
  const file = env("HIREPORT_SQLITE_FILE");
  return file ? resolve(/*turbopackIgnore: true*/ file) : join(process.cwd(), ".data", "hireport.sqlite");
}

const dataDir = (): string => dirname(sqliteFile());

async function openDatabase(): Promise<{ db: Kysely<unknown>; location: string }> {
  const url = env("DATABASE_URL");
  if (url) {
    const { default: pg } = await import("pg");
    // hardenPgPool: a connection Postgres ends (a restart, a failover) must not end the server.
    const pool = hardenPgPool(new pg.Pool({ connectionString: url, max: Number(env("DATABASE_POOL_SIZE") ?? 10) }));
    const safe = new URL(url);
    safe.password = "";
    return { db: new Kysely({ dialect: new PostgresDialect({ pool }) }), location: safe.toString() };
  }
  const { default: SQLite } = await import("better-sqlite3");
  const file = sqliteFile();
  mkdirSync(dirname(file), { recursive: true });
  // Several processes may open the file (`next start` and `pnpm create-key`): WAL, and writers wait.
  const database = new SQLite(file, { timeout: 5000 });
  database.pragma("journal_mode = WAL");
  return { db: new Kysely({ dialect: new SqliteDialect({ database }) }), location: file };
}

/**
 * The secret that signs CV links and list cursors. Set HIREPORT_FILE_SECRET in production (the same
 * value on every instance); locally one is generated once and kept in the data folder.
 */
function fileTokenSecret(): string {
  return localSecret("HIREPORT_FILE_SECRET", "file-token-secret");
}

/** A secret from the environment, or (locally) one generated once and kept in the data folder. */
function localSecret(variable: string, name: string): string {
  const secret = env(variable);
  if (secret) return secret;
  const dir = dataDir();
  const path = join(dir, name);
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, randomBytes(32).toString("base64url"), { mode: 0o600 });
    const bar = "!".repeat(100);
    console.warn(
      `${bar}\n!!! [hireport] ${variable} is not set: generated one in ${path} for local use.\n!!! Set ${variable} (32+ characters, the same on every instance) in production.\n${bar}`,
    );
  }
  return readFileSync(path, "utf8").trim();
}

async function create(): Promise<Hireport> {
  const { db, location } = await openDatabase();
  const tablePrefix = env("HIREPORT_TABLE_PREFIX") ?? "hireport_";
  // Once per process, before the first request is served (see instrumentation.ts).
  const migration = await migrateToLatest(db, { tablePrefix });
  if (migration.error) {
    await db.destroy();
    throw migration.error;
  }
  const storage = kyselyWebhookStorage({ db, tablePrefix });
  const dispatcher = createWebhookDispatcher({
    storage,
    onEndpointPaused: (endpoint) => console.warn(`[hireport] webhook endpoint ${endpoint.id} paused after failures`),
  });
  const publicBaseUrl = env("PUBLIC_BASE_URL") ?? `http://localhost:${env("PORT") ?? "3000"}`;
  const api = createPublicApi({
    storage,
    // CVs uploaded through the careers site live in the same database.
    fileStore: kyselyFileStore({ db, tablePrefix }),
    publicBaseUrl,
    // The careers site is mounted under /careers: jobs' public_url point there.
    publicSiteUrl: () => `${publicBaseUrl}/careers`,
    fileTokenSecret: fileTokenSecret(),
    // Wakes the dispatcher loop at once when it runs in this process (HIREPORT_WEBHOOK_LOOP=1).
    onEvent: () => dispatcher.notify(),
  });
  // On a long-lived server (`next start` on your own machine) the dispatcher can run here; on
  // serverless hosts the cron route (`/api/cron/webhooks`) drives it instead.
  if (env("HIREPORT_WEBHOOK_LOOP") === "1") dispatcher.start();
  const careers = createCareers({
    api,
    basePath: "/careers",
    resolveCompany: () => env("HIREPORT_COMPANY_ID") ?? "example-company",
    secret: localSecret("HIREPORT_CAREERS_SECRET", "careers-secret"),
    privacyNoticeUrl: env("PRIVACY_NOTICE_URL") ?? "/",
  });
  return { api, careers, dispatcher, db, location };
}

const holder = globalThis as typeof globalThis & { __hireport?: Promise<Hireport> };

/** The process's hireport, created (and migrated) on the first call. */
export function getHireport(): Promise<Hireport> {
  if (!holder.__hireport) {
    holder.__hireport = create();
    // A failed start (database down) is not cached: the next request tries again.
    holder.__hireport.catch(() => {
      holder.__hireport = undefined;
    });
  }
  return holder.__hireport;
}

/** Stops what `getHireport()` started (tests and scripts; a Next server just exits). */
export async function closeHireport(): Promise<void> {
  const current = holder.__hireport;
  if (!current) return;
  holder.__hireport = undefined;
  const { api, dispatcher, db } = await current;
  await api.close();
  await dispatcher.stop();
  await db.destroy();
}
