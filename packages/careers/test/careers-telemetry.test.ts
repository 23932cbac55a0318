/**
 * The careers site's spans (docs/observability.md, "The careers application"), read back through
 * the SDK's in-memory exporter, with the site on Fastify and SQLite: an application sent through
 * the apply form has a server span with its route, status, company, job and application ids and no
 * personal data; the webhook attempt of its event links to it; a sender's trace context is linked
 * (the default) or continued (`trustIncomingTrace.careers`). Pages (GET) have no span.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type OpenTelemetryOptions, openTelemetry } from "@hireport/core/telemetry";
import { createWebhookDispatcher } from "@hireport/webhooks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MemorySdk, memorySdk, SpanKind } from "../../core/test/telemetry/otel";
import { pdfBytes } from "./support/careers-suite";
import { COMPANIES, startHost, type TestHost } from "./support/host";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN_ID = "00f067aa0ba902b7";
const APPLICANT = { name: "Grace Hopper", email: "grace.hopper@example.com", phone: "+44 20 7946 0000" };

let sdk: MemorySdk;
let host: TestHost;
const closers: Array<() => Promise<unknown>> = [];

beforeEach(() => {
  sdk = memorySdk();
});

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await sdk.shutdown();
});

async function start(options: OpenTelemetryOptions = {}): Promise<string> {
  const telemetry = openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, ...options });
  host = await startHost("fastify", {}, undefined, { telemetry });
  closers.push(() => host.close());
  const job = await host.api.jobs.create(COMPANIES.acme, { title: "Backend Engineer", status: "active" });
  return job.id;
}

/** Opens the job's page for its form token, waits like a person, and sends the form. */
async function apply(jobId: string, headers: Record<string, string> = {}): Promise<Response> {
  const page = await (await fetch(`${host.origin}/jobs/${jobId}`)).text();
  const token = /name="form_token" value="([^"]+)"/.exec(page)?.[1];
  if (!token) throw new Error("no form token on the job page");
  host.clock.advance(5_000);
  const form = new FormData();
  form.set("form_token", token);
  for (const [name, value] of Object.entries({ ...APPLICANT, consent: "yes", website: "" })) form.set(name, value);
  form.set("resume", new Blob([pdfBytes() as BlobPart], { type: "application/pdf" }), "grace-hopper-cv.pdf");
  return fetch(`${host.origin}/jobs/${jobId}/apply`, { method: "POST", body: form, headers, redirect: "manual" });
}

function onlySpan() {
  const spans = sdk.exporter.getFinishedSpans();
  expect(spans).toHaveLength(1);
  return spans[0];
}

describe("an application sent through the apply form", () => {
  it("has a server span with the route, the status and the ids, and no personal data", async () => {
    const jobId = await start();
    const response = await apply(jobId);
    expect(response.status).toBe(200);
    const span = onlySpan();
    const [application] = (await host.api.applications.list(COMPANIES.acme, { jobId })).data;
    expect(span?.name).toBe("POST /jobs/{id}/apply");
    expect(span?.kind).toBe(SpanKind.SERVER);
    expect(span?.attributes).toEqual({
      "http.request.method": "POST",
      "hireport.surface": "careers",
      "http.route": "/jobs/{id}/apply",
      "http.response.status_code": 200,
      "hireport.company.id": COMPANIES.acme,
      "hireport.job.id": jobId,
      "hireport.application.id": application?.id,
    });
    const reported = JSON.stringify([span?.name, span?.attributes, span?.events, span?.links]);
    for (const personal of [...Object.values(APPLICANT), "grace-hopper-cv"]) expect(reported).not.toContain(personal);
    // The API's request metrics are the API's alone.
    expect((await sdk.metrics()).get("http.server.request.duration")).toBeUndefined();
  });

  it("has a span for a refused application too (an unknown job: 404, no job id)", async () => {
    await start();
    const form = new FormData();
    form.set("name", APPLICANT.name);
    const response = await fetch(`${host.origin}/jobs/job_unknown/apply`, { method: "POST", body: form });
    expect(response.status).toBe(404);
    expect(onlySpan()?.attributes).toEqual({
      "http.request.method": "POST",
      "hireport.surface": "careers",
      "http.route": "/jobs/{id}/apply",
      "http.response.status_code": 404,
      "hireport.company.id": COMPANIES.acme,
    });
  });

  it("emits its event under the span: the webhook attempt's span links to it", async () => {
    const jobId = await start();
    const telemetry = host.api.telemetry;
    const received: string[] = [];
    const receiver: Server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        received.push(String(request.headers["service-delivery"]));
        response.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => receiver.close(resolve)));
    const dispatcher = createWebhookDispatcher({
      storage: host.storage,
      allowPrivateAddresses: true,
      logger: { warn: () => undefined, error: () => undefined },
      telemetry,
    });
    closers.push(() => dispatcher.stop());
    await dispatcher.endpoints.create({
      companyId: COMPANIES.acme,
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
      events: ["application.created"],
    });

    expect((await apply(jobId)).status).toBe(200);
    expect(await dispatcher.runOnce()).toMatchObject({ succeeded: 1 });
    expect(received).toHaveLength(1);
    const spans = sdk.exporter.getFinishedSpans();
    const careers = spans.find((span) => span.attributes["hireport.surface"] === "careers");
    const attempt = spans.find((span) => span.kind === SpanKind.CLIENT);
    expect(attempt?.attributes["hireport.event.type"]).toBe("application.created");
    expect(attempt?.links.map((link) => link.context)).toEqual([
      expect.objectContaining({ traceId: careers?.spanContext().traceId, spanId: careers?.spanContext().spanId }),
    ]);
  });
});

describe("a sender's trace context on an application", () => {
  const traceparent = `00-${TRACE_ID}-${SPAN_ID}-01`;

  it("is linked, not continued, by default: anyone may send an application", async () => {
    const jobId = await start();
    expect((await apply(jobId, { traceparent })).status).toBe(200);
    const span = onlySpan();
    expect(span?.parentSpanContext).toBeUndefined();
    expect(span?.spanContext().traceId).not.toBe(TRACE_ID);
    expect(span?.links.map((link) => link.context)).toEqual([
      expect.objectContaining({ traceId: TRACE_ID, spanId: SPAN_ID }),
    ]);
  });

  it("is continued with trustIncomingTrace.careers", async () => {
    const jobId = await start({ trustIncomingTrace: { careers: true } });
    expect((await apply(jobId, { traceparent })).status).toBe(200);
    const span = onlySpan();
    expect(span?.spanContext().traceId).toBe(TRACE_ID);
    expect(span?.parentSpanContext).toMatchObject({ traceId: TRACE_ID, spanId: SPAN_ID, isRemote: true });
    expect(span?.links).toEqual([]);
  });
});
