/**
 * The webhook endpoints of `@hireport/webhooks` (`createPublicApi({ extensions })`) through this
 * adapter over real HTTP: POST, GET, PATCH and DELETE reach core's pipeline, the REST Hooks body
 * subscribes, and a key without the permission is refused.
 */
import { createPublicApi } from "@hireport/core";
import { createWebhookDispatcher, webhookEndpointsApi } from "@hireport/webhooks";
import { memoryWebhookStorage } from "@hireport/webhooks/memory";
import { afterAll, describe, expect, it } from "vitest";
import { type NextHandlers, toNextHandlers } from "../src/index";
import { startNextServer } from "./support/next-server";

const quiet = { warn: () => undefined, error: () => undefined };
const open: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of open.reverse()) await close();
});

async function start() {
  const storage = memoryWebhookStorage();
  const dispatcher = createWebhookDispatcher({
    storage,
    logger: quiet,
    resolveHost: async () => [{ address: "93.184.215.14", family: 4 }],
  });
  const api = createPublicApi({
    storage,
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "next-webhooks-secret-0123456789-abcdef",
    logger: quiet,
    extensions: [webhookEndpointsApi(dispatcher)],
  });
  await api.companies.upsert({ id: "co_x", name: "Acme" });
  const key = async (scopes: ("webhooks:read" | "webhooks:write")[]) =>
    (await api.keys.create({ companyId: "co_x", name: scopes.join(" "), scopes })).key;
  // The catch-all route file's exports: export const { GET, POST, PATCH, PUT, DELETE } = toNextHandlers(api).
  const handlers: NextHandlers = toNextHandlers(api);
  const server = await startNextServer((path, method) =>
    path.startsWith("/api/public/v1/") ? handlers[method as keyof NextHandlers] : null,
  );
  open.push(async () => {
    await server.close();
    await api.close();
  });
  const base = `${server.origin}/api/public/v1`;
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, json: (await response.json()) as { data: Record<string, unknown> } };
  };
  return { key, call };
}

describe("webhook endpoints through next route handlers", () => {
  it("POST, GET, PATCH and DELETE reach the pipeline; REST Hooks subscribe; permissions hold", async () => {
    const { key, call } = await start();
    const writer = await key(["webhooks:write"]);
    const reader = await key(["webhooks:read"]);
    const created = await call("POST", "/webhook-endpoints", writer, {
      url: "https://hooks.example.com/a",
      events: ["job.created"],
    });
    expect(created.status).toBe(201);
    expect(created.json.data.secret).toMatch(/^whsec_/);
    const id = created.json.data.id as string;
    expect((await call("GET", `/webhook-endpoints/${id}`, reader)).json.data).not.toHaveProperty("secret");
    const patched = await call("PATCH", `/webhook-endpoints/${id}`, writer, { max_per_second: 3 });
    expect(patched.json.data.max_per_second).toBe(3);
    expect((await call("DELETE", `/webhook-endpoints/${id}`, reader)).status).toBe(403);
    const deleted = await call("DELETE", `/webhook-endpoints/${id}`, writer);
    expect(deleted).toEqual({ status: 200, json: { data: { id, deleted: true } } });
    expect((await call("GET", `/webhook-endpoints/${id}`, reader)).status).toBe(404);
    const hook = await call("POST", "/webhook-endpoints", writer, {
      target_url: "https://hooks.example.com/zap",
      event: "application.created",
    });
    expect(hook.status).toBe(201);
    expect(hook.json.data.events).toEqual(["application.created"]);
  });
});
