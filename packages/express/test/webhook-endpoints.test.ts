/**
 * The webhook endpoints of `@hireport/webhooks` (`createPublicApi({ extensions })`) through this
 * adapter over real HTTP: POST, GET, PATCH and DELETE reach core's pipeline, the REST Hooks body
 * subscribes, and a key without the permission is refused.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicApi } from "@hireport/core";
import { createWebhookDispatcher, webhookEndpointsApi } from "@hireport/webhooks";
import { memoryWebhookStorage } from "@hireport/webhooks/memory";
import express from "express";
import { afterAll, describe, expect, it } from "vitest";
import { hireportExpress } from "../src/index";

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
    fileTokenSecret: "express-webhooks-secret-0123456789-abcdef",
    logger: quiet,
    extensions: [webhookEndpointsApi(dispatcher)],
  });
  await api.companies.upsert({ id: "co_x", name: "Acme" });
  const key = async (scopes: ("webhooks:read" | "webhooks:write")[]) =>
    (await api.keys.create({ companyId: "co_x", name: scopes.join(" "), scopes })).key;
  const app = express();
  app.use("/api/public/v1", hireportExpress(api));
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  open.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await api.close();
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/public/v1`;
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

describe("webhook endpoints through express", () => {
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
