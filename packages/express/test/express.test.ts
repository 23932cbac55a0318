import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicApi, type HireportHandler, type PublicApi } from "@hireport/core";
import { memoryStorage } from "@hireport/core/memory";
import { runHandlerSuite, runHttpSuite } from "@hireport/core/testing";
import express, { type ErrorRequestHandler } from "express";
import express4 from "express4";
import { afterAll, describe, expect, it } from "vitest";
import { hireportExpress, hireportExpressFiles } from "../src/index";

/** Errors that reached the host's error handler: none may, for any case the API documents. */
const hostErrors: unknown[] = [];
const hostErrorHandler: ErrorRequestHandler = (error, _req, res, _next) => {
  hostErrors.push(error);
  res.status(599).json({ host: true });
};

function listen(app: express.Express): Promise<Server> {
  const server = createServer(app);
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

/** The adapters' warnings (a parser in front of the API is said once per mount). */
const warnings: string[] = [];
const collect = { warn: (message: string) => void warnings.push(message) };

async function start(api: PublicApi, setup: (app: express.Express) => void, factory: typeof express = express) {
  const app = factory();
  setup(app);
  app.use("/api/public/v1", hireportExpress(api, { logger: collect }));
  app.use("/files/cv", hireportExpressFiles(api));
  app.use(hostErrorHandler);
  const server = await listen(app);
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/api/public/v1`, close: () => close(server) };
}

runHttpSuite({ name: "express 5, no body parser", start: (api) => start(api, () => undefined) });

for (const [name, factory] of [
  ["express 5", express],
  ["express 4", express4 as unknown as typeof express],
] as const) {
  runHandlerSuite({
    name,
    async mount(handler) {
      const app = factory();
      app.use("/site", hireportExpress(handler));
      app.use(hostErrorHandler);
      const server = await listen(app);
      const { port } = server.address() as AddressInfo;
      return { baseUrl: `http://127.0.0.1:${port}/site`, close: () => close(server) };
    },
  });
}

runHttpSuite({
  name: "express 5, express.json() before the router",
  start: (api) => start(api, (app) => app.use(express.json())),
});

runHttpSuite({
  name: "express 5, express.json(), express.text() and express.urlencoded() before the router",
  start: (api) => start(api, (app) => app.use(express.json(), express.text(), express.urlencoded())),
});

runHttpSuite({ name: "express 4, no body parser", start: (api) => start(api, () => undefined, express4) });

runHttpSuite({
  name: "express 4, express.json(), express.text() and express.urlencoded() before the router",
  start: (api) =>
    start(api, (app) => app.use(express4.json(), express4.text(), express4.urlencoded({ extended: true })), express4),
});

runHttpSuite({
  name: "express 5, CV route mounted with app.get and a parameter",
  async start(api) {
    const app = express();
    app.use("/api/public/v1", hireportExpress(api));
    app.get("/files/cv/:token", hireportExpressFiles(api));
    const server = await listen(app);
    const { port } = server.address() as AddressInfo;
    return { baseUrl: `http://127.0.0.1:${port}/api/public/v1`, close: () => close(server) };
  },
});

const quiet = { warn: () => undefined, error: () => undefined };

async function withApp(
  setup: (app: express.Express, api: PublicApi) => void,
  run: (origin: string, api: PublicApi) => Promise<void>,
  limits: { maxBodyBytes?: number } = {},
): Promise<void> {
  const api = createPublicApi({
    storage: memoryStorage(),
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "express-test-secret-0123456789-abcdefgh",
    logger: quiet,
    limits,
  });
  const app = express();
  setup(app, api);
  const server = await listen(app);
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, api);
  } finally {
    await close(server);
    await api.close();
  }
}

async function fullKey(api: PublicApi): Promise<string> {
  const company = await api.companies.upsert({ id: `co_${globalThis.crypto.randomUUID()}`, name: "Acme" });
  const created = await api.keys.create({ companyId: company.id, name: "Test", scopes: ["jobs:write"] });
  return created.key;
}

describe("express adapter", () => {
  // Regression: the file was piped with .pipe(res), which leaves the source alone when the client
  // goes away; the file store's stream was never cancelled and its file was closed by the garbage
  // collector (DEP0137).
  it("a client that goes away mid-file cancels the file's stream (the file store closes its file)", async () => {
    let cancelled: (reason: unknown) => void = () => undefined;
    const cancel = new Promise<unknown>((resolve) => {
      cancelled = resolve;
    });
    const handler: HireportHandler = {
      settings: { maxBodyBytes: 1024 },
      fetch: async () => new Response(null, { status: 500 }),
      handle: async () => ({
        status: 200,
        headers: { "content-type": "application/pdf" },
        body: new ReadableStream<Uint8Array>({
          pull: (controller) => controller.enqueue(new Uint8Array(64 * 1024).fill(1)), // never ends
          cancel: (reason) => cancelled(reason ?? "cancelled"),
        }),
      }),
    };
    const app = express();
    app.use("/files/cv", hireportExpress(handler));
    const server = await listen(app);
    try {
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve, reject) => {
        const request = httpRequest({ host: "127.0.0.1", port, path: "/files/cv/token" }, (response) => {
          response.once("data", () => {
            request.destroy(); // the client goes away after the first bytes
            resolve();
          });
        });
        request.on("error", () => undefined);
        request.end();
        setTimeout(() => reject(new Error("no bytes came")), 5000).unref();
      });
      const outcome = await Promise.race([cancel, new Promise((resolve) => setTimeout(() => resolve("never"), 3000))]);
      expect(outcome).not.toBe("never");
    } finally {
      await close(server);
    }
  });

  it("leaves other routes of the host alone, and errors of the host's own middleware go to its handler", async () => {
    const seen: unknown[] = [];
    await withApp(
      (app, api) => {
        app.get("/health", (_req, res) => {
          res.json({ ok: true });
        });
        app.use("/api/public/v1", (_req, _res, next) => next(new Error("host middleware failed")));
        app.use("/api/public/v1", hireportExpress(api));
        app.use(((error, _req, res, _next) => {
          seen.push(error);
          res.status(500).json({ host: true });
        }) satisfies ErrorRequestHandler);
      },
      async (origin) => {
        expect(await (await fetch(`${origin}/health`)).json()).toEqual({ ok: true });
        const failed = await fetch(`${origin}/api/public/v1/me`);
        expect(failed.status).toBe(500);
        expect(await failed.json()).toEqual({ host: true });
        expect(seen).toHaveLength(1);
      },
    );
  });

  it("a host parser with a larger limit: the Content-Length still answers 413", async () => {
    await withApp(
      (app, api) => app.use(express.json({ limit: "10mb" })).use("/api/public/v1", hireportExpress(api)),
      async (origin, api) => {
        const response = await fetch(`${origin}/api/public/v1/jobs`, {
          method: "POST",
          headers: { authorization: `Bearer ${await fullKey(api)}`, "content-type": "application/json" },
          body: JSON.stringify({ title: "Big", description: "x".repeat(2 * 1_048_576) }),
        });
        expect(response.status).toBe(413);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
      },
    );
  });

  it("a body left as a Buffer by express.raw() is read as the raw body", async () => {
    await withApp(
      (app, api) => app.use(express.raw({ type: "*/*" })).use("/api/public/v1", hireportExpress(api)),
      async (origin, api) => {
        const response = await fetch(`${origin}/api/public/v1/jobs`, {
          method: "POST",
          headers: { authorization: `Bearer ${await fullKey(api)}`, "content-type": "application/json" },
          body: JSON.stringify({ title: "Raw" }),
        });
        expect(response.status).toBe(201);
      },
    );
  });

  it("reads bodies up to core's limits.maxBodyBytes, whatever it is set to", async () => {
    await withApp(
      (app, api) => app.use("/api/public/v1", hireportExpress(api)),
      async (origin, api) => {
        const response = await fetch(`${origin}/api/public/v1/jobs`, {
          method: "POST",
          headers: { authorization: `Bearer ${await fullKey(api)}`, "content-type": "application/json" },
          body: JSON.stringify({ title: "y".repeat(150) }),
        });
        expect(response.status).toBe(413);
      },
      { maxBodyBytes: 100 },
    );
  });
});

afterAll(() => {
  expect(hostErrors).toEqual([]);
});

for (const [name, factory] of [
  ["express 5", express],
  ["express 4", express4 as unknown as typeof express],
] as const) {
  describe(`${name}: the same request gets the same answer, or the host is told why not`, () => {
    /** 150,000 bytes of valid JSON: over express.json()'s 100 KB, well under the API's 1 MiB. */
    const large = JSON.stringify({ title: "Large", description: "日".repeat(49_990) });
    /** `{"title":"` then a byte that is not UTF-8. */
    const invalidUtf8 = new Uint8Array(
      Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xff]), Buffer.from('"}')]),
    );

    async function answers(setup: (app: express.Express, api: PublicApi, logger: typeof collect) => void) {
      const seen: string[] = [];
      const logger = { warn: (message: string) => void seen.push(message) };
      const api = createPublicApi({
        storage: memoryStorage(),
        publicBaseUrl: "https://careers.example.com",
        fileTokenSecret: "express-test-secret-0123456789-abcdefgh",
        logger: quiet,
      });
      const app = factory();
      setup(app, api, logger);
      app.post("/host/echo", (req, res) => {
        res.json({ host: req.body });
      });
      const server = await listen(app);
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const key = await fullKey(api);
        const post = async (body: string | Uint8Array<ArrayBuffer>) => {
          const response = await fetch(`${origin}/api/public/v1/jobs`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body,
          });
          return { status: response.status, error: ((await response.json()) as { error?: { message: string } }).error };
        };
        const host = await fetch(`${origin}/host/echo`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ a: 1 }),
        });
        return {
          large: await post(large),
          invalid: await post(invalidUtf8),
          second: await post(large),
          host: await host.json(),
          warnings: seen,
        };
      } finally {
        await close(server);
        await api.close();
      }
    }

    it("the README's setup, hireportExpress before express.json(), answers as with no parser at all", async () => {
      expect(Buffer.byteLength(large)).toBeGreaterThan(100 * 1024);
      const bare = await answers((app, api, logger) => app.use("/api/public/v1", hireportExpress(api, { logger })));
      const readme = await answers((app, api, logger) => {
        app.use("/api/public/v1", hireportExpress(api, { logger }));
        app.use(factory.json());
      });
      expect(bare.large.status).toBe(201);
      expect(bare.invalid).toMatchObject({ status: 400, error: { message: "The request body is not valid UTF-8." } });
      expect({ ...readme, host: undefined }).toEqual({ ...bare, host: undefined });
      // The host's own routes still get express.json()'s work.
      expect(readme.host).toEqual({ host: { a: 1 } });
      expect(readme.warnings).toEqual([]);
    });

    it("express.json() in front: one warning naming the fix, and a 413 naming the parser's own limit", async () => {
      const behind = await answers((app, api, logger) => {
        app.use(factory.json());
        app.use("/api/public/v1", hireportExpress(api, { logger }));
      });
      expect(behind.large).toEqual({
        status: 413,
        error: {
          code: "payload_too_large",
          message:
            "The request body is larger than the 102400 bytes the application's own body parser accepts in front of this API (the API itself takes up to 1048576 bytes).",
        },
      });
      expect(behind.warnings).toHaveLength(1);
      expect(behind.warnings[0]).toMatch(/read a request body before hireportExpress/);
      expect(behind.warnings[0]).toMatch(/Mount hireportExpress before body parsers/);
    });
  });
}
