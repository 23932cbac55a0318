/**
 * The webhook endpoints of the public API (`createPublicApi({ extensions: [webhookEndpointsApi(dispatcher)] })`),
 * through core's request pipeline on every storage: CRUD with the secret shown once, REST Hooks
 * subscribe and unsubscribe, audit entries naming the key, test, deliveries and resend, and a real
 * receiver's 410 Gone disabling the subscription; then, on memory, the permissions, the SSRF guard,
 * the endpoint limit, the signature scheme, sample events, the OpenAPI document, and 404 where the
 * host does not mount the routes.
 */
import { type ApiResponse, createPublicApi, type PublicApi, type Scope } from "@hireport/core";
import { EVENT_TYPES } from "@hireport/core/schemas";
import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import {
  createWebhookDispatcher,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
  webhookEndpointsApi,
} from "../src/index";
import { memoryWebhookStorage } from "../src/memory/index";
import type { WebhookStorage } from "../src/store/webhook-storage";
import { storageSuite } from "./support/storage-suite";
import { storageFactories } from "./support/storages";

const quiet = { warn: () => undefined, error: () => undefined };
const COMPANY = "co_api";

/** Host names resolve through this table only: no real DNS in tests. */
const resolveHost: WebhookDispatcherOptions["resolveHost"] = async (hostname) => {
  const table: Record<string, string> = {
    "hooks.example.com": "93.184.215.14",
    "zapier.example.com": "93.184.215.15",
    "rebind.example.com": "10.0.0.7",
  };
  const address = table[hostname];
  if (!address) throw new Error(`ENOTFOUND ${hostname}`);
  return [{ address, family: 4 }];
};

interface World {
  api: PublicApi;
  dispatcher: WebhookDispatcher;
  storage: WebhookStorage;
  key(scopes: Scope[], name?: string): Promise<{ id: string; key: string; name: string }>;
  // biome-ignore lint/suspicious/noExplicitAny: the answer's JSON, read field by field by the assertions.
  call(method: string, path: string, key: string, body?: unknown): Promise<ApiResponse & { json: any }>;
  close(): Promise<void>;
}

async function world(
  storage: WebhookStorage,
  options: Partial<WebhookDispatcherOptions> = {},
  mounted = true,
): Promise<World> {
  const dispatcher = createWebhookDispatcher({
    storage,
    resolveHost,
    logger: quiet,
    pollIntervalMs: 600_000,
    ...options,
  });
  const api = createPublicApi({
    storage,
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "endpoints-api-secret-0123456789-abcdefgh",
    logger: quiet,
    onEvent: () => dispatcher.notify(),
    ...(mounted ? { extensions: [webhookEndpointsApi(dispatcher)] } : {}),
  });
  await api.companies.upsert({ id: COMPANY, name: "Acme" });
  return {
    api,
    dispatcher,
    storage,
    async key(scopes, name = scopes.join(" ")) {
      const created = await api.keys.create({ companyId: COMPANY, name, scopes });
      return { id: created.record.id, key: created.key, name };
    },
    async call(method, path, key, body) {
      const answer = await api.handle({
        method,
        path: `/api/public/v1${path}`,
        query: {},
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { ...answer, json: answer.body ? JSON.parse(answer.body as string) : null };
    },
    async close() {
      await dispatcher.stop();
      await api.close();
    },
  };
}

const fieldsOf = (json: { error: { fields?: { field: string }[] } }) =>
  (json.error.fields ?? []).map((entry) => entry.field);

describe.each(storageFactories())("the webhook endpoints of the API on $name", (factory) => {
  const suite = storageSuite(factory);
  const open = async (options: Partial<WebhookDispatcherOptions> = {}) => {
    const handle = await factory.create();
    const w = await world(handle.storage, options);
    suite.defer(async () => {
      await w.close();
      await handle.close();
    });
    return w;
  };

  it("create shows the secret once; get, list, patch, rotate and delete, each audited with the key", async () => {
    const w = await open();
    const writer = await w.key(["webhooks:write"], "Zap key");

    const created = await w.call("POST", "/webhook-endpoints", writer.key, {
      url: "https://hooks.example.com/hireport",
      events: ["job.created", "application.created"],
      description: "ATS sync",
      max_per_second: 5,
    });
    expect(created.status).toBe(201);
    const endpoint = created.json.data;
    expect(endpoint).toMatchObject({
      url: "https://hooks.example.com/hireport",
      events: ["job.created", "application.created"],
      description: "ATS sync",
      status: "active",
      paused_reason: null,
      signature_scheme: "service",
      ordered: false,
      max_per_second: 5,
      consecutive_failures: 0,
    });
    expect(endpoint.id).toMatch(/^we_/);
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(endpoint.secret_hint).toBe(`${endpoint.secret.slice(0, 10)}…`);
    expect(Object.keys(endpoint).some((name) => /[A-Z]/.test(name))).toBe(false);

    const got = await w.call("GET", `/webhook-endpoints/${endpoint.id}`, writer.key);
    expect(got.status).toBe(200);
    expect(got.json.data).not.toHaveProperty("secret");
    expect(got.body).not.toContain(endpoint.secret);
    const { secret: _secret, ...withoutSecret } = endpoint;
    expect(got.json.data).toEqual(withoutSecret);

    const listed = await w.call("GET", "/webhook-endpoints", writer.key);
    expect(listed.json).toEqual({ data: [withoutSecret], has_more: false, next_cursor: null });
    expect(listed.body).not.toContain(endpoint.secret);

    const patched = await w.call("PATCH", `/webhook-endpoints/${endpoint.id}`, writer.key, {
      ordered: true,
      max_per_second: null,
      events: ["job.closed"],
    });
    expect(patched.status).toBe(200);
    expect(patched.json.data).toMatchObject({ ordered: true, max_per_second: null, events: ["job.closed"] });

    const rotated = await w.call("POST", `/webhook-endpoints/${endpoint.id}/rotate-secret`, writer.key);
    expect(rotated.status).toBe(200);
    expect(rotated.json.data.secret).toMatch(/^whsec_/);
    expect(rotated.json.data.secret).not.toBe(endpoint.secret);
    expect(rotated.json.data.previous_secret_expires_at).not.toBeNull();
    const again = await w.call("GET", `/webhook-endpoints/${endpoint.id}`, writer.key);
    expect(again.body).not.toContain(rotated.json.data.secret);

    const deleted = await w.call("DELETE", `/webhook-endpoints/${endpoint.id}`, writer.key);
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ data: { id: endpoint.id, deleted: true } });
    expect((await w.call("GET", `/webhook-endpoints/${endpoint.id}`, writer.key)).status).toBe(404);
    expect((await w.call("DELETE", `/webhook-endpoints/${endpoint.id}`, writer.key)).status).toBe(404);

    const audit = await w.api.audit.list(COMPANY);
    const entries = audit.data.filter((entry) => entry.target.id === endpoint.id);
    expect(entries.map((entry) => entry.action).sort()).toEqual(
      [
        "webhook_endpoint.created",
        "webhook_endpoint.deleted",
        "webhook_endpoint.secret_rotated",
        "webhook_endpoint.updated",
      ].sort(),
    );
    for (const entry of entries) expect(entry.actor).toEqual({ type: "api_key", id: writer.id, name: "Zap key" });
  });

  it("REST Hooks: subscribe with target_url and event, unsubscribe with DELETE", async () => {
    const w = await open();
    const writer = await w.key(["webhooks:write"]);
    const subscribed = await w.call("POST", "/webhook-endpoints", writer.key, {
      target_url: "https://zapier.example.com/hooks/standard/123",
      event: "application.created",
    });
    expect(subscribed.status).toBe(201);
    expect(subscribed.json.data).toMatchObject({
      url: "https://zapier.example.com/hooks/standard/123",
      events: ["application.created"],
      status: "active",
    });
    expect(subscribed.json.data.secret).toMatch(/^whsec_/);
    const id = subscribed.json.data.id as string;
    expect((await w.dispatcher.endpoints.list(COMPANY)).map((endpoint) => endpoint.id)).toEqual([id]);

    const unsubscribed = await w.call("DELETE", `/webhook-endpoints/${id}`, writer.key);
    expect(unsubscribed.status).toBe(200);
    expect(await w.dispatcher.endpoints.list(COMPANY)).toEqual([]);
  });

  it("test, deliveries and resend; a 410 Gone disables the subscription, audited", async () => {
    const receiver = await suite.receiver({ tls: false });
    const w = await open({ allowPrivateAddresses: true });
    const writer = await w.key(["webhooks:write", "jobs:write"], "n8n");
    const subscribed = await w.call("POST", "/webhook-endpoints", writer.key, {
      target_url: `${receiver.origin}/hooks`,
      event: "job.created",
    });
    expect(subscribed.status).toBe(201);
    const id = subscribed.json.data.id as string;

    const tested = await w.call("POST", `/webhook-endpoints/${id}/test`, writer.key);
    expect(tested.status).toBe(200);
    expect(tested.json.data).toMatchObject({ result: "succeeded", attempt: { status_code: 200, succeeded: true } });
    expect(receiver.requests).toHaveLength(1);
    const testDelivery = tested.json.data.delivery.id as string;
    const listed = await w.call("GET", `/webhook-endpoints/${id}/deliveries`, writer.key);
    expect(listed.json.data.map((delivery: { id: string }) => delivery.id)).toEqual([testDelivery]);
    expect(listed.json.data[0].attempt_log).toHaveLength(1);
    const resent = await w.call("POST", `/webhook-endpoints/${id}/deliveries/${testDelivery}/resend`, writer.key);
    expect(resent.status).toBe(200);
    expect(resent.json.data).toMatchObject({ id: testDelivery, status: "pending" });
    const elsewhere = await w.call("POST", `/webhook-endpoints/we_other/deliveries/${testDelivery}/resend`, writer.key);
    expect(elsewhere.status).toBe(404);
    await w.dispatcher.runOnce();

    // The platform removed the subscription: its target answers 410 Gone.
    receiver.setHandler((_request, response) => response.writeHead(410).end("gone"));
    const job = await w.call("POST", "/jobs", writer.key, { title: "Engineer" });
    expect(job.status).toBe(201);
    await w.dispatcher.runOnce();
    const gone = receiver.requests.at(-1);
    expect(gone?.headers["service-event"]).toBe("job.created");

    const after = await w.call("GET", `/webhook-endpoints/${id}`, writer.key);
    expect(after.json.data).toMatchObject({ status: "disabled", paused_reason: "gone" });
    const audit = await w.api.audit.list(COMPANY);
    const disabled = audit.data.find((entry) => entry.action === "webhook_endpoint.disabled");
    expect(disabled).toMatchObject({
      target: { type: "webhook_endpoint", id },
      details: { reason: "gone", status_code: 410 },
    });

    // Disabled: a new event is not sent to it.
    const sent = receiver.requests.length;
    await w.call("POST", "/jobs", writer.key, { title: "Designer" });
    await w.dispatcher.runOnce();
    expect(receiver.requests).toHaveLength(sent);
  });
});

describe("the webhook endpoints of the API (memory)", () => {
  const open = (options: Partial<WebhookDispatcherOptions> = {}, mounted = true) =>
    world(memoryWebhookStorage(), options, mounted);

  it("reads need webhooks:read, changes webhooks:write, which includes read", async () => {
    const w = await open();
    const none = await w.key(["jobs:write"]);
    const reader = await w.key(["webhooks:read"]);
    const writer = await w.key(["webhooks:write"]);
    const body = { url: "https://hooks.example.com/a", events: ["job.created"] };

    const refusedRead = await w.call("GET", "/webhook-endpoints", none.key);
    expect(refusedRead.status).toBe(403);
    expect(refusedRead.json.error).toMatchObject({ code: "missing_scope", required_scope: "webhooks:read" });
    const refusedSample = await w.call("GET", "/event-samples/job.created", none.key);
    expect(refusedSample.json.error.required_scope).toBe("webhooks:read");
    const refusedWrite = await w.call("POST", "/webhook-endpoints", reader.key, body);
    expect(refusedWrite.status).toBe(403);
    expect(refusedWrite.json.error.required_scope).toBe("webhooks:write");
    expect(await w.dispatcher.endpoints.list(COMPANY)).toEqual([]);

    const created = await w.call("POST", "/webhook-endpoints", writer.key, body);
    expect(created.status).toBe(201);
    const id = created.json.data.id as string;
    expect((await w.call("GET", "/webhook-endpoints", reader.key)).status).toBe(200);
    expect((await w.call("GET", "/webhook-endpoints", writer.key)).json.data).toHaveLength(1);
    expect((await w.call("GET", `/webhook-endpoints/${id}/deliveries`, writer.key)).status).toBe(200);
    expect((await w.call("DELETE", `/webhook-endpoints/${id}`, reader.key)).status).toBe(403);
    expect((await w.call("POST", `/webhook-endpoints/${id}/rotate-secret`, reader.key)).status).toBe(403);
    const me = await w.call("GET", "/me", writer.key);
    expect(me.json.data.key.scopes).toEqual(["webhooks:read", "webhooks:write"]);
    await w.close();
  });

  it("the SSRF guard refuses private addresses, naming url or, for REST Hooks, target_url", async () => {
    const w = await open();
    const writer = await w.key(["webhooks:write"]);
    const rebound = await w.call("POST", "/webhook-endpoints", writer.key, {
      url: "https://rebind.example.com/hooks",
      events: ["job.created"],
    });
    expect(rebound.status).toBe(422);
    expect(rebound.json.error.code).toBe("invalid");
    expect(fieldsOf(rebound.json)).toEqual(["url"]);
    const loopback = await w.call("POST", "/webhook-endpoints", writer.key, {
      target_url: "https://127.0.0.1/hooks",
      event: "job.created",
    });
    expect(loopback.status).toBe(422);
    expect(fieldsOf(loopback.json)).toEqual(["target_url"]);
    const plain = await w.call("POST", "/webhook-endpoints", writer.key, {
      url: "http://hooks.example.com/hooks",
      events: ["job.created"],
    });
    expect(fieldsOf(plain.json)).toEqual(["url"]);
    expect(await w.dispatcher.endpoints.list(COMPANY)).toEqual([]);
    await w.close();
  });

  it("validates the body: one shape at a time, the manager's rules with the body's field names", async () => {
    const w = await open();
    const writer = await w.key(["webhooks:write"]);
    const both = await w.call("POST", "/webhook-endpoints", writer.key, {
      url: "https://hooks.example.com/a",
      target_url: "https://hooks.example.com/b",
      event: "job.created",
    });
    expect(both.status).toBe(422);
    expect(fieldsOf(both.json)).toContain("target_url");
    const neither = await w.call("POST", "/webhook-endpoints", writer.key, { description: "x" });
    expect(fieldsOf(neither.json)).toEqual(["url", "events"]);
    const unknown = await w.call("POST", "/webhook-endpoints", writer.key, {
      url: "https://hooks.example.com/a",
      events: ["job.deleted"],
    });
    expect(fieldsOf(unknown.json)).toEqual(["events.0"]);
    const throttle = await w.call("POST", "/webhook-endpoints", writer.key, {
      url: "https://hooks.example.com/a",
      events: ["job.created"],
      max_per_second: 0,
    });
    expect(throttle.status).toBe(422);
    expect(fieldsOf(throttle.json)).toEqual(["max_per_second"]);
    const created = await w.call("POST", "/webhook-endpoints", writer.key, {
      url: "https://hooks.example.com/a",
      events: ["job.created"],
    });
    const scheme = await w.call("PATCH", `/webhook-endpoints/${created.json.data.id}`, writer.key, {
      signature_scheme: "sha1",
    });
    expect(fieldsOf(scheme.json)).toEqual(["signature_scheme"]);
    await w.close();
  });

  it("the signature scheme: standard-v1a shows its public key as the secret, once", async () => {
    const w = await open();
    const writer = await w.key(["webhooks:write"]);
    const created = await w.call("POST", "/webhook-endpoints", writer.key, {
      url: "https://hooks.example.com/ed",
      events: ["job.created"],
      signature_scheme: "standard-v1a",
    });
    expect(created.status).toBe(201);
    expect(created.json.data).toMatchObject({ signature_scheme: "standard-v1a" });
    expect(created.json.data.secret).toMatch(/^whpk_/);
    expect(created.json.data.public_key).toBe(created.json.data.secret);
    const switched = await w.call("PATCH", `/webhook-endpoints/${created.json.data.id}`, writer.key, {
      signature_scheme: "standard-v1",
    });
    expect(switched.json.data).toMatchObject({ signature_scheme: "standard-v1", public_key: null });
    expect(switched.json.data).not.toHaveProperty("secret");
    await w.close();
  });

  it("a company at its endpoint limit gets 409 endpoint_limit", async () => {
    const w = await open({ maxEndpointsPerCompany: 2 });
    const writer = await w.key(["webhooks:write"]);
    const body = (n: number) => ({ url: `https://hooks.example.com/${n}`, events: ["job.created"] });
    expect((await w.call("POST", "/webhook-endpoints", writer.key, body(1))).status).toBe(201);
    expect((await w.call("POST", "/webhook-endpoints", writer.key, body(2))).status).toBe(201);
    const third = await w.call("POST", "/webhook-endpoints", writer.key, body(3));
    expect(third.status).toBe(409);
    expect(third.json.error.code).toBe("endpoint_limit");
    expect(await w.dispatcher.endpoints.list(COMPANY)).toHaveLength(2);
    await w.close();
  });

  it("a sample envelope for each event kind; an unknown kind is 404", async () => {
    const w = await open();
    const reader = await w.key(["webhooks:read"]);
    for (const type of EVENT_TYPES) {
      const answer = await w.call("GET", `/event-samples/${type}`, reader.key);
      expect(answer.status).toBe(200);
      expect(answer.json.data).toMatchObject({ type, api_version: "1.0" });
      expect(answer.json.data.data.id).toBeTruthy();
    }
    expect((await w.call("GET", "/event-samples/job.deleted", reader.key)).status).toBe(404);
    expect((await w.call("GET", "/event-samples/webhook.test", reader.key)).status).toBe(404);
    await w.close();
  });

  it("without the webhooks routes mounted, their paths answer 404 and are not in the document", async () => {
    const w = await open({}, false);
    const writer = await w.key(["webhooks:write"]);
    for (const [method, path] of [
      ["GET", "/webhook-endpoints"],
      ["POST", "/webhook-endpoints"],
      ["DELETE", "/webhook-endpoints/we_1"],
      ["GET", "/event-samples/job.created"],
    ] as const) {
      const answer = await w.call(
        method,
        path,
        writer.key,
        method === "POST" ? { url: "https://x", events: [] } : undefined,
      );
      expect(answer.status).toBe(404);
      expect(answer.json.error.code).toBe("not_found");
    }
    const paths = (w.api.openapi() as { paths: Record<string, unknown> }).paths;
    expect(Object.keys(paths).some((path) => path.startsWith("/webhook-endpoints"))).toBe(false);
    await w.close();
  });

  it("the OpenAPI document (valid, by @readme/openapi-parser) and the reference page list every route with its permission", async () => {
    const w = await open();
    const paths = (w.api.openapi() as { paths: Record<string, Record<string, Record<string, unknown>>> }).paths;
    const operations = Object.values(paths).flatMap((item) => Object.values(item));
    const scopes = Object.fromEntries(
      operations.map((operation) => [operation.operationId, operation["x-required-scope"]]),
    );
    expect(scopes).toMatchObject({
      listWebhookEndpoints: "webhooks:read",
      createWebhookEndpoint: "webhooks:write",
      getWebhookEndpoint: "webhooks:read",
      updateWebhookEndpoint: "webhooks:write",
      deleteWebhookEndpoint: "webhooks:write",
      rotateWebhookEndpointSecret: "webhooks:write",
      pauseWebhookEndpoint: "webhooks:write",
      resumeWebhookEndpoint: "webhooks:write",
      testWebhookEndpoint: "webhooks:write",
      listWebhookDeliveries: "webhooks:read",
      resendWebhookDelivery: "webhooks:write",
      getEventSample: "webhooks:read",
    });
    expect(paths["/webhook-endpoints/{id}"]).toHaveProperty("delete");
    const checked = await validate(structuredClone(w.api.openapi()) as never);
    expect(checked.valid ? [] : compileErrors(checked)).toEqual([]);
    expect(checked.warnings).toEqual([]);
    const page = await w.api.reference();
    expect(page).toContain("/webhook-endpoints/{id}/deliveries/{delivery_id}/resend");
    expect(page).toContain("method-delete");
    await w.close();
  });
});
