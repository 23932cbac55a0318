import type { UsageLogMode } from "../access/usage-log";
import type { Clock } from "../base/clock";
import type { Logger } from "../base/logger";
import type { Telemetry } from "../base/telemetry";
import type { ApiExtension } from "../http/extension";
import type { HealthOptions } from "../http/health";
import type { ResumeSource, ScoringFunction } from "../runtime/host-functions";
import type { ChangeDetectionOptions } from "../services/changes";
import type { RetentionOptions } from "../services/retention";
import type { FileStore, Storage } from "../storage";

export interface LimitsOptions {
  /** Requests per minute per key. @default 120 */
  perMinute?: number;
  /** Requests per day per key (UTC days). @default 20000 */
  perDay?: number;
  /** Active keys per company. @default 10 */
  activeKeysPerCompany?: number;
  /** Largest request body in bytes; more answers 413. @default 1048576 (1 MiB) */
  maxBodyBytes?: number;
  /** Days in which the same e-mail may apply to the same job only once. @default 30 */
  duplicateWindowDays?: number;
}

export interface CreatePublicApiOptions {
  /**
   * The storage: `kyselyStorage(...)` from `@hireport/kysely` (`kyselyWebhookStorage(...)` from
   * `@hireport/kysely/webhooks` when the webhook dispatcher runs on it too), or your own implementation.
   */
  storage: Storage;
  /**
   * Root address of the host's public site, without a trailing slash. Job pages are
   * `{publicBaseUrl}/jobs/{id}` and CV links `{publicBaseUrl}{filesPath}/{token}`
   * (`{publicBaseUrl}/files/cv/{token}` with the default `filesPath`).
   */
  publicBaseUrl: string;
  /**
   * Secret (at least 32 characters) that signs CV links (HS256) and list cursors. Keep it out of
   * the code; rotating it invalidates open CV links and cursors.
   */
  fileTokenSecret: string;
  /**
   * The root of a company's careers site, no trailing slash, for a host with one site per company
   * (a subdomain, `https://acme.jobs.example.com`, or a path segment, `https://example.com/c/acme`).
   * A public job's `public_url` is `{site}/jobs/{id}`, the page `@hireport/careers` serves there;
   * its feeds and structured data use the same addresses. Called with the job's company (its id:
   * the API reads no company row to serialize a job), so it must be fast and synchronous.
   * @default every company's site is `publicBaseUrl`
   */
  publicSiteUrl?: (company: { id: string }) => string;
  /**
   * Whether the host serves public job pages (with `@hireport/careers`, or pages of its own at
   * `{site}/jobs/{id}`). `false` for a host without them: every job's `public_url` is then null, in
   * answers, events and `api.publicJobs.url()`, and `@hireport/careers` refuses this API. The
   * public-job rule still holds for the rest (`api.publicJobs.list()`, `isPublic()`).
   * @default true
   */
  publicJobPages?: boolean;
  /**
   * The IANA time zone in which a company's closing dates are read (the public-job rule): a job
   * closing on `2026-03-31` is public through the whole of that day there and leaves at the next
   * midnight. One zone for every company, or a function of the company.
   * @default "UTC"
   */
  closingTimeZone?: string | ((company: { id: string }) => string);
  /** Path prefix of the API, stripped from `ApiRequest.path` when present. @default "/api/public/v1" */
  basePath?: string;
  /** Path prefix of the CV file route. @default "/files/cv" */
  filesPath?: string;
  /** Lifetime of a CV link in seconds. @default 900 (15 minutes) */
  fileTokenTtlSeconds?: number;
  /** Rate limits, key count, body size and the duplicate window. */
  limits?: LimitsOptions;
  /** Scores a new application from 0 to 100. @default the skills match of `skillsMatchScore` */
  scoring?: ScoringFunction;
  /**
   * Serves the CV of an application on the file route. @default redirect to the https address the
   * client sent, or 404 when there is none
   */
  resolveResume?: (application: {
    id: string;
    companyId: string;
    resumeSourceUrl: string | null;
  }) => ResumeSource | Promise<ResumeSource>;
  /**
   * Where CVs uploaded through the careers site are kept (`kyselyFileStore` of `@hireport/kysely`,
   * a folder, or your own). The CV route streams an application's stored file from it, erasing
   * a candidate deletes the file, and `api.retention.purge()` deletes files no application names
   * (see `retention.orphanFileGraceMinutes`). @default none: applications carry only the https CV
   * links sent over the API
   */
  fileStore?: FileStore;
  /**
   * How long each kind of data is kept, in days: applications per stage group (erased, not
   * deleted), the usage log, events and deliveries; and, in minutes, CV files no application names.
   * `api.retention.purge()` applies it; the webhook dispatcher can run it daily. @default no
   * application is erased, the usage log is kept, events and finished deliveries go after 30 days,
   * CV files no application names after an hour
   */
  retention?: RetentionOptions;
  /**
   * How long GET /events serves an event, in days from its creation (a whole number from 1 to
   * 3650): the feed's window, for a company's system that cannot receive webhooks and polls
   * instead. `api.retention.purge()` keeps every event at least this long, even when its
   * deliveries are finished and `retention.eventDays` is shorter. A cursor from a page read longer
   * ago than this answers 410 `cursor_expired`. A webhook dispatcher that purges on its own
   * (without its `retention` option) must keep events as long: give it `retentionDays` of at least
   * this, or `retention: api.retention`. @default 30
   */
  eventFeedDays?: number;
  /**
   * The change detector (`api.changes`): how often `api.changes.start()` looks for changes hireport
   * did not make in a product's declared tables, and how far back. Nothing runs until the host calls
   * `start()` or `poll()`. @default every 5 s, changes at least 2 s old, re-reading the last 60 s, 200 records a transaction
   */
  changes?: ChangeDetectionOptions;
  /** Where failures are logged; the detail of a 500 is logged here, never sent. @default console */
  logger?: Logger;
  /** Time source. @default the system clock */
  clock?: Clock;
  /**
   * Entries per usage-log write. A full batch is written at once, and while requests keep coming
   * only full batches are: entries recorded during a write wait for the next full batch.
   * @default 100
   */
  usageBatchSize?: number;
  /**
   * Longest wait of a usage-log entry before it is written (with whatever is pending then), in
   * milliseconds. @default 250
   */
  usageFlushMs?: number;
  /**
   * How the usage log is written. `"batched"`: in batches off the request path, at most
   * `usageBatchSize` entries or `usageFlushMs` behind (a process killed without `close()` loses
   * those). `"durable"`: each request's entry is written before its answer leaves, the entries of
   * concurrent requests together in one write (group commit), so every answered request is in
   * the log even after a crash, at the cost of a write's latency on every answer.
   * @default "batched"
   */
  usageLog?: UsageLogMode;
  /**
   * The most reference numbers (`JOB-1042`, `APP-20931`) one process reserves at once from a
   * company's counter. A process that numbers a company's jobs or applications fast reserves them
   * in blocks, sized by how fast they go (each used up within a second: the next twice as large,
   * up to this), so concurrent creates do not queue on the counter. Numbers stay unique per
   * company and in order within a process; across processes blocks interleave, and a block's
   * unused numbers are skipped when its process stops. `1` reserves each number alone: numbers
   * then follow creation order across processes, at one more write per create that concurrent
   * creates queue on. At most 1000.
   * @default 16
   */
  maxReferenceBlock?: number;
  /**
   * Routes other packages add to the API, through the same pipeline as its own (key, rate limit,
   * usage log, permission, validation, Idempotency-Key, errors) and in its OpenAPI document:
   * `webhookEndpointsApi(dispatcher)` of `@hireport/webhooks` adds `/webhook-endpoints` and
   * `/event-samples/{type}`. Without it those paths answer 404. A route that clashes with another
   * (its method and path, or its operation id) throws here.
   * @default none
   */
  extensions?: readonly ApiExtension[];
  /**
   * Called after each committed change with the new event, in this process. The webhook
   * dispatcher's `notify` goes here so that a change wakes it at once.
   */
  onEvent?: (event: { id: string; type: string; companyId: string }) => void;
  /**
   * Traces and metrics: `openTelemetry()` of `@hireport/core/telemetry` (it needs the optional peer
   * `@opentelemetry/api`), or another implementation of `Telemetry`. Each API request then has a
   * server span and its metrics, and events carry the trace context they were emitted under; the
   * careers site and the console given this API report their spans to it too (`api.telemetry`).
   * See docs/observability.md. Null is the same as none. @default none (nothing is measured)
   */
  telemetry?: Telemetry | null;
  /**
   * What `api.health()` checks besides the storage, and how long it waits for each check.
   * @default the storage check and the open check alone, 5000 ms each
   */
  health?: HealthOptions;
}
