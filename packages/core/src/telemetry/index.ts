/**
 * `@hireport/core/telemetry`: `openTelemetry()`, the `Telemetry` of `createPublicApi` and
 * `createWebhookDispatcher` over `@opentelemetry/api` (an optional peer dependency: only this entry
 * loads it). It reports to the tracer and meter providers the host's OpenTelemetry SDK registered;
 * with none registered, the API's no-op providers record nothing. Every span, attribute and
 * metric name is listed in docs/observability.md.
 */
import {
  type Attributes,
  type Context,
  context,
  isSpanContextValid,
  type Link,
  type MeterProvider,
  metrics,
  type ObservableResult,
  SpanKind,
  SpanStatusCode,
  type TextMapPropagator,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import type {
  ObservedGauge,
  RequestOutcome,
  RequestSource,
  RequestSurface,
  RequestTelemetry,
  Telemetry,
  WebhookAttemptOutcome,
  WebhookAttemptStart,
  WebhookAttemptTelemetry,
} from "../base/telemetry";
import { incomingTrace } from "./incoming-trace";

export type {
  ObservedGauge,
  RefusalReason,
  RequestOutcome,
  RequestSource,
  RequestSurface,
  RequestTelemetry,
  Telemetry,
  WebhookAttemptOutcome,
  WebhookAttemptResult,
  WebhookAttemptStart,
  WebhookAttemptTelemetry,
} from "../base/telemetry";

/** Which requests may continue the trace their sender started, by the handler they go to. */
export interface TrustIncomingTrace {
  /** Requests of the public API (callers hold a key). @default true */
  api?: boolean;
  /** The careers site's applications (anyone on the internet may send them). @default false */
  careers?: boolean;
  /** The console's changes (people the host signed in). @default true */
  console?: boolean;
}

export interface OpenTelemetryOptions {
  /** Where spans go. @default the global tracer provider (`trace.getTracerProvider()`) */
  tracerProvider?: TracerProvider;
  /**
   * Where metrics go. The global meter provider is read when `openTelemetry()` is called: start
   * the SDK first. @default the global meter provider (`metrics.getMeterProvider()`)
   */
  meterProvider?: MeterProvider;
  /** The instrumentation scope's name, on every span and metric. @default "hireport" */
  scopeName?: string;
  /**
   * Reads a sender's trace context from a request's headers. With no propagator registered
   * globally, hireport reads the W3C `traceparent` and `tracestate` headers itself, strictly.
   * @default the global propagator (`propagation`), or the W3C headers when none is registered
   */
  propagator?: TextMapPropagator;
  /**
   * Which requests continue the trace their sender's headers name (the server span's parent is the
   * sender's span). An untrusted request starts a trace of its own instead, and its server span
   * links to the sender's span. `true` trusts every handler, `false` none. Invalid headers are
   * ignored, and a span already active (the host's HTTP instrumentation's) is the parent whatever
   * the headers say.
   * @default { api: true, careers: false, console: true }
   */
  trustIncomingTrace?: boolean | TrustIncomingTrace;
}

/** The methods HTTP semantic conventions name; any other is reported as `_OTHER`. */
const KNOWN_METHODS = new Set(["CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE"]);

/** The buckets HTTP semantic conventions advise for `http.server.request.duration`, in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

const GAUGE_UNITS: Record<ObservedGauge, { unit: string; description: string }> = {
  "hireport.usage.pending": { unit: "{entry}", description: "Usage log entries recorded and not written yet." },
  "hireport.outbox.backlog": { unit: "{delivery}", description: "Webhook deliveries waiting to be sent." },
};

/** {@link OpenTelemetryOptions.trustIncomingTrace} with its defaults applied. */
function trustBySurface(option: OpenTelemetryOptions["trustIncomingTrace"]): Readonly<Record<RequestSurface, boolean>> {
  if (typeof option === "boolean") return { api: option, careers: option, console: option };
  return { api: option?.api ?? true, careers: option?.careers ?? false, console: option?.console ?? true };
}

/** A link to the span a stored `traceparent` names, if it is a valid one. */
function linkTo(traceparent: string | undefined): Link[] | undefined {
  const match = traceparent === undefined ? null : TRACEPARENT.exec(traceparent);
  if (!match) return undefined;
  const spanContext = {
    traceId: match[1] as string,
    spanId: match[2] as string,
    traceFlags: Number.parseInt(match[3] as string, 16),
    isRemote: true,
  };
  return isSpanContextValid(spanContext) ? [{ context: spanContext }] : undefined;
}

/**
 * The `Telemetry` of hireport over OpenTelemetry: a server span and metrics per API request, a
 * client span per webhook attempt linked to the span that emitted its event, and the gauges.
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): Telemetry {
  const scope = options.scopeName ?? "hireport";
  const trusted = trustBySurface(options.trustIncomingTrace);
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(scope);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(scope);
  const duration = meter.createHistogram("http.server.request.duration", {
    unit: "s",
    description: "Duration of API requests.",
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  const refused = meter.createCounter("hireport.requests.refused", {
    unit: "{request}",
    description: "API requests refused with 429 by a rate limit.",
  });
  const attempts = meter.createCounter("hireport.webhook.attempts", {
    unit: "{attempt}",
    description: "Webhook delivery attempts, by outcome.",
  });
  const lag = meter.createHistogram("hireport.webhook.lag", {
    unit: "s",
    description: "Time from an event's creation to the first attempt of its delivery.",
  });

  return {
    startRequest(sentMethod: string, source: RequestSource): RequestTelemetry {
      const started = performance.now();
      const method = KNOWN_METHODS.has(sentMethod) ? sentMethod : "_OTHER";
      const surface = source?.surface ?? "api";
      const attributes: Attributes = { "http.request.method": method, "hireport.surface": surface };
      if (method !== sentMethod) attributes["http.request.method_original"] = sentMethod;
      let parent: Context = context.active();
      let links: Link[] | undefined;
      const local = trace.getSpanContext(parent);
      // A span already active (the host's HTTP instrumentation's) is the parent: it has read the
      // headers itself. Otherwise the sender's trace context, if any, is the parent or a link.
      if (!local || !isSpanContextValid(local)) {
        const sender = incomingTrace(source?.headers, parent, options.propagator);
        if (sender && trusted[surface]) parent = sender.context;
        else if (sender) links = [{ context: sender.spanContext }];
      }
      const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes, ...(links ? { links } : {}) }, parent);
      const active = trace.setSpan(parent, span);
      return {
        run: (work) => context.with(active, work),
        end(outcome: RequestOutcome) {
          const measured: Attributes = {
            "http.request.method": method,
            "http.response.status_code": outcome.status,
          };
          if (outcome.routed) {
            measured["http.route"] = outcome.route;
            span.updateName(`${method} ${outcome.route}`);
          }
          if (outcome.status >= 500) {
            measured["error.type"] = String(outcome.status);
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
          span.setAttributes(measured);
          const ids: Attributes = {
            "hireport.company.id": outcome.companyId ?? undefined,
            "hireport.key.id": outcome.keyId ?? undefined,
            "hireport.job.id": outcome.jobId ?? undefined,
            "hireport.application.id": outcome.applicationId ?? undefined,
            "hireport.console.action": outcome.action ?? undefined,
            "user.id": outcome.userId ?? undefined,
          };
          for (const [name, value] of Object.entries(ids)) if (value !== undefined) span.setAttribute(name, value);
          span.end();
          // The metrics are the API's: the careers site and the console have spans alone.
          if (surface !== "api") return;
          duration.record((performance.now() - started) / 1000, measured);
          if (outcome.refused !== null) refused.add(1, { "hireport.refusal.reason": outcome.refused });
        },
      };
    },

    traceparent() {
      const spanContext = trace.getActiveSpan()?.spanContext();
      if (!spanContext || !isSpanContextValid(spanContext)) return undefined;
      const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, "0");
      return `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
    },

    startWebhookAttempt(attempt: WebhookAttemptStart): WebhookAttemptTelemetry {
      const links = linkTo(attempt.traceparent);
      const span = tracer.startSpan("POST", {
        kind: SpanKind.CLIENT,
        ...(links ? { links } : {}),
        attributes: {
          "http.request.method": "POST",
          "url.full": attempt.url,
          "hireport.event.type": attempt.eventType,
          "hireport.delivery.id": attempt.deliveryId,
        },
      });
      if (attempt.lagSeconds !== null) lag.record(attempt.lagSeconds, { "hireport.event.type": attempt.eventType });
      return {
        end(outcome: WebhookAttemptOutcome) {
          if (outcome.statusCode !== null) span.setAttribute("http.response.status_code", outcome.statusCode);
          if (outcome.result !== "succeeded" && outcome.result !== "released") {
            const errorType = outcome.statusCode !== null ? String(outcome.statusCode) : "_OTHER";
            span.setAttribute("error.type", errorType);
            span.setStatus({ code: SpanStatusCode.ERROR, ...(outcome.error ? { message: outcome.error } : {}) });
          }
          span.setAttribute("hireport.webhook.outcome", outcome.result);
          span.end();
          attempts.add(1, { "hireport.webhook.outcome": outcome.result });
        },
      };
    },

    observe(name: ObservedGauge, read: () => number | undefined) {
      const gauge = meter.createObservableGauge(name, GAUGE_UNITS[name]);
      const callback = (result: ObservableResult) => {
        const value = read();
        if (value !== undefined) result.observe(value);
      };
      gauge.addCallback(callback);
      return () => gauge.removeCallback(callback);
    },
  };
}
