/**
 * `hireportExpressHealth` through real Express 4 and 5 apps: 200 when the sources are healthy, 503
 * when one is not, `cache-control: no-store`, and no connection string in the body.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicApi, type Storage } from "@hireport/core";
import type { HealthSource } from "@hireport/core/http";
import { memoryStorage } from "@hireport/core/memory";
import express from "express";
import express4 from "express4";
import { afterEach, describe, expect, it } from "vitest";
import { hireportExpressHealth } from "../src/index";

const quiet = { warn: () => undefined, error: () => undefined };

function apiOver(storage: Storage) {
  return createPublicApi({
    storage,
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "express-health-secret-0123456789-abcdef",
    logger: quiet,
  });
}

function lostStorage(): Storage {
  const storage = memoryStorage();
  const lost = () => Promise.reject(new Error("connect ECONNREFUSED postgres://app:pw-secret@db:5432/hr"));
  return { ...storage, companies: { ...storage.companies, get: lost } };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe.each([
  ["express 5", express],
  ["express 4", express4 as unknown as typeof express],
])("hireportExpressHealth on %s", (_name, framework) => {
  async function serve(sources: HealthSource | readonly HealthSource[]): Promise<string> {
    const app = framework();
    app.get("/health", hireportExpressHealth(sources));
    const server = createServer(app);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
  }

  it("answers 200 with the report, not cached, when healthy", async () => {
    const response = await fetch(await serve(apiOver(memoryStorage())));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const body = (await response.json()) as { ok: boolean; checks: { name: string; status: string }[] };
    expect(body.ok).toBe(true);
    expect(body.checks.map((check) => check.name)).toEqual(["storage", "open"]);
  });

  it("answers 503 when one source's storage fails, without the connection string", async () => {
    const url = await serve([apiOver(memoryStorage()), apiOver(lostStorage())]);
    const response = await fetch(url);
    expect(response.status).toBe(503);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    expect(text).not.toContain("pw-secret");
    expect(JSON.parse(text)).toMatchObject({ ok: false });
    expect((await fetch(url, { method: "HEAD" })).status).toBe(503);
  });
});
