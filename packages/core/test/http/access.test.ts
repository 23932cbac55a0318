import type { Scope } from "@hireport/core";
import { SCOPES } from "@hireport/core/schemas";
import { beforeEach, describe, expect, it } from "vitest";
import {
  type Answer,
  applicationBody,
  applicationOf,
  createClient,
  createWorld,
  errorOf,
  eventsOf,
  jobOf,
  START,
  storedJobs,
  TRANSPORTS,
  type World,
} from "./harness";

/** Every authenticated route with the permission it needs. */
const ROUTES: { method: string; path: string; scope: Scope; body?: unknown }[] = [
  { method: "GET", path: "/jobs", scope: "jobs:read" },
  { method: "POST", path: "/jobs", scope: "jobs:write", body: { title: "T" } },
  { method: "GET", path: "/jobs/job_x", scope: "jobs:read" },
  { method: "PATCH", path: "/jobs/job_x", scope: "jobs:write", body: { title: "T" } },
  { method: "POST", path: "/jobs/job_x/close", scope: "jobs:write" },
  { method: "GET", path: "/applications", scope: "applications:read" },
  { method: "POST", path: "/applications", scope: "applications:write", body: applicationBody("job_x") },
  { method: "GET", path: "/applications/app_x", scope: "applications:read" },
  { method: "PATCH", path: "/applications/app_x", scope: "applications:write", body: { stage: "hired" } },
];

describe.each(TRANSPORTS)("access via %s", (transport) => {
  let w: World;

  beforeEach(async () => {
    w = await createWorld(transport);
  });

  describe("GET /me", () => {
    it("answers the GET /me body of docs/api-reference.md", async () => {
      const answer = await w.client.call("GET", "/me", { key: w.acmeKey.key });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({
        data: {
          company: { id: "acme", name: "Acme Ltd" },
          key: { id: w.acmeKey.id, name: "ATS sync", scopes: [...SCOPES] },
          limits: { per_minute: 10_000, per_day: 100_000 },
        },
      });
    });

    it("expands write scopes to the reads they include, for a key of any permission", async () => {
      const cases: [Scope[], Scope[]][] = [
        [["jobs:write"], ["jobs:read", "jobs:write"]],
        [
          ["applications:write", "jobs:read"],
          ["jobs:read", "applications:read", "applications:write"],
        ],
        [["applications:read"], ["applications:read"]],
      ];
      for (const [granted, shown] of cases) {
        const key = await w.key(w.acme, granted, { name: granted.join("+") });
        const answer = await w.client.call("GET", "/me", { key: key.key });
        expect(answer.status).toBe(200);
        expect((answer.json.data as { key: { scopes: string[]; name: string } }).key).toEqual({
          id: key.id,
          name: granted.join("+"),
          scopes: shown,
        });
      }
    });

    it("shows the default limits (docs/api-reference.md, Rate limits)", async () => {
      const defaults = await createWorld(transport, { limits: {} });
      const answer = await defaults.client.call("GET", "/me", { key: defaults.acmeKey.key });
      expect((answer.json.data as { limits: unknown }).limits).toEqual({ per_minute: 120, per_day: 20_000 });
      expect(answer.headers["x-ratelimit-limit"]).toBe("120");
      expect(answer.headers["x-ratelimit-remaining"]).toBe("119");
    });

    it("accepts the full path with the base path and a trailing slash", async () => {
      const full = createClient(w.api, transport, { fullPath: true });
      expect((await full.call("GET", "/me", { key: w.acmeKey.key })).status).toBe(200);
      expect((await w.client.call("GET", "/me/", { key: w.acmeKey.key })).status).toBe(200);
    });
  });

  describe("authentication", () => {
    it("answers 401 missing_key without a key", async () => {
      const headerSets: Record<string, string>[] = [
        {},
        { authorization: "Basic dXNlcjpwYXNz" },
        { authorization: "Bearer " },
        { "x-service-key": "" },
      ];
      for (const headers of headerSets) {
        const answer = await w.client.call("GET", "/me", { headers });
        expect(answer.status, JSON.stringify(headers)).toBe(401);
        expect(errorOf(answer)).toEqual({
          code: "missing_key",
          message: "Send your API key as 'Authorization: Bearer svc_live_…' or in the 'X-Service-Key' header.",
        });
      }
    });

    it("answers 401 invalid_key for an unknown key", async () => {
      const unknownKey = `svc_live_${"A".repeat(43)}`;
      for (const key of [unknownKey, "sk_test_123", `${w.acmeKey.key}x`, w.acmeKey.key.slice(0, -1)]) {
        const answer = await w.client.call("GET", "/me", { key });
        expect(answer.status).toBe(401);
        expect(errorOf(answer)).toEqual({
          code: "invalid_key",
          message: "This API key is not valid: it is unknown or was revoked.",
        });
      }
    });

    it("answers 401 invalid_key at once after a key is revoked", async () => {
      expect((await w.client.call("GET", "/me", { key: w.acmeKey.key })).status).toBe(200);
      await w.api.keys.revoke(w.acme, w.acmeKey.id);
      const answer = await w.client.call("GET", "/jobs", { key: w.acmeKey.key });
      expect(answer.status).toBe(401);
      expect(errorOf(answer).code).toBe("invalid_key");
      expect((await w.client.call("GET", "/me", { key: w.globexKey.key })).status).toBe(200);
    });

    it("answers 401 expired_key once a key's expiry has passed", async () => {
      const expiresAt = new Date(START.getTime() + 3_600_000);
      const key = await w.key(w.acme, ["jobs:read"], { expiresAt });
      w.clock.advance(3_600_000 - 1);
      expect((await w.client.call("GET", "/jobs", { key: key.key })).status).toBe(200);
      w.clock.advance(1);
      const answer = await w.client.call("GET", "/jobs", { key: key.key });
      expect(answer.status).toBe(401);
      expect(errorOf(answer)).toEqual({
        code: "expired_key",
        message: "This API key expired at 2026-03-02T11:00:30.000Z.",
      });
    });

    it("takes the key as Bearer (any case) or in X-Service-Key", async () => {
      const bearer = await w.client.call("GET", "/me", { key: w.acmeKey.key });
      const service = await w.client.call("GET", "/me", { key: w.acmeKey.key, keyHeader: "x-service-key" });
      const lower = await w.client.call("GET", "/me", { headers: { authorization: `bearer ${w.acmeKey.key}` } });
      const mixedCase = await w.client.call("GET", "/me", { headers: { "X-Service-Key": w.acmeKey.key } });
      for (const answer of [bearer, service, lower, mixedCase]) {
        expect(answer.status).toBe(200);
        expect((answer.json.data as { key: { id: string } }).key.id).toBe(w.acmeKey.id);
      }
    });

    it("stores only a hash of the key, with the svc_live_ prefix and 32 random bytes", async () => {
      expect(w.acmeKey.key).toMatch(/^svc_live_[A-Za-z0-9_-]{43}$/);
      const [record] = (await w.api.keys.list(w.acme)).filter((key) => key.id === w.acmeKey.id);
      expect(record?.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(record)).not.toContain(w.acmeKey.key);
    });
  });

  describe("permissions", () => {
    it.each(ROUTES)("$method $path without $scope answers 403 missing_scope naming it", async (route) => {
      const family = route.scope.startsWith("jobs") ? "applications" : "jobs";
      const keys = [await w.key(w.acme, [`${family}:read`, `${family}:write`] as Scope[])];
      if (route.scope.endsWith(":write"))
        keys.push(await w.key(w.acme, [route.scope.replace(":write", ":read") as Scope]));
      for (const key of keys) {
        const answer = await w.client.call(route.method, route.path, {
          key: key.key,
          ...(route.body !== undefined ? { body: route.body } : {}),
        });
        expect(answer.status).toBe(403);
        expect(errorOf(answer)).toEqual({
          code: "missing_scope",
          message: `This API key lacks the permission ${route.scope}.`,
          required_scope: route.scope,
        });
      }
      expect(await storedJobs(w.storage, w.acme)).toEqual([]);
      expect(await w.inspect.countEvents(w.acme)).toBe(0);
    });

    it("lets a write permission read", async () => {
      const jobsWrite = await w.key(w.acme, ["jobs:write"]);
      const appsWrite = await w.key(w.acme, ["applications:write"]);
      const job = jobOf(
        await w.client.call("POST", "/jobs", { key: jobsWrite.key, body: { title: "T", status: "active" } }),
      );
      expect((await w.client.call("GET", "/jobs", { key: jobsWrite.key })).status).toBe(200);
      expect((await w.client.call("GET", `/jobs/${job.id}`, { key: jobsWrite.key })).status).toBe(200);
      const created = await w.client.call("POST", "/applications", {
        key: appsWrite.key,
        body: applicationBody(job.id),
      });
      expect(created.status).toBe(201);
      expect((await w.client.call("GET", "/applications", { key: appsWrite.key })).status).toBe(200);
      const read = await w.client.call("GET", `/applications/${applicationOf(created).id}`, { key: appsWrite.key });
      expect(read.status).toBe(200);
      // A read permission does not reach the other family.
      expect((await w.client.call("GET", "/applications", { key: jobsWrite.key })).status).toBe(403);
    });
  });

  describe("tenancy", () => {
    it("answers 404 (never 403) for every id of another company, and changes nothing", async () => {
      const job = await w.api.jobs.create(w.acme, { title: "Acme job", status: "active" });
      const application = await w.api.applications.create(w.acme, applicationBody(job.id, "x@example.com"));
      const eventsBefore = await w.inspect.countEvents(w.acme);
      const other = { key: w.globexKey.key };
      const answers = [
        await w.client.call("GET", `/jobs/${job.id}`, other),
        await w.client.call("PATCH", `/jobs/${job.id}`, { ...other, body: { title: "Stolen" } }),
        await w.client.call("POST", `/jobs/${job.id}/close`, other),
        await w.client.call("GET", `/applications/${application.id}`, other),
        await w.client.call("PATCH", `/applications/${application.id}`, {
          ...other,
          body: { stage: "hired", note: "x" },
        }),
        await w.client.call("GET", "/applications", { ...other, query: { job_id: job.id } }),
        await w.client.call("POST", "/applications", { ...other, body: applicationBody(job.id, "y@example.com") }),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(404);
        expect(errorOf(answer).code).toBe("not_found");
      }
      // The same words as for an id that does not exist at all.
      const missing = await w.client.call("GET", "/jobs/job_missing", other);
      expect(errorOf(answers[0] as Answer).message).toBe(errorOf(missing).message);
      const stored = await w.api.jobs.get(w.acme, job.id);
      expect(stored).toMatchObject({ title: "Acme job", status: "active", applicationsCount: 1 });
      expect((await w.api.applications.get(w.acme, application.id)).stage).toBe("new");
      expect(await w.api.applications.notes(w.acme, application.id)).toEqual([]);
      expect(await w.inspect.countEvents(w.acme)).toBe(eventsBefore);
      expect(await eventsOf(w.storage, w.globex)).toEqual([]);
      // Lists only show the key's own company.
      const list = await w.client.call("GET", "/jobs", other);
      expect(list.json.data).toEqual([]);
      const apps = await w.client.call("GET", "/applications", other);
      expect(apps.json.data).toEqual([]);
    });
  });

  describe("routing", () => {
    it("answers 404 not_found for unknown paths, with or without a key", async () => {
      for (const path of ["/nope", "/jobs/a/b", "/applications/x/close", "/", "/api/public/v2/jobs"]) {
        for (const key of [undefined, w.acmeKey.key]) {
          const answer = await w.client.call("GET", path, key ? { key } : {});
          expect(answer.status, path).toBe(404);
          expect(errorOf(answer)).toEqual({
            code: "not_found",
            message: "There is no such endpoint. See /openapi.json for the list.",
          });
          expect(answer.headers["x-ratelimit-limit"]).toBe("10000");
          expect(answer.headers["x-request-id"]).toMatch(/^req_/);
        }
      }
    });

    it("answers 405 with Allow for a wrong method", async () => {
      const cases: [string, string, string][] = [
        ["DELETE", "/jobs", "GET, POST"],
        ["PUT", "/jobs/job_x", "GET, PATCH"],
        ["DELETE", "/applications/app_x", "GET, PATCH"],
        ["GET", "/jobs/job_x/close", "POST"],
        ["POST", "/me", "GET"],
        ["PATCH", "/applications", "GET, POST"],
      ];
      for (const [method, path, allow] of cases) {
        const answer = await w.client.call(method, path, { key: w.acmeKey.key });
        expect(answer.status, `${method} ${path}`).toBe(405);
        expect(errorOf(answer).code).toBe("method_not_allowed");
        expect(answer.headers.allow).toBe(allow);
      }
    });

    it("serves GET /openapi.json without a key", async () => {
      const answer = await w.client.call("GET", "/openapi.json");
      expect(answer.status).toBe(200);
      expect(answer.json.openapi).toBe("3.1.0");
      const paths = Object.keys(answer.json.paths as Record<string, unknown>).sort();
      expect(paths).toEqual([
        "/applications",
        "/applications/{id}",
        "/events",
        "/jobs",
        "/jobs/{id}",
        "/jobs/{id}/close",
        "/me",
        "/openapi.json",
        "/reference",
      ]);
      expect(answer.json).toEqual(w.api.openapi());
    });
  });
});
