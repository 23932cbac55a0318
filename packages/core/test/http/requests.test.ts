import { type ApiRequest, createPublicApi, type Storage } from "@hireport/core";
import { memoryStorage } from "@hireport/core/memory";
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  applicationBody,
  applicationOf,
  createWorld,
  errorOf,
  eventsOf,
  jobOf,
  memoryLogger,
  START,
  storedJobs,
  TRANSPORTS,
  type World,
} from "./harness";

const MIB = 1_048_576;

/**
 * A view of `base` with one property replaced; everything else is read from `base` through the
 * prototype chain. Works on any storage, frozen ones included (a Proxy may not change what a frozen
 * object's property reads as).
 */
function withProperty<T extends object, K extends keyof T>(base: T, name: K, value: T[K]): T {
  // Defined, not assigned: assigning would hit the read-only property `base` has when frozen.
  return Object.create(base, { [name]: { value, enumerable: true } }) as T;
}

/** Wraps a storage so that one method of one store (`jobs.list`, …) throws. */
const failingStorage =
  <S extends "jobs" | "keys" | "usage">(store: S, method: keyof Storage[S]) =>
  (base: Storage): Storage =>
    withProperty(
      base,
      store,
      withProperty(base[store], method, (async () => {
        throw new Error("connection refused: postgres://admin:hunter2@db.internal/hireport");
      }) as Storage[S][keyof Storage[S]]),
    );

describe.each(TRANSPORTS)("request bodies via %s", (transport) => {
  let w: World;
  const postJob = (options: { raw?: string | Uint8Array; body?: unknown; headers?: Record<string, string> }) =>
    w.client.call("POST", "/jobs", { key: w.acmeKey.key, ...options });
  const nothingStored = async () => {
    expect(await storedJobs(w.storage, w.acme)).toEqual([]);
    expect(await w.inspect.countEvents(w.acme)).toBe(0);
  };

  beforeEach(async () => {
    w = await createWorld(transport);
  });

  it("answers 400 for malformed JSON and stores nothing", async () => {
    for (const raw of ['{"title": "A"', "{title: 'A'}", "not json", '{"title":"A"} x']) {
      const answer = await postJob({ raw });
      expect(answer.status, raw).toBe(400);
      expect(errorOf(answer).code).toBe("bad_request");
      expect(errorOf(answer).message).toMatch(/^The request body is not valid JSON/);
    }
    await nothingStored();
  });

  it("answers 400 for a wrong content type and stores nothing", async () => {
    const json = JSON.stringify({ title: "A" });
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "application/json; charset=latin1",
      "multipart/form-data",
    ]) {
      const raw = await postJob({ raw: json, headers: { "content-type": type } });
      expect(raw.status, type).toBe(400);
      expect(errorOf(raw).code).toBe("bad_request");
      const parsed = await postJob({ body: { title: "A" }, headers: { "content-type": type } });
      expect(parsed.status, type).toBe(400);
    }
    await nothingStored();
  });

  it("accepts JSON content types with parameters and +json", async () => {
    for (const type of ["application/json; charset=utf-8", "Application/JSON", "application/vnd.hireport+json"]) {
      const answer = await postJob({ raw: JSON.stringify({ title: type }), headers: { "content-type": type } });
      expect(answer.status, type).toBe(201);
      expect(jobOf(answer).title).toBe(type);
    }
  });

  it("answers 422 for a JSON array, string or number body, naming body", async () => {
    for (const [raw, what] of [
      ["[]", "an array"],
      ['[{"title":"A"}]', "an array"],
      ['"A"', "a string"],
      ["42", "a number"],
    ] as const) {
      const answer = await postJob({ raw });
      expect(answer.status, raw).toBe(422);
      expect(errorOf(answer)).toMatchObject({
        code: "invalid",
        fields: [{ field: "body", message: `The request body must be a JSON object, not ${what}.` }],
      });
    }
    const parsed = await postJob({ body: [{ title: "A" }] });
    expect(parsed.status).toBe(422);
    expect(errorOf(parsed).fields).toEqual([
      { field: "body", message: "The request body must be a JSON object, not an array." },
    ]);
    await nothingStored();
  });

  it("reads an empty body as {} (422 title required)", async () => {
    const answer = await w.client.call("POST", "/jobs", { key: w.acmeKey.key, raw: "" });
    expect(answer.status).toBe(422);
    expect(errorOf(answer).fields).toEqual([{ field: "title", message: "This field is required." }]);
  });

  it("answers 413 payload_too_large above 1 MiB and stores nothing; 1 MiB itself is read", async () => {
    const shell = '{"title":"Big","description":""}';
    const exact = `{"title":"Big","description":"${"x".repeat(MIB - shell.length)}"}`;
    expect(new TextEncoder().encode(exact).length).toBe(MIB);
    const atLimit = await postJob({ raw: exact });
    expect(atLimit.status).toBe(422); // read and validated: description is over 50,000 characters
    expect(errorOf(atLimit).fields?.map((field) => field.field)).toEqual(["description"]);
    const over = await postJob({ raw: `${exact} ` });
    expect(over.status).toBe(413);
    expect(errorOf(over)).toEqual({
      code: "payload_too_large",
      message: "The request body is larger than 1048576 bytes.",
    });
    // Bytes, not characters: 600,000 two-byte characters are 1.2 MB.
    const wide = await postJob({ raw: `{"title":"${"é".repeat(600_000)}"}` });
    expect(wide.status).toBe(413);
    const bytes = await postJob({ raw: new TextEncoder().encode(`{"title":"${"y".repeat(MIB)}"}`) });
    expect(bytes.status).toBe(413);
    await nothingStored();
  });

  it("answers 400 for a body that is not UTF-8", async () => {
    const answer = await postJob({ raw: new Uint8Array([0x7b, 0x22, 0x74, 0xff, 0xfe, 0x22, 0x7d]) });
    expect(answer.status).toBe(400);
    expect(errorOf(answer).code).toBe("bad_request");
    await nothingStored();
  });

  it("checks the key before the body: a bad body without a key is 401", async () => {
    const answer = await w.client.call("POST", "/jobs", { raw: "{" });
    expect(answer.status).toBe(401);
    expect(errorOf(answer).code).toBe("missing_key");
  });
});

describe.each(TRANSPORTS)("idempotency via %s", (transport) => {
  let w: World;
  const post = (path: string, body: unknown, idempotencyKey: string, key = w.acmeKey.key) =>
    w.client.call("POST", path, { key, body, headers: { "idempotency-key": idempotencyKey } });

  beforeEach(async () => {
    w = await createWorld(transport);
  });

  it("replays the first answer for a repeat, with one record only", async () => {
    const first = await post("/jobs", { title: "Once", status: "active" }, "key-1");
    expect(first.status).toBe(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    w.clock.advance(60_000);
    const again = await post("/jobs", { status: "active", title: "Once" }, "key-1");
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
    expect(await storedJobs(w.storage, w.acme)).toHaveLength(1);
    expect(await w.inspect.countEvents(w.acme)).toBe(1);
    expect(await w.inspect.countIdempotencyRecords(w.acmeKey.id)).toBe(1);
  });

  it("answers 422 for the same key with a different body, and stores nothing more", async () => {
    expect((await post("/jobs", { title: "A" }, "key-2")).status).toBe(201);
    const other = await post("/jobs", { title: "B" }, "key-2");
    expect(other.status).toBe(422);
    expect(errorOf(other)).toMatchObject({
      code: "invalid",
      message: "This Idempotency-Key was already used with a different request.",
      fields: [{ field: "Idempotency-Key", message: "Use a new key for a new request." }],
    });
    expect(await storedJobs(w.storage, w.acme)).toHaveLength(1);
  });

  it("keeps keys apart per API key and forgets them after 24 hours", async () => {
    const first = jobOf(await post("/jobs", { title: "A" }, "shared"));
    const second = await w.key(w.acme, ["jobs:write"]);
    const other = jobOf(await post("/jobs", { title: "A" }, "shared", second.key));
    expect(other.id).not.toBe(first.id);
    w.clock.advance(24 * 3_600_000 + 1000);
    const later = await post("/jobs", { title: "A" }, "shared");
    expect(later.status).toBe(201);
    expect(later.headers["idempotent-replayed"]).toBeUndefined();
    expect(jobOf(later).id).not.toBe(first.id);
    expect(await storedJobs(w.storage, w.acme)).toHaveLength(3);
  });

  it("replays a POST /applications answer, a 409 included", async () => {
    const job = await w.api.jobs.create(w.acme, { title: "T", status: "active" });
    const first = await post("/applications", applicationBody(job.id, "i@example.com"), "app-1");
    expect(first.status).toBe(201);
    const replay = await post("/applications", applicationBody(job.id, "i@example.com"), "app-1");
    expect(replay.status).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(applicationOf(replay).id).toBe(applicationOf(first).id);
    const duplicate = await post("/applications", applicationBody(job.id, "i@example.com"), "app-2");
    expect(duplicate.status).toBe(409);
    const duplicateAgain = await post("/applications", applicationBody(job.id, "i@example.com"), "app-2");
    expect(duplicateAgain.status).toBe(409);
    expect(duplicateAgain.text).toBe(duplicate.text);
    expect(await w.inspect.countApplications(w.acme)).toBe(1);
    expect(await w.inspect.jobApplicationsCount(w.acme, job.id)).toBe(1);
  });

  it("lets exactly one of two parallel requests with one key run", async () => {
    const answers = await Promise.all([post("/jobs", { title: "P" }, "par"), post("/jobs", { title: "P" }, "par")]);
    // The second either waits and replays the first answer, or is told the first is still running.
    const ran = answers.filter(
      (answer) => answer.status === 201 && answer.headers["idempotent-replayed"] === undefined,
    );
    expect(ran).toHaveLength(1);
    const [other] = answers.filter((answer) => answer !== ran[0]);
    if (other?.status === 409) expect(errorOf(other).code).toBe("idempotency_in_progress");
    else {
      expect(other?.headers["idempotent-replayed"]).toBe("true");
      expect(other?.text).toBe(ran[0]?.text);
    }
    expect(await storedJobs(w.storage, w.acme)).toHaveLength(1);
    expect(await w.inspect.countEvents(w.acme)).toBe(1);
  });

  it("answers 409 idempotency_in_progress while the first request still runs", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => undefined;
    const inTransaction = new Promise<void>((resolve) => {
      entered = resolve;
    });
    // Once the world is set up (its keys are made in transactions too), holds every transaction at a
    // gate, so the first request is still running when the second arrives.
    let gating = false;
    const gated = (base: Storage): Storage =>
      withProperty(base, "transaction", async (fn) => {
        if (gating) {
          entered();
          await gate;
        }
        return base.transaction(fn);
      });
    const g = await createWorld(transport, { wrapStorage: gated });
    gating = true;
    const send = () =>
      g.client.call("POST", "/jobs", {
        key: g.acmeKey.key,
        body: { title: "Slow" },
        headers: { "idempotency-key": "slow" },
      });
    const first = send();
    await inTransaction;
    const second = await send();
    expect(second.status).toBe(409);
    expect(errorOf(second)).toEqual({
      code: "idempotency_in_progress",
      message: "A request with this Idempotency-Key is still running.",
    });
    expect(second.headers["retry-after"]).toBe("1");
    release();
    expect((await first).status).toBe(201);
    const third = await send();
    expect(third.headers["idempotent-replayed"]).toBe("true");
    expect(await storedJobs(g.storage, g.acme)).toHaveLength(1);
  });

  it("refuses an over-long Idempotency-Key with 400", async () => {
    const answer = await post("/jobs", { title: "A" }, "k".repeat(256));
    expect(answer.status).toBe(400);
    expect(errorOf(answer).code).toBe("bad_request");
    expect(await storedJobs(w.storage, w.acme)).toHaveLength(0);
  });
});

describe.each(TRANSPORTS)("request ids, usage log and failures via %s", (transport) => {
  it("puts X-Request-Id on every answer and logs every request with key, method, route, status, duration", async () => {
    const w = await createWorld(transport);
    const answers = [
      await w.client.call("GET", "/me", { key: w.acmeKey.key }),
      await w.client.call("GET", "/jobs/job_missing", { key: w.acmeKey.key }),
      await w.client.call("POST", "/jobs", { key: w.acmeKey.key, body: {} }),
      await w.client.call("POST", "/jobs", { key: w.acmeKey.key, body: { title: "Logged" } }),
      await w.client.call("GET", "/jobs", { key: w.acmeKey.key, query: { limit: 500 } }),
      await w.client.call("DELETE", "/jobs", { key: w.acmeKey.key }),
      await w.client.call("GET", "/me"),
      await w.client.call("GET", "/me", { key: w.globexKey.key }),
    ];
    const ids = answers.map((answer) => answer.headers["x-request-id"] as string);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 422, 201, 400, 405, 401, 200]);
    // close() writes what is pending: read the raw store, not the flushing list().
    await w.api.close();
    expect(await w.inspect.countUsage(w.acme)).toBe(5);
    expect(await w.inspect.countUsage(w.globex)).toBe(1);
    const page = await w.api.usage.list(w.acme, { limit: 100 });
    expect(page.hasMore).toBe(false);
    const byRequest = new Map(page.data.map((entry) => [entry.requestId, entry]));
    const expected = [
      ["GET", "/me", 200],
      ["GET", "/jobs/{id}", 404],
      ["POST", "/jobs", 422],
      ["POST", "/jobs", 201],
      ["GET", "/jobs", 400],
    ] as const;
    expected.forEach(([method, route, status], i) => {
      const entry = byRequest.get(ids[i] as string);
      expect(entry, `${method} ${route}`).toMatchObject({
        companyId: "acme",
        keyId: w.acmeKey.id,
        method,
        route,
        status,
        requestId: ids[i],
        ip: "203.0.113.7",
        createdAt: START,
      });
      expect(typeof entry?.durationMs).toBe("number");
      expect(entry?.durationMs).toBeGreaterThanOrEqual(0);
    });
    // The 405 came before authentication: it is logged without a company.
    expect(byRequest.has(ids[5] as string)).toBe(false);
    const keyOnly = await w.api.usage.list(w.acme, { keyId: w.acmeKey.id, limit: 2 });
    expect(keyOnly.data).toHaveLength(2);
    expect(keyOnly.hasMore).toBe(true);
    const rest = await w.api.usage.list(w.acme, {
      keyId: w.acmeKey.id,
      limit: 100,
      cursor: keyOnly.nextCursor as string,
    });
    expect(rest.data).toHaveLength(3);
    // After close() the API refuses new work.
    const closed = await w.client.call("GET", "/me", { key: w.acmeKey.key });
    expect(closed.status).toBe(503);
    expect(errorOf(closed).code).toBe("service_unavailable");
  });

  it("logs rate-limited requests too", async () => {
    const w = await createWorld(transport, { limits: { perMinute: 1, perDay: 100 } });
    await w.client.call("GET", "/me", { key: w.acmeKey.key });
    const refused = await w.client.call("GET", "/me", { key: w.acmeKey.key });
    expect(refused.status).toBe(429);
    const page = await w.api.usage.list(w.acme);
    expect(page.data.map((entry) => entry.status).sort()).toEqual([200, 429]);
    expect(page.data.find((entry) => entry.status === 429)?.requestId).toBe(refused.headers["x-request-id"]);
  });

  it("answers 500 server_error when storage fails, without leaking the detail, and logs it", async () => {
    const logger = memoryLogger();
    const w = await createWorld(transport, { wrapStorage: failingStorage("jobs", "list"), logger });
    const answer = await w.client.call("GET", "/jobs", { key: w.acmeKey.key });
    expect(answer.status).toBe(500);
    const requestId = answer.headers["x-request-id"] as string;
    expect(errorOf(answer)).toEqual({
      code: "server_error",
      message: `Something went wrong on our side; retry. Request id: ${requestId}.`,
    });
    expect(answer.text).not.toContain("hunter2");
    expect(answer.headers["x-ratelimit-limit"]).toBe("10000");
    const logged = logger.entries.find((entry) => entry.message === "hireport: request failed");
    expect(logged?.details?.requestId).toBe(requestId);
    expect(String(logged?.details?.error)).toContain("hunter2");
    // Other routes still work.
    expect((await w.client.call("GET", "/me", { key: w.acmeKey.key })).status).toBe(200);
  });

  it("answers 500 when authentication cannot read the key (keys.admit fails)", async () => {
    const logger = memoryLogger();
    const w = await createWorld(transport, { wrapStorage: failingStorage("keys", "admit"), logger });
    const answer = await w.client.call("GET", "/me", { key: w.acmeKey.key });
    expect(answer.status).toBe(500);
    expect(errorOf(answer).code).toBe("server_error");
    expect(answer.text).not.toContain("hunter2");
  });

  it("still answers when the usage log cannot be written", async () => {
    const logger = memoryLogger();
    const w = await createWorld(transport, { wrapStorage: failingStorage("usage", "appendMany"), logger });
    const answer = await w.client.call("GET", "/me", { key: w.acmeKey.key });
    expect(answer.status).toBe(200);
    await w.api.close();
    expect(logger.entries.some((entry) => entry.message === "hireport: writing the usage log failed; will retry")).toBe(
      true,
    );
  });
});

describe("usage log batches", () => {
  /** A storage whose usage writes each wait for `release()` and are recorded by size. */
  /**
   * A usage store whose writes wait at a gate. `release` opens the gates one by one, each time
   * waiting for the write it let through to finish (the usage log starts its next write as soon as
   * one ends), until no write is waiting.
   */
  function gatedUsage() {
    const batches: number[] = [];
    const gates: { open: () => void; written: Promise<void> }[] = [];
    const wrapStorage = (base: Storage): Storage =>
      withProperty(
        base,
        "usage",
        withProperty(base.usage, "appendMany", (entries) => {
          batches.push(entries.length);
          let open: () => void = () => undefined;
          const opened = new Promise<void>((resolve) => {
            open = resolve;
          });
          const written = opened.then(() => base.usage.appendMany(entries));
          gates.push({ open, written: written.catch(() => undefined) });
          return written;
        }),
      );
    const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
    const release = async () => {
      for (;;) {
        await settle();
        const gate = gates.shift();
        if (!gate) return;
        gate.open();
        await gate.written;
      }
    };
    /** Opens the next write's gate once there is one (waiting for it), and waits for the write. */
    const releaseNext = async () => {
      await vi.waitFor(() => expect(gates.length).toBeGreaterThan(0), { timeout: 5_000 });
      const gate = gates.shift();
      gate?.open();
      await gate?.written;
    };
    return { batches, wrapStorage, release, releaseNext };
  }

  it("writes only full batches while requests keep coming; the rest waits for the timer or close()", async () => {
    const usage = gatedUsage();
    const w = await createWorld("handle", {
      wrapStorage: usage.wrapStorage,
      extra: { usageBatchSize: 10, usageFlushMs: 60_000 },
    });
    const me = () => w.client.call("GET", "/me", { key: w.acmeKey.key });
    for (let i = 0; i < 10; i++) await me();
    // The first batch is being written (and waits); three more requests arrive meanwhile.
    for (let i = 0; i < 3; i++) await me();
    await usage.release();
    // They are not written in a small batch of their own as soon as the first write ends.
    expect(usage.batches).toEqual([10]);
    expect(w.api.usage.pending).toBe(3);
    for (let i = 0; i < 17; i++) await me();
    await usage.release();
    expect(usage.batches).toEqual([10, 10, 10]);
    expect(w.api.usage.pending).toBe(0);
    // A flush writes what is pending when it starts, not what arrives while it writes.
    for (let i = 0; i < 4; i++) await me();
    const flushing = w.api.usage.flush();
    await me();
    await usage.release();
    await flushing;
    expect(usage.batches).toEqual([10, 10, 10, 4]);
    expect(w.api.usage.pending).toBe(1);
    for (let i = 0; i < 3; i++) await me();
    const closing = w.api.close();
    await usage.release();
    await closing;
    expect(usage.batches).toEqual([10, 10, 10, 4, 4]);
    expect(await w.inspect.countUsage(w.acme)).toBe(38);
  });

  it('usageLog "durable": an answer leaves once its entry is written; entries of concurrent requests share a write', async () => {
    const usage = gatedUsage();
    const w = await createWorld("handle", { wrapStorage: usage.wrapStorage, extra: { usageLog: "durable" } });
    const answered: number[] = [];
    const me = () => w.client.call("GET", "/me", { key: w.acmeKey.key }).then((answer) => answered.push(answer.status));
    // Waits for a state the requests reach on their own time (each admits its key in the storage
    // first, slower on a busy machine), never for a fixed time.
    const reach = (state: () => boolean) => vi.waitFor(() => expect(state()).toBe(true), { timeout: 5_000 });
    const first = me();
    await reach(() => usage.batches.length === 1);
    // Its entry is being written (the write waits): no answer yet.
    expect(usage.batches).toEqual([1]);
    expect(answered).toEqual([]);
    // Five more arrive meanwhile: they wait for the next write, which takes all five.
    const more = Array.from({ length: 5 }, me);
    await reach(() => w.api.usage.pending === 5);
    expect(usage.batches).toEqual([1]);
    expect(answered).toEqual([]);
    await usage.releaseNext();
    await usage.releaseNext();
    await Promise.all([first, ...more]);
    expect(usage.batches).toEqual([1, 5]);
    expect(answered).toEqual([200, 200, 200, 200, 200, 200]);
    expect(w.api.usage.pending).toBe(0);
    expect(await w.inspect.countUsage(w.acme)).toBe(6);
    // flush() and close() wait for the writes under way.
    const seventh = me();
    await reach(() => usage.batches.length === 3);
    const closing = w.api.close();
    await usage.releaseNext();
    await Promise.all([seventh, closing]);
    expect(await w.inspect.countUsage(w.acme)).toBe(7);
  });

  it('usageLog "durable": a storage that refuses the log does not hold the answer; the entry is retried', async () => {
    const logger = memoryLogger();
    const w = await createWorld("handle", {
      wrapStorage: failingStorage("usage", "appendMany"),
      logger,
      extra: { usageLog: "durable" },
    });
    expect((await w.client.call("GET", "/me", { key: w.acmeKey.key })).status).toBe(200);
    expect(w.api.usage.pending).toBe(1);
    expect(logger.entries.some((entry) => entry.message === "hireport: writing the usage log failed; will retry")).toBe(
      true,
    );
    const options = { storage: memoryStorage(), publicBaseUrl: "https://x.example", fileTokenSecret: "s".repeat(32) };
    expect(() => createPublicApi({ ...options, usageLog: "sync" as never })).toThrow(
      /option usageLog must be "batched" or "durable"/,
    );
  });

  it("writes a partial batch once usageFlushMs has passed", async () => {
    const usage = gatedUsage();
    const w = await createWorld("handle", {
      wrapStorage: usage.wrapStorage,
      // Long enough for three requests on a loaded machine's slowest database to come in first.
      extra: { usageBatchSize: 100, usageFlushMs: 500 },
    });
    for (let i = 0; i < 3; i++) await w.client.call("GET", "/me", { key: w.acmeKey.key });
    expect(usage.batches).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 600));
    await usage.release();
    expect(usage.batches).toEqual([3]);
    expect(await w.inspect.countUsage(w.acme)).toBe(3);
  });
});

describe("handle() never rejects", () => {
  it("answers malformed requests instead of throwing", async () => {
    const w = await createWorld("handle");
    const requests = [
      { method: "GET" },
      { method: "GET", path: "/me" },
      { path: "/me", headers: {} },
      {
        method: "POST",
        path: "/jobs",
        headers: { authorization: `Bearer ${w.acmeKey.key}`, "content-type": "application/json" },
        body: 12n,
      },
    ] as unknown as ApiRequest[];
    for (const request of requests) {
      const response = await w.api.handle(request).catch((error: unknown) => ({ rejected: error }));
      expect(response).not.toHaveProperty("rejected");
      expect((response as { status: number }).status).toBeGreaterThanOrEqual(400);
    }
  });

  it("answers 413 when an adapter flags a body as too large", async () => {
    const w = await createWorld("handle");
    const response = await w.api.handle({
      method: "POST",
      path: "/jobs",
      headers: { authorization: `Bearer ${w.acmeKey.key}`, "content-type": "application/json" },
      bodyTooLarge: true,
    });
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body as string)).toMatchObject({ error: { code: "payload_too_large" } });
    expect(response.headers["x-ratelimit-remaining"]).toBe("9999");
    expect(await storedJobs(w.storage, w.acme)).toEqual([]);
  });

  it("answers an aborted request without running it", async () => {
    const w = await createWorld("handle");
    const controller = new AbortController();
    controller.abort();
    const response = await w.api.handle({
      method: "POST",
      path: "/jobs",
      headers: { authorization: `Bearer ${w.acmeKey.key}`, "content-type": "application/json" },
      body: { title: "Never" },
      signal: controller.signal,
    });
    expect(response.status).toBe(400);
    expect(await storedJobs(w.storage, w.acme)).toEqual([]);
    expect(await eventsOf(w.storage, w.acme)).toEqual([]);
  });
});
