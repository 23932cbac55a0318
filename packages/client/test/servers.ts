/**
 * Real servers for the client's tests: `createPublicApi` on `memoryStorage()`, mounted through
 * each adapter (Express 5, Fastify 5, Next.js route handlers behind `node:http`) on a free port of
 * 127.0.0.1, and the world a test needs (a company, keys, a clock it can shift, a storage that can
 * fail on purpose).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicApi, type PublicApi, type Scope, type Storage } from "@hireport/core";
import { memoryStorage } from "@hireport/core/memory";
import { hireportExpress } from "@hireport/express";
import { hireportFastify } from "@hireport/fastify";
import { type NextHandlers, toNextHandlers } from "@hireport/next";
import express from "express";
import Fastify from "fastify";

export const BASE_PATH = "/api/public/v1";

export interface RunningServer {
  /** `http://127.0.0.1:{port}/api/public/v1` */
  baseUrl: string;
  close(): Promise<void>;
}

export interface Adapter {
  name: string;
  start(api: PublicApi): Promise<RunningServer>;
}

function closeNodeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

async function listenNode(server: Server): Promise<RunningServer> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}${BASE_PATH}`, close: () => closeNodeServer(server) };
}

/** What Next's server does around a route handler, in small: a Web Request in, the Response streamed back. */
async function serveNext(handlers: NextHandlers, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  const method = req.method ?? "GET";
  const handler = handlers[method as keyof NextHandlers];
  if (!handler || !(req.url ?? "").startsWith(BASE_PATH)) {
    res.writeHead(404).end();
    return;
  }
  const body = chunks.length > 0 && method !== "GET" && method !== "HEAD" ? Buffer.concat(chunks) : undefined;
  const response = await handler(
    new Request(`http://${req.headers.host}${req.url}`, { method, headers, ...(body ? { body } : {}) }),
  );
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

export const ADAPTERS: readonly Adapter[] = [
  {
    name: "express 5",
    async start(api) {
      const app = express();
      app.use(BASE_PATH, hireportExpress(api));
      return listenNode(createServer(app));
    },
  },
  {
    name: "fastify 5",
    async start(api) {
      const app = Fastify();
      await app.register(hireportFastify, { api, prefix: BASE_PATH });
      await app.listen({ port: 0, host: "127.0.0.1" });
      const { port } = app.server.address() as AddressInfo;
      return { baseUrl: `http://127.0.0.1:${port}${BASE_PATH}`, close: () => app.close() };
    },
  },
  {
    name: "next route handlers",
    async start(api) {
      const handlers = toNextHandlers(api);
      return listenNode(
        createServer((req, res) => {
          serveNext(handlers, req, res).catch(() => {
            if (!res.headersSent) res.writeHead(500);
            res.end();
          });
        }),
      );
    },
  },
];

/** A storage whose next `failNext` admissions throw (the API answers 500) and whose idempotency completions can be held. */
export function faultyStorage(inner: Storage) {
  const state = { failNext: 0, gate: null as Promise<void> | null };
  const bind = <T extends object>(target: T, override: Record<string, unknown>): T =>
    new Proxy(target, {
      get(object, name) {
        if (typeof name === "string" && name in override) return override[name];
        const value = Reflect.get(object, name, object);
        return typeof value === "function" ? value.bind(object) : value;
      },
    });
  const keys = bind(inner.keys, {
    admit: async (...args: Parameters<Storage["keys"]["admit"]>) => {
      if (state.failNext > 0) {
        state.failNext--;
        throw new Error("the database is restarting");
      }
      return inner.keys.admit(...args);
    },
  });
  const idempotency = bind(inner.idempotency, {
    complete: async (...args: Parameters<Storage["idempotency"]["complete"]>) => {
      if (state.gate) await state.gate;
      return inner.idempotency.complete(...args);
    },
  });
  return { storage: bind(inner, { keys, idempotency }), state };
}

export interface World {
  api: PublicApi;
  server: RunningServer;
  baseUrl: string;
  companyId: string;
  /** Every permission. */
  key: string;
  /** jobs:read and applications:read only. */
  readKey: string;
  /** Moves the API's clock (rate-limit windows, `updated_at`) by this many ms from real time. */
  setClockOffset(ms: number): void;
  faults: ReturnType<typeof faultyStorage>["state"];
  close(): Promise<void>;
}

const ALL: Scope[] = ["jobs:write", "applications:write"];
const quiet = { warn: () => undefined, error: () => undefined };

export async function startWorld(adapter: Adapter, options: { perMinute?: number } = {}): Promise<World> {
  let offset = 0;
  const faulty = faultyStorage(memoryStorage());
  const api = createPublicApi({
    storage: faulty.storage,
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "client-test-secret-0123456789-abcdefghij",
    limits: { perMinute: options.perMinute ?? 100_000, perDay: 1_000_000 },
    clock: { now: () => new Date(Date.now() + offset) },
    logger: quiet,
  });
  const company = await api.companies.upsert({ id: `co_${crypto.randomUUID().slice(0, 8)}`, name: "Acme Ltd" });
  const key = (await api.keys.create({ companyId: company.id, name: "Integration", scopes: ALL })).key;
  const readKey = (
    await api.keys.create({ companyId: company.id, name: "Reader", scopes: ["jobs:read", "applications:read"] })
  ).key;
  const server = await adapter.start(api);
  return {
    api,
    server,
    baseUrl: server.baseUrl,
    companyId: company.id,
    key,
    readKey,
    setClockOffset: (ms) => {
      offset = ms;
    },
    faults: faulty.state,
    async close() {
      await server.close();
      await api.close();
    },
  };
}
