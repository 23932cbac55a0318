/**
 * OpenTelemetry for the example's processes, on when HIREPORT_OTEL=console: an SDK that prints
 * spans and metrics to the console (ConsoleSpanExporter, ConsoleMetricExporter every
 * HIREPORT_OTEL_METRICS_MS, 60000 by default). In production you register your SDK the same way with
 * an OTLP exporter instead (or use @opentelemetry/sdk-node); hireport reports through
 * `openTelemetry()` of `@hireport/core/telemetry` to whatever providers are registered.
 * docs/observability.md lists the spans and metrics.
 */
import type { Telemetry } from "@hireport/core";
import { openTelemetry } from "@hireport/core/telemetry";
import { context, metrics, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { ConsoleMetricExporter, MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { env } from "./config";

export interface ExampleTelemetry {
  /** What `createPublicApi` and `createWebhookDispatcher` take as `telemetry`; null when off. */
  telemetry: Telemetry | null;
  /** Exports what is left and stops the SDK. */
  shutdown(): Promise<void>;
}

export function startTelemetry(): ExampleTelemetry {
  const mode = env("HIREPORT_OTEL");
  if (mode === undefined) return { telemetry: null, shutdown: async () => {} };
  if (mode !== "console") throw new TypeError(`HIREPORT_OTEL must be "console" (got ${mode})`);
  // Without a context manager no span is ever active: events would carry no trace context.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())],
  });
  const meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new ConsoleMetricExporter(),
        exportIntervalMillis: Number(env("HIREPORT_OTEL_METRICS_MS") ?? 60_000),
      }),
    ],
  });
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    // After the providers are registered: openTelemetry() reads the global meter provider once.
    telemetry: openTelemetry(),
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}
