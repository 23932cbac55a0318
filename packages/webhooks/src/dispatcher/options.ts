import type { Clock, Logger, Telemetry } from "@hireport/core";
import type { WebhookEndpoint } from "../endpoints/endpoint-view";
import type { HostResolver } from "../network/ssrf-guard";
import type { ResolvedSecretKey, SecretEncryptionKey } from "../signing/secret-encryption";
import type { WebhookStorage } from "../store/webhook-storage";
import type { DispatcherHealthOptions, ResolvedDispatcherHealth } from "./health";

/** The retry delays (docs/api-reference.md, Delivery, retries and pausing): 1 min, 5 min, 30 min, 2 h, 6 h, 12 h. */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
];

export interface WebhookDispatcherOptions {
  /**
   * The storage, with the webhook store: `kyselyWebhookStorage(...)` from `@hireport/kysely/webhooks`,
   * `memoryWebhookStorage()` from `@hireport/webhooks/memory`, or another implementation of
   * {@link WebhookStorage}.
   */
  storage: WebhookStorage;
  /**
   * Called once when an endpoint is paused after `pauseAfterFailures` failed attempts in a row, and
   * once when a receiver's 410 Gone disables it (`status` tells which), so the host can tell the
   * company's owners (docs/api-reference.md, Delivery, retries and pausing). Errors it throws are logged.
   * @default none
   */
  onEndpointPaused?: (endpoint: WebhookEndpoint) => void | Promise<void>;
  /** Time source for leases, due times, signatures and records. @default the system clock */
  clock?: Clock;
  /** Where failures of the dispatcher itself are logged (not failed deliveries: those are recorded). @default console */
  logger?: Logger;
  /** How often `start()` looks for due deliveries when nothing wakes it, in milliseconds. @default 1000 */
  pollIntervalMs?: number;
  /** Most requests in flight at once in this dispatcher, over all endpoints. @default 32 */
  concurrency?: number;
  /** Most requests in flight at once to one endpoint, so one slow endpoint cannot take every slot. @default 4 */
  perEndpointConcurrency?: number;
  /**
   * Deliveries the running loop may claim ahead of its free request slots, to wait in memory
   * (leased, the leases renewed by the heartbeat) until a slot frees: a claim then brings many
   * deliveries at once, and the storage sees a few large claims instead of one small claim for
   * every few finished requests. Spread over endpoints as the slots are: one endpoint holds at most
   * `perEndpointConcurrency + ceil(prefetch × perEndpointConcurrency / concurrency)` deliveries (in
   * flight and waiting). 0 claims only what can start at once; `runOnce` never claims ahead.
   * @default 4 × concurrency
   */
  prefetch?: number;
  /**
   * Time a receiver has to answer with a status, in milliseconds, counted from the start of the
   * attempt: looking up the receiver's name and connecting count too. @default 10000
   */
  timeoutMs?: number;
  /**
   * How long a claimed delivery stays reserved for this dispatcher, in milliseconds. While it holds
   * deliveries the dispatcher extends their leases every `leaseMs / 4` (a heartbeat), so a
   * dispatcher that dies leaves them to another within `leaseMs` of its last beat. Must exceed
   * `timeoutMs` by more than 5 s, so a request started under a fresh lease ends inside it even when
   * the heartbeat cannot reach the storage. @default 20000
   */
  leaseMs?: number;
  /**
   * Delays before each retry, in milliseconds; after the last one the delivery is `failed` (still
   * resendable). @default [60000, 300000, 1800000, 7200000, 21600000, 43200000] (1 min, 5 min, 30 min, 2 h, 6 h, 12 h)
   */
  retrySchedule?: readonly number[];
  /** Failed attempts in a row after which an endpoint is paused. @default 50 */
  pauseAfterFailures?: number;
  /**
   * Most endpoints one company may have (whatever their status), so that one company cannot fan
   * each event out to thousands of addresses: `endpoints.create` (the console's form, `POST
   * /webhook-endpoints` of the API) refuses one more with 409 `endpoint_limit`. @default 20
   */
  maxEndpointsPerCompany?: number;
  /** Prefix of the three headers: `${prefix}-Event`, `${prefix}-Delivery`, `${prefix}-Signature`. @default "Service" */
  headerPrefix?: string;
  /**
   * Turns the SSRF guard off: endpoints may then use http: and point to loopback, private and
   * link-local addresses. For local receivers in development and tests only. @default false
   */
  allowPrivateAddresses?: boolean;
  /**
   * Days deliveries, attempts and events are kept; `purge()` and the running loop delete older ones.
   * Not together with `retention` (whose `eventDays` says it then). @default 30
   */
  retentionDays?: number;
  /** How often the running loop purges (0 turns it off). Unused with `retention`. @default 3600000 (1 hour) */
  purgeIntervalMs?: number;
  /**
   * The host's retention, for the running loop to apply every `retentionIntervalMs` (and once soon
   * after `start()`): `api.retention` of `createPublicApi` (its `purge()` erases applications past
   * their periods and deletes old usage entries, events and deliveries), or any function that does
   * the purging. With it, the loop no longer runs this dispatcher's own `purge()`: events and
   * deliveries then go after the `retention.eventDays` of `createPublicApi`. One run at a time;
   * `stop()` waits for a run under way; failures are logged. Null is the same as none. @default none
   */
  retention?: RetentionRunner | (() => Promise<unknown>) | null;
  /** How often the running loop applies `retention`. @default 86400000 (daily) */
  retentionIntervalMs?: number;
  /** `User-Agent` of every request. @default "hireport-webhooks/1.0" */
  userAgent?: string;
  /** How long an old secret keeps signing beside the new one after `rotateSecret`, in milliseconds. @default 86400000 (24 h) */
  rotationGraceMs?: number;
  /**
   * TLS settings for connections to receivers: `ca` adds trusted certificate authorities (a private
   * CA, or a test certificate). Certificates are always verified. @default the system's CAs
   */
  tls?: { ca?: string | Buffer | Array<string | Buffer> };
  /**
   * Resolves receivers' host names. The guard checks every address it returns and connects to the
   * checked one. @default node:dns lookup (getaddrinfo)
   */
  resolveHost?: HostResolver;
  /**
   * Keys that seal signing secrets at rest (AES-256-GCM): new secrets are sealed with the first,
   * and a stored secret opens with the key whose id it names. To rotate, put a new key first, keep
   * the old ones, run `reencryptSecrets()`, then drop the old ones. Without keys, secrets are
   * stored in plaintext (the dispatcher warns once). @default none
   */
  encryptionKeys?: readonly SecretEncryptionKey[];
  /**
   * Traces and metrics: `openTelemetry()` of `@hireport/core/telemetry` (it needs the optional peer
   * `@opentelemetry/api`). Each attempt then has a client span linked to the span its event was
   * emitted under, and is counted; a started dispatcher reports the gauge `hireport.outbox.backlog`
   * (see docs/observability.md). Null is the same as none.
   * @default none (nothing is measured)
   */
  telemetry?: Telemetry | null;
  /**
   * When `dispatcher.health()` reports unhealthy: the lag and backlog limits.
   * @default lag over 5 minutes or more than 10000 deliveries due, 5000 ms per check
   */
  health?: DispatcherHealthOptions;
}

/** What runs retention: `api.retention` of `createPublicApi` fits. */
export interface RetentionRunner {
  purge(): Promise<unknown>;
}

/** The options with every default applied, frozen. */
export type ResolvedDispatcherOptions = Readonly<
  Required<
    Omit<WebhookDispatcherOptions, "onEndpointPaused" | "tls" | "encryptionKeys" | "retention" | "telemetry" | "health">
  > &
    Pick<WebhookDispatcherOptions, "onEndpointPaused" | "tls"> & {
      encryptionKeys: readonly ResolvedSecretKey[];
      /** The `retention` option as a function, or null. */
      retention: (() => Promise<unknown>) | null;
      telemetry: Telemetry | undefined;
      /** The `health` option with its defaults. */
      health: ResolvedDispatcherHealth;
    }
>;
