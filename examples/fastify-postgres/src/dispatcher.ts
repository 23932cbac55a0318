/**
 * The webhook dispatcher process: one per deployment is enough (more are safe: a delivery is held
 * by one dispatcher at a time). The app processes wake it through Postgres (`postgresWakeUps`:
 * they NOTIFY after each change, it LISTENs), and it polls the database too, so a lost wake-up only
 * delays a delivery by WEBHOOK_POLL_MS.
 *
 *   pnpm dispatcher
 *
 * Environment: WEBHOOK_POLL_MS (1000), HIREPORT_WEBHOOK_KEY and HIREPORT_WEBHOOK_KEY_ID (the key that
 * seals signing secrets at rest, and its id), and for development only HIREPORT_DEV_WEBHOOK_URL: a local
 * receiver (http, loopback) that the dispatcher registers for the example company at startup; it
 * turns the SSRF guard off (`allowPrivateAddresses`), so it is refused when NODE_ENV=production.
 * HIREPORT_OTEL=console prints a span per attempt, linked to the request that emitted the event (telemetry.ts).
 */
import { postgresWakeUps } from "@hireport/kysely";
import { kyselyWebhookStorage } from "@hireport/kysely/webhooks";
import { createWebhookDispatcher, type WebhookDispatcher } from "@hireport/webhooks";
import { createDatabase, env, isProduction, loadConfig, onShutdown, wakeChannel, warn } from "./config";
import { startTelemetry } from "./telemetry";

const DEV_ENDPOINT_DESCRIPTION = "hireport example: local development receiver";

/** Registers (or points again at) the local receiver and prints its signing secret. */
async function registerDevEndpoint(dispatcher: WebhookDispatcher, companyId: string, url: string): Promise<void> {
  const existing = (await dispatcher.endpoints.list(companyId)).find(
    (endpoint) => endpoint.description === DEV_ENDPOINT_DESCRIPTION,
  );
  let secret: string;
  if (existing) {
    await dispatcher.endpoints.update(companyId, existing.id, { url });
    if (existing.status === "paused") await dispatcher.endpoints.resume(companyId, existing.id);
    secret = (await dispatcher.endpoints.rotateSecret(companyId, existing.id)).secret;
  } else {
    const created = await dispatcher.endpoints.create({
      companyId,
      url,
      events: ["job.created", "job.updated", "job.closed", "application.created", "application.updated"],
      description: DEV_ENDPOINT_DESCRIPTION,
    });
    secret = created.secret;
  }
  console.log(`Webhook endpoint for ${companyId}: ${url}`);
  console.log(`Webhook secret: ${secret}`);
}

async function main(): Promise<void> {
  const config = loadConfig();
  const devWebhookUrl = env("HIREPORT_DEV_WEBHOOK_URL");
  if (devWebhookUrl && isProduction()) {
    throw new TypeError("HIREPORT_DEV_WEBHOOK_URL turns the SSRF guard off: it is refused when NODE_ENV=production");
  }
  if (devWebhookUrl) {
    warn(
      "dispatcher",
      `HIREPORT_DEV_WEBHOOK_URL is set: allowPrivateAddresses is ON (http and local addresses allowed).`,
      "For development only. Never set it in production.",
    );
  }

  const otel = startTelemetry();
  // One of the 5 connections listens for the app processes' wake-ups.
  const { db, pool } = createDatabase(config, 5);
  const storage = kyselyWebhookStorage({ db, tablePrefix: config.tablePrefix });
  // Signing secrets sealed at rest (AES-256-GCM) with a key of yours: `openssl rand -base64 32`.
  const webhookKey = env("HIREPORT_WEBHOOK_KEY");
  const dispatcher = createWebhookDispatcher({
    storage,
    ...(webhookKey ? { encryptionKeys: [{ id: env("HIREPORT_WEBHOOK_KEY_ID") ?? "1", key: webhookKey }] } : {}),
    pollIntervalMs: Number(env("WEBHOOK_POLL_MS") ?? 1000),
    allowPrivateAddresses: devWebhookUrl !== undefined,
    onEndpointPaused: (endpoint) =>
      console.warn(`webhook endpoint ${endpoint.id} (${endpoint.url}) paused after repeated failures`),
    telemetry: otel.telemetry,
  });

  if (devWebhookUrl) await registerDevEndpoint(dispatcher, config.companyId, devWebhookUrl);

  const wakeUps = postgresWakeUps(pool, { channel: wakeChannel(config) });
  onShutdown(async () => {
    await wakeUps.close();
    await dispatcher.stop(); // finishes the requests in flight and records them
    await db.destroy();
    await otel.shutdown();
  });
  dispatcher.start();
  await wakeUps.listen(() => dispatcher.notify());
  console.log(`dispatcher running (table prefix ${config.tablePrefix})`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
