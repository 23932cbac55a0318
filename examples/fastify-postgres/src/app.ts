/**
 * One app process: Fastify 5 with the public API, the careers site at the root (which also answers
 * the CV links), on the shared Postgres database (the CVs candidates upload are kept there too).
 * Run several of them (start-all runs two) behind one address; they share everything through the
 * database: keys, data, rate-limit counters, the usage log, the webhook outbox.
 *
 *   PORT=3001 pnpm app
 *
 * Environment: PORT (3000), HOST (127.0.0.1), PUBLIC_BASE_URL (http://localhost:PORT), APP_NAME,
 * HIREPORT_RATE_LIMIT_PER_MINUTE (120), HIREPORT_OTEL (see telemetry.ts), and those of config.ts.
 */
import { createCareers } from "@hireport/careers";
import { createPublicApi } from "@hireport/core";
import { hireportFastify } from "@hireport/fastify";
import { kyselyFileStore, kyselyStorage, postgresWakeUps } from "@hireport/kysely";
import Fastify from "fastify";
import { sql } from "kysely";
import { careersSecret, createDatabase, env, fileTokenSecret, loadConfig, onShutdown, wakeChannel } from "./config";
import { startTelemetry } from "./telemetry";

async function main(): Promise<void> {
  const config = loadConfig();
  const name = env("APP_NAME") ?? "app";
  const port = Number(env("PORT") ?? 3000);
  const host = env("HOST") ?? "127.0.0.1";
  const perMinute = env("HIREPORT_RATE_LIMIT_PER_MINUTE");

  const otel = startTelemetry();
  const { db, pool } = createDatabase(config, 10);
  // No migrations here: `pnpm migrate` runs them once, before the app processes start.
  const storage = kyselyStorage({ db, tablePrefix: config.tablePrefix });
  const secret = fileTokenSecret(name);
  // After each change, a NOTIFY wakes the dispatcher process (which also polls: a lost one only delays).
  const wakeUps = postgresWakeUps(pool, { channel: wakeChannel(config) });
  const api = createPublicApi({
    storage,
    fileStore: kyselyFileStore({ db, tablePrefix: config.tablePrefix }),
    publicBaseUrl: env("PUBLIC_BASE_URL") ?? `http://localhost:${port}`,
    fileTokenSecret: secret,
    ...(perMinute ? { limits: { perMinute: Number(perMinute) } } : {}),
    onEvent: wakeUps.publish,
    // A server span and metrics per API request (HIREPORT_OTEL=console prints them).
    telemetry: otel.telemetry,
  });

  const app = Fastify({ logger: false });
  // One short line per request, so you can see which process answered.
  app.addHook("onResponse", async (request, reply) => {
    console.log(`${request.method} ${request.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`);
  });
  // The careers site of the example's company: /jobs, /jobs/{id}, apply, feeds, sitemap, and the CV
  // links (/files/cv/…) since it is mounted at the root of publicBaseUrl.
  const careers = createCareers({
    api,
    resolveCompany: () => config.companyId,
    secret: careersSecret(secret),
    privacyNoticeUrl: env("PRIVACY_NOTICE_URL") ?? "/privacy",
  });
  await app.register(hireportFastify, { api, prefix: "/api/public/v1" });
  await app.register(hireportFastify, { api: careers });
  // For the load balancer's health checks: answers once the database answers.
  app.get("/healthz", async () => {
    await sql`select 1`.execute(db);
    return { ok: true, app: name };
  });

  onShutdown(async () => {
    await app.close(); // stop accepting connections; requests in flight finish
    await api.close(); // writes the last usage-log entries
    await wakeUps.close();
    await db.destroy();
    await otel.shutdown();
  });

  await app.listen({ port, host });
  console.log(`${name} listening on http://${host}:${port} (API under /api/public/v1, careers site at /jobs)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
