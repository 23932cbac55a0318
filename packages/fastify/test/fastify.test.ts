import type { AddressInfo } from "node:net";
import { createPublicApi, type PublicApi } from "@hireport/core";
import { memoryStorage } from "@hireport/core/memory";
import { runHandlerSuite, runHttpSuite } from "@hireport/core/testing";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from "fastify";
import { describe, expect, it } from "vitest";
import { type FrameworkErrors, hireportFastify, hireportFastifyFiles, hireportFrameworkErrors } from "../src/index";

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

runHandlerSuite({
  name: "fastify 5",
  async mount(handler) {
    const app = Fastify();
    await app.register(hireportFastify, { api: handler, prefix: "/site" });
    const origin = await listen(app);
    return { baseUrl: `${origin}/site`, close: () => app.close() };
  },
});

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
  run: (origin: string, api: PublicApi, app: FastifyInstance) => Promise<void>,
  limits: { maxBodyBytes?: number } = {},
  serverOptions: FastifyServerOptions = {},
): Promise<void> {
  const api = createPublicApi({
    storage: memoryStorage(),
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "fastify-test-secret-0123456789-abcdefgh",
    logger: quiet,
    limits,
  });
  const app = Fastify(serverOptions);
  await setup(app, api);
  const origin = await listen(app);
  try {
    await run(origin, api, app);
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

  describe("what Fastify refuses before a route runs, under a hireport prefix", () => {
    /** One request written as is on a socket (fetch would refuse these headers and methods). */
    async function rawRequest(origin: string, lines: string[], body = "") {
      const { connect } = await import("node:net");
      const { hostname, port } = new URL(origin);
      const text = `${lines.join("\r\n")}\r\nHost: ${hostname}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
      const answer = await new Promise<string>((resolve, reject) => {
        let received = "";
        const socket = connect(Number(port), hostname, () => socket.end(text));
        socket.setEncoding("utf8");
        socket.on("data", (chunk: string) => {
          received += chunk;
        });
        socket.on("end", () => resolve(received));
        socket.on("error", reject);
      });
      const [head = "", ...rest] = answer.split("\r\n\r\n");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      const header = (name: string) => new RegExp(`^${name}: (.*)$`, "im").exec(head)?.[1]?.trim() ?? null;
      const payload = rest.join("\r\n\r\n");
      const json = payload ? (JSON.parse(payload) as { error?: { code?: string } } & Record<string, unknown>) : null;
      return { status, header, body: json, code: json?.error?.code ?? null };
    }

    const mount = async (app: FastifyInstance, api: PublicApi) => {
      await app.register(hireportFastify, { api, prefix: "/api/public/v1" });
      await app.register(hireportFastifyFiles, { api, prefix: "/files/cv" });
    };

    it("a Content-Type header Fastify cannot parse: core's 400, as on every adapter (Fastify answered 415 FST_ERR_CTP_INVALID_MEDIA_TYPE)", async () => {
      await withApp(mount, async (origin, api) => {
        const key = await writeKey(api);
        for (const type of [";;;", "/", "application/"]) {
          const answer = await rawRequest(
            origin,
            ["POST /api/public/v1/jobs HTTP/1.1", `Authorization: Bearer ${key}`, `Content-Type: ${type}`],
            '{"title":"x"}',
          );
          expect({ type, status: answer.status, body: answer.body }).toEqual({
            type,
            status: 400,
            body: { error: { code: "bad_request", message: expect.stringMatching(/Content-Type: application\/json/) } },
          });
          expect(answer.header("x-request-id")).toMatch(/^req_/);
        }
        // The key is checked first, as for any body: no key, 401.
        const anonymous = await rawRequest(origin, ["POST /api/public/v1/jobs HTTP/1.1", "Content-Type: ;;;"], "{}");
        expect({ status: anonymous.status, code: anonymous.code }).toEqual({
          status: 401,
          code: "missing_key",
        });
      });
    });

    it("methods Fastify routes and methods it does not: core's 405 with Allow, the CV route's too", async () => {
      await withApp(mount, async (origin, api) => {
        const key = await writeKey(api);
        for (const method of ["TRACE", "PROPFIND", "QUERY", "PURGE"]) {
          const answer = await rawRequest(origin, [
            `${method} /api/public/v1/jobs HTTP/1.1`,
            `Authorization: Bearer ${key}`,
          ]);
          expect({ method, status: answer.status, code: answer.code }).toEqual({
            method,
            status: 405,
            code: "method_not_allowed",
          });
          expect(answer.header("allow")).toBe("GET, POST");
          const unknown = await rawRequest(origin, [
            `${method} /api/public/v1/nowhere HTTP/1.1`,
            `Authorization: Bearer ${key}`,
          ]);
          expect({ method, status: unknown.status, code: unknown.code }).toEqual({
            method,
            status: 404,
            code: "not_found",
          });
          const file = await rawRequest(origin, [`${method} /files/cv/some-token HTTP/1.1`]);
          expect({ method, status: file.status, allow: file.header("allow") }).toEqual({
            method,
            status: 405,
            allow: "GET",
          });
        }
        const post = await rawRequest(origin, ["POST /files/cv/some-token HTTP/1.1", "Content-Type: ;;;"], "x");
        expect({ status: post.status, allow: post.header("allow") }).toEqual({ status: 405, allow: "GET" });
        // Outside hireport's prefixes Fastify answers as it always does.
        const outside = await rawRequest(origin, ["PROPFIND /other HTTP/1.1"]);
        expect({ status: outside.status, body: outside.body }).toEqual({
          status: 404,
          body: { message: "Route PROPFIND:/other not found", error: "Not Found", statusCode: 404 },
        });
      });
    });

    it("an error of the host's own hook still goes to the host's error handler, not to the API", async () => {
      const seen: string[] = [];
      await withApp(
        async (app, api) => {
          // The host refuses some requests in a hook of its own, before any route: the API must not answer them.
          app.addHook("onRequest", async (request) => {
            if (request.headers["x-blocked"])
              throw Object.assign(new Error("blocked by the host"), { statusCode: 403 });
          });
          app.setErrorHandler((error, _request, reply) => {
            seen.push(error instanceof Error ? error.message : String(error));
            void reply.code(418).send({ host: true });
          });
          await mount(app, api);
        },
        async (origin, api) => {
          const key = await writeKey(api);
          for (const path of ["/api/public/v1/jobs", "/files/cv/some-token"]) {
            const blocked = await fetch(`${origin}${path}`, {
              method: "POST",
              headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "x-blocked": "1" },
              body: JSON.stringify({ title: "Never" }),
            });
            expect({ path, status: blocked.status, body: await blocked.json() }).toEqual({
              path,
              status: 418,
              body: { host: true },
            });
          }
          expect(seen).toEqual(["blocked by the host", "blocked by the host"]);
          const jobs = await fetch(`${origin}/api/public/v1/jobs`, { headers: { authorization: `Bearer ${key}` } });
          expect(((await jobs.json()) as { data: unknown[] }).data).toEqual([]);
        },
      );
    });

    it("a plugin registered without a prefix leaves the host's own 404 handler alone", async () => {
      await withApp(
        async (app, api) => {
          app.setNotFoundHandler((_request, reply) => void reply.code(404).send({ host: "not found" }));
          await app.register(async (scope) => scope.register(hireportFastify, { api }), { prefix: "/careers" });
        },
        async (origin) => {
          expect((await fetch(`${origin}/careers/openapi.json`)).status).toBe(200);
          const hostMiss = await fetch(`${origin}/elsewhere`);
          expect(await hostMiss.json()).toEqual({ host: "not found" });
        },
      );
    });
  });

  describe("request targets Fastify's router refuses (FST_ERR_BAD_URL)", () => {
    /** A request whose path does not decode: `fetch` would re-encode it, so it goes out raw. */
    async function rawGet(origin: string, target: string, headers: Record<string, string> = {}) {
      const { request } = await import("node:http");
      const { hostname, port } = new URL(origin);
      return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        const outgoing = request({ hostname, port, path: target, headers }, (incoming) => {
          let body = "";
          incoming.setEncoding("utf8");
          incoming.on("data", (chunk: string) => {
            body += chunk;
          });
          incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body }));
        });
        outgoing.on("error", reject);
        outgoing.end();
      });
    }

    const mountBoth = async (app: FastifyInstance, api: PublicApi) => {
      await app.register(hireportFastify, { api, prefix: "/api/public/v1" });
      await app.register(hireportFastifyFiles, { api, prefix: "/files/cv" });
      await app.register(async (scope) => scope.register(hireportFastify, { api, prefix: "/hr/v1" }), {
        prefix: "/partners",
      });
    };
    const notFound = { error: { code: "not_found", message: expect.any(String) } };
    /** The host's own `frameworkErrors`: 418 "host", and what it saw. */
    function hostFrameworkErrors(seen: string[]): FrameworkErrors {
      return (error, _request, reply) => {
        seen.push(error.code);
        void (reply as FastifyReply).code(418).send("host");
      };
    }

    it("a host without any setting: the API's 404 under every hireport prefix, Fastify's answer elsewhere", async () => {
      await withApp(mountBoth, async (origin, api) => {
        const key = await writeKey(api);
        for (const target of [
          "/api/public/v1/jobs/abc%FFdef",
          "/api/public/v1/jobs/%E0%A4?limit=5",
          "/api/public/v1/%zz",
          "/partners/hr/v1/jobs/abc%FFdef",
          "/files/cv/abc%FFdef",
        ]) {
          const answer = await rawGet(origin, target, { authorization: `Bearer ${key}` });
          expect({ target, status: answer.status, body: JSON.parse(answer.body) }).toEqual({
            target,
            status: 404,
            body: notFound,
          });
          if (!target.startsWith("/files/")) expect(answer.headers["x-request-id"]).toMatch(/^req_/);
        }
        const outside = await rawGet(origin, "/other/abc%FFdef");
        expect({ status: outside.status, code: JSON.parse(outside.body).code }).toEqual({
          status: 400,
          code: "FST_ERR_BAD_URL",
        });
        // A target that decodes is untouched: the API's answers as before.
        expect((await rawGet(origin, "/api/public/v1/jobs/abc%20def", { authorization: `Bearer ${key}` })).status).toBe(
          404,
        );
        expect((await rawGet(origin, "/api/public/v1/me", { authorization: `Bearer ${key}` })).status).toBe(200);
      });
    });

    it("a host with its own frameworkErrors keeps it for its own routes; hireport's prefixes answer as the API documents", async () => {
      const seen: string[] = [];
      await withApp(
        mountBoth,
        async (origin) => {
          expect((await rawGet(origin, "/api/public/v1/jobs/abc%FFdef")).status).toBe(404);
          const outside = await rawGet(origin, "/other/abc%FFdef");
          expect({ status: outside.status, body: outside.body }).toEqual({ status: 418, body: "host" });
          expect(seen).toEqual(["FST_ERR_BAD_URL"]);
        },
        {},
        { frameworkErrors: hostFrameworkErrors(seen) },
      );
    });

    it("hireportFrameworkErrors(): fastify.inject() too, and the host's own handler or Fastify's answer elsewhere", async () => {
      const seen: string[] = [];
      for (const fallback of [undefined, hostFrameworkErrors(seen)]) {
        await withApp(
          mountBoth,
          async (_origin, _api, app) => {
            const inside = await app.inject({ url: "/api/public/v1/jobs/abc%FFdef" });
            expect({ status: inside.statusCode, body: inside.json() }).toEqual({ status: 404, body: notFound });
            expect(inside.headers["x-request-id"]).toMatch(/^req_/);
            const files = await app.inject({ url: "/files/cv/abc%FF" });
            expect(files.statusCode).toBe(404);
            const outside = await app.inject({ url: "/other/abc%FFdef" });
            if (fallback)
              expect({ status: outside.statusCode, body: outside.body }).toEqual({ status: 418, body: "host" });
            else
              expect({ status: outside.statusCode, code: outside.json().code }).toEqual({
                status: 400,
                code: "FST_ERR_BAD_URL",
              });
          },
          {},
          { frameworkErrors: hireportFrameworkErrors(fallback) },
        );
      }
      expect(seen).toEqual(["FST_ERR_BAD_URL"]);
    });

    it("closing the instance takes the listener off the server", async () => {
      await withApp(mountBoth, async (_origin, _api, app) => {
        expect(app.server.listenerCount("request")).toBe(2);
        await app.close();
        expect(app.server.listenerCount("request")).toBe(1);
      });
    });
  });
});
