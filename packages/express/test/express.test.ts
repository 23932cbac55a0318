import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicApi, type PublicApi } from "@hireport/core";
import { memoryStorage } from "@hireport/core/memory";
import { runHttpSuite } from "@hireport/core/testing";
import express, { type ErrorRequestHandler } from "express";
import express4 from "express4";
import { afterAll, describe, expect, it } from "vitest";
import { hireportExpress, hireportExpressFiles } from "../src/index";

/** Errors that reached the host's error handler: none may, for any case the spec covers. */
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

async function start(api: PublicApi, setup: (app: express.Express) => void, factory: typeof express = express) {
  const app = factory();
  setup(app);
  app.use("/api/public/v1", hireportExpress(api));
  app.use("/files/cv", hireportExpressFiles(api));
  app.use(hostErrorHandler);
  const server = await listen(app);
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/api/public/v1`, close: () => close(server) };
}

runHttpSuite({ name: "express 5, no body parser", start: (api) => start(api, () => undefined) });

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
