/**
 * A request that carries a sender's trace context (docs/observability.md, "Incoming trace
 * context"), read back through the SDK's in-memory exporter: a trusted request's server span is a
 * child of the sender's span, an untrusted one starts its own trace linked to it, invalid headers
 * are ignored, a span already active wins, and a propagator the host registered is the one used.
 */
import { createPublicApi, type PublicApi } from "@hireport/core";
import { eventTraceparent } from "@hireport/core/extend";
import { memoryStorage } from "@hireport/core/memory";
import { type OpenTelemetryOptions, openTelemetry } from "@hireport/core/telemetry";
import {
  type Context,
  context,
  propagation,
  type TextMapGetter,
  type TextMapPropagator,
  trace,
} from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MemorySdk, memorySdk } from "./otel";

const quiet = { warn: () => undefined, error: () => undefined };
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN_ID = "00f067aa0ba902b7";
const TRACEPARENT = `00-${TRACE_ID}-${SPAN_ID}-01`;

let sdk: MemorySdk;
let api: PublicApi;
let key: string;
let storage = memoryStorage();
const events: string[] = [];

async function start(options: OpenTelemetryOptions = {}): Promise<void> {
  storage = memoryStorage();
  api = createPublicApi({
    storage,
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "telemetry-secret-0123456789-abcdefghijk",
    logger: quiet,
    onEvent: (event) => events.push(event.id),
    telemetry: openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, ...options }),
  });
  await api.companies.upsert({ id: "co_trace", name: "Acme" });
  ({ key } = await api.keys.create({ companyId: "co_trace", name: "Sync", scopes: ["jobs:write"] }));
}

beforeEach(() => {
  sdk = memorySdk();
  events.length = 0;
});

afterEach(async () => {
  await api.close();
  await sdk.shutdown();
  propagation.disable();
});

async function send(headers: Record<string, string | string[]>, method = "GET"): Promise<ReadableSpan> {
  const response = await api.handle({
    method,
    path: "/api/public/v1/jobs",
    headers: {
      authorization: `Bearer ${key}`,
      ...(method === "POST" ? { "content-type": "application/json" } : {}),
      ...headers,
    },
    ...(method === "POST" ? { body: { title: "Engineer" } } : {}),
  });
  expect(response.status).toBe(method === "POST" ? 201 : 200);
  const span = sdk.exporter.getFinishedSpans().at(-1);
  if (!span) throw new Error("no span was exported");
  return span;
}

/** A span with no parent, of a trace of its own, linking to nothing. */
function expectRoot(span: ReadableSpan): void {
  expect(span.parentSpanContext).toBeUndefined();
  expect(span.spanContext().traceId).not.toBe(TRACE_ID);
  expect(span.links).toEqual([]);
}

describe("a trusted request (the API, by default)", () => {
  it("continues the sender's trace: its span's parent is the remote span, with the trace state", async () => {
    await start();
    const span = await send({ traceparent: TRACEPARENT, tracestate: "vendor=abc,other=1" });
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext).toMatchObject({ traceId: TRACE_ID, spanId: SPAN_ID, isRemote: true });
    expect(span.parentSpanContext?.traceState?.get("vendor")).toBe("abc");
    expect(span.parentSpanContext?.traceState?.serialize()).toBe("vendor=abc,other=1");
    expect(span.links).toEqual([]);
  });

  it("passes the continued trace to the events it emits", async () => {
    await start();
    const span = await send({ traceparent: TRACEPARENT }, "POST");
    const stored = (await storage.events.get(events.at(-1) ?? ""))?.payload ?? "";
    expect(eventTraceparent(stored)).toBe(`00-${TRACE_ID}-${span.spanContext().spanId}-01`);
  });

  it("reads the headers of a Web Request too (api.fetch)", async () => {
    await start();
    const response = await api.fetch(
      new Request("https://api.example.com/api/public/v1/jobs", {
        headers: { authorization: `Bearer ${key}`, traceparent: TRACEPARENT },
      }),
    );
    expect(response.status).toBe(200);
    expect(sdk.exporter.getFinishedSpans().at(-1)?.parentSpanContext).toMatchObject({ traceId: TRACE_ID });
  });

  it("accepts a later version's traceparent with more fields, and drops an invalid tracestate alone", async () => {
    await start();
    const span = await send({ traceparent: `cc-${TRACE_ID}-${SPAN_ID}-01-what-comes-later`, tracestate: "BAD KEY=1" });
    expect(span.parentSpanContext).toMatchObject({ traceId: TRACE_ID, spanId: SPAN_ID });
    expect(span.parentSpanContext?.traceState?.serialize() ?? "").toBe("");
  });

  it.each([
    ["upper-case hex", `00-${TRACE_ID.toUpperCase()}-${SPAN_ID}-01`],
    ["version ff", `ff-${TRACE_ID}-${SPAN_ID}-01`],
    ["version 00 with more fields", `${TRACEPARENT}-00`],
    ["a later version without a dash after the flags", `01-${TRACE_ID}-${SPAN_ID}-01x`],
    ["an all-zero trace id", `00-${"0".repeat(32)}-${SPAN_ID}-01`],
    ["an all-zero parent id", `00-${TRACE_ID}-${"0".repeat(16)}-01`],
    ["a short trace id", `00-${TRACE_ID.slice(1)}-${SPAN_ID}-01`],
    ["no dashes", `00${TRACE_ID}${SPAN_ID}01xxx`],
    ["not hex", `00-${"g".repeat(32)}-${SPAN_ID}-01`],
    ["garbage", "hello"],
  ])("ignores an invalid traceparent (%s): the request is answered under a root span", async (_, traceparent) => {
    await start();
    expectRoot(await send({ traceparent }));
  });

  it("ignores a traceparent sent twice", async () => {
    await start();
    expectRoot(await send({ traceparent: [TRACEPARENT, `00-${"1".repeat(32)}-${SPAN_ID}-01`] }));
  });

  it("is the child of a span already active (the host's HTTP instrumentation's), whatever the headers say", async () => {
    await start();
    const hostSpan = sdk.tracerProvider.getTracer("host").startSpan("GET /api/public/v1/jobs");
    const span = await context.with(trace.setSpan(context.active(), hostSpan), () =>
      send({ traceparent: TRACEPARENT }),
    );
    hostSpan.end();
    expect(span.parentSpanContext?.spanId).toBe(hostSpan.spanContext().spanId);
    expect(span.spanContext().traceId).toBe(hostSpan.spanContext().traceId);
    expect(span.links).toEqual([]);
  });
});

describe("an untrusted request", () => {
  it.each([
    ["trustIncomingTrace: false", false],
    ["trustIncomingTrace: { api: false }", { api: false }],
  ] as const)("starts a trace of its own, linked to the sender's span (%s)", async (_, trustIncomingTrace) => {
    await start({ trustIncomingTrace });
    const span = await send({ traceparent: TRACEPARENT });
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.spanContext().traceId).not.toBe(TRACE_ID);
    expect(span.links.map((link) => link.context)).toEqual([
      expect.objectContaining({ traceId: TRACE_ID, spanId: SPAN_ID, isRemote: true }),
    ]);
  });

  it("links to nothing when the header is invalid", async () => {
    await start({ trustIncomingTrace: false });
    expectRoot(await send({ traceparent: `00-${"0".repeat(32)}-${SPAN_ID}-01` }));
  });
});

/** A propagator of another format: `x-test-trace: <trace id>:<span id>`. */
class TestPropagator implements TextMapPropagator {
  inject(): void {}
  extract(active: Context, carrier: unknown, getter: TextMapGetter): Context {
    const value = getter.get(carrier, "x-test-trace");
    const [traceId, spanId] = String(value ?? "").split(":");
    if (!traceId || !spanId) return active;
    return trace.setSpanContext(active, { traceId, spanId, traceFlags: 1, isRemote: true });
  }
  fields(): string[] {
    return ["x-test-trace"];
  }
}

describe("a propagator", () => {
  const otherTrace = "a".repeat(32);
  const otherSpan = "b".repeat(16);

  it("registered globally is the one that reads the headers (a W3C traceparent beside it is not read)", async () => {
    propagation.setGlobalPropagator(new TestPropagator());
    await start();
    const span = await send({ "x-test-trace": `${otherTrace}:${otherSpan}`, traceparent: TRACEPARENT });
    expect(span.parentSpanContext).toMatchObject({ traceId: otherTrace, spanId: otherSpan });
    expectRoot(await send({ traceparent: TRACEPARENT }));
  });

  it("given as the propagator option wins over the W3C headers", async () => {
    await start({ propagator: new TestPropagator() });
    const span = await send({ "X-Test-Trace": `${otherTrace}:${otherSpan}` });
    expect(span.parentSpanContext).toMatchObject({ traceId: otherTrace, spanId: otherSpan });
  });
});
