import { type ChangeOptions, type HealthReport, systemClock } from "@hireport/core";
import { createPollLoop, deliveryId, hostActor, newEvent, notFound, recordAudit } from "@hireport/core/extend";
import { createDeliveryLog, type DeliveryLog, toDeliveryView, type WebhookDelivery } from "../delivery/deliveries";
import { createDeliveryRunner, type DeliveryResult, type RunResult } from "../delivery/delivery-runner";
import { newLeaseToken } from "../delivery/random-tokens";
import { createEndpointManager, type EndpointManager } from "../endpoints/endpoints";
import { createAddressPolicy } from "../network/address-policy";
import { createSender, type Sender } from "../network/sender";
import { systemResolver } from "../network/ssrf-guard";
import { buildJwks, type JwksOptions, type WebhookJwks } from "../signing/jwks";
import {
  createSecretBox,
  type ReencryptOptions,
  type ReencryptResult,
  reencryptSecrets,
  resolveSecretKeys,
} from "../signing/secret-encryption";
import type { DeliveryAttemptRecord, DeliveryRecord } from "../store/webhook-records";
import { type BacklogTelemetry, startBacklogTelemetry } from "./backlog-telemetry";
import { dispatcherHealth, resolveDispatcherHealth } from "./health";
import { DEFAULT_RETRY_SCHEDULE_MS, type ResolvedDispatcherOptions, type WebhookDispatcherOptions } from "./options";

export interface RunOnceOptions {
  /** Claim passes to run; each claims up to `concurrency` deliveries and waits for them. @default 1 */
  maxPasses?: number;
}

/** What `sendTest` did. */
export interface TestSendResult {
  delivery: WebhookDelivery;
  /** The attempt, as recorded. */
  attempt: DeliveryAttemptRecord;
  result: DeliveryResult;
}

export interface PurgeOptions {
  /** Delete finished deliveries, their attempts and unneeded events created before this time. @default now - retentionDays */
  before?: Date;
}

export interface WebhookDispatcher {
  /** Endpoint management (create, list, get, update, pause, resume, delete, rotateSecret). */
  readonly endpoints: EndpointManager;
  /** The delivery log: list with attempts, get, attempts, resend. */
  readonly deliveries: DeliveryLog;
  /** Starts the delivery loop: polls every `pollIntervalMs` and wakes at once on `notify()`. */
  start(): void;
  /**
   * Stops claiming, gives the deliveries it claimed but has not started back to the storage (any
   * dispatcher may claim them at once, without waiting for their lease), waits for the requests in
   * flight and records them, and closes the connections.
   */
  stop(): Promise<void>;
  /** One claim-and-send pass for cron and serverless hosts (it never claims ahead); resolves when it is done. */
  runOnce(options?: RunOnceOptions): Promise<RunResult>;
  /** Wakes the loop at once: wire it to `createPublicApi({ onEvent: () => dispatcher.notify() })`. */
  notify(): void;
  /**
   * Sends a `webhook.test` event (data `{ endpoint_id }`) to the endpoint now, signed like any other,
   * and records it as a delivery with one attempt. Works on a paused endpoint too (to check a fix
   * before resuming); it never changes the failure count. Audit: `webhook_endpoint.test_sent` with
   * `options.actor` (@default "host").
   */
  sendTest(companyId: string, endpointId: string, options?: ChangeOptions): Promise<TestSendResult>;
  /** Deletes finished deliveries and attempts, and events no pending delivery needs, older than `before`. */
  purge(options?: PurgeOptions): Promise<{ deliveries: number; events: number }>;
  /**
   * Seals every endpoint's signing secrets with the first of `encryptionKeys` (plaintext ones and
   * those under an older key), in batches; safe to run twice and beside running dispatchers.
   */
  reencryptSecrets(options?: ReencryptOptions): Promise<ReencryptResult>;
  /**
   * The JSON Web Key Set (RFC 7517) of the company's `"standard-v1a"` endpoints: each endpoint's
   * current ed25519 public key and, during a rotation's grace period, the previous one, with
   * `kid` `<endpoint id>.<thumbprint>`. Empty for a company without such endpoints. Serve it with
   * `jwksHandler`.
   */
  jwks(companyId: string, options?: JwksOptions): Promise<WebhookJwks>;
  /**
   * A report for readiness probes, never rejecting: `webhook-storage` (the storage answers a cheap
   * read) and `webhook-deliveries` (the lag, how long the oldest due and unclaimed delivery has
   * waited, and the backlog, how many are due; unhealthy past `health.maxLagMs` or
   * `health.maxBacklog`). Serve it with `healthResponse` of `@hireport/core`, alone or with the API's.
   */
  health(): Promise<HealthReport>;
  /** The options in force, defaults applied. */
  readonly options: ResolvedDispatcherOptions;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`${name} must be a positive integer`);
  return value;
}

function wholeNumber(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new TypeError(`${name} must be a whole number (0 or more)`);
  return value;
}

/** The `retention` option as one function: `api.retention` (an object with `purge`) or a function. */
function retentionRunner(retention: WebhookDispatcherOptions["retention"]): (() => Promise<unknown>) | null {
  if (retention === undefined || retention === null) return null;
  if (typeof retention === "function") return retention;
  if (retention && typeof retention.purge === "function") return () => retention.purge();
  throw new TypeError("retention must be api.retention of createPublicApi, or a function that purges");
}

function resolveOptions(input: WebhookDispatcherOptions): ResolvedDispatcherOptions {
  if (!input?.storage) throw new TypeError("createWebhookDispatcher needs a storage");
  if (typeof input.storage.webhooks !== "object" || input.storage.webhooks === null) {
    throw new TypeError(
      "createWebhookDispatcher needs a storage with the webhook store (storage.webhooks): kyselyWebhookStorage of @hireport/kysely/webhooks, memoryWebhookStorage of @hireport/webhooks/memory, or your own WebhookStorage",
    );
  }
  const concurrency = positiveInteger("concurrency", input.concurrency ?? 32);
  const options: ResolvedDispatcherOptions = {
    storage: input.storage,
    onEndpointPaused: input.onEndpointPaused,
    clock: input.clock ?? systemClock,
    logger: input.logger ?? console,
    pollIntervalMs: positiveInteger("pollIntervalMs", input.pollIntervalMs ?? 1000),
    concurrency,
    perEndpointConcurrency: positiveInteger("perEndpointConcurrency", input.perEndpointConcurrency ?? 4),
    prefetch: wholeNumber("prefetch", input.prefetch ?? 4 * concurrency),
    timeoutMs: positiveInteger("timeoutMs", input.timeoutMs ?? 10_000),
    leaseMs: positiveInteger("leaseMs", input.leaseMs ?? 20_000),
    retrySchedule: Object.freeze([...(input.retrySchedule ?? DEFAULT_RETRY_SCHEDULE_MS)]),
    pauseAfterFailures: positiveInteger("pauseAfterFailures", input.pauseAfterFailures ?? 50),
    maxEndpointsPerCompany: positiveInteger("maxEndpointsPerCompany", input.maxEndpointsPerCompany ?? 20),
    headerPrefix: input.headerPrefix ?? "Service",
    allowPrivateAddresses: input.allowPrivateAddresses ?? false,
    retentionDays: positiveInteger("retentionDays", input.retentionDays ?? 30),
    purgeIntervalMs: input.purgeIntervalMs ?? 3_600_000,
    retention: retentionRunner(input.retention),
    retentionIntervalMs: positiveInteger("retentionIntervalMs", input.retentionIntervalMs ?? 86_400_000),
    userAgent: input.userAgent ?? "hireport-webhooks/1.0",
    rotationGraceMs: input.rotationGraceMs ?? 86_400_000,
    tls: input.tls,
    resolveHost: input.resolveHost ?? systemResolver,
    encryptionKeys: resolveSecretKeys(input.encryptionKeys),
    telemetry: input.telemetry ?? undefined,
    health: resolveDispatcherHealth(input.health),
  };
  if (options.retention && input.retentionDays !== undefined) {
    throw new TypeError(
      "retentionDays and retention cannot both be given: with retention, set the days in createPublicApi({ retention: { eventDays } })",
    );
  }
  if (options.leaseMs <= options.timeoutMs + 5_000) {
    throw new TypeError("leaseMs must exceed timeoutMs by more than 5 seconds");
  }
  if (options.retrySchedule.some((delay) => !Number.isFinite(delay) || delay < 0)) {
    throw new TypeError("retrySchedule must hold delays in milliseconds, none negative");
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(options.headerPrefix)) {
    throw new TypeError("headerPrefix must be a header-name token such as Service");
  }
  return Object.freeze(options);
}

/** Creates the webhook dispatcher a host runs in its own process, on its own storage. */
export function createWebhookDispatcher(input: WebhookDispatcherOptions): WebhookDispatcher {
  const options = resolveOptions(input);
  const { storage, clock, logger } = options;
  const policy = options.allowPrivateAddresses ? null : createAddressPolicy();
  if (options.encryptionKeys.length === 0) {
    logger.warn(
      "hireport webhooks: signing secrets are stored in plaintext; pass encryptionKeys to createWebhookDispatcher to encrypt them",
    );
  }

  let sender: Sender | null = null;
  const getSender = (): Sender => {
    sender ??= createSender({ policy, resolve: options.resolveHost, tls: options.tls, timeoutMs: options.timeoutMs });
    return sender;
  };

  let purgeTimer: ReturnType<typeof setInterval> | null = null;
  let retentionStart: ReturnType<typeof setTimeout> | null = null;
  let retentionRun: Promise<void> | null = null;
  let backlog: BacklogTelemetry | null = null;

  const poll = createPollLoop({
    async pass() {
      backlog?.poll();
      const { done } = await runner.claim();
      done.catch(() => undefined);
    },
    intervalMs: options.pollIntervalMs,
    onError: (error, failures) =>
      logger.error("hireport webhooks: claiming deliveries failed", { error: String(error), failures }),
    // The storage is failing: back off (up to 30 s) instead of hammering it on every wake-up.
    backoffMs: (failures) => Math.min(30_000, options.pollIntervalMs * 2 ** Math.min(failures, 10)),
  });
  const wake = poll.wake;

  const runner = createDeliveryRunner({ options, sender: getSender, onCapacity: wake });

  async function purge(purgeOptions: PurgeOptions = {}): Promise<{ deliveries: number; events: number }> {
    const before = purgeOptions.before ?? new Date(clock.now().getTime() - options.retentionDays * 86_400_000);
    const deliveries = await storage.webhooks.purgeDeliveries(before);
    const events = await storage.events.purge(before);
    return { deliveries, events };
  }

  /** One retention run at a time; a failure is logged, never thrown into the loop. */
  function runRetention(apply: () => Promise<unknown>): void {
    if (retentionRun) return;
    retentionRun = apply()
      .then(
        () => undefined,
        (error: unknown) => logger.error("hireport webhooks: retention failed", { error: String(error) }),
      )
      .finally(() => {
        retentionRun = null;
      });
  }

  /** The periodic upkeep of the running loop: the host's retention when given, else this dispatcher's purge. */
  function startUpkeep(): void {
    const apply = options.retention;
    if (apply) {
      // Soon after start (a process rarely lives a whole day), then every interval.
      retentionStart = setTimeout(() => runRetention(apply), Math.min(options.pollIntervalMs, 5_000));
      retentionStart.unref?.();
      purgeTimer = setInterval(() => runRetention(apply), options.retentionIntervalMs);
      purgeTimer.unref?.();
      return;
    }
    if (options.purgeIntervalMs > 0) {
      purgeTimer = setInterval(() => {
        purge().catch((error: unknown) => logger.error("hireport webhooks: purge failed", { error: String(error) }));
      }, options.purgeIntervalMs);
      purgeTimer.unref?.();
    }
  }

  const dispatcher: WebhookDispatcher = {
    options,
    endpoints: createEndpointManager({ options, policy, wake }),
    deliveries: createDeliveryLog({ options, wake }),

    start() {
      if (poll.running) return;
      backlog = startBacklogTelemetry(options);
      poll.start();
      startUpkeep();
    },

    async stop() {
      // No claim starts from here on; the claim under way, if any, ends before the drain below.
      const halted = poll.stop();
      if (purgeTimer) clearInterval(purgeTimer);
      purgeTimer = null;
      if (retentionStart) clearTimeout(retentionStart);
      retentionStart = null;
      await retentionRun;
      await backlog?.stop();
      backlog = null;
      await halted;
      await runner.drain();
      const closing = sender;
      sender = null;
      await closing?.close();
    },

    async runOnce(runOptions = {}) {
      const passes = positiveInteger("maxPasses", runOptions.maxPasses ?? 1);
      const total: RunResult = { claimed: 0, succeeded: 0, retrying: 0, failed: 0, released: 0, lost: 0 };
      for (let pass = 0; pass < passes; pass++) {
        const { claimed, done } = await runner.claim("slots only");
        const counts = await done;
        for (const key of Object.keys(total) as Array<keyof RunResult>) total[key] += counts[key];
        if (claimed === 0) break;
      }
      return total;
    },

    notify() {
      if (poll.running) wake();
    },

    async sendTest(companyId, endpointId, changeOptions) {
      const endpoint = await storage.webhooks.getEndpoint(companyId, endpointId);
      if (!endpoint) throw notFound("webhook endpoint");
      const now = clock.now();
      // The envelope (docs/api-reference.md, The envelope), built by core as every event is; no endpoint subscribes to
      // webhook.test, so appending it fans out nothing: its one delivery is inserted here, held.
      const traceparent = options.telemetry?.traceparent();
      const event = newEvent({ type: "webhook.test", companyId, data: { endpoint_id: endpointId }, now, traceparent });
      const leaseToken = newLeaseToken();
      const leaseUntil = new Date(now.getTime() + options.leaseMs);
      const delivery: DeliveryRecord = {
        id: deliveryId(event.id, endpoint.id),
        endpointId,
        companyId,
        eventId: event.id,
        eventType: "webhook.test",
        status: "pending",
        attempts: 0,
        // Due only when the lease ends: should this process die mid-send, it is retried then.
        nextAttemptAt: leaseUntil,
        leaseExpiresAt: leaseUntil,
        leaseToken,
        createdAt: now,
        updatedAt: now,
      };
      await storage.transaction(async (tx) => {
        await tx.events.append(event);
        await tx.webhooks.insertDeliveries([delivery]);
        await recordAudit(
          tx,
          {
            companyId,
            actor: hostActor(changeOptions),
            action: "webhook_endpoint.test_sent",
            target: { type: "webhook_endpoint", id: endpointId },
            details: { delivery_id: delivery.id },
          },
          now,
        );
      });
      const report = await runner.sendHeld({
        claimed: { delivery, endpoint, payload: event.payload },
        leaseToken,
        leaseUntil,
      });
      const stored = await storage.webhooks.getDelivery(companyId, delivery.id);
      return { delivery: toDeliveryView(stored ?? delivery), attempt: report.attempt, result: report.result };
    },

    purge,

    async jwks(companyId, jwksOptions = {}) {
      const records = await storage.webhooks.listEndpoints(companyId);
      const chosen = jwksOptions.endpointId
        ? records.filter((record) => record.id === jwksOptions.endpointId)
        : records;
      return buildJwks(chosen, createSecretBox(options.encryptionKeys), clock.now());
    },
    health: dispatcherHealth(options),
    reencryptSecrets: (reencryptOptions) =>
      reencryptSecrets(storage, createSecretBox(options.encryptionKeys), reencryptOptions),
  };
  return dispatcher;
}
