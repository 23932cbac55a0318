/**
 * The hireport demo: an Express app with the careers site at its root, the public API and the
 * console on an SQLite file (CVs kept in the same file), the webhook dispatcher in the same process,
 * and a local receiver that verifies and prints every event.
 *
 *   pnpm demo            (from the repository root)
 *
 * Environment: PORT (default 3000), HIREPORT_DEMO_DATA (default ./.data beside this example).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createCareers } from "@hireport/careers";
import { createConsole } from "@hireport/console";
import { createPublicApi, type Scope } from "@hireport/core";
import { hireportExpress } from "@hireport/express";
import { kyselyFileStore, migrateToLatest } from "@hireport/kysely";
import { kyselyWebhookStorage } from "@hireport/kysely/webhooks";
import { createMcpServer } from "@hireport/mcp";
import { createWebhookDispatcher, webhookEndpointsApi } from "@hireport/webhooks";
import Database from "better-sqlite3";
import express from "express";
import { Kysely, SqliteDialect } from "kysely";
import { startReceiver } from "./receiver";
import { DEMO_COMPANY, seed } from "./seed";

const DEMO_KEY_NAME = "Demo key";
const RECEIVER_DESCRIPTION = "hireport demo receiver";
const ALL_SCOPES: Scope[] = ["jobs:write", "applications:write", "webhooks:write"];

const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/** A secret kept in the data folder, so CV links, cursors and console forms stay valid across restarts. */
function fileSecret(dataDir: string, name = "file-token-secret"): string {
  const path = join(dataDir, name);
  if (!existsSync(path)) writeFileSync(path, randomBytes(32).toString("base64url"), { mode: 0o600 });
  return readFileSync(path, "utf8").trim();
}

async function main(): Promise<void> {
  const here = dirname(fileURLToPath(import.meta.url));
  const dataDir = resolve(process.env.HIREPORT_DEMO_DATA ?? join(here, "..", ".data"));
  mkdirSync(dataDir, { recursive: true });
  const port = Number(process.env.PORT ?? 3000);
  const origin = `http://localhost:${port}`;

  const db = new Kysely<unknown>({
    dialect: new SqliteDialect({ database: new Database(join(dataDir, "demo.sqlite")) }),
  });
  const migration = await migrateToLatest(db);
  if (migration.error) throw migration.error;
  const storage = kyselyWebhookStorage({ db });

  const dispatcher = createWebhookDispatcher({
    storage,
    pollIntervalMs: 500,
    // The receiver runs on this machine: allow loopback and plain http, for development only.
    allowPrivateAddresses: true,
    onEndpointPaused: (endpoint) => log(`webhook endpoint ${endpoint.id} paused after repeated failures`),
  });
  const api = createPublicApi({
    storage,
    // CVs uploaded through the careers site live in the same SQLite file.
    fileStore: kyselyFileStore({ db }),
    publicBaseUrl: origin,
    fileTokenSecret: fileSecret(dataDir),
    onEvent: () => dispatcher.notify(),
    // The webhook endpoints in the API (/webhook-endpoints): keys with webhooks:write subscribe themselves.
    extensions: [webhookEndpointsApi(dispatcher)],
  });

  const receiver = await startReceiver(log);
  await api.companies.upsert(DEMO_COMPANY);
  const endpoints = await dispatcher.endpoints.list(DEMO_COMPANY.id);
  const previous = endpoints.find((endpoint) => endpoint.description === RECEIVER_DESCRIPTION);
  if (previous) {
    // A second start: point the endpoint at this run's receiver and rotate its secret (the old one
    // keeps signing beside the new one for 24 hours, as for any rotation).
    await dispatcher.endpoints.update(DEMO_COMPANY.id, previous.id, { url: receiver.url });
    receiver.setSecret((await dispatcher.endpoints.rotateSecret(DEMO_COMPANY.id, previous.id)).secret);
  } else {
    const created = await dispatcher.endpoints.create({
      companyId: DEMO_COMPANY.id,
      url: receiver.url,
      events: ["job.created", "job.updated", "job.closed", "application.created", "application.updated"],
      description: RECEIVER_DESCRIPTION,
    });
    receiver.setSecret(created.secret);
  }

  const { created } = await seed(api);
  // Keys are shown once and only their hash is stored: each start revokes the last demo key and
  // prints a new one.
  for (const key of await api.keys.list(DEMO_COMPANY.id)) {
    if (key.name === DEMO_KEY_NAME && key.revokedAt === null) await api.keys.revoke(DEMO_COMPANY.id, key.id);
  }
  const { key } = await api.keys.create({ companyId: DEMO_COMPANY.id, name: DEMO_KEY_NAME, scopes: ALL_SCOPES });

  // The console: keys, usage, webhooks and deliveries, the audit list. DEMO ONLY: `authorize` signs
  // everybody in as an owner of the demo company. A real host reads its own session here (its
  // cookie, its user's company and role) and returns null for a stranger.
  const settings = createConsole({
    api,
    dispatcher,
    basePath: "/settings/api",
    secret: fileSecret(dataDir, "console-secret"),
    authorize: () => ({ companyId: DEMO_COMPANY.id, role: "owner", actor: { id: "demo-owner", name: "Demo owner" } }),
  });

  // The careers site: the demo company's public jobs, feeds and apply form at the root, and the CV
  // links of applications (/files/cv/…) too, since the root is the API's publicBaseUrl.
  const careers = createCareers({
    api,
    resolveCompany: () => DEMO_COMPANY.id,
    secret: fileSecret(dataDir, "careers-secret"),
    privacyNoticeUrl: "/privacy",
    theme: { accentColor: "#0b6e4f" },
  });

  const app = express();
  app.use("/api/public/v1", hireportExpress(api));
  // The MCP server for AI assistants: the same keys, limits and usage log as the API.
  const mcp = createMcpServer(api);
  app.use("/mcp", hireportExpress(mcp));
  app.use("/settings/api", hireportExpress(settings));
  app.get("/privacy", (_request, response) => {
    response.type("text/plain").send("The demo keeps applications in a local SQLite file and sends them nowhere.\n");
  });
  app.use(hireportExpress(careers));
  const server = app.listen(port);
  await new Promise<void>((ready, fail) => {
    server.once("listening", ready);
    server.once("error", fail);
  });

  const { data: jobs } = await api.jobs.list(DEMO_COMPANY.id, { status: "open", limit: 1 });
  const base = `${origin}/api/public/v1`;
  log("");
  log(`hireport demo ${created ? "seeded a new" : "reuses its"} database: ${join(dataDir, "demo.sqlite")}`);
  log(`Listening on ${origin}`);
  log("");
  log(`Careers site (jobs, apply with a CV, feeds): ${origin}/jobs`);
  log(
    `  Feeds: ${origin}/feeds/jobs.xml (Indeed), ${origin}/feeds/jobs.rss, ${origin}/sitemap.xml, ${origin}/jobs.json`,
  );
  log("");
  log(`Console (keys, usage, webhooks, audit): ${origin}/settings/api`);
  log("  DEMO ONLY: everybody who opens it is signed in as an owner of the demo company.");
  log("  A real host passes its own sign-in as `authorize` (see packages/console/README.md).");
  log("");
  log(`API key: ${key}`);
  log("");
  log("Try:");
  log(`  curl -s ${base}/me -H "Authorization: Bearer ${key}"`);
  log(`  curl -s "${base}/jobs?status=open" -H "Authorization: Bearer ${key}"`);
  log(`  curl -s "${base}/applications?limit=2" -H "Authorization: Bearer ${key}"`);
  if (jobs[0]) {
    const body = JSON.stringify({
      job_id: jobs[0].id,
      candidate: { name: "Alan Turing", email: "alan@example.com", skills: ["TypeScript"] },
    });
    log(
      `  curl -s -X POST ${base}/applications -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" -d '${body}'`,
    );
  }
  log(
    `  curl -s -X POST ${base}/jobs -H "X-Service-Key: ${key}" -H "Content-Type: application/json" -d '{"title":"Data Engineer","status":"active"}'`,
  );
  log(`  curl -s "${base}/events?limit=5" -H "Authorization: Bearer ${key}"    # the events feed, oldest first`);
  log(`  curl -s ${base}/webhook-endpoints -H "Authorization: Bearer ${key}"    # subscriptions through the API`);
  log(`  curl -s ${base}/openapi.json`);
  log("");
  log(`MCP endpoint for AI assistants: ${origin}/mcp`);
  log(`  claude mcp add --transport http hireport ${origin}/mcp --header "Authorization: Bearer ${key}"`);
  log("");
  dispatcher.start();

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    log("Stopping…");
    await new Promise<void>((done) => server.close(() => done()));
    await mcp.close();
    await api.close();
    await dispatcher.stop();
    await receiver.close();
    await db.destroy();
    process.exit(0);
  };
  // `on`, not `once`: one Ctrl+C reaches the demo more than once (from the terminal, and relayed by
  // pnpm and tsx), and a signal with no listener left would end it before it has closed everything.
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
  // Said only once the handlers are in place: a Ctrl+C that follows this line stops the demo cleanly.
  log(`Webhooks go to ${receiver.url}; each delivery is verified and printed below. Ctrl+C stops.`);
  log("");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
