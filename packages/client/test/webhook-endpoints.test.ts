/**
 * `client.webhookEndpoints` against a real server (each adapter) that mounts the webhook endpoints
 * of `@hireport/webhooks`; and, against one that does not, a 404 `not_found`.
 */
import { createPublicApi, type PublicApi, type Scope } from "@hireport/core";
import { createWebhookDispatcher, webhookEndpointsApi } from "@hireport/webhooks";
import { memoryWebhookStorage } from "@hireport/webhooks/memory";
import { afterEach, describe, expect, it } from "vitest";
import { createClient, HireportApiError } from "../src/index";
import { ADAPTERS, type Adapter } from "./servers";

const quiet = { warn: () => undefined, error: () => undefined };
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function start(adapter: Adapter, mounted = true) {
  const storage = memoryWebhookStorage();
  const dispatcher = createWebhookDispatcher({
    storage,
    logger: quiet,
    resolveHost: async () => [{ address: "93.184.215.14", family: 4 }],
  });
  const api: PublicApi = createPublicApi({
    storage,
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "client-webhooks-secret-0123456789-abcdefgh",
    logger: quiet,
    ...(mounted ? { extensions: [webhookEndpointsApi(dispatcher)] } : {}),
  });
  await api.companies.upsert({ id: "co_client", name: "Acme" });
  const server = await adapter.start(api);
  closers.push(async () => {
    await server.close();
    await api.close();
  });
  const client = async (scopes: Scope[]) =>
    createClient({
      baseUrl: server.baseUrl,
      key: (await api.keys.create({ companyId: "co_client", name: scopes.join(" "), scopes })).key,
      retries: 0,
    });
  return { client };
}

describe.each(ADAPTERS.map((adapter) => [adapter.name, adapter] as const))(
  "client.webhookEndpoints via %s",
  (_name, adapter) => {
    it("subscribes, reads, changes, rotates, pauses, resumes, samples and unsubscribes", async () => {
      const { client } = await start(adapter);
      const hooks = (await client(["webhooks:write"])).webhookEndpoints;

      const created = await hooks.create({ url: "https://hooks.example.com/a", events: ["job.created"] });
      expect(created.secret).toMatch(/^whsec_/);
      const hook = await hooks.create({ target_url: "https://hooks.example.com/zap", event: "job.closed" });
      expect(hook.events).toEqual(["job.closed"]);
      expect((await hooks.list()).map((endpoint) => endpoint.id).sort()).toEqual([created.id, hook.id].sort());
      expect(await hooks.get(created.id)).not.toHaveProperty("secret");
      expect((await hooks.update(created.id, { description: "ATS" })).description).toBe("ATS");
      const rotated = await hooks.rotateSecret(created.id);
      expect(rotated.secret).not.toBe(created.secret);
      expect((await hooks.pause(created.id)).status).toBe("paused");
      expect((await hooks.resume(created.id)).status).toBe("active");
      expect(await hooks.deliveries(created.id)).toEqual({ data: [], has_more: false, next_cursor: null });
      expect((await hooks.sample("application.created")).type).toBe("application.created");

      await hooks.delete(hook.id);
      const gone = await hooks.get(hook.id).catch((error: unknown) => error);
      expect(gone).toBeInstanceOf(HireportApiError);
      expect((gone as HireportApiError).code).toBe("not_found");

      const reader = (await client(["webhooks:read"])).webhookEndpoints;
      const refused = await reader.delete(created.id).catch((error: unknown) => error);
      expect((refused as HireportApiError).requiredScope).toBe("webhooks:write");
    });
  },
);

describe("client.webhookEndpoints where the host does not mount them", () => {
  it("rejects with 404 not_found", async () => {
    const { client } = await start(ADAPTERS[0] as Adapter, false);
    const error = await (await client(["webhooks:read"])).webhookEndpoints.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HireportApiError);
    expect((error as HireportApiError).status).toBe(404);
  });
});
