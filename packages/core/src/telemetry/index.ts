/**
 * `@hireport/core/telemetry`: `openTelemetry()`, the `Telemetry` of `createPublicApi` and
 * `createWebhookDispatcher` over `@opentelemetry/api` (an optional peer dependency: only this entry
 * loads it). It reports to the tracer and meter providers the host's OpenTelemetry SDK registered;
 * with none registered, the API's no-op providers record nothing. Every span, attribute and
 * metric name is listed in docs/observability.md.
 */
import {
  type Attributes,
  context,
  isSpanContextValid,
  type Link,
  type MeterProvider,
  metrics,
  type ObservableResult,
  SpanKind,
  SpanStatusCode,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import type {
  ObservedGauge,
  RequestOutcome,
  RequestTelemetry,
  Telemetry,
  WebhookAttemptOutcome,
  WebhookAttemptStart,
  WebhookAttemptTelemetry,
} from "../telemetry";

export type {
  ObservedGauge,
  RefusalReason,
  RequestOutcome,
  RequestTelemetry,
  Telemetry,
  WebhookAttemptOutcome,
  WebhookAttemptResult,
  WebhookAttemptStart,
  WebhookAttemptTelemetry,
} from "../telemetry";

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
    startRequest(sentMethod: string): RequestTelemetry {
      const started = performance.now();
      const method = KNOWN_METHODS.has(sentMethod) ? sentMethod : "_OTHER";
      const attributes: Attributes = { "http.request.method": method };
      if (method !== sentMethod) attributes["http.request.method_original"] = sentMethod;
      const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes });
      const active = trace.setSpan(context.active(), span);
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
          if (outcome.companyId !== null) span.setAttribute("hireport.company.id", outcome.companyId);
          if (outcome.keyId !== null) span.setAttribute("hireport.key.id", outcome.keyId);
          span.end();
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

    observe(name: ObservedGauge, read: () => number) {
      const gauge = meter.createObservableGauge(name, GAUGE_UNITS[name]);
      const callback = (result: ObservableResult) => result.observe(read());
      gauge.addCallback(callback);
      return () => gauge.removeCallback(callback);
    },
  };
}
