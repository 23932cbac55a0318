import { type ApiRequest, type ApiResponse, createPublicApi } from "@hireport/core";
import { createFetchHandler } from "@hireport/core/http";
import { memoryStorage } from "@hireport/core/memory";
import { runHandlerSuite, runHttpSuite } from "@hireport/core/testing";
import { describe, expect, it, vi } from "vitest";
import { type NextHandlers, toNextCronHandler, toNextFileHandler, toNextHandlers } from "../src/index";
import { startNextServer } from "./support/next-server";

runHttpSuite({
  name: "next route handlers (Request in, Response out)",
  async start(api) {
    const handlers: NextHandlers = toNextHandlers(api);
    const files = toNextFileHandler(api);
    const server = await startNextServer((path, method) => {
      if (path.startsWith("/api/public/v1/") || path === "/api/public/v1") {
        return handlers[method as keyof NextHandlers];
      }
      if (path.startsWith("/files/cv/") && method === "GET") return files.GET;
      return null;
    });
    return { baseUrl: `${server.origin}/api/public/v1`, close: server.close };
  },
});

runHandlerSuite({
  name: "next route handlers",
  async mount(handler) {
    const handlers: NextHandlers = toNextHandlers(handler);
    const server = await startNextServer((path, method) =>
      path.startsWith("/site/") ? handlers[method as keyof NextHandlers] : null,
    );
    return { baseUrl: `${server.origin}/site`, close: server.close };
  },
});

const quiet = { warn: () => undefined, error: () => undefined };

describe("next route handlers, called directly", () => {
  it("answer a real Request", async () => {
    const api = createPublicApi({
      storage: memoryStorage(),
      publicBaseUrl: "https://careers.example.com",
      fileTokenSecret: "next-test-secret-0123456789-abcdefghijk",
      logger: quiet,
    });
    const company = await api.companies.upsert({ id: "co_next", name: "Acme" });
    const { key } = await api.keys.create({ companyId: company.id, name: "Next", scopes: ["jobs:write"] });
    const { GET, POST } = toNextHandlers(api);
    const created = await POST(
      new Request("https://app.example.com/api/public/v1/jobs", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ title: "From Next" }),
      }),
    );
    expect(created.status).toBe(201);
    const listed = await GET(
      new Request("https://app.example.com/api/public/v1/jobs?status=all", {
        headers: { authorization: `Bearer ${key}` },
      }),
    );
    expect(((await listed.json()) as { data: { title: string }[] }).data.map((job) => job.title)).toEqual([
      "From Next",
    ]);
    const file = await toNextFileHandler(api).GET(new Request("https://app.example.com/files/cv/bad-token"));
    expect(file.status).toBe(404);
    await api.close();
  });
});

describe("toNextCronHandler", () => {
  const secret = "cron-secret-0123456789abcdef";
  const cron = (auth?: string, method = "GET") =>
    new Request("https://app.example.com/api/cron/webhooks", {
      method,
      headers: auth === undefined ? {} : { authorization: auth },
    });

  it("runs one dispatcher pass with the right secret, on GET and POST", async () => {
    const dispatcher = { runOnce: vi.fn(async () => ({ delivered: 3 })) };
    const { GET, POST } = toNextCronHandler({ dispatcher, secret });
    const answer = await GET(cron(`Bearer ${secret}`));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(await answer.json()).toEqual({ data: { delivered: 3 } });
    expect((await POST(cron(`Bearer ${secret}`, "POST"))).status).toBe(200);
    expect(dispatcher.runOnce).toHaveBeenCalledTimes(2);
  });

  it("answers 401 and runs nothing for a missing or wrong secret", async () => {
    const dispatcher = { runOnce: vi.fn(async () => undefined) };
    const { GET } = toNextCronHandler({ dispatcher, secret });
    for (const auth of [
      undefined,
      "",
      `Bearer ${secret}x`,
      `Bearer ${secret.slice(0, -1)}`,
      secret,
      `bearer  ${secret}`,
    ]) {
      const answer = await GET(cron(auth));
      expect(answer.status, String(auth)).toBe(401);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("invalid_key");
    }
    expect(dispatcher.runOnce).not.toHaveBeenCalled();
  });

  it("answers 500 while the secret is unset or too short, and when the pass fails", async () => {
    const errors: string[] = [];
    const logger = { error: (message: string) => errors.push(message) };
    const dispatcher = { runOnce: vi.fn(async () => undefined) };
    const unset = toNextCronHandler({ dispatcher, secret: undefined, logger });
    expect((await unset.GET(cron("Bearer undefined"))).status).toBe(500);
    const short = toNextCronHandler({ dispatcher, secret: "short", logger });
    expect((await short.GET(cron("Bearer short"))).status).toBe(500);
    expect(dispatcher.runOnce).not.toHaveBeenCalled();
    const failing = toNextCronHandler({
      dispatcher: {
        runOnce: async () => {
          throw new Error("database down");
        },
      },
      secret,
      logger,
    });
    const answer = await failing.POST(cron(`Bearer ${secret}`, "POST"));
    expect(answer.status).toBe(500);
    expect(JSON.stringify(await answer.json())).not.toContain("database down");
    expect(errors).toHaveLength(3);
  });
});

describe("the client's address", () => {
  /** A handler that records the address each request reached it with. */
  function recorder() {
    const seen: Array<string | undefined> = [];
    const handle = async (request: ApiRequest): Promise<ApiResponse> => {
      seen.push(request.ip);
      return { status: 200, headers: { "content-type": "text/plain" }, body: "ok" };
    };
    return { seen, fetch: createFetchHandler(handle, { maxBodyBytes: 1024 }), handleFile: handle };
  }
  const request = (headers: Record<string, string>) => new Request("https://app.example.com/site/x", { headers });

  it("is the first address of X-Forwarded-For by default, as Vercel sets it", async () => {
    const handler = recorder();
    await toNextHandlers(handler).GET(request({ "x-forwarded-for": "198.51.100.7, 10.0.0.2" }));
    await toNextHandlers(handler).GET(request({}));
    await toNextFileHandler(handler).GET(request({ "x-forwarded-for": "198.51.100.8" }));
    expect(handler.seen).toEqual(["198.51.100.7", undefined, "198.51.100.8"]);
  });

  it("is what clientAddress says when given, never the header the client may have set", async () => {
    const handler = recorder();
    const options = { clientAddress: (r: Request) => r.headers.get("x-real-ip") };
    const spoofed = { "x-forwarded-for": "203.0.113.66", "x-real-ip": "198.51.100.9" };
    await toNextHandlers(handler, options).POST(request(spoofed));
    await toNextFileHandler(handler, options).GET(request(spoofed));
    // Unknown to the host: unknown to hireport, not the client's claim.
    await toNextHandlers(handler, options).GET(request({ "x-forwarded-for": "203.0.113.66" }));
    await toNextFileHandler(handler, options).GET(request({ "x-forwarded-for": "203.0.113.66" }));
    expect(handler.seen).toEqual(["198.51.100.9", "198.51.100.9", undefined, undefined]);
  });
});
