import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicApi } from "@hireport/core";
import { memoryStorage } from "@hireport/core/memory";
import { runHandlerSuite, runHttpSuite } from "@hireport/core/testing";
import { describe, expect, it, vi } from "vitest";
import {
  type NextHandlers,
  type RouteHandler,
  toNextCronHandler,
  toNextFileHandler,
  toNextHandlers,
} from "../src/index";

/**
 * The body stream as Next's Node server builds it (`NodeNextRequest.stream()`): 'data' listeners
 * feeding a `ReadableStream`. Cancelling it does not destroy the socket; the rest keeps flowing
 * and is dropped, so an early 413 still reaches the client.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Buffer) => {
        if (open) controller.enqueue(new Uint8Array(chunk));
      });
      req.on("end", () => {
        if (open) controller.close();
      });
      req.on("error", (error) => {
        if (open) controller.error(error);
        open = false;
      });
    },
    cancel() {
      open = false;
    },
  });
}

/**
 * What Next's server does around a route handler, in small: turn the Node request into a Web
 * `Request` (with the client's address in X-Forwarded-For, as Vercel sends it), pick the file's
 * exported method, and stream the `Response` back.
 */
async function serve(req: IncomingMessage, res: ServerResponse, route: (path: string) => RouteHandler | null) {
  const aborted = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) aborted.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  headers.set("x-forwarded-for", req.socket.remoteAddress ?? "");
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const request = new Request(`http://${req.headers.host}${req.url}`, {
    method,
    headers,
    signal: aborted.signal,
    ...(hasBody ? { body: bodyStream(req), duplex: "half" } : {}),
  } as RequestInit);
  const handler = route(new URL(request.url).pathname);
  if (!handler) {
    res.writeHead(404).end();
    return;
  }
  try {
    const response = await handler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    const reader = response.body?.getReader();
    for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) res.write(read.value);
    res.end();
  } catch {
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
}

runHttpSuite({
  name: "next route handlers (Request in, Response out)",
  async start(api) {
    const handlers: NextHandlers = toNextHandlers(api);
    const files = toNextFileHandler(api);
    const server = createServer((req, res) => {
      void serve(req, res, (path) => {
        if (path.startsWith("/api/public/v1/") || path === "/api/public/v1") {
          return handlers[(req.method ?? "GET") as keyof NextHandlers] ?? null;
        }
        if (path.startsWith("/files/cv/") && req.method === "GET") return files.GET;
        return null;
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return {
      baseUrl: `http://127.0.0.1:${port}/api/public/v1`,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  },
});

runHandlerSuite({
  name: "next route handlers",
  async mount(handler) {
    const handlers: NextHandlers = toNextHandlers(handler);
    const server = createServer((req, res) => {
      void serve(req, res, (path) =>
        path.startsWith("/site/") ? (handlers[(req.method ?? "GET") as keyof NextHandlers] ?? null) : null,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return {
      baseUrl: `http://127.0.0.1:${port}/site`,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
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
