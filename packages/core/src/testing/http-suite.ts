/**
 * The black-box HTTP suite that every framework adapter runs: a real server on a real port, called
 * with Node's `fetch` (and a raw socket for a client that walks away). It checks what a client of
 * the API (docs/api-reference.md) sees, whatever framework answers.
 *
 * ```ts
 * runHttpSuite({
 *   name: "express",
 *   async start(api) {
 *     const app = express();
 *     app.use("/api/public/v1", hireportExpress(api));
 *     app.use("/files/cv", hireportExpressFiles(api));
 *     const server = await listen(app);
 *     return { baseUrl: `http://127.0.0.1:${port}/api/public/v1`, close: () => closeServer(server) };
 *   },
 * });
 * ```
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Logger } from "../base/logger";
import { memoryStorage } from "../memory";
import type { Scope } from "../model/domain";
import { createPublicApi, type PublicApi } from "../setup/create-public-api";
import type { Storage } from "../storage";
import { decisionTests } from "./http-suite-decisions";

/** A running server of the adapter under test. */
export interface HttpSuiteServer {
  /** Address of the API root, `http://127.0.0.1:3000/api/public/v1` (no trailing slash). */
  baseUrl: string;
  /** Address of the CV route root, no trailing slash. @default `{origin of baseUrl}/files/cv` */
  filesBaseUrl?: string;
  /** Stops the server; called once after the last test that used it. */
  close(): Promise<void>;
}

/** An adapter to check with {@link runHttpSuite}. */
export interface HttpSuiteTarget {
  /** Shown in the name of the outer `describe` block. */
  name: string;
  /**
   * Serves `api` on a free port: the API at `baseUrl` and the CV route at `filesBaseUrl`. Called
   * more than once (the rate-limit tests use an API of their own); each call gets a new server.
   */
  start(api: PublicApi): Promise<HttpSuiteServer>;
  /**
   * The storage of each API the suite makes (one per `start`), for a host that checks its own
   * storage through its server. The suite makes its own companies with random ids, so a database
   * shared with other data works.
   * @default a new `memoryStorage()` of `@hireport/core/memory` for each API
   */
  storage?(): Storage;
}

interface Answer {
  status: number;
  headers: Headers;
  json: { data?: Record<string, unknown> & { id?: string }; error?: Record<string, unknown> } & Record<string, unknown>;
}

interface CallOptions {
  key?: string | null;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
}

const SECRET = "http-suite-secret-0123456789-abcdefghij";
const PUBLIC_BASE_URL = "https://careers.example.com";
const RESUME = "https://cdn.example.com/cv/ada-lovelace.pdf";
const ALL_SCOPES: Scope[] = ["jobs:read", "jobs:write", "applications:read", "applications:write"];
const MIB = 1_048_576;

const quiet: Logger = { warn: () => undefined, error: () => undefined };

function suffix(): string {
  return globalThis.crypto.randomUUID().slice(0, 8);
}

/** Runs the shared black-box HTTP suite against one adapter (vitest `describe`/`it` inside). */
export function runHttpSuite(target: HttpSuiteTarget): void {
  describe(`http suite: ${target.name}`, () => {
    let api: PublicApi;
    let server: HttpSuiteServer;
    const keys = { full: "", readOnly: "", other: "" };
    const state = { companyId: "", jobId: "", applicationId: "", resumeUrl: "" };

    async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
      const headers: Record<string, string> = { ...options.headers };
      const key = options.key === undefined ? keys.full : options.key;
      if (key !== null) headers.authorization = `Bearer ${key}`;
      let body = options.body;
      if (options.json !== undefined) {
        body = JSON.stringify(options.json);
        headers["content-type"] ??= "application/json";
      }
      const init: RequestInit & { duplex?: "half" } = { method, headers, redirect: "manual" };
      if (body !== undefined) init.body = body;
      if (body instanceof ReadableStream) init.duplex = "half";
      const response = await fetch(`${server.baseUrl}${path}`, init);
      const text = await response.text();
      expect(response.headers.get("x-request-id"), `X-Request-Id on ${method} ${path}`).toMatch(/^req_\w+/);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : {} };
    }

    function expectError(answer: Answer, status: number, code: string): Record<string, unknown> {
      expect({ status: answer.status, code: answer.json.error?.code }).toEqual({ status, code });
      expect(answer.json.error?.message).toEqual(expect.any(String));
      return answer.json.error ?? {};
    }

    beforeAll(async () => {
      api = createPublicApi({
        storage: target.storage?.() ?? memoryStorage(),
        publicBaseUrl: PUBLIC_BASE_URL,
        fileTokenSecret: SECRET,
        limits: { perMinute: 100_000, perDay: 1_000_000 },
        logger: quiet,
      });
      server = await target.start(api);
      const a = await api.companies.upsert({ id: `co_a_${suffix()}`, name: "Acme" });
      const b = await api.companies.upsert({ id: `co_b_${suffix()}`, name: "Globex" });
      state.companyId = a.id;
      keys.full = (await api.keys.create({ companyId: a.id, name: "Full", scopes: ALL_SCOPES })).key;
      keys.readOnly = (
        await api.keys.create({ companyId: a.id, name: "Reader", scopes: ["jobs:read", "applications:read"] })
      ).key;
      keys.other = (await api.keys.create({ companyId: b.id, name: "Other", scopes: ALL_SCOPES })).key;
    }, 30_000);

    afterAll(async () => {
      await server?.close();
      await api?.close();
    });

    describe("every endpoint", () => {
      it("GET /me", async () => {
        const answer = await call("GET", "/me");
        expect(answer.status).toBe(200);
        expect(answer.json.data).toMatchObject({
          company: { name: "Acme" },
          key: { name: "Full", scopes: ALL_SCOPES },
          limits: { per_minute: 100_000, per_day: 1_000_000 },
        });
        expect(answer.headers.get("x-ratelimit-limit")).toBe("100000");
        expect(answer.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
        expect(answer.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
      });

      it("POST /jobs", async () => {
        const answer = await call("POST", "/jobs", {
          json: { title: "Backend Engineer – Zürich", status: "active", required_skills: ["TypeScript"] },
        });
        expect(answer.status).toBe(201);
        expect(answer.json.data).toMatchObject({ title: "Backend Engineer – Zürich", status: "active", open: true });
        state.jobId = String(answer.json.data?.id);
      });

      it("GET /jobs", async () => {
        const answer = await call("GET", "/jobs?status=open&limit=10");
        expect(answer.status).toBe(200);
        expect(answer.json).toMatchObject({ has_more: false, next_cursor: null });
        expect((answer.json.data as unknown as { id: string }[]).map((job) => job.id)).toEqual([state.jobId]);
      });

      it("GET /jobs/{id}", async () => {
        const answer = await call("GET", `/jobs/${state.jobId}`);
        expect(answer.status).toBe(200);
        expect(answer.json.data).toMatchObject({ id: state.jobId, title: "Backend Engineer – Zürich" });
      });

      it("PATCH /jobs/{id}", async () => {
        const answer = await call("PATCH", `/jobs/${state.jobId}`, { json: { location: "London", salary_min: 60000 } });
        expect(answer.status).toBe(200);
        expect(answer.json.data).toMatchObject({ id: state.jobId, location: "London", salary: { min: 60000 } });
      });

      it("POST /applications", async () => {
        const answer = await call("POST", "/applications", {
          json: {
            job_id: state.jobId,
            candidate: { name: "Ada Lovelace", email: "ada@example.com", skills: ["TypeScript"] },
            resume_url: RESUME,
          },
        });
        expect(answer.status).toBe(201);
        expect(answer.json.data).toMatchObject({
          job_id: state.jobId,
          stage: "new",
          candidate: { name: "Ada Lovelace" },
        });
        state.applicationId = String(answer.json.data?.id);
        state.resumeUrl = String(answer.json.data?.resume_url);
        expect(state.resumeUrl.startsWith(`${PUBLIC_BASE_URL}/files/cv/`)).toBe(true);
      });

      it("GET /applications", async () => {
        const answer = await call("GET", `/applications?job_id=${state.jobId}`);
        expect(answer.status).toBe(200);
        expect((answer.json.data as unknown as { id: string }[]).map((a) => a.id)).toEqual([state.applicationId]);
      });

      it("GET /applications/{id}", async () => {
        const answer = await call("GET", `/applications/${state.applicationId}`);
        expect(answer.status).toBe(200);
        expect(answer.json.data).toMatchObject({ id: state.applicationId, candidate: { email: "ada@example.com" } });
      });

      it("PATCH /applications/{id}", async () => {
        const answer = await call("PATCH", `/applications/${state.applicationId}`, {
          json: { stage: "reviewed", note: "Strong portfolio.", starred: true },
        });
        expect(answer.status).toBe(200);
        expect(answer.json.data).toMatchObject({ stage: "reviewed", starred: true });
      });

      it("POST /jobs/{id}/close (no body)", async () => {
        const answer = await call("POST", `/jobs/${state.jobId}/close`);
        expect(answer.status).toBe(200);
        expect(answer.json.data).toMatchObject({ id: state.jobId, status: "closed", open: false });
      });
    });

    decisionTests(target, call, SECRET, PUBLIC_BASE_URL);

    describe("errors", () => {
      it("401 missing_key without a key", async () => {
        expectError(await call("GET", "/me", { key: null }), 401, "missing_key");
      });

      it("401 invalid_key for an unknown key, in either header", async () => {
        expectError(await call("GET", "/me", { key: "svc_live_not-a-real-key" }), 401, "invalid_key");
        const viaHeader = await call("GET", "/me", { key: null, headers: { "x-service-key": "svc_live_nope" } });
        expectError(viaHeader, 401, "invalid_key");
      });

      it("403 missing_scope names the required scope", async () => {
        const error = expectError(
          await call("POST", "/jobs", { key: keys.readOnly, json: { title: "Nope" } }),
          403,
          "missing_scope",
        );
        expect(error.required_scope).toBe("jobs:write");
      });

      it("404 for a record of another company", async () => {
        expectError(await call("GET", `/jobs/${state.jobId}`, { key: keys.other }), 404, "not_found");
        expectError(await call("GET", `/applications/${state.applicationId}`, { key: keys.other }), 404, "not_found");
        const patch = await call("PATCH", `/jobs/${state.jobId}`, { key: keys.other, json: { title: "Mine now" } });
        expectError(patch, 404, "not_found");
      });

      it("404 for an unknown endpoint", async () => {
        expectError(await call("GET", "/no-such-thing"), 404, "not_found");
      });

      it("422 with a fields list", async () => {
        const error = expectError(
          await call("POST", "/applications", {
            json: { job_id: state.jobId, candidate: { name: "Bob", email: "not-an-email" } },
          }),
          422,
          "invalid",
        );
        expect(error.fields).toEqual(
          expect.arrayContaining([{ field: "candidate.email", message: expect.any(String) }]),
        );
        const missing = expectError(await call("POST", "/jobs", { json: { description: "x" } }), 422, "invalid");
        expect(missing.fields).toEqual(expect.arrayContaining([{ field: "title", message: expect.any(String) }]));
      });

      it("400 for an unknown query parameter", async () => {
        expectError(await call("GET", "/jobs?colour=red"), 400, "bad_request");
      });

      it("400 for malformed JSON", async () => {
        const answer = await call("POST", "/jobs", {
          body: '{"title": "Half',
          headers: { "content-type": "application/json" },
        });
        expectError(answer, 400, "bad_request");
      });

      it("400 for a body that is not JSON by its content type", async () => {
        const text = await call("POST", "/jobs", {
          body: JSON.stringify({ title: "Plain" }),
          headers: { "content-type": "text/plain" },
        });
        expectError(text, 400, "bad_request");
        const form = await call("POST", "/jobs", { body: new URLSearchParams({ title: "Form" }) });
        expectError(form, 400, "bad_request");
      });

      it("401 comes before the body is judged", async () => {
        const answer = await call("POST", "/jobs", {
          key: null,
          body: "{",
          headers: { "content-type": "application/json" },
        });
        expectError(answer, 401, "missing_key");
      });

      it("413 for a body over 1 MiB, and the next request is answered", async () => {
        const big = JSON.stringify({ title: "Big", description: "x".repeat(MIB + 1024) });
        expectError(await call("POST", "/jobs", { json: JSON.parse(big) }), 413, "payload_too_large");
        expect((await call("GET", "/me")).status).toBe(200);
      });

      it("413 for a chunked body (no Content-Length) over 1 MiB", async () => {
        const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
        let sent = 0;
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"title":"Big","description":"'));
          },
          pull(controller) {
            if (sent > MIB + 128 * 1024) {
              controller.enqueue(new TextEncoder().encode('"}'));
              controller.close();
              return;
            }
            sent += chunk.byteLength;
            controller.enqueue(chunk);
          },
        });
        const answer = await call("POST", "/jobs", { body: stream, headers: { "content-type": "application/json" } });
        expectError(answer, 413, "payload_too_large");
        expect((await call("GET", "/me")).status).toBe(200);
      });

      it("a body just under the limit is read", async () => {
        const answer = await call("POST", "/jobs", {
          json: { title: "Long", description: "y".repeat(40_000) },
        });
        expect(answer.status).toBe(201);
      });

      it("405 for a wrong method", async () => {
        expectError(await call("PUT", `/jobs/${state.jobId}`, { json: {} }), 405, "method_not_allowed");
      });
    });

    describe("clients that go away", () => {
      it("a client that closes mid-body crashes nothing", async () => {
        const url = new URL(server.baseUrl);
        await new Promise<void>((resolve, reject) => {
          const socket = connect(Number(url.port), url.hostname, () => {
            socket.write(
              `POST ${url.pathname}/jobs HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${keys.full}\r\n` +
                'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"title":"Gone',
            );
            setTimeout(() => {
              socket.destroy();
              resolve();
            }, 50);
          });
          socket.on("error", reject);
        });
        const aborted = new AbortController();
        const never = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"title":'));
          },
        });
        const pending = fetch(`${server.baseUrl}/jobs`, {
          method: "POST",
          headers: { authorization: `Bearer ${keys.full}`, "content-type": "application/json" },
          body: never,
          duplex: "half",
          signal: aborted.signal,
        } as RequestInit);
        setTimeout(() => aborted.abort(), 50);
        await expect(pending).rejects.toThrow();
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect((await call("GET", "/me")).status).toBe(200);
        const jobs = await call("GET", "/jobs?status=all&limit=100");
        const titles = (jobs.json.data as unknown as { title: string }[]).map((job) => job.title);
        expect(titles).not.toContain("Gone");
      });
    });

    describe("public routes", () => {
      it("GET /openapi.json answers without a key", async () => {
        const answer = await call("GET", "/openapi.json", { key: null });
        expect(answer.status).toBe(200);
        expect(String(answer.json.openapi)).toMatch(/^3\.1/);
        expect(answer.json.paths).toHaveProperty("/jobs");
      });

      it("the CV link redirects to the stored file", async () => {
        const path = new URL(state.resumeUrl).pathname;
        const token = path.split("/").pop();
        const filesBaseUrl = server.filesBaseUrl ?? `${new URL(server.baseUrl).origin}/files/cv`;
        const response = await fetch(`${filesBaseUrl}/${token}`, { redirect: "manual" });
        expect(response.status).toBe(302);
        expect(response.headers.get("location")).toBe(RESUME);
        expect(response.headers.get("cache-control")).toMatch(/no-store/);
        await response.arrayBuffer();
        const bad = await fetch(`${filesBaseUrl}/not-a-token`, { redirect: "manual" });
        expect(bad.status).toBe(404);
        expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("not_found");
      });

      it("every answer carries its own X-Request-Id", async () => {
        const first = await call("GET", "/me");
        const second = await call("GET", "/me", { key: null });
        expect(first.headers.get("x-request-id")).not.toBe(second.headers.get("x-request-id"));
      });

      it("the usage log holds the request id and the client's address", async () => {
        const answer = await call("GET", "/me");
        const usage = await api.usage.list(state.companyId, { limit: 1 });
        expect(usage.data[0]).toMatchObject({
          requestId: answer.headers.get("x-request-id"),
          route: "/me",
          status: 200,
          ip: expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$|^::1$/),
        });
      });
    });

    describe("rate limits", () => {
      let limited: PublicApi;
      let limitedServer: HttpSuiteServer;
      let key = "";

      beforeAll(async () => {
        // A clock that stands still, so the minute window cannot roll over between the calls.
        const at = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
        limited = createPublicApi({
          storage: target.storage?.() ?? memoryStorage(),
          publicBaseUrl: PUBLIC_BASE_URL,
          fileTokenSecret: SECRET,
          limits: { perMinute: 2 },
          logger: quiet,
          clock: { now: () => new Date(at) },
        });
        limitedServer = await target.start(limited);
        const company = await limited.companies.upsert({ id: `co_rl_${suffix()}`, name: "Busy" });
        key = (await limited.keys.create({ companyId: company.id, name: "Busy key", scopes: ALL_SCOPES })).key;
      }, 30_000);

      afterAll(async () => {
        await limitedServer?.close();
        await limited?.close();
      });

      it("429 rate_limited with X-RateLimit-* and Retry-After", async () => {
        const get = async () => {
          const response = await fetch(`${limitedServer.baseUrl}/me`, { headers: { authorization: `Bearer ${key}` } });
          return {
            status: response.status,
            headers: response.headers,
            json: (await response.json()) as Answer["json"],
          };
        };
        const first = await get();
        expect(first.status).toBe(200);
        expect(first.headers.get("x-ratelimit-remaining")).toBe("1");
        expect((await get()).headers.get("x-ratelimit-remaining")).toBe("0");
        const refused = await get();
        expect(refused.status).toBe(429);
        expect(refused.json.error?.code).toBe("rate_limited");
        expect(refused.headers.get("x-ratelimit-limit")).toBe("2");
        expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
        expect(refused.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
        expect(Number(refused.headers.get("retry-after"))).toBe(30);
        expect(refused.headers.get("x-request-id")).toMatch(/^req_/);
      });
    });
  });
}
