/**
 * What hireport reports to a tracing and metrics system, as an interface: `@hireport/core/telemetry`
 * implements it over `@opentelemetry/api` (`openTelemetry()`), and the host passes it as the
 * `telemetry` option of `createPublicApi` and of `createWebhookDispatcher` (the careers site and the
 * console use the API's). Without the option nothing is measured and nothing is loaded. The names
 * it reports are listed in docs/observability.md.
 */
import type { HeaderBag } from "./http-types";

/** Why the API refused a request with 429 before running it. */
export type RefusalReason = "rate_limited" | "daily_limit";

/**
 * Which handler of hireport a request went to: the public API (`createPublicApi`), the careers
 * site (`createCareers`) or the console (`createConsole`).
 */
export type RequestSurface = "api" | "careers" | "console";

/** Where a request came from, for its server span. */
export interface RequestSource {
  surface: RequestSurface;
  /**
   * The request's headers as the adapter gave them: a sender's trace context (W3C `traceparent`
   * and `tracestate`) is read from them.
   */
  headers: HeaderBag | Headers;
}

/**
 * How one request ended, reported on its span (and, for the API, its metrics). Ids only: personal
 * data (a candidate's name, e-mail, CV, a console user's name) never goes into telemetry.
 */
export interface RequestOutcome {
  /** The route template (`/jobs/{id}`), or the path as sent when no route matched. */
  route: string;
  /** True when `route` is a route template of the handler (false for a 404 or 405 on an unknown path). */
  routed: boolean;
  status: number;
  /** The company the request was for, once known (for the API: once the key is known valid); else null. */
  companyId: string | null;
  /** The id of the API key, once it is known valid; else null. */
  keyId: string | null;
  /** Set when an API request was refused for a rate limit. */
  refused: RefusalReason | null;
  /** The careers site: the job applied to. */
  jobId?: string | null;
  /** The careers site: the application the request made or acted on. */
  applicationId?: string | null;
  /** The console: the change the form asked for, named as its audit entry (`key.created`). */
  action?: string | null;
  /** The console: the signed-in user's id, when the host gives one (never the name). */
  userId?: string | null;
}

/** One API request under way: its server span. */
export interface RequestTelemetry {
  /** Runs the request's work with its span active (the events it emits are linked to it). */
  run<T>(work: () => T): T;
  /** Ends the span and records the request's metrics. Called once. */
  end(outcome: RequestOutcome): void;
}

/** One webhook attempt about to be sent. */
export interface WebhookAttemptStart {
  /** The receiver's address, without credentials and with the query's values redacted. */
  url: string;
  eventType: string;
  deliveryId: string;
  /** The W3C `traceparent` stored with the event when it was emitted under a span: the attempt's span links to it. */
  traceparent: string | undefined;
  /** Seconds from the event's creation to this attempt, for a delivery's first attempt; null for a retry. */
  lagSeconds: number | null;
}

/** What became of a webhook attempt: the dispatcher's `DeliveryResult`. */
export type WebhookAttemptResult = "succeeded" | "retrying" | "failed" | "released" | "lost";

/** How one webhook attempt ended. */
export interface WebhookAttemptOutcome {
  /** The receiver's status, or null when none came (timeout, refused connection, not sent). */
  statusCode: number | null;
  result: WebhookAttemptResult;
  /** The transport error, when the request failed without a status. */
  error: string | null;
}

/** One webhook attempt under way: its client span. */
export interface WebhookAttemptTelemetry {
  /** Ends the span and counts the attempt. Called once. */
  end(outcome: WebhookAttemptOutcome): void;
}

/** A gauge hireport reports when the metrics system reads it. */
export type ObservedGauge = "hireport.usage.pending" | "hireport.outbox.backlog";

/** Where hireport reports traces and metrics: `openTelemetry()` of `@hireport/core/telemetry`. */
export interface Telemetry {
  /**
   * Starts the server span of a request (`method` as sent, upper case): every request of the API,
   * the careers site's applications and the console's changes (`source.surface` says which). The
   * span continues the trace of the sender's `traceparent` when the implementation trusts it.
   */
  startRequest(method: string, source: RequestSource): RequestTelemetry;
  /** The W3C `traceparent` of the span active now, if there is one (stored with events emitted under it). */
  traceparent(): string | undefined;
  /** Starts the client span of one webhook attempt. */
  startWebhookAttempt(attempt: WebhookAttemptStart): WebhookAttemptTelemetry;
  /**
   * Reports `read()` as the gauge `name` each time metrics are collected (nothing while it returns
   * undefined: no value is known); the function returned stops it.
   */
  observe(name: ObservedGauge, read: () => number | undefined): () => void;
}

/** The field, last in a stored event's JSON, that carries the trace context it was emitted under. */
const TRACE_FIELD = ',"_hireport_traceparent":"';
/** `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>` */
const TRACEPARENT_LENGTH = 55;
const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/**
 * The stored text of an event emitted under a span: its envelope with the trace context as a last
 * field. The dispatcher takes it off again ({@link sentPayload}): receivers never see it, and
 * the signature covers the envelope alone.
 */
export function withEventTrace(payload: string, traceparent: string): string {
  if (!TRACEPARENT.test(traceparent) || !payload.endsWith("}")) return payload;
  return `${payload.slice(0, -1)}${TRACE_FIELD}${traceparent}"}`;
}

/** Where the trace field starts in a stored event's text, or -1 when it carries none. */
function traceFieldAt(stored: string): number {
  const at = stored.length - 2 - TRACEPARENT_LENGTH - TRACE_FIELD.length;
  return at > 0 && stored.endsWith('"}') && stored.startsWith(TRACE_FIELD, at) ? at : -1;
}

/** The exact text that is signed and sent for a stored event: its envelope, without the trace field. */
export function sentPayload(stored: string): string {
  const at = traceFieldAt(stored);
  return at === -1 ? stored : `${stored.slice(0, at)}}`;
}

/** The W3C `traceparent` stored with an event, if it was emitted under a span. */
export function eventTraceparent(stored: string): string | undefined {
  const at = traceFieldAt(stored);
  return at === -1 ? undefined : stored.slice(at + TRACE_FIELD.length, -2);
}
