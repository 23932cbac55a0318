/**
 * `apiAccess(api)` of `@hireport/core/extend`: a handler served beside the API (the MCP server)
 * admits its requests, logs them and runs the API's operations as the API itself does.
 */
import { describe, expect, it } from "vitest";
import { apiAccess } from "../src/entries/extend";
import { createPublicApi, HireportError } from "../src/index";
import { memoryStorage } from "../src/memory";

const SECRET = "an-access-secret-of-at-least-thirty-two-chars";

async function setUp(perMinute = 100) {
  const api = createPublicApi({
    storage: memoryStorage(),
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: SECRET,
    limits: { perMinute },
    usageLog: "durable",
  });
  await api.companies.upsert({ id: "acme", name: "Acme" });
  const reader = (await api.keys.create({ companyId: "acme", name: "reader", scopes: ["applications:read"] })).key;
  const writer = (await api.keys.create({ companyId: "acme", name: "writer", scopes: ["applications:write"] })).key;
  return { api, access: apiAccess(api), reader, writer };
}

const request = (key?: string) => ({
  method: "POST",
  path: "/mcp",
  headers: key ? { authorization: `Bearer ${key}` } : {},
  ip: "203.0.113.9",
});
const ok = async () => ({ response: { status: 200, headers: {}, body: "{}" } });

describe("apiAccess", () => {
  it("refuses an object createPublicApi did not make", () => {
    expect(() => apiAccess({})).toThrow(HireportError);
  });

  it("admits the key like the API: 401 without one, the rate-limit headers and X-Request-Id, one usage entry each", async () => {
    const { api, access, reader } = await setUp();
    const refused = await access.serve(request(), "ext:call", ok);
    expect(refused.status).toBe(401);
    expect(JSON.parse(String(refused.body)).error.code).toBe("missing_key");
    const served = await access.serve(request(reader), "ext:call", async (auth, outcome) => {
      expect(auth.company.id).toBe("acme");
      outcome.route = "ext:call:named";
      outcome.status = 404;
      return ok();
    });
    expect(served.status).toBe(200);
    expect(served.headers["x-request-id"]).toMatch(/^req_/);
    expect(served.headers["x-ratelimit-limit"]).toBe("100");
    const usage = await api.usage.list("acme");
    expect(usage.data.map((row) => `${row.method} ${row.route} ${row.status} ${row.ip}`)).toEqual([
      "POST ext:call:named 404 203.0.113.9",
    ]);
    await api.close();
  });

  it("answers 429 past the key's limit, and logs a streamed answer when it finishes", async () => {
    const { api, access, reader } = await setUp(1);
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const streamed = await access.serve(request(reader), "ext:stream", async () => ({
      response: { status: 200, headers: {}, body: "" },
      finished,
    }));
    expect(streamed.status).toBe(200);
    const limited = await access.serve(request(reader), "ext:call", ok);
    expect(limited.status).toBe(429);
    expect(limited.headers["retry-after"]).toBeDefined();
    expect((await api.usage.list("acme")).data.map((row) => row.route)).toEqual(["ext:call"]);
    finish();
    await api.close();
    expect((await api.usage.list("acme")).data.map((row) => row.route).sort()).toEqual(["ext:call", "ext:stream"]);
  });

  it("runs the API's operations with their permission and checks, and records a stage move's audit in its change", async () => {
    const { api, access, reader, writer } = await setUp();
    const job = await api.jobs.create("acme", { title: "Engineer", status: "active" });
    const application = await api.applications.create("acme", {
      job_id: job.id,
      candidate: { name: "Ada", email: "ada@example.com" },
    });
    let readerAuth: Parameters<Parameters<typeof access.serve>[2]>[0] | undefined;
    let writerAuth: typeof readerAuth;
    await access.serve(request(reader), "x", async (auth) => {
      readerAuth = auth;
      return ok();
    });
    await access.serve(request(writer), "x", async (auth) => {
      writerAuth = auth;
      return ok();
    });
    if (!readerAuth || !writerAuth) throw new Error("not admitted");
    const params = { id: application.id };
    await expect(
      access.call("updateApplication", { auth: readerAuth, params, body: { stage: "hired" } }),
    ).rejects.toMatchObject({
      code: "missing_scope",
      requiredScope: "applications:write",
    });
    await expect(
      access.call("updateApplication", { auth: writerAuth, params, body: { stage: "nope" } }),
    ).rejects.toMatchObject({
      code: "invalid",
    });
    await expect(access.call("listApplications", { auth: readerAuth, query: { limit: "0" } })).rejects.toMatchObject({
      code: "bad_request",
    });
    const read = await access.call("getApplication", { auth: readerAuth, params });
    expect(read).toMatchObject({ status: 200, body: { data: { id: application.id, stage: "new" } } });
    const actor = { type: "api_key" as const, id: writerAuth.key.id, name: "writer (assistant, confirmed by Rita)" };
    const moved = await access.call("updateApplication", {
      auth: writerAuth,
      params,
      body: { stage: "hired" },
      actor,
      stageAudit: { actor, details: { via: "test" } },
    });
    expect(moved).toMatchObject({ status: 200, body: { data: { stage: "hired" } } });
    expect((await api.applications.history("acme", application.id)).at(-1)?.actor).toEqual(actor);
    const audit = await api.audit.list("acme");
    expect(audit.data.filter((entry) => entry.action === "application.stage_changed")).toEqual([
      expect.objectContaining({
        actor,
        target: { type: "application", id: application.id },
        details: { via: "test", from_stage: "new", to_stage: "hired" },
      }),
    ]);
    // The same stage again changes nothing, and records nothing.
    await access.call("updateApplication", {
      auth: writerAuth,
      params,
      body: { stage: "hired" },
      actor,
      stageAudit: { actor, details: {} },
    });
    expect(
      (await api.audit.list("acme")).data.filter((entry) => entry.action === "application.stage_changed"),
    ).toHaveLength(1);
    await api.close();
  });
});
