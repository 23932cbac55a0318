/**
 * An OpenTelemetry SDK held in memory, as a host would register one: spans read back from an
 * in-memory exporter, metrics from a reader collected by hand, and the async-hooks context manager
 * (without one, no span is ever active and events carry no trace context).
 */
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  type DataPoint,
  type Histogram,
  MeterProvider,
  type MetricData,
  MetricReader,
} from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";

class CollectedByHand extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

export interface MemorySdk {
  exporter: InMemorySpanExporter;
  tracerProvider: BasicTracerProvider;
  meterProvider: MeterProvider;
  /** Every metric collected now, by name. */
  metrics(): Promise<Map<string, MetricData>>;
  shutdown(): Promise<void>;
}

export function memorySdk(): MemorySdk {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new CollectedByHand();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    exporter,
    tracerProvider,
    meterProvider,
    async metrics() {
      const { resourceMetrics } = await reader.collect();
      const byName = new Map<string, MetricData>();
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
      }
      return byName;
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      context.disable();
    },
  };
}

/** The data points of a metric with their attributes and values (a histogram's count and sum). */
export function points(metric: MetricData | undefined): { attributes: Record<string, unknown>; value: unknown }[] {
  if (!metric) return [];
  return (metric.dataPoints as DataPoint<number | Histogram>[]).map((point) => ({
    attributes: { ...point.attributes },
    value: typeof point.value === "number" ? point.value : { count: point.value.count, sum: point.value.sum },
  }));
}

// For the tests of packages that do not depend on `@opentelemetry/api` themselves (careers, console).
export { SpanKind, SpanStatusCode } from "@opentelemetry/api";
