import type { AddressInfo } from "node:net";
import { createPublicApi, type PublicApi } from "@hireport/core";
import { memoryStorage } from "@hireport/core/memory";
import { runHttpSuite } from "@hireport/core/testing";
import Fastify, { type FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { hireportFastify, hireportFastifyFiles } from "../src/index";

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

runHttpSuite({
  name: "fastify 5",
  async start(api) {
    const app = Fastify();
    await app.register(hireportFastify, { api, prefix: "/api/public/v1" });
    await app.register(hireportFastifyFiles, { api, prefix: "/files/cv" });
    const origin = await listen(app);
    return { baseUrl: `${origin}/api/public/v1`, close: () => app.close() };
  },
});

runHttpSuite({
  name: "fastify 5, inside a host plugin with its own prefix and JSON parser",
  async start(api) {
    const app = Fastify();
    await app.register(
      async (scope) => {
        scope.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
          done(null, { hostParsed: body });
        });
        await scope.register(hireportFastify, { api, prefix: "/hr/v1" });
        await scope.register(hireportFastifyFiles, { api, prefix: "/cv" });
      },
      { prefix: "/partners" },
    );
    const origin = await listen(app);
    return {
      baseUrl: `${origin}/partners/hr/v1`,
      filesBaseUrl: `${origin}/partners/cv`,
      close: () => app.close(),
    };
  },
});

const quiet = { warn: () => undefined, error: () => undefined };

async function withApp(
  setup: (app: FastifyInstance, api: PublicApi) => Promise<void>,
  run: (origin: string, api: PublicApi) => Promise<void>,
  limits: { maxBodyBytes?: number } = {},
): Promise<void> {
  const api = createPublicApi({
    storage: memoryStorage(),
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "fastify-test-secret-0123456789-abcdefgh",
    logger: quiet,
    limits,
  });
  const app = Fastify();
  await setup(app, api);
  const origin = await listen(app);
  try {
    await run(origin, api);
  } finally {
    await app.close();
    await api.close();
  }
}

async function writeKey(api: PublicApi): Promise<string> {
  const company = await api.companies.upsert({ id: `co_${globalThis.crypto.randomUUID()}`, name: "Acme" });
  return (await api.keys.create({ companyId: company.id, name: "Test", scopes: ["jobs:write"] })).key;
}

describe("fastify plugin", () => {
  it("leaves the host's content-type parsers, routes and error handler untouched", async () => {
    await withApp(
      async (app, api) => {
        app.addContentTypeParser("application/x-custom", { parseAs: "string" }, (_request, body, done) => {
          done(null, { custom: String(body).toUpperCase() });
        });
        app.setErrorHandler((error, _request, reply) => {
          void reply.code(418).send({ host: error instanceof Error ? error.message : String(error) });
        });
        await app.register(hireportFastify, { api, prefix: "/api/public/v1" });
        app.post("/echo", async (request) => ({ body: request.body }));
        app.post("/fail", async () => {
          throw new Error("host route failed");
        });
      },
      async (origin, api) => {
        const json = await fetch(`${origin}/echo`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ a: 1 }),
        });
        expect(await json.json()).toEqual({ body: { a: 1 } });
        const custom = await fetch(`${origin}/echo`, {
          method: "POST",
          headers: { "content-type": "application/x-custom" },
          body: "hello",
        });
        expect(await custom.json()).toEqual({ body: { custom: "HELLO" } });
        const failed = await fetch(`${origin}/fail`, { method: "POST" });
        expect({ status: failed.status, body: await failed.json() }).toEqual({
          status: 418,
          body: { host: "host route failed" },
        });
        // The API in the same app still reads the same content type itself.
        const created = await fetch(`${origin}/api/public/v1/jobs`, {
          method: "POST",
          headers: { authorization: `Bearer ${await writeKey(api)}`, "content-type": "application/json" },
          body: JSON.stringify({ title: "Parsed by core" }),
        });
        expect(created.status).toBe(201);
        const custom415 = await fetch(`${origin}/api/public/v1/jobs`, {
          method: "POST",
          headers: { authorization: `Bearer ${await writeKey(api)}`, "content-type": "application/x-custom" },
          body: "hello",
        });
        expect(custom415.status).toBe(400);
      },
    );
  });

  it("reads bodies up to core's limits.maxBodyBytes, whatever it is set to", async () => {
    await withApp(
      async (app, api) => {
        await app.register(hireportFastify, { api, prefix: "/api/public/v1" });
      },
      async (origin, api) => {
        const response = await fetch(`${origin}/api/public/v1/jobs`, {
          method: "POST",
          headers: { authorization: `Bearer ${await writeKey(api)}`, "content-type": "application/json" },
          body: JSON.stringify({ title: "y".repeat(150) }),
        });
        expect(response.status).toBe(413);
      },
      { maxBodyBytes: 100 },
    );
  });

  it("answers HEAD and a body without a content type", async () => {
    await withApp(
      async (app, api) => {
        await app.register(hireportFastify, { api, prefix: "/api/public/v1" });
      },
      async (origin, api) => {
        const key = await writeKey(api);
        const head = await fetch(`${origin}/api/public/v1/openapi.json`, { method: "HEAD" });
        expect(head.headers.get("x-request-id")).toMatch(/^req_/);
        const untyped = await fetch(`${origin}/api/public/v1/jobs`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}` },
          body: new Uint8Array(new TextEncoder().encode('{"title":"x"}')),
        });
        expect(untyped.status).toBe(400);
        expect(((await untyped.json()) as { error: { code: string } }).error.code).toBe("bad_request");
      },
    );
  });
});
