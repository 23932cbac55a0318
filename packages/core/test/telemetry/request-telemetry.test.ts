/**
 * OpenTelemetry of the API (docs/observability.md), read back through the SDK's in-memory exporter
 * and a metric reader: a server span per request named after its route, the request metrics, the
 * refusal counter, the usage gauge, and the trace context stored with the events a request emits.
 */
import { createPublicApi, type PublicApi } from "@hireport/core";
import { eventTraceparent, sentPayload } from "@hireport/core/extend";
import { memoryStorage } from "@hireport/core/memory";
import { openTelemetry } from "@hireport/core/telemetry";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MemorySdk, memorySdk, points } from "./otel";

const quiet = { warn: () => undefined, error: () => undefined };

let sdk: MemorySdk;
let api: PublicApi;
let key: string;
let keyId: string;
const storage = memoryStorage();
const events: string[] = [];

beforeEach(() => {
  sdk = memorySdk();
  events.length = 0;
  api = createPublicApi({
    storage,
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "telemetry-secret-0123456789-abcdefghijk",
    logger: quiet,
    limits: { perMinute: 3 },
    onEvent: (event) => events.push(event.id),
    telemetry: openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider }),
  });
});

afterEach(async () => {
  await api.close();
  await sdk.shutdown();
});

async function newKey(companyId: string): Promise<void> {
  await api.companies.upsert({ id: companyId, name: "Acme" });
  const created = await api.keys.create({ companyId, name: "Sync", scopes: ["jobs:write"] });
  key = created.key;
  keyId = created.record.id;
}

const send = (method: string, path: string, body?: unknown) =>
  api.handle({
    method,
    path: `/api/public/v1${path}`,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body } : {}),
  });

describe("the server span of an API request", () => {
  it("is named after its route, with the HTTP attributes, the company and the key", async () => {
    await newKey("co_span");
    const created = await send("POST", "/jobs", { title: "Engineer" });
    expect(created.status).toBe(201);
    const jobId = (JSON.parse(String(created.body)) as { data: { id: string } }).data.id;
    expect((await send("GET", `/jobs/${jobId}`)).status).toBe(200);

    const spans = sdk.exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual(["POST /jobs", "GET /jobs/{id}"]);
    const read = spans[1];
    expect(read?.kind).toBe(SpanKind.SERVER);
    expect(read?.attributes).toEqual({
      "http.request.method": "GET",
      "hireport.surface": "api",
      "http.route": "/jobs/{id}",
      "http.response.status_code": 200,
      "hireport.company.id": "co_span",
      "hireport.key.id": keyId,
    });
    expect(read?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("has no route for a path the API does not know, and no company before the key is known", async () => {
    await newKey("co_unknown");
    key = "svc_live_not_a_key";
    expect((await send("GET", "/jobs")).status).toBe(401);
    const [span] = sdk.exporter.getFinishedSpans();
    expect(span?.name).toBe("GET /jobs");
    expect(span?.attributes["hireport.company.id"]).toBeUndefined();
    expect((await send("GET", "/nowhere")).status).toBe(404);
    const unknown = sdk.exporter.getFinishedSpans()[1];
    expect(unknown?.name).toBe("GET");
    expect(unknown?.attributes["http.route"]).toBeUndefined();
  });

  it("has error status for a 5xx", async () => {
    await newKey("co_broken");
    const broken = createPublicApi({
      storage: {
        ...storage,
        keys: {
          ...storage.keys,
          admit: () => Promise.reject(new Error("the database is down")),
        },
      },
      publicBaseUrl: "https://careers.example.com",
      fileTokenSecret: "telemetry-secret-0123456789-abcdefghijk",
      logger: quiet,
      telemetry: openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider }),
    });
    const response = await broken.handle({
      method: "GET",
      path: "/api/public/v1/jobs",
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(500);
    const [span] = sdk.exporter.getFinishedSpans();
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(span?.attributes["error.type"]).toBe("500");
    await broken.close();
  });
});

describe("the request metrics", () => {
  it("record the duration by method, route and status, and count refusals by reason", async () => {
    await newKey("co_metrics");
    for (let i = 0; i < 4; i++) await send("GET", "/jobs");
    const metrics = await sdk.metrics();
    const duration = metrics.get("http.server.request.duration");
    expect(duration?.descriptor.unit).toBe("s");
    expect(points(duration)).toEqual([
      {
        attributes: { "http.request.method": "GET", "http.route": "/jobs", "http.response.status_code": 200 },
        value: { count: 3, sum: expect.any(Number) },
      },
      {
        attributes: { "http.request.method": "GET", "http.route": "/jobs", "http.response.status_code": 429 },
        value: { count: 1, sum: expect.any(Number) },
      },
    ]);
    expect(points(metrics.get("hireport.requests.refused"))).toEqual([
      { attributes: { "hireport.refusal.reason": "rate_limited" }, value: 1 },
    ]);
  });

  it("report the usage log's pending entries as a gauge", async () => {
    await newKey("co_gauge");
    await send("GET", "/jobs");
    const pending = points((await sdk.metrics()).get("hireport.usage.pending"));
    expect(pending).toEqual([{ attributes: {}, value: api.usage.pending }]);
    expect(api.usage.pending).toBeGreaterThan(0);
  });
});

describe("events emitted under a span", () => {
  it("store the request span's trace context, which the sent payload leaves out", async () => {
    await newKey("co_events");
    await send("POST", "/jobs", { title: "Engineer" });
    const [span] = sdk.exporter.getFinishedSpans();
    const stored = (await storage.events.get(events[0] ?? ""))?.payload ?? "";
    const context = span?.spanContext();
    expect(eventTraceparent(stored)).toBe(`00-${context?.traceId}-${context?.spanId}-01`);
    const sent = sentPayload(stored);
    expect(sent).not.toContain("traceparent");
    expect(Object.keys(JSON.parse(sent) as object)).toEqual([
      "id",
      "type",
      "created_at",
      "company_id",
      "api_version",
      "data",
    ]);
  });

  it("store it for a new application too (the storage writes its event itself)", async () => {
    await newKey("co_applied");
    const job = await api.jobs.create("co_applied", { title: "Engineer", status: "active" });
    const { key: writer } = await api.keys.create({
      companyId: "co_applied",
      name: "Applications",
      scopes: ["applications:write"],
    });
    const response = await api.handle({
      method: "POST",
      path: "/api/public/v1/applications",
      headers: { authorization: `Bearer ${writer}`, "content-type": "application/json" },
      body: { job_id: job.id, candidate: { name: "Ada", email: "ada@example.com" } },
    });
    expect(response.status).toBe(201);
    const span = sdk.exporter.getFinishedSpans().find((finished) => finished.name === "POST /applications");
    const stored = (await storage.events.get(events.at(-1) ?? ""))?.payload ?? "";
    expect(JSON.parse(sentPayload(stored)).type).toBe("application.created");
    expect(eventTraceparent(stored)).toBe(`00-${span?.spanContext().traceId}-${span?.spanContext().spanId}-01`);
  });

  it("store none when no span is active (a host change outside any request)", async () => {
    await newKey("co_quiet");
    await api.jobs.create("co_quiet", { title: "Engineer" });
    const stored = (await storage.events.get(events.at(-1) ?? ""))?.payload ?? "";
    expect(stored).not.toBe("");
    expect(eventTraceparent(stored)).toBeUndefined();
    expect(sentPayload(stored)).toBe(stored);
  });
});
