/**
 * The console's spans (docs/observability.md, "The console change"), read back through the SDK's
 * in-memory exporter, with the console on Express and SQLite: each change (a POST) has a server
 * span with its route, status, action, company and the user's id, never a secret or a name; pages
 * have none; a refused change has one too; the test event of "Send test" links its attempt to the
 * change; a sender's trace context is continued (the console trusts it by default).
 */
import { openTelemetry } from "@hireport/core/telemetry";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MemorySdk, memorySdk, SpanKind, SpanStatusCode } from "../../core/test/telemetry/otel";
import type { ConsolePrincipal } from "../src/index";
import { COMPANY_A, csrfOf, getPage, type Sent, sentOf, startHost, type TestHost } from "./support/host";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN_ID = "00f067aa0ba902b7";
const ADA: ConsolePrincipal = { companyId: COMPANY_A, role: "owner", actor: { id: "usr_42", name: "Ada Lovelace" } };

let sdk: MemorySdk;
let host: TestHost;
let principal: ConsolePrincipal;

beforeEach(async () => {
  sdk = memorySdk();
  principal = ADA;
  host = await startHost(
    { authorize: () => principal },
    { telemetry: openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider }) },
  );
});

afterEach(async () => {
  await host.close();
  await sdk.shutdown();
});

/** A form POST as the console's own page sends it (same origin, its CSRF token unless `csrf: null`). */
async function post(
  path: string,
  fields: Record<string, string | string[]>,
  options: { csrf?: null; headers?: Record<string, string> } = {},
): Promise<Sent> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
  }
  if (options.csrf !== null) body.set("_csrf", csrfOf((await getPage(host, "/keys", "")).text));
  const headers = { origin: host.origin, "content-type": "application/x-www-form-urlencoded", ...options.headers };
  return sentOf(await fetch(`${host.consoleUrl}${path}`, { method: "POST", headers, body, redirect: "manual" }));
}

/** The finished server spans of the console. */
const consoleSpans = () =>
  sdk.exporter.getFinishedSpans().filter((span) => span.attributes["hireport.surface"] === "console");

describe("a console change", () => {
  it("has a server span with its route, status, action, company and user id; pages have none", async () => {
    const created = await post("/keys", { name: "Nightly sync", scopes: ["jobs:read"] });
    expect(created.status).toBe(303);
    const [span] = consoleSpans();
    expect(consoleSpans()).toHaveLength(1);
    expect(span?.name).toBe("POST /keys");
    expect(span?.kind).toBe(SpanKind.SERVER);
    expect(span?.attributes).toEqual({
      "http.request.method": "POST",
      "hireport.surface": "console",
      "http.route": "/keys",
      "http.response.status_code": 303,
      "hireport.company.id": COMPANY_A,
      "hireport.console.action": "key.created",
      "user.id": "usr_42",
    });
    const [key] = await host.api.keys.list(COMPANY_A);
    const revoked = await post(`/keys/${key?.id}/revoke`, {});
    expect(revoked.status).toBe(303);
    expect(consoleSpans().map((finished) => [finished.name, finished.attributes["hireport.console.action"]])).toEqual([
      ["POST /keys", "key.created"],
      ["POST /keys/{id}/revoke", "key.revoked"],
    ]);
    // The user's name, the key's name: none of it is reported.
    const reported = JSON.stringify(consoleSpans().map((finished) => finished.attributes));
    expect(reported).not.toContain("Ada");
    expect(reported).not.toContain("Nightly");
  });

  it("reports no secret: a new endpoint's signing secret, revealed on the page, is not on its span", async () => {
    const created = await post("/webhooks", { url: host.receiver.url, events: ["job.created"] });
    expect(created.status).toBe(303);
    const [endpoint] = await host.dispatcher.endpoints.list(COMPANY_A);
    const id = endpoint?.id ?? "";
    const revealed = await post(`/webhooks/${id}/reveal`, {});
    expect(revealed.status).toBe(303);
    const { secret } = await host.dispatcher.endpoints.revealSecret(COMPANY_A, id);
    const spans = consoleSpans();
    expect(spans.map((span) => span.attributes["hireport.console.action"])).toEqual([
      "webhook_endpoint.created",
      "webhook_endpoint.secret_revealed",
    ]);
    expect(spans[1]?.attributes["http.route"]).toBe("/webhooks/{id}/reveal");
    expect(JSON.stringify(spans.map((span) => [span.name, span.attributes, span.events]))).not.toContain(secret);
  });

  it("has a span when refused too (no CSRF token: 403), and none without a user id when the actor is a name", async () => {
    principal = { companyId: COMPANY_A, role: "owner", actor: "Ada Lovelace" };
    const refused = await post("/keys", { name: "Sync", scopes: ["jobs:read"] }, { csrf: null });
    expect(refused.status).toBe(403);
    const [span] = consoleSpans();
    expect(span?.attributes).toEqual({
      "http.request.method": "POST",
      "hireport.surface": "console",
      "http.route": "/keys",
      "http.response.status_code": 403,
      "hireport.company.id": COMPANY_A,
      "hireport.console.action": "key.created",
    });
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("emits the test event under its span: the attempt's span links to the change", async () => {
    await post("/webhooks", { url: host.receiver.url, events: ["job.created"] });
    const [endpoint] = await host.dispatcher.endpoints.list(COMPANY_A);
    const sent = await post(`/webhooks/${endpoint?.id}/test`, {});
    expect(sent.status).toBe(303);
    expect(host.receiver.received).toBe(1);
    const change = consoleSpans().find((span) => span.name === "POST /webhooks/{id}/test");
    expect(change?.attributes["hireport.console.action"]).toBe("webhook_endpoint.test_sent");
    const attempt = sdk.exporter.getFinishedSpans().find((span) => span.kind === SpanKind.CLIENT);
    expect(attempt?.attributes["hireport.event.type"]).toBe("webhook.test");
    expect(attempt?.links.map((link) => link.context)).toEqual([
      expect.objectContaining({ traceId: change?.spanContext().traceId, spanId: change?.spanContext().spanId }),
    ]);
  });

  it("continues the trace its sender's traceparent names (the console trusts its users by default)", async () => {
    await post(
      "/keys",
      { name: "Sync", scopes: ["jobs:read"] },
      { headers: { traceparent: `00-${TRACE_ID}-${SPAN_ID}-01` } },
    );
    const [span] = consoleSpans();
    expect(span?.spanContext().traceId).toBe(TRACE_ID);
    expect(span?.parentSpanContext).toMatchObject({ traceId: TRACE_ID, spanId: SPAN_ID, isRemote: true });
  });
});
