/**
 * `toNextHealthHandler` behind the small Next-like server: 200 when healthy, 503 when not (HEAD
 * too, without a body), `cache-control: no-store`, and no connection string in the body.
 */
import { createPublicApi, type Storage } from "@hireport/core";
import type { HealthSource } from "@hireport/core/http";
import { memoryStorage } from "@hireport/core/memory";
import { afterEach, describe, expect, it } from "vitest";
import { toNextHealthHandler } from "../src/index";
import { startNextServer } from "./support/next-server";

const quiet = { warn: () => undefined, error: () => undefined };

function apiOver(storage: Storage) {
  return createPublicApi({
    storage,
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "next-health-secret-0123456789-abcdefgh",
    logger: quiet,
  });
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function serve(sources: HealthSource | readonly HealthSource[]): Promise<string> {
  const route = toNextHealthHandler(sources);
  const server = await startNextServer((path, method) =>
    path === "/health" ? route[method as keyof typeof route] : null,
  );
  closers.push(server.close);
  return `${server.origin}/health`;
}

describe("toNextHealthHandler", () => {
  it("answers 200 with the report, not cached, when healthy", async () => {
    const response = await fetch(await serve(apiOver(memoryStorage())));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toMatchObject({ ok: true, checks: [{ name: "storage" }, { name: "open" }] });
  });

  it("answers 503 when the storage fails (HEAD too), without the connection string", async () => {
    const storage = memoryStorage();
    const lost = () => Promise.reject(new Error("Connection terminated: postgres://u:pw-secret@db/hr"));
    const url = await serve([
      apiOver(memoryStorage()),
      apiOver({ ...storage, companies: { ...storage.companies, get: lost } }),
    ]);
    const response = await fetch(url);
    expect(response.status).toBe(503);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.text()).not.toContain("pw-secret");
    const head = await fetch(url, { method: "HEAD" });
    expect(head.status).toBe(503);
    expect(await head.text()).toBe("");
  });
});
