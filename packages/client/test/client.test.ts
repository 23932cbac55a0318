/**
 * The client against real servers: the API on memory storage behind Express 5, Fastify 5 and the
 * Next.js route handlers, called over HTTP on 127.0.0.1. Every method, paging, sync, retries and
 * errors, once per adapter.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ClientOptions,
  createClient,
  HireportApiError,
  HireportNetworkError,
  type Job,
  type ResponseEvent,
  type RetryEvent,
} from "../src/index";
import { ADAPTERS, startWorld, type World } from "./servers";

/** A fetch that records every request and can break some answers after the server sent them. */
function recordingFetch(options: { dropFirst?: (url: string, init: RequestInit) => boolean } = {}) {
  const calls: { method: string; url: string; idempotencyKey: string | null }[] = [];
  let dropped = false;
  const wrapped: typeof fetch = async (input, init) => {
    const request = init ?? {};
    const headers = new Headers(request.headers);
    calls.push({
      method: request.method ?? "GET",
      url: String(input),
      idempotencyKey: headers.get("idempotency-key"),
    });
    const response = await fetch(input, init);
    if (!dropped && options.dropFirst?.(String(input), request)) {
      // The server has answered (and committed); the answer is lost on the way back.
      dropped = true;
      await response.arrayBuffer();
      throw new TypeError("fetch failed: the connection was reset");
    }
    return response;
  };
  return { fetch: wrapped, calls };
}

const isPost = (path: string) => (url: string, init: RequestInit) =>
  init.method === "POST" && new URL(url).pathname.endsWith(path);

describe.each(ADAPTERS)("@hireport/client against $name", (adapter) => {
  let world: World;
  const clientFor = (options: Partial<ClientOptions> = {}) =>
    createClient({ baseUrl: world.baseUrl, key: world.key, minRetryDelayMs: 5, maxRetryDelayMs: 20, ...options });

  beforeAll(async () => {
    world = await startWorld(adapter);
  });
  afterAll(async () => {
    await world.close();
  });

  describe("every method", () => {
    it("me() names the key, its company, its permissions and its limits", async () => {
      const me = await clientFor().me();
      expect(me.company).toEqual({ id: world.companyId, name: "Acme Ltd" });
      expect(me.key.name).toBe("Integration");
      expect([...me.key.scopes].sort()).toEqual(["applications:read", "applications:write", "jobs:read", "jobs:write"]);
      expect(me.limits.per_minute).toBe(100_000);
    });

    it("jobs: create with only a title, get, update, close, list", async () => {
      const client = clientFor();
      const job = await client.jobs.create({ title: "Backend Engineer" });
      expect(job).toMatchObject({ title: "Backend Engineer", status: "draft", open: false });
      expect(job.salary).toEqual({ min: null, max: null, currency: "GBP", period: "year" });
      expect(await client.jobs.get(job.id)).toEqual(job);

      const updated = await client.jobs.update(job.id, { status: "active", salary_min: 50_000, location: "Leeds" });
      expect(updated).toMatchObject({ status: "active", open: true, location: "Leeds", salary: { min: 50_000 } });

      const closed = await client.jobs.close(job.id);
      expect(closed.status).toBe("closed");
      expect((await client.jobs.close(job.id)).status).toBe("closed"); // again: unchanged

      const page = await client.jobs.list({ status: "closed", limit: 100 });
      expect(page.data.map((j) => j.id)).toContain(job.id);
      expect(page).toMatchObject({ has_more: false, next_cursor: null });
      const open = await client.jobs.list({ status: "open" });
      expect(open.data.map((j) => j.id)).not.toContain(job.id);
    });

    it("applications: create with only job_id, name and email, get, update, list by job and stage", async () => {
      const client = clientFor();
      const job = await client.jobs.create({ title: "Designer", status: "active", required_skills: ["Figma"] });
      const application = await client.applications.create({
        job_id: job.id,
        candidate: { name: "Ada Lovelace", email: "ada@example.com" },
      });
      expect(application).toMatchObject({
        job_id: job.id,
        job_title: "Designer",
        stage: "new",
        source: "api",
        candidate: { name: "Ada Lovelace", email: "ada@example.com", skills: [] },
      });
      expect(await client.applications.get(application.id)).toMatchObject({ id: application.id });

      const moved = await client.applications.update(application.id, { stage: "shortlisted", starred: true });
      expect(moved).toMatchObject({ stage: "shortlisted", starred: true });

      const byJob = await client.applications.list({ job_id: job.id });
      expect(byJob.data.map((a) => a.id)).toEqual([application.id]);
      const byStage = await client.applications.list({ job_id: job.id, stage: "new" });
      expect(byStage.data).toEqual([]);
      const all: string[] = [];
      for await (const item of client.applications.listAll({ job_id: job.id, limit: 1 })) all.push(item.id);
      expect(all).toEqual([application.id]);
    });

    it("sends the key in X-Service-Key when asked", async () => {
      const recorder = recordingFetch();
      const me = await clientFor({ keyHeader: "x-service-key", fetch: recorder.fetch }).me();
      expect(me.key.name).toBe("Integration");
    });
  });

  describe("paging", () => {
    it("listAll walks every page, newest first, one request per page", async () => {
      const own = await startWorld(adapter);
      try {
        const client = createClient({ baseUrl: own.baseUrl, key: own.key });
        const created = [];
        for (let i = 0; i < 7; i++) created.push(await client.jobs.create({ title: `Paged ${i}` }));
        // Newest first by created_at, then by id (binary order): jobs made in the same millisecond
        // come in id order, not necessarily in the order they were made.
        const newestFirst = created
          .sort((a, b) => b.created_at.localeCompare(a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
          .map((job) => job.title);
        const recorder = recordingFetch();
        const seen: string[] = [];
        for await (const job of createClient({
          baseUrl: own.baseUrl,
          key: own.key,
          fetch: recorder.fetch,
        }).jobs.listAll({
          limit: 3,
        })) {
          seen.push(job.title);
        }
        expect(seen).toEqual(newestFirst);
        expect(recorder.calls).toHaveLength(3); // 3 + 3 + 1
        const params = recorder.calls.map((call) => new URL(call.url).searchParams);
        expect(params.map((p) => p.get("limit"))).toEqual(["3", "3", "3"]);
        expect(params.map((p) => p.has("cursor"))).toEqual([false, true, true]);
        // Without a limit, listAll asks for the largest page.
        const all: Job[] = [];
        for await (const job of client.jobs.listAll()) all.push(job);
        expect(all).toHaveLength(7);
      } finally {
        await own.close();
      }
    });

    it("events.read follows the feed's cursor oldest first, and a run with the kept cursor reads only what is new", async () => {
      const own = await startWorld(adapter);
      try {
        const client = createClient({ baseUrl: own.baseUrl, key: own.key });
        const made = [];
        for (let i = 0; i < 5; i++) made.push(await client.jobs.create({ title: `Feed ${i}` }));
        const recorder = recordingFetch();
        const reader = createClient({ baseUrl: own.baseUrl, key: own.key, fetch: recorder.fetch });
        const run = reader.events.read({ limit: 2, type: ["job.created"] });
        const seen: string[] = [];
        for await (const event of run) seen.push(`${event.type} ${(event.data as Job).title}`);
        expect(seen).toEqual(made.map((job) => `job.created ${job.title}`));
        expect(recorder.calls).toHaveLength(3); // 2 + 2 + 1
        const params = recorder.calls.map((call) => new URL(call.url).searchParams);
        expect(params.map((p) => p.get("type"))).toEqual(["job.created", "job.created", "job.created"]);
        expect(params.map((p) => p.has("cursor"))).toEqual([false, true, true]);
        expect(run.cursor).toEqual(expect.any(String));

        // Caught up: the kept cursor reads nothing, then only the new event.
        const idle = reader.events.read({ cursor: run.cursor, type: "job.created" });
        for await (const _ of idle) throw new Error("nothing is new");
        await client.jobs.create({ title: "Feed 5" });
        const next: string[] = [];
        for await (const event of reader.events.read({ cursor: idle.cursor, type: "job.created" }))
          next.push((event.data as Job).title);
        expect(next).toEqual(["Feed 5"]);
        const page = await reader.events.list({ type: "job.created,job.updated", limit: 100 });
        expect(page.data).toHaveLength(6);
        expect(page.has_more).toBe(false);
        expect(page.next_cursor).toEqual(expect.any(String));
      } finally {
        await own.close();
      }
    });

    it("listAll can stop early: no page is read past the break", async () => {
      const recorder = recordingFetch();
      for await (const _ of clientFor({ fetch: recorder.fetch }).jobs.listAll({ limit: 1 })) break;
      expect(recorder.calls).toHaveLength(1);
    });
  });

  describe("sync (the updated_since loop of docs/api-reference.md, Paging and sync)", () => {
    it("yields every record changed since the last run, including changes made during a run, and a since to pass next", async () => {
      const client = clientFor();
      const department = `Sync ${adapter.name}`;
      // Records last changed ten minutes ago, on the API's clock.
      world.setClockOffset(-10 * 60_000);
      const old: Job[] = [];
      for (let i = 0; i < 5; i++) old.push(await client.jobs.create({ title: `Old ${i}`, department }));
      world.setClockOffset(0);

      // First run: no since, everything. While it pages, a job is created (it goes to the front,
      // before the pages already read) and a job already read changes.
      const first = client.jobs.sync({ limit: 2 });
      const firstIds: string[] = [];
      let createdDuring: Job | undefined;
      let changedDuring: Job | undefined;
      for await (const job of first) {
        if (job.department === department) firstIds.push(job.id);
        if (firstIds.length === 1 && !createdDuring) {
          createdDuring = await client.jobs.create({ title: "Created during the sync", department });
          changedDuring = await client.jobs.update(job.id, { title: "Changed during the sync" });
        }
      }
      expect(firstIds).toEqual(expect.arrayContaining(old.map((job) => job.id)));
      expect(firstIds).not.toContain(createdDuring?.id); // not in this run: it is the next run's
      expect(first.nextSince).toEqual(expect.any(String));
      const nextSince = first.nextSince as string;
      // The server's time at the first page less the default margin of 60 s.
      expect(Math.abs(Date.parse(nextSince) - (Date.now() - 60_000))).toBeLessThan(10_000);

      // Later changes.
      const target = old[3] as Job;
      await client.jobs.update(target.id, { location: "Remote" });
      const created = await client.jobs.create({ title: "New", department });

      const second = client.jobs.sync({ since: nextSince });
      const secondJobs: Job[] = [];
      for await (const job of second) if (job.department === department) secondJobs.push(job);
      const secondIds = secondJobs.map((job) => job.id);
      // Every change since the first run, the ones made during it included; nothing older than since.
      expect(secondIds).toEqual(
        expect.arrayContaining([target.id, created.id, createdDuring?.id, changedDuring?.id] as string[]),
      );
      for (const job of old) {
        if (job.id !== target.id && job.id !== changedDuring?.id) expect(secondIds).not.toContain(job.id);
      }
      for (const job of secondJobs) expect(Date.parse(job.updated_at)).toBeGreaterThanOrEqual(Date.parse(nextSince));
      expect(secondJobs.find((job) => job.id === changedDuring?.id)?.title).toBe("Changed during the sync");
      expect(Date.parse(second.nextSince as string)).toBeGreaterThanOrEqual(Date.parse(nextSince));
    });

    it("applications.sync filters by job and keeps the filters on every page", async () => {
      const client = clientFor();
      const job = await client.jobs.create({ title: "Sync target", status: "active" });
      for (let i = 0; i < 3; i++) {
        await client.applications.create({ job_id: job.id, candidate: { name: `C${i}`, email: `c${i}@example.com` } });
      }
      const recorder = recordingFetch();
      const run = clientFor({ fetch: recorder.fetch }).applications.sync({
        job_id: job.id,
        since: "2020-01-01",
        limit: 1,
      });
      const ids: string[] = [];
      for await (const application of run) ids.push(application.id);
      expect(ids).toHaveLength(3);
      expect(recorder.calls).toHaveLength(3);
      for (const call of recorder.calls) {
        const params = new URL(call.url).searchParams;
        expect(params.get("job_id")).toBe(job.id);
        expect(params.get("updated_since")).toBe("2020-01-01");
      }
      expect(run.nextSince).toEqual(expect.any(String));
    });

    it("nextSince stays null when the run is left early", async () => {
      const run = clientFor().jobs.sync({ limit: 1 });
      for await (const _ of run) break;
      expect(run.nextSince).toBeNull();
    });
  });

  describe("retries", () => {
    it("429: waits Retry-After, then the same request goes through", async () => {
      const limited = await startWorld(adapter, { perMinute: 2 });
      try {
        // The API's clock 0.2 s before the end of a minute: the window resets one second later at most.
        const now = Date.now();
        limited.setClockOffset(60_000 - (now % 60_000) - 200);
        const retries: RetryEvent[] = [];
        const client = createClient({
          baseUrl: limited.baseUrl,
          key: limited.key,
          minRetryDelayMs: 5,
          onRetry: (event) => retries.push(event),
        });
        await client.me();
        await client.me();
        const started = performance.now();
        const me = await client.me(); // refused in this minute, served in the next
        const waited = performance.now() - started;
        expect(me.company.id).toBe(limited.companyId);
        expect(retries).toHaveLength(1);
        expect(retries[0]?.error).toBeInstanceOf(HireportApiError);
        expect(retries[0]?.error).toMatchObject({ status: 429, code: "rate_limited", retryAfter: 1 });
        expect(retries[0]?.retryAfterMs).toBe(1000);
        expect(waited).toBeGreaterThanOrEqual(1000);
        expect(waited).toBeLessThan(5000);
      } finally {
        await limited.close();
      }
    });

    it("429 with a Retry-After over maxRetryAfterSeconds is thrown at once, with retryAfter", async () => {
      const limited = await startWorld(adapter, { perMinute: 1 });
      try {
        limited.setClockOffset(-(Date.now() % 60_000)); // the start of a minute: Retry-After about 60
        const client = createClient({ baseUrl: limited.baseUrl, key: limited.key, maxRetryAfterSeconds: 5 });
        await client.me();
        const error = await client.me().catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(HireportApiError);
        expect(error).toMatchObject({ status: 429, code: "rate_limited", attempts: 1 });
        expect((error as HireportApiError).retryAfter).toBeGreaterThan(50);
      } finally {
        await limited.close();
      }
    });

    it("a POST whose answer is lost is sent again with the same Idempotency-Key: one job, the replayed answer", async () => {
      const recorder = recordingFetch({ dropFirst: isPost("/jobs") });
      const responses: ResponseEvent[] = [];
      const client = clientFor({ fetch: recorder.fetch, onResponse: (event) => responses.push(event) });
      const title = `Exactly once ${adapter.name}`;
      const job = await client.jobs.create({ title });

      const posts = recorder.calls.filter((call) => call.method === "POST");
      expect(posts).toHaveLength(2);
      expect(posts[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(posts[1]?.idempotencyKey).toBe(posts[0]?.idempotencyKey);
      // The first answer (201) never reached the client; the second attempt got it replayed.
      expect(responses.map((event) => [event.attempt, event.status, event.replayed])).toEqual([[2, 201, true]]);
      const all = await clientFor().jobs.list({ limit: 100 });
      expect(all.data.filter((j) => j.title === title).map((j) => j.id)).toEqual([job.id]);
    });

    it("a POST sent without an Idempotency-Key is never sent twice: the network error is thrown", async () => {
      const recorder = recordingFetch({ dropFirst: isPost("/jobs") });
      const title = `No key ${adapter.name}`;
      const error = await clientFor({ fetch: recorder.fetch })
        .jobs.create({ title }, { idempotencyKey: false })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(HireportNetworkError);
      // One error class to catch: a call with no answer is a HireportApiError too, status 0.
      expect(error).toBeInstanceOf(HireportApiError);
      expect(error).toMatchObject({ status: 0, code: "network_error", requestId: undefined });
      expect(error).toMatchObject({ method: "POST", path: "/jobs", attempts: 1, idempotencyKey: undefined });
      expect(recorder.calls).toHaveLength(1);
      expect(recorder.calls[0]?.idempotencyKey).toBeNull();
      // The server did create it, once.
      const all = await clientFor().jobs.list({ limit: 100 });
      expect(all.data.filter((j) => j.title === title)).toHaveLength(1);
    });

    it("a POST without an Idempotency-Key is not retried after a 500 either", async () => {
      world.faults.failNext = 1;
      const recorder = recordingFetch();
      const error = await clientFor({ fetch: recorder.fetch })
        .jobs.create({ title: "Never" }, { idempotencyKey: false })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 500, code: "server_error", attempts: 1 });
      expect(recorder.calls).toHaveLength(1);
    });

    it("a POST that keeps failing with 500 names the Idempotency-Key it was sent with, which a later call reuses safely", async () => {
      world.faults.failNext = 4; // the first attempt and its 3 retries
      const recorder = recordingFetch();
      const title = `Kept failing ${adapter.name}`;
      const error = await clientFor({ fetch: recorder.fetch })
        .jobs.create({ title })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(HireportApiError);
      expect(error).toMatchObject({ status: 500, code: "server_error", attempts: 4 });
      const keys = new Set(recorder.calls.map((call) => call.idempotencyKey));
      expect(keys.size).toBe(1);
      const idempotencyKey = (error as HireportApiError).idempotencyKey as string;
      expect(keys.has(idempotencyKey)).toBe(true);
      const job = await clientFor().jobs.create({ title }, { idempotencyKey });
      const again = await clientFor().jobs.create({ title }, { idempotencyKey });
      expect(again.id).toBe(job.id);
    });

    it("the caller's own Idempotency-Key makes a repeated call return the first answer", async () => {
      const client = clientFor();
      const idempotencyKey = `order-${crypto.randomUUID()}`;
      const first = await client.jobs.create({ title: "Once" }, { idempotencyKey });
      const again = await client.jobs.create({ title: "Once" }, { idempotencyKey });
      expect(again).toEqual(first);
    });

    it("500: a GET is retried with backoff; a PATCH only when the caller opts in", async () => {
      const retries: RetryEvent[] = [];
      const client = clientFor({ onRetry: (event) => retries.push(event) });
      const job = await client.jobs.create({ title: "Retry target" });

      world.faults.failNext = 2;
      expect((await client.jobs.get(job.id)).id).toBe(job.id);
      expect(retries.map((event) => [event.attempt, (event.error as HireportApiError).status])).toEqual([
        [1, 500],
        [2, 500],
      ]);

      world.faults.failNext = 1;
      const error = await client.jobs.update(job.id, { title: "Not retried" }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 500, code: "server_error", attempts: 1 });
      expect((error as HireportApiError).requestId).toMatch(/^req_/);

      world.faults.failNext = 1;
      expect((await client.jobs.update(job.id, { title: "Retried" }, { retry: true })).title).toBe("Retried");
      world.faults.failNext = 1;
      expect((await clientFor({ retryPatch: true }).jobs.update(job.id, { location: "York" })).location).toBe("York");
    });

    it("network failures of a GET are retried, then thrown as HireportNetworkError with the attempts", async () => {
      let sent = 0;
      const failing: typeof fetch = async () => {
        sent++;
        throw new TypeError("fetch failed");
      };
      const error = await clientFor({ fetch: failing, retries: 2 })
        .jobs.list()
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(HireportNetworkError);
      expect(error).toBeInstanceOf(HireportApiError);
      expect(error).toMatchObject({ name: "HireportNetworkError", status: 0, code: "network_error" });
      expect((error as Error).message).toMatch(/^No answer to GET \/jobs: fetch failed/);
      expect(error).toMatchObject({ method: "GET", path: "/jobs", attempts: 3 });
      expect((error as HireportNetworkError).cause).toBeInstanceOf(TypeError);
      expect(sent).toBe(3);
    });

    it("409 idempotency_in_progress: waits Retry-After and gets the first attempt's answer", async () => {
      const client = clientFor();
      const idempotencyKey = `slow-${crypto.randomUUID()}`;
      let release = () => {};
      world.faults.gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const first = client.jobs.create({ title: "Slow" }, { idempotencyKey });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const retries: RetryEvent[] = [];
      const second = clientFor({ onRetry: (event) => retries.push(event) }).jobs.create(
        { title: "Slow" },
        { idempotencyKey },
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      world.faults.gate = null;
      release();
      const [a, b] = await Promise.all([first, second]);
      expect(b).toEqual(a);
      expect(retries[0]?.error).toMatchObject({ status: 409, code: "idempotency_in_progress", retryAfter: 1 });
    });

    it("a cancelled call rejects with the signal's reason and is not retried", async () => {
      const controller = new AbortController();
      controller.abort(new Error("stop"));
      await expect(clientFor().jobs.list({}, { signal: controller.signal })).rejects.toThrow("stop");
    });
  });

  describe("errors", () => {
    const fail = (promise: Promise<unknown>) =>
      promise.then(
        () => {
          throw new Error("expected the call to fail");
        },
        (error: unknown) => {
          expect(error).toBeInstanceOf(HireportApiError);
          return error as HireportApiError;
        },
      );

    it("401: an unknown key", async () => {
      const error = await fail(createClient({ baseUrl: world.baseUrl, key: "svc_live_nope" }).me());
      expect(error).toMatchObject({ status: 401, code: "invalid_key", method: "GET", path: "/me", attempts: 1 });
      expect(error.requestId).toMatch(/^req_/);
      expect(error.message).toMatch(/not valid/);
    });

    it("403: a key without the permission names the required scope", async () => {
      const error = await fail(
        createClient({ baseUrl: world.baseUrl, key: world.readKey }).jobs.create({ title: "X" }),
      );
      expect(error).toMatchObject({ status: 403, code: "missing_scope", requiredScope: "jobs:write" });
    });

    it("404: an unknown id (encoded in the path)", async () => {
      const error = await fail(clientFor().jobs.get("job_nope/../me"));
      expect(error).toMatchObject({ status: 404, code: "not_found", path: "/jobs/job_nope%2F..%2Fme" });
      const missingApplication = await fail(clientFor().applications.get("app_nope"));
      expect(missingApplication.status).toBe(404);
    });

    it("409: a duplicate application names the existing one", async () => {
      const client = clientFor();
      const job = await client.jobs.create({ title: "Duplicates", status: "active" });
      const input = { job_id: job.id, candidate: { name: "Grace", email: "grace@example.com" } };
      const first = await client.applications.create(input);
      const error = await fail(
        client.applications.create({ ...input, candidate: { ...input.candidate, email: " GRACE@example.com " } }),
      );
      expect(error).toMatchObject({ status: 409, code: "duplicate", existingId: first.id });
    });

    it("422: the fields to fix", async () => {
      const error = await fail(clientFor().jobs.create({ title: "", salary_min: -1 }));
      expect(error).toMatchObject({ status: 422, code: "invalid" });
      expect(error.fields?.map((field) => field.field).sort()).toEqual(["salary_min", "title"]);
    });

    it("400: a query parameter out of range", async () => {
      const error = await fail(clientFor().jobs.list({ limit: 500 }));
      expect(error).toMatchObject({ status: 400, code: "bad_request", attempts: 1 });
    });
  });
});
