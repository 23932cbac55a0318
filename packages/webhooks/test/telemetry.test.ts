/**
 * OpenTelemetry of the dispatcher (docs/observability.md), read back through the SDK's in-memory
 * exporter and a metric reader: a client span per attempt linked to the span of the API request
 * that emitted the event, the attempt counter and the lag histogram, and receivers that never see
 * the trace context stored with the event.
 */
import { createPublicApi, type PublicApi } from "@hireport/core";
import { openTelemetry } from "@hireport/core/telemetry";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MemorySdk, memorySdk, points } from "../../core/test/telemetry/otel";
import { telemetryUrl } from "../src/delivery/attempt-telemetry";
import { createWebhookDispatcher, type WebhookDispatcher } from "../src/index";
import { memoryWebhookStorage } from "../src/memory/index";
import { verifySignature } from "../src/verify/index";
import { createTestCertificate } from "./support/certificate";
import { type Receiver, startReceiver } from "./support/receiver";

const certificate = createTestCertificate();
let sdk: MemorySdk;
let receiver: Receiver;
let api: PublicApi;
let dispatcher: WebhookDispatcher;
let secret: string;
let key: string;

beforeEach(async () => {
  sdk = memorySdk();
  const telemetry = openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider });
  receiver = await startReceiver({ tls: certificate });
  const storage = memoryWebhookStorage();
  dispatcher = createWebhookDispatcher({
    storage,
    allowPrivateAddresses: true,
    tls: { ca: certificate.cert },
    logger: { warn: () => {}, error: () => {} },
    telemetry,
  });
  api = createPublicApi({
    storage,
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "a-test-secret-of-at-least-32-characters!!",
    logger: { warn: () => {}, error: () => {} },
    telemetry,
  });
  await api.companies.upsert({ id: "co_otel", name: "Acme" });
  ({ key } = await api.keys.create({ companyId: "co_otel", name: "Sync", scopes: ["jobs:write"] }));
  ({ secret } = await dispatcher.endpoints.create({
    companyId: "co_otel",
    url: `${receiver.origin}/hooks?token=s3cret&team=a`,
    events: ["job.created"],
  }));
});

afterEach(async () => {
  await dispatcher.stop();
  await api.close();
  await receiver.close();
  await sdk.shutdown();
});

async function createJobThroughTheApi(): Promise<void> {
  const response = await api.handle({
    method: "POST",
    path: "/api/public/v1/jobs",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: { title: "Engineer" },
  });
  expect(response.status).toBe(201);
}

describe("a webhook attempt", () => {
  it("has a client span linked to the request span that emitted its event; the receiver gets the envelope alone", async () => {
    await createJobThroughTheApi();
    expect(await dispatcher.runOnce()).toMatchObject({ succeeded: 1 });

    const [server, client] = sdk.exporter.getFinishedSpans();
    expect(server?.name).toBe("POST /jobs");
    expect(client?.kind).toBe(SpanKind.CLIENT);
    expect(client?.name).toBe("POST");
    const deliveryId = String(receiver.requests[0]?.headers["service-delivery"]);
    expect(client?.attributes).toEqual({
      "http.request.method": "POST",
      "url.full": `${receiver.origin}/hooks?token=REDACTED&team=REDACTED`,
      "hireport.event.type": "job.created",
      "hireport.delivery.id": deliveryId,
      "http.response.status_code": 200,
      "hireport.webhook.outcome": "succeeded",
    });
    expect(client?.links.map((link) => link.context)).toEqual([
      expect.objectContaining({ traceId: server?.spanContext().traceId, spanId: server?.spanContext().spanId }),
    ]);
    expect(client?.status.code).toBe(SpanStatusCode.UNSET);

    const body = receiver.requests[0]?.body ?? Buffer.alloc(0);
    expect(body.toString("utf8")).not.toContain("traceparent");
    const header = String(receiver.requests[0]?.headers["service-signature"]);
    await expect(verifySignature({ payload: body, header, secret })).resolves.toBeTruthy();
    const details = await dispatcher.deliveries.get("co_otel", deliveryId);
    expect(details.payload).toBe(body.toString("utf8"));
  });

  it("is counted by outcome, a failure has error status, and the first attempt records the lag", async () => {
    receiver.setHandler((_request, response) => {
      response.statusCode = 503;
      response.end("busy");
    });
    await createJobThroughTheApi();
    expect(await dispatcher.runOnce()).toMatchObject({ retrying: 1 });
    const client = sdk.exporter.getFinishedSpans().find((span) => span.kind === SpanKind.CLIENT);
    expect(client?.status.code).toBe(SpanStatusCode.ERROR);
    expect(client?.attributes["error.type"]).toBe("503");

    const metrics = await sdk.metrics();
    expect(points(metrics.get("hireport.webhook.attempts"))).toEqual([
      { attributes: { "hireport.webhook.outcome": "retrying" }, value: 1 },
    ]);
    const lag = points(metrics.get("hireport.webhook.lag"));
    expect(lag).toEqual([
      { attributes: { "hireport.event.type": "job.created" }, value: { count: 1, sum: expect.any(Number) } },
    ]);
    expect(metrics.get("hireport.webhook.lag")?.descriptor.unit).toBe("s");
  });
});

describe("telemetryUrl", () => {
  it("drops credentials and the fragment and redacts query values", () => {
    expect(telemetryUrl("https://user:pw@hooks.example.com/in?sig=abc&sig=def#x")).toBe(
      "https://hooks.example.com/in?sig=REDACTED&sig=REDACTED",
    );
    expect(telemetryUrl("https://hooks.example.com/in")).toBe("https://hooks.example.com/in");
  });
});
