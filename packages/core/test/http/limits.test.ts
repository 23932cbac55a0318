import { HireportError, type Storage } from "@hireport/core";
import { admitInSteps, type KeyStore } from "@hireport/core/storage";
import { describe, expect, it } from "vitest";
import {
  type Answer,
  createTestApi,
  createWorld,
  DAY_MS,
  errorOf,
  START,
  type TestApi,
  TRANSPORTS,
  type World,
} from "./harness";

/** End of the minute window of START (10:01:00 UTC), in unix seconds. */
const MINUTE_RESET = String(Date.parse("2026-03-02T10:01:00.000Z") / 1000);

function rateHeaders(answer: Answer) {
  return {
    limit: answer.headers["x-ratelimit-limit"],
    remaining: answer.headers["x-ratelimit-remaining"],
    reset: answer.headers["x-ratelimit-reset"],
  };
}

/**
 * Every test runs with the storage's own `keys.admit` (one state operation in memory) and with
 * core's portable `admitInSteps` (`findByHash`, then `rateLimits.consume`), which storages with
 * nothing faster use.
 */
const PATHS = [
  ["the storage's admit", (storage: Storage) => storage],
  ["admitInSteps", withAdmissionInSteps],
] as const;

function withAdmissionInSteps(storage: Storage): Storage {
  const keys: KeyStore = Object.create(storage.keys, {
    admit: { value: (...args: Parameters<KeyStore["admit"]>) => admitInSteps(storage, ...args) },
  });
  return Object.create(storage, { keys: { value: keys, enumerable: true } }) as Storage;
}

describe.each(TRANSPORTS.flatMap((transport) => PATHS.map(([path, wrap]) => [transport, path, wrap] as const)))(
  "rate limits via %s, %s",
  (transport, _path, wrapStorage) => {
    const small = () => createWorld(transport, { limits: { perMinute: 3, perDay: 5 }, wrapStorage });
    const me = (w: World, key = w.acmeKey.key) => w.client.call("GET", "/me", { key });

    it("counts per minute: headers on every answer, 429 rate_limited with Retry-After", async () => {
      const w = await small();
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++) {
        const answer = await me(w);
        expect(answer.status).toBe(200);
        expect(rateHeaders(answer)).toMatchObject({ limit: "3", reset: MINUTE_RESET });
        remaining.push(answer.headers["x-ratelimit-remaining"] as string);
      }
      expect(remaining).toEqual(["2", "1", "0"]);
      const refused = await me(w);
      expect(refused.status).toBe(429);
      expect(errorOf(refused)).toEqual({
        code: "rate_limited",
        message: "This key has made its 3 requests for this minute. Wait 30 seconds.",
      });
      expect(refused.headers["retry-after"]).toBe("30");
      expect(rateHeaders(refused)).toEqual({ limit: "3", remaining: "0", reset: MINUTE_RESET });
      // Another key of the same company has its own counters.
      const other = await w.key(w.acme, ["jobs:read"]);
      expect((await me(w, other.key)).status).toBe(200);
    });

    it("does not count a refused request, opens again next minute, and stops at the daily limit", async () => {
      const w = await small();
      for (let i = 0; i < 3; i++) expect((await me(w)).status).toBe(200);
      for (let i = 0; i < 4; i++) expect((await me(w)).status).toBe(429);
      w.clock.advance(60_000);
      // Had the four refused requests counted, the day (5) would be used up already.
      const next = await me(w);
      expect(next.status).toBe(200);
      expect(next.headers["x-ratelimit-remaining"]).toBe("2");
      expect((await me(w)).status).toBe(200);
      const daily = await me(w);
      expect(daily.status).toBe(429);
      expect(errorOf(daily)).toEqual({
        code: "daily_limit",
        message: "This key has made its 5 requests for today (UTC). Wait 50310 seconds.",
      });
      // 10:01:30 to midnight UTC.
      expect(daily.headers["retry-after"]).toBe("50310");
      expect(daily.headers["x-ratelimit-remaining"]).toBe("0");
      // X-RateLimit-Reset describes the window that refused: the day, ending at midnight UTC.
      expect(daily.headers["x-ratelimit-reset"]).toBe(String(Date.parse("2026-03-03T00:00:00.000Z") / 1000));
      w.clock.set(new Date(Date.parse("2026-03-03T00:00:00.000Z")));
      expect((await me(w)).status).toBe(200);
    });

    it("puts the headers on 401, 403, 404 and 422 answers too", async () => {
      const w = await small();
      const unauthenticated = await w.client.call("GET", "/jobs");
      expect(unauthenticated.status).toBe(401);
      expect(rateHeaders(unauthenticated)).toEqual({ limit: "3", remaining: "3", reset: MINUTE_RESET });
      const missing = await w.client.call("GET", "/jobs/job_missing", { key: w.acmeKey.key });
      expect(missing.status).toBe(404);
      expect(rateHeaders(missing)).toEqual({ limit: "3", remaining: "2", reset: MINUTE_RESET });
      const invalid = await w.client.call("POST", "/jobs", { key: w.acmeKey.key, body: {} });
      expect(invalid.status).toBe(422);
      expect(invalid.headers["x-ratelimit-remaining"]).toBe("1");
      const readOnly = await w.key(w.acme, ["jobs:read"]);
      const forbidden = await w.client.call("POST", "/jobs", { key: readOnly.key, body: { title: "T" } });
      expect(forbidden.status).toBe(403);
      expect(rateHeaders(forbidden)).toEqual({ limit: "3", remaining: "2", reset: MINUTE_RESET });
      const unknownRoute = await w.client.call("GET", "/nowhere", { key: w.acmeKey.key });
      expect(unknownRoute.status).toBe(404);
      expect(unknownRoute.headers["x-ratelimit-limit"]).toBe("3");
    });

    it("admits exactly the limit of many parallel requests", async () => {
      const w = await createWorld(transport, { limits: { perMinute: 5, perDay: 1000 }, wrapStorage });
      const answers = await Promise.all(Array.from({ length: 12 }, () => me(w)));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(7);
      const remaining = answers
        .filter((answer) => answer.status === 200)
        .map((answer) => answer.headers["x-ratelimit-remaining"])
        .sort();
      expect(remaining).toEqual(["0", "1", "2", "3", "4"]);
    });

    it("counts writes and failures alike against the limit", async () => {
      const w = await small();
      expect((await w.client.call("POST", "/jobs", { key: w.acmeKey.key, body: { title: "A" } })).status).toBe(201);
      expect((await w.client.call("POST", "/jobs", { key: w.acmeKey.key, raw: "{" })).status).toBe(400);
      expect((await w.client.call("GET", "/jobs", { key: w.acmeKey.key, query: { limit: 0 } })).status).toBe(400);
      const refused = await w.client.call("POST", "/jobs", { key: w.acmeKey.key, body: { title: "B" } });
      expect(refused.status).toBe(429);
      expect(await w.storage.jobs.list({ companyId: w.acme, take: 10 })).toHaveLength(1);
    });
  },
);

describe("key limit and UTC days (host side and handle)", () => {
  it("refuses the 11th active key with key_limit; revoked and expired keys do not count", async () => {
    const t = await createTestApi();
    const company = await t.company("acme");
    const keys = [];
    for (let i = 0; i < 9; i++) keys.push(await t.key(company, ["jobs:read"]));
    const shortLived = await t.key(company, ["jobs:read"], { expiresAt: new Date(START.getTime() + 60_000) });
    const refusal = await t.api.keys.create({ companyId: company, name: "eleventh", scopes: ["jobs:read"] }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(HireportError);
    expect(refusal).toMatchObject({ code: "key_limit", status: 409 });
    expect((refusal as HireportError).message).toBe(
      "The company already has 10 active keys; revoke one before creating another.",
    );
    expect(await t.inspect.countKeys(company)).toBe(10);
    // Another company is not affected.
    const other = await t.company("other");
    await expect(t.key(other, ["jobs:read"])).resolves.toMatchObject({ key: expect.stringMatching(/^svc_live_/) });
    // Revoking one frees a place at once.
    await t.api.keys.revoke(company, (keys[0] as { id: string }).id);
    await expect(t.key(company, ["jobs:read"])).resolves.toMatchObject({ key: expect.stringMatching(/^svc_live_/) });
    await expect(t.key(company, ["jobs:read"])).rejects.toMatchObject({ code: "key_limit" });
    // An expired key frees its place too.
    t.clock.advance(60_000);
    await expect(t.key(company, ["jobs:read"])).resolves.toMatchObject({ id: expect.stringMatching(/^key_/) });
    expect(shortLived.id).toMatch(/^key_/);
    expect(await t.inspect.countKeys(company)).toBe(12);
  });

  it("refuses 11 parallel creates beyond the 10th", async () => {
    const t = await createTestApi();
    const company = await t.company("acme");
    const results = await Promise.allSettled(Array.from({ length: 14 }, () => t.key(company, ["jobs:read"])));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(10);
    const rejected = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
    expect(rejected.map((result) => (result.reason as HireportError).code)).toEqual(Array(4).fill("key_limit"));
  });

  it("a daily window lasts one UTC day", async () => {
    const t = await createTestApi({ limits: { perMinute: 100, perDay: 2 } });
    const company = await t.company("acme");
    const key = await t.key(company);
    const client = createWorldClient(t);
    t.clock.set("2026-03-02T23:59:59.000Z");
    expect((await client(key.key)).status).toBe(200);
    expect((await client(key.key)).status).toBe(200);
    const refused = await client(key.key);
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("1");
    t.clock.advance(1000);
    expect((await client(key.key)).status).toBe(200);
    expect(DAY_MS).toBe(86_400_000);
  });
});

function createWorldClient(t: TestApi) {
  return async (key: string) => {
    const response = await t.api.handle({ method: "GET", path: "/me", headers: { authorization: `Bearer ${key}` } });
    return response;
  };
}
