/**
 * The host's services as host code calls them (docs/host-guide.md): inputs typed from the request
 * schemas and parsed again at run time (a JavaScript caller gets the API's 422 with `fields`), one
 * page shape for every list, and a clear error for a company hireport does not know.
 */
import { createPublicApi, type HireportError, isHireportError, type PublicApi } from "@hireport/core";
import { memoryStorage } from "@hireport/core/memory";
import { beforeEach, describe, expect, it } from "vitest";

const quiet = { warn: () => undefined, error: () => undefined };

let api: PublicApi;

beforeEach(async () => {
  api = createPublicApi({
    storage: memoryStorage(),
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "host-api-secret-0123456789-abcdefghijk",
    logger: quiet,
  });
  await api.companies.upsert({ id: "acme", name: "Acme Ltd" });
});

/** The HireportError a call rejects with (the test fails when it resolves or throws something else). */
async function refusal(call: () => Promise<unknown>): Promise<HireportError> {
  const outcome = await call().then(
    () => null,
    (error: unknown) => error,
  );
  expect(isHireportError(outcome), String(outcome)).toBe(true);
  return outcome as HireportError;
}

/** A value a JavaScript caller may pass where TypeScript would refuse it. */
const untyped = <T>(value: unknown): T => value as T;

describe("a company hireport does not know", () => {
  const named = /hireport knows no company with id "co_nope": register it first with api\.companies\.upsert/;

  it("api.keys.create refuses it with 404 not_found naming api.companies.upsert, and stores no key", async () => {
    const error = await refusal(() => api.keys.create({ companyId: "co_nope", name: "Sync", scopes: ["jobs:read"] }));
    expect(error).toMatchObject({ code: "not_found", status: 404 });
    expect(error.message).toMatch(named);
    expect(await api.keys.list("co_nope")).toEqual([]);
    // Registered, the same call works.
    await api.companies.upsert({ id: "co_nope", name: "Now known" });
    const created = await api.keys.create({ companyId: "co_nope", name: "Sync", scopes: ["jobs:read"] });
    expect(created.key).toMatch(/^svc_live_/);
  });

  it("api.jobs.create refuses it the same way", async () => {
    const error = await refusal(() => api.jobs.create("co_nope", { title: "Engineer" }));
    expect(error).toMatchObject({ code: "not_found", status: 404 });
    expect(error.message).toMatch(named);
  });

  it("api.companies.get refuses it the same way", async () => {
    expect((await refusal(() => api.companies.get("co_nope"))).message).toMatch(named);
  });
});

describe("inputs are parsed at run time, as over HTTP", () => {
  it("api.jobs.create: the schema's defaults for a title alone, 422 with fields for what a JavaScript caller gets wrong", async () => {
    const job = await api.jobs.create("acme", { title: "  Engineer  " });
    expect(job).toMatchObject({ title: "Engineer", status: "draft", salaryCurrency: "GBP", salaryPeriod: "year" });

    const error = await refusal(() =>
      api.jobs.create("acme", untyped({ title: 42, surprise: true, status: "closed" })),
    );
    expect(error).toMatchObject({ code: "invalid", status: 422 });
    expect(error.fields?.map((field) => field.field).sort()).toEqual(["status", "surprise", "title"]);
    expect(error.message).toMatch(/^The job is not valid\./);
  });

  it("api.jobs.update and setHidden check their input too", async () => {
    const job = await api.jobs.create("acme", { title: "Engineer" });
    const update = await refusal(() => api.jobs.update("acme", job.id, untyped({ positions: 0 })));
    expect(update.fields).toEqual([{ field: "positions", message: expect.any(String) }]);
    const hidden = await refusal(() => api.jobs.setHidden("acme", job.id, untyped("yes")));
    expect(hidden).toMatchObject({ code: "invalid", fields: [{ field: "hidden", message: expect.any(String) }] });
    expect((await api.jobs.update("acme", job.id, { salary_min: 10, salary_max: null })).salaryMin).toBe(10);
  });

  it("api.applications.create and update: the candidate's e-mail is required, the stage must be one of the 14", async () => {
    const job = await api.jobs.create("acme", { title: "Engineer", status: "active" });
    const missing = await refusal(() =>
      api.applications.create("acme", untyped({ job_id: job.id, candidate: { name: "Ada" } })),
    );
    expect(missing.fields).toEqual([{ field: "candidate.email", message: "This field is required." }]);

    const application = await api.applications.create(
      "acme",
      { job_id: job.id, candidate: { name: "Ada", email: "ada@example.com" } },
      { actor: "Recruiter Rita" },
    );
    expect(application).toMatchObject({ stage: "new", source: "host", coverLetter: "", consent: null });
    const stage = await refusal(() => api.applications.update("acme", application.id, untyped({ stage: "done" })));
    expect(stage.fields?.[0]?.field).toBe("stage");
    const moved = await api.applications.update("acme", application.id, { stage: "reviewed" }, { actor: "Rita" });
    expect(moved.stage).toBe("reviewed");
    const history = await api.applications.history("acme", application.id);
    expect(history.map((change) => [change.fromStage, change.toStage, change.actor.name])).toEqual([
      [null, "new", "Recruiter Rita"],
      ["new", "reviewed", "Rita"],
    ]);
  });

  it("list options are checked: an unknown option, a bad page size or status is 422 naming it", async () => {
    // A rejected promise, never a synchronous throw (a caller's .catch() must see it).
    const pending = api.jobs.list("acme", untyped({ after: "job_1" }));
    expect(pending).toBeInstanceOf(Promise);
    const unknown = await refusal(() => pending);
    expect(unknown.fields?.map((field) => field.field)).toEqual(["after"]);
    expect(unknown.message).toBe("The list query is not valid. after: Unknown field.");
    expect(() => api.applications.list("acme", untyped({ stage: "done" })).catch(() => undefined)).not.toThrow();
    const size = await refusal(() => api.applications.list("acme", { limit: 0 }));
    expect(size).toMatchObject({ code: "invalid" });
    const status = await refusal(() => api.jobs.list("acme", untyped({ status: "paused" })));
    expect(status.fields?.map((field) => field.field)).toEqual(["status"]);
  });
});

describe("every list returns one page shape: { data, hasMore, nextCursor }", () => {
  it("jobs, applications, usage and audit page the same way, cursor to cursor", async () => {
    const job = await api.jobs.create("acme", { title: "Engineer", status: "active" });
    for (const title of ["Designer", "Analyst"]) await api.jobs.create("acme", { title });
    for (const name of ["Ada", "Grace", "Alan"]) {
      await api.applications.create("acme", {
        job_id: job.id,
        candidate: { name, email: `${name.toLowerCase()}@example.com` },
      });
    }
    const { key } = await api.keys.create({ companyId: "acme", name: "Reader", scopes: ["jobs:read"] });
    for (let i = 0; i < 3; i++) {
      await api.handle({ method: "GET", path: "/api/public/v1/me", headers: { authorization: `Bearer ${key}` } });
    }
    await api.keys.create({ companyId: "acme", name: "Second", scopes: ["jobs:read"] });
    await api.keys.create({ companyId: "acme", name: "Third", scopes: ["jobs:read"] });

    const lists: Record<
      string,
      (cursor?: string) => Promise<{ data: unknown[]; hasMore: boolean; nextCursor: string | null }>
    > = {
      jobs: (cursor) => api.jobs.list("acme", { limit: 2, ...(cursor ? { cursor } : {}) }),
      applications: (cursor) =>
        api.applications.list("acme", { jobId: job.id, limit: 2, ...(cursor ? { cursor } : {}) }),
      usage: (cursor) => api.usage.list("acme", { limit: 2, ...(cursor ? { cursor } : {}) }),
      audit: (cursor) => api.audit.list("acme", { limit: 2, ...(cursor ? { cursor } : {}) }),
    };
    for (const [name, list] of Object.entries(lists)) {
      const first = await list();
      expect(Object.keys(first).sort(), name).toEqual(["data", "hasMore", "nextCursor"]);
      expect(first.data, name).toHaveLength(2);
      expect(first.hasMore, name).toBe(true);
      expect(typeof first.nextCursor, name).toBe("string");
      const second = await list(first.nextCursor as string);
      expect(second.data.length, name).toBe(1);
      expect(second, name).toMatchObject({ hasMore: false, nextCursor: null });
    }
    // A cursor belongs to its list: another list refuses it with 400 bad_request.
    const jobsPage = await lists.jobs?.();
    const misuse = await refusal(() => api.audit.list("acme", { cursor: jobsPage?.nextCursor as string }));
    expect(misuse).toMatchObject({ code: "bad_request", status: 400 });
  });
});
