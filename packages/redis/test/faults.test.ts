/**
 * Faults: a redis-server the test owns is killed under load and started again (its data is gone:
 * no persistence), paused (SIGSTOP: connected, answering nothing) and resumed, and a network cut
 * keeps Redis's data while a key is revoked. Answers through `createPublicApi(...).handle(...)`
 * stay those of the API (200 on the database meanwhile), nothing crashes or rejects unhandled,
 * admission is back on Redis after the restart or the pause, the call under way when Redis
 * stopped answering is counted on Redis too once it runs there (as the README's "Faults" says), and
 * a revocation made during the cut is not undone when Redis is reachable again.
 */

import { once } from "node:events";
import type { Storage } from "@hireport/core";
import { memoryStorage } from "@hireport/core/memory";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RedisKeys } from "../src/redis-keys";
import { decorate } from "../src/with-redis-admission";
import { errorCode, START, testApi } from "./support/api";
import { FAIL_FAST, RedisServer, testPrefix } from "./support/redis-servers";
import { recordingLogger } from "./support/targets";
import { TcpProxy } from "./support/tcp-proxy";

const FALLBACK_SECONDS = 0.2;

/** Polls until `check` holds (each poll does real work: a request, a Redis read), failing after 10 s. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The connection errors the clients reported (a host logs them; without a listener ioredis prints them). */
const clientErrors: unknown[] = [];

function client(port: number): Redis {
  const redis = new Redis({ port, host: "127.0.0.1", ...FAIL_FAST, retryStrategy: () => 50 });
  redis.on("error", (error) => clientErrors.push(error));
  return redis;
}

/** Waits for the client's connection (with no offline queue, a command before it fails). */
async function ready(redis: Redis): Promise<Redis> {
  if (redis.status !== "ready") await once(redis, "ready");
  return redis;
}

/** How many EVALSHA calls the server ran (the admission script's among them). */
async function evalshaCalls(redis: Redis): Promise<number> {
  const stats = await redis.info("commandstats");
  return Number(/cmdstat_evalsha:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeEach(() => {
  unhandled.length = 0;
  process.on("unhandledRejection", onUnhandled);
});

afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
  expect(unhandled).toEqual([]);
});

describe("Redis killed under load, then started again", () => {
  let server: RedisServer;
  let redis: Redis;

  beforeAll(async () => {
    server = await RedisServer.start();
    redis = await ready(client(server.port));
  });

  afterAll(async () => {
    redis?.disconnect();
    await server?.destroy();
  });

  it("answers 200 on the database meanwhile, warns once, and counts on Redis again after the restart", async () => {
    const logger = recordingLogger();
    const prefix = testPrefix();
    const storage = decorate(memoryStorage(), { redis, prefix, fallbackSeconds: FALLBACK_SECONDS, logger }, {});
    const { api, me } = testApi(storage, { perMinute: 1000 });
    await api.companies.upsert({ id: "acme", name: "Acme" });
    const { key, record } = await api.keys.create({ companyId: "acme", name: "Load", scopes: ["jobs:read"] });
    const minute = Math.floor(new Date("2026-03-02T10:00:30.000Z").getTime() / 60_000);
    const counter = new RedisKeys(prefix).counter(`${record.id}:m:${minute}`);

    const load = async (n: number) => {
      const answers = await Promise.all(Array.from({ length: n }, () => me(key)));
      return answers.map((answer) => answer.status);
    };

    expect(await load(20)).toEqual(Array(20).fill(200));
    expect(await redis.hget(counter, "c")).toBe("20");

    // Killed while requests are under way: every one still answers 200.
    const during = load(30);
    await server.stop();
    const after = await load(30);
    expect([...(await during), ...after]).toEqual(Array(60).fill(200));
    for (const status of await load(10)) expect(status).toBe(200);
    expect(logger.lines.filter((line) => line.level === "warn")).toHaveLength(1);

    // Started again, empty: admissions go back to Redis, its counts start from what it kept (none).
    await server.start();
    await until("admission counts on Redis again", async () => {
      expect(await load(1)).toEqual([200]);
      return (await redis.hget(counter, "c").catch(() => null)) !== null;
    });
    const before = Number(await redis.hget(counter, "c"));
    expect(await load(5)).toEqual(Array(5).fill(200));
    expect(Number(await redis.hget(counter, "c"))).toBe(before + 5);
    expect(logger.lines.filter((line) => line.level === "warn")).toHaveLength(1);
    expect(logger.lines.some((line) => line.level === "info" && /recovered/.test(line.message))).toBe(true);
    await api.close();
  });
});

describe("Redis paused (SIGSTOP) under load, then resumed", () => {
  let server: RedisServer;
  let redis: Redis;
  let direct: Redis;

  beforeAll(async () => {
    server = await RedisServer.start();
    redis = await ready(client(server.port));
    direct = await ready(client(server.port));
  });

  afterAll(async () => {
    server?.resume();
    redis?.disconnect();
    direct?.disconnect();
    await server?.destroy();
  });

  it("admits on the database after timeoutMs, warns once, and counts on Redis too the requests of the call it gave up", async () => {
    const logger = recordingLogger();
    const prefix = testPrefix();
    const database = memoryStorage();
    const storage = decorate(database, { redis, prefix, fallbackSeconds: FALLBACK_SECONDS, logger }, {});
    const { api, me } = testApi(storage, { perMinute: 1000 });
    await api.companies.upsert({ id: "acme", name: "Acme" });
    const { key, record } = await api.keys.create({ companyId: "acme", name: "Load", scopes: ["jobs:read"] });
    const bucket = `${record.id}:m:${Math.floor(START.getTime() / 60_000)}`;
    const counter = new RedisKeys(prefix).counter(bucket);
    const load = async (n: number) =>
      (await Promise.all(Array.from({ length: n }, () => me(key)))).map((r) => r.status);

    expect(await load(10)).toEqual(Array(10).fill(200));
    expect(await direct.hget(counter, "c")).toBe("10");
    expect(await database.raw.rateLimitCount(bucket)).toBeNull();
    const scriptCalls = await evalshaCalls(direct);

    // Paused: the requests are sent to Redis, which neither answers nor closes the connection.
    server.pause();
    expect(await load(20)).toEqual(Array(20).fill(200));
    const warnings = logger.lines.filter((line) => line.level === "warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toMatch(/admitted on the database/);
    // The database counted every one of them, in its own window.
    expect(await database.raw.rateLimitCount(bucket)).toBe(20);

    // Resumed: Redis runs the one admission call it was sent, given up meanwhile (the requests that
    // waited for the next call went to the database without one). Its requests are counted on
    // Redis too.
    server.resume();
    await until("Redis ran the call it was sent", async () => Number(await direct.hget(counter, "c")) > 10);
    const late = Number(await direct.hget(counter, "c")) - 10;
    expect(late).toBeLessThan(20);
    expect(await evalshaCalls(direct)).toBe(scriptCalls + 1);

    // Back on Redis once `fallbackSeconds` have passed; the database's count stays as it was.
    await until("admission counts on Redis again", async () => {
      expect(await load(1)).toEqual([200]);
      return Number(await direct.hget(counter, "c")) > 10 + late;
    });
    const before = Number(await direct.hget(counter, "c"));
    expect(await load(5)).toEqual(Array(5).fill(200));
    expect(Number(await direct.hget(counter, "c"))).toBe(before + 5);
    expect(logger.lines.filter((line) => line.level === "warn")).toHaveLength(1);
    expect(logger.lines.some((line) => line.level === "info" && /recovered/.test(line.message))).toBe(true);
    await api.close();
  });
});

describe("a key revoked while Redis cannot be reached", () => {
  let server: RedisServer;
  let proxy: TcpProxy;
  let direct: Redis;

  beforeAll(async () => {
    server = await RedisServer.start();
    proxy = await TcpProxy.start(server.port);
    direct = await ready(client(server.port));
  });

  afterAll(async () => {
    direct?.disconnect();
    await proxy?.close();
    await server?.destroy();
  });

  it("is refused meanwhile and after Redis is back: revoke rejects, and its tombstone is written on recovery", async () => {
    const prefix = testPrefix();
    const keys = new RedisKeys(prefix);
    const database = memoryStorage();
    const options = { prefix, fallbackSeconds: FALLBACK_SECONDS, logger: recordingLogger() };
    const [redisA, redisB] = [await ready(client(proxy.port)), await ready(client(proxy.port))];
    const a: Storage = decorate(database, { ...options, redis: redisA }, {});
    const b: Storage = decorate(database, { ...options, redis: redisB }, {});
    const { api, me } = testApi(b);
    await api.companies.upsert({ id: "acme", name: "Acme" });
    const { key, record } = await api.keys.create({ companyId: "acme", name: "Site", scopes: ["jobs:read"] });
    expect((await me(key)).status).toBe(200);
    expect(await direct.exists(keys.record(record.id))).toBe(1);

    await proxy.cut();
    await expect(a.keys.revoke("acme", record.id, new Date())).rejects.toThrow(/could not be written to Redis/);
    // The database has it: B, on the database meanwhile, refuses the key.
    const meanwhile = await me(key);
    expect(meanwhile.status).toBe(401);
    expect(errorCode(meanwhile)).toBe("invalid_key");
    // Redis still holds the record cached before the revocation.
    expect(await direct.hget(keys.record(record.id), "rev")).toBe("");

    await proxy.restore();
    // A writes the tombstone in the background once Redis answers (the host may also revoke again).
    await until("the tombstone is written", async () => (await direct.exists(keys.tombstone(record.id))) === 1);
    await until("B is back on Redis", async () => redisB.status === "ready");
    await new Promise((resolve) => setTimeout(resolve, FALLBACK_SECONDS * 1000 + 50));
    const after = await me(key);
    expect(after.status).toBe(401);
    expect(errorCode(after)).toBe("invalid_key");
    expect(await direct.exists(keys.record(record.id))).toBe(1);
    expect(await direct.hget(keys.record(record.id), "rev")).not.toBe("");
    // Revoking again is safe and resolves now.
    await expect(a.keys.revoke("acme", record.id, new Date())).resolves.toMatchObject({ id: record.id });
    await api.close();
    redisA.disconnect();
    redisB.disconnect();
  });

  it("is refused after Redis is back by a process that saw the outage, even when the revoking process died before writing its tombstone", async () => {
    const prefix = testPrefix();
    const keys = new RedisKeys(prefix);
    const database = memoryStorage();
    const options = { prefix, fallbackSeconds: FALLBACK_SECONDS, logger: recordingLogger() };
    const [redisA, redisB] = [await ready(client(proxy.port)), await ready(client(proxy.port))];
    const a: Storage = decorate(database, { ...options, redis: redisA }, {});
    const b: Storage = decorate(database, { ...options, redis: redisB }, {});
    const { api, me } = testApi(b);
    await api.companies.upsert({ id: "acme", name: "Acme" });
    const { key, record } = await api.keys.create({ companyId: "acme", name: "Site", scopes: ["jobs:read"] });
    expect((await me(key)).status).toBe(200);

    await proxy.cut();
    await expect(a.keys.revoke("acme", record.id, new Date())).rejects.toThrow(/could not be written to Redis/);
    // A dies: its tombstone is never written.
    redisA.disconnect();
    expect((await me(key)).status).toBe(401);

    await proxy.restore();
    await until("B is connected again", async () => redisB.status === "ready");
    await new Promise((resolve) => setTimeout(resolve, FALLBACK_SECONDS * 1000 + 50));
    // Still cached as usable, and no tombstone: B re-reads records cached before it saw Redis again.
    expect(await direct.hget(keys.record(record.id), "rev")).toBe("");
    const after = await me(key);
    expect(after.status).toBe(401);
    expect(errorCode(after)).toBe("invalid_key");
    expect(await direct.exists(keys.tombstone(record.id))).toBe(0);
    expect(await direct.hget(keys.record(record.id), "rev")).not.toBe("");
    await api.close();
    redisB.disconnect();
  });
});
