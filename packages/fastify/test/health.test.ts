/**
 * `hireportFastifyHealth` through a real Fastify 5 server: 200 when healthy, 503 when not (HEAD
 * too), `cache-control: no-store`, and no connection string in the body.
 */
import type { AddressInfo } from "node:net";
import { createPublicApi, type Storage } from "@hireport/core";
import { memoryStorage } from "@hireport/core/memory";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { hireportFastifyHealth } from "../src/index";

const quiet = { warn: () => undefined, error: () => undefined };

function apiOver(storage: Storage) {
  return createPublicApi({
    storage,
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "fastify-health-secret-0123456789-abcdef",
    logger: quiet,
  });
}

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function serve(storage: Storage): Promise<string> {
  const app = Fastify();
  apps.push(app);
  app.get("/health", hireportFastifyHealth(apiOver(storage)));
  await app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/health`;
}

describe("hireportFastifyHealth", () => {
  it("answers 200 with the report, not cached, when healthy", async () => {
    const response = await fetch(await serve(memoryStorage()));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toMatchObject({
      ok: true,
      checks: [{ name: "storage", status: "pass" }, { name: "open" }],
    });
  });

  it("answers 503 when the storage fails, without the connection string", async () => {
    const storage = memoryStorage();
    const lost = () => Promise.reject(new Error("timeout for mysql://root:pw-secret@10.1.2.3/hr"));
    const url = await serve({ ...storage, companies: { ...storage.companies, get: lost } });
    const response = await fetch(url);
    expect(response.status).toBe(503);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    expect(text).not.toContain("pw-secret");
    expect(JSON.parse(text).checks[0]).toMatchObject({
      name: "storage",
      status: "fail",
      error: "timeout for [address]",
    });
    expect((await fetch(url, { method: "HEAD" })).status).toBe(503);
  });
});
