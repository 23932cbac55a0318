/**
 * Admission on Redis across instances: several `withRedisAdmission` storages over separate ioredis
 * clients of one Redis (standalone and a 3-master Cluster) and one database, as several host
 * processes would have. Exact counts under parallel calls, revocation seen at once by every
 * instance (also against a fill that read the key just before it was revoked), new keys, expiry on
 * the caller's clock, and the cached last use.
 */
import type { ApiKeyRecord, Storage } from "@hireport/core";
import type { KeyRateWindow } from "@hireport/core/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisKeys } from "../src/redis-keys";
import { errorCode, START, testApi } from "./support/api";
import { type Database, decorated, openDatabase, openRedis, type RedisKind, type RedisSet } from "./support/targets";

const T = new Date("2026-03-02T10:00:30.000Z");
let sequence = 0;

/** A key of its own company, stored in the database (not through any instance). */
async function storedKey(database: Database, overrides: Partial<ApiKeyRecord> = {}): Promise<ApiKeyRecord> {
  sequence += 1;
  const suffix = `${process.pid}_${Date.now()}_${sequence}`;
  const companyId = `co_${suffix}`;
  await database.storage.companies.upsert({ id: companyId, name: "Redis Ltd", createdAt: T });
  const key: ApiKeyRecord = {
    id: `key_${suffix}`,
    companyId,
    name: "Test key",
    scopes: ["jobs:read"],
    hash: `hash_${suffix}`.padEnd(64, "0"),
    prefix: "svc_live_abcd",
    suffix: "wxyz",
    createdAt: T,
    expiresAt: null,
    revokedAt: null,
    lastUsedAt: null,
    ...overrides,
  };
  await database.storage.keys.insert(key, { maxActive: 10, now: T });
  return key;
}

function windows(perMinute: number, perDay = 100_000): KeyRateWindow[] {
  sequence += 1;
  return [
    { suffix: `:m:${sequence}`, limit: perMinute, resetAt: new Date(T.getTime() + 30_000) },
    { suffix: `:d:${sequence}`, limit: perDay, resetAt: new Date(T.getTime() + 86_400_000) },
  ];
}

describe.each<RedisKind>(["standalone", "cluster"])("admission on Redis %s", (kind) => {
  let database: Database;
  let redis: RedisSet;
  const instances: Storage[] = [];
  let direct: Awaited<ReturnType<RedisSet["client"]>>;
  let keys: RedisKeys;

  beforeAll(async () => {
    database = await openDatabase("memory");
    redis = await openRedis(kind);
    for (let i = 0; i < 3; i++) instances.push((await decorated(database, redis)).storage);
    direct = await redis.client();
    keys = new RedisKeys(redis.prefix);
  });

  afterAll(async () => {
    await redis?.close();
    await database?.close();
  });

  it("admits exactly min(N, L) of N parallel admissions spread over 3 instances", async () => {
    for (const [n, limit] of [
      [60, 15],
      [12, 15],
    ] as const) {
      const key = await storedKey(database);
      const w = windows(limit);
      const answers = await Promise.all(
        Array.from({ length: n }, (_, i) => (instances[i % 3] as Storage).keys.admit(key.hash, w, T)),
      );
      const admitted = answers.filter((answer) => answer?.rate?.allowed).map((answer) => answer?.rate?.counts[0]);
      expect(admitted).toHaveLength(Math.min(n, limit));
      expect([...admitted].sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
        Array.from({ length: Math.min(n, limit) }, (_, i) => i + 1),
      );
      for (const answer of answers) if (!answer?.rate?.allowed) expect(answer?.rate?.refusedBucket).toBe(0);
      expect(await direct.hget(keys.counter(`${key.id}${w[0]?.suffix}`), "c")).toBe(String(Math.min(n, limit)));
      // Nothing counted in the database: admission is on Redis.
      expect(await database.inspect.rateLimitCount(`${key.id}${w[0]?.suffix}`)).toBeNull();
    }
  });

  it("counts the parallel calls of one key in one script call, admitting exactly the room left and refusing the rest by the full window", async () => {
    const { storage, client } = await decorated(database, redis);
    const key = await storedKey(database);
    // The day window has room for 6: one admission alone (it caches the key), then 20 at once.
    const w = windows(100, 6);
    expect((await storage.keys.admit(key.hash, w, T))?.rate).toEqual({
      allowed: true,
      counts: [1, 1],
      refusedBucket: null,
    });
    const sent = client.sendCommand.bind(client);
    let scriptCalls = 0;
    client.sendCommand = ((command: { name: string }, ...rest: unknown[]) => {
      if (command.name === "evalsha" || command.name === "eval") scriptCalls += 1;
      return (sent as (...args: unknown[]) => unknown)(command, ...rest);
    }) as typeof client.sendCommand;
    const answers = await Promise.all(Array.from({ length: 20 }, () => storage.keys.admit(key.hash, w, T)));
    client.sendCommand = sent;
    // The first call goes alone; the 19 that arrived while it ran are one batch: 2 script calls.
    expect(scriptCalls).toBeLessThanOrEqual(2);
    const admitted = answers.filter((answer) => answer?.rate?.allowed).map((answer) => answer?.rate?.counts);
    expect(admitted).toEqual([2, 3, 4, 5, 6].map((n) => [n, n]));
    const refused = answers.filter((answer) => !answer?.rate?.allowed);
    expect(refused).toHaveLength(15);
    for (const answer of refused) {
      expect(answer?.found.key.id).toBe(key.id);
      expect(answer?.rate).toEqual({ allowed: false, counts: [6, 6], refusedBucket: 1 });
    }
    // A refused request counted nowhere: the minute window has only the admitted ones.
    expect(await direct.hget(keys.counter(`${key.id}${w[0]?.suffix}`), "c")).toBe("6");
    expect(await direct.hget(keys.counter(`${key.id}${w[1]?.suffix}`), "c")).toBe("6");
  });

  it("reuses the record it parsed while Redis answers the same version, and never across a change", async () => {
    const { storage } = await decorated(database, redis);
    const key = await storedKey(database);
    const w = windows(100);
    const first = await storage.keys.admit(key.hash, w, T);
    const second = await storage.keys.admit(key.hash, w, T);
    expect(second?.found).toBe(first?.found);
    expect(second?.found.company.name).toBe("Redis Ltd");

    // Last use touched: a new record with it (the rest still parsed once).
    const at = new Date(T.getTime() + 1_000);
    await (instances[0] as Storage).keys.touch(key.id, at);
    const touched = await storage.keys.admit(key.hash, w, T);
    expect(touched?.found).not.toBe(first?.found);
    expect(touched?.found.key.lastUsedAt).toEqual(at);
    expect(touched?.found.company).toBe(first?.found.company);

    // The company renamed and the cached record gone (its TTL ended): filled again, parsed again.
    await database.storage.companies.upsert({ id: key.companyId, name: "Renamed Ltd", createdAt: T });
    await direct.del(keys.record(key.id));
    const renamed = await storage.keys.admit(key.hash, w, T);
    expect(renamed?.found.company.name).toBe("Renamed Ltd");
    expect((await storage.keys.admit(key.hash, w, T))?.found.company.name).toBe("Renamed Ltd");

    // Revoked through another instance: the next admission says so.
    await (instances[1] as Storage).keys.revoke(key.companyId, key.id, T);
    const revoked = await storage.keys.admit(key.hash, w, T);
    expect(revoked?.rate).toBeNull();
    expect(revoked?.found.key.revokedAt).toEqual(T);
    expect(renamed?.found.key.revokedAt).toBeNull();
  });

  it("refuses a key revoked through one instance at the very next admission of every other", async () => {
    const [a, b, c] = instances as [Storage, Storage, Storage];
    const key = await storedKey(database);
    const w = windows(100);
    expect((await b.keys.admit(key.hash, w, T))?.rate?.allowed).toBe(true);
    expect((await c.keys.admit(key.hash, w, T))?.rate?.allowed).toBe(true);
    await a.keys.revoke(key.companyId, key.id, T);
    for (const instance of [a, b, c]) {
      const answer = await instance.keys.admit(key.hash, w, T);
      expect(answer?.rate).toBeNull();
      expect(answer?.found.key.revokedAt).toEqual(T);
    }
    expect(await direct.hget(keys.counter(`${key.id}${w[0]?.suffix}`), "c")).toBe("2");

    // Revoked on the `tx` of a transaction: seen once `transaction` resolves.
    const other = await storedKey(database);
    expect((await b.keys.admit(other.hash, w, T))?.rate?.allowed).toBe(true);
    await a.transaction(async (tx) => {
      await tx.keys.revoke(other.companyId, other.id, T);
    });
    expect((await c.keys.admit(other.hash, w, T))?.rate).toBeNull();
    expect((await b.keys.admit(other.hash, w, T))?.rate).toBeNull();
  });

  it("answers 401 through createPublicApi in every instance once api.keys.revoke resolves", async () => {
    const [first, second] = [testApi(instances[0] as Storage), testApi(instances[1] as Storage)];
    await first.api.companies.upsert({ id: `co_api_${kind}`, name: "Acme" });
    const { key, record } = await first.api.keys.create({
      companyId: `co_api_${kind}`,
      name: "Site",
      scopes: ["jobs:read"],
    });
    expect((await second.me(key)).status).toBe(200);
    await first.api.keys.revoke(`co_api_${kind}`, record.id);
    const answer = await second.me(key);
    expect(answer.status).toBe(401);
    expect(errorCode(answer)).toBe("invalid_key");
    await first.api.close();
    await second.api.close();
  });

  it("refuses the cache fill of a key read just before its revocation (regression: stale fill)", async () => {
    const key = await storedKey(database);
    const w = windows(100);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached: () => void = () => undefined;
    const atGate = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const { storage: b } = await decorated(
      database,
      redis,
      {},
      {
        hook: async (step, hash) => {
          if (step !== "after-database-read" || hash !== key.hash) return;
          reached();
          await gate;
        },
      },
    );
    // B misses the cache and reads the key from the database: not revoked yet.
    const pending = b.keys.admit(key.hash, w, T);
    await atGate;
    // A revokes meanwhile: the tombstone is written before revoke resolves.
    await (instances[0] as Storage).keys.revoke(key.companyId, key.id, T);
    // B now fills the cache with what it read: refused, and B's own admission says revoked.
    release();
    const answer = await pending;
    expect(answer?.found.key.id).toBe(key.id);
    expect(answer?.found.key.revokedAt).not.toBeNull();
    expect(answer?.rate).toBeNull();
    // The stale record was not cached: the fill was refused, not merely overruled by the tombstone.
    expect(await direct.exists(keys.record(key.id))).toBe(0);
    expect(await direct.hget(keys.counter(`${key.id}${w[0]?.suffix}`), "c")).toBeNull();
    for (const instance of [b, ...instances]) expect((await instance.keys.admit(key.hash, w, T))?.rate).toBeNull();
  });

  it("admits a key created after its hash was asked for (no negative cache)", async () => {
    const hash = `unknown_${kind}_${Date.now()}`.padEnd(64, "0");
    const w = windows(100);
    expect(await (instances[1] as Storage).keys.admit(hash, w, T)).toBeNull();
    const key = await storedKey(database, { hash });
    const answer = await (instances[1] as Storage).keys.admit(hash, w, T);
    expect(answer?.found.key.id).toBe(key.id);
    expect(answer?.rate).toEqual({ allowed: true, counts: [1, 1], refusedBucket: null });
  });

  it("refuses an expired key at its expiry on the caller's clock, counting nothing", async () => {
    const { api, clock, me } = testApi(instances[2] as Storage);
    const companyId = `co_exp_${kind}`;
    await api.companies.upsert({ id: companyId, name: "Expiring" });
    const expiresAt = new Date(START.getTime() + 90_000);
    const { key, record } = await api.keys.create({ companyId, name: "Short", scopes: ["jobs:read"], expiresAt });
    expect((await me(key)).status).toBe(200);
    clock.set(new Date(expiresAt.getTime() - 1));
    expect((await me(key)).status).toBe(200);
    clock.set(expiresAt);
    const answer = await me(key);
    expect(answer.status).toBe(401);
    expect(errorCode(answer)).toBe("expired_key");
    // The two admitted requests were counted in the day window; the refused one was not.
    const day = Math.floor(expiresAt.getTime() / 86_400_000);
    expect(await direct.hget(keys.counter(`${record.id}:d:${day}`), "c")).toBe("2");
    await api.close();
  });

  it("counts api.throttle on Redis, both windows of a name under one tag, a refused hit in neither", async () => {
    const { api } = testApi(instances[0] as Storage);
    const other = testApi(instances[1] as Storage).api;
    const name = `careers:apply:198.51.100.${sequence++}`;
    const limits = { perMinute: 2, perDay: 10 };
    expect((await api.throttle(name, limits)).allowed).toBe(true);
    expect((await other.throttle(name, limits)).allowed).toBe(true);
    expect(await api.throttle(name, limits)).toMatchObject({ allowed: false, refusedBy: "minute" });
    const minute = Math.floor(START.getTime() / 60_000);
    const day = Math.floor(START.getTime() / 86_400_000);
    expect(await direct.hget(keys.counter(`t:${name}:m:${minute}`), "c")).toBe("2");
    expect(await direct.hget(keys.counter(`t:${name}:d:${day}`), "c")).toBe("2");
    expect(await database.inspect.rateLimitCount(`t:${name}:d:${day}`)).toBeNull();
    await api.close();
    await other.close();
  });

  it("counts a throttle's day in a time zone on Redis under the name's tag, with its minute", async () => {
    const { api } = testApi(instances[0] as Storage);
    const other = testApi(instances[1] as Storage).api;
    const name = `hireport:indexing:google:${sequence++}`;
    // START is 02:00:30 on March 2nd in Los Angeles (PST, UTC-8); the day there ends at 08:00 UTC.
    const limits = { perMinute: 5, perDay: 2, dayTimeZone: "America/Los_Angeles" };
    expect((await api.throttle(name, limits)).allowed).toBe(true);
    expect((await other.throttle(name, limits)).allowed).toBe(true);
    const dayEnd = new Date("2026-03-03T08:00:00.000Z").getTime();
    expect(await api.throttle(name, limits)).toEqual({
      allowed: false,
      refusedBy: "day",
      retryAfterSeconds: (dayEnd - START.getTime()) / 1000,
    });
    const minute = Math.floor(START.getTime() / 60_000);
    const day = `t:${name}:d@America/Los_Angeles:2026-03-02`;
    expect(keys.tagOf(day)).toBe(keys.tagOf(`t:${name}:m:${minute}`));
    expect(await direct.hget(keys.counter(`t:${name}:m:${minute}`), "c")).toBe("2");
    expect(await direct.hget(keys.counter(day), "c")).toBe("2");
    expect(await direct.hget(keys.counter(day), "r")).toBe(String(dayEnd));
    expect(await database.inspect.rateLimitCount(day)).toBeNull();
    await api.close();
    await other.close();
  });

  it("keeps the cached last use in step with keys.touch, so core touches once a minute, not every request", async () => {
    const [a, b] = instances as [Storage, Storage];
    const key = await storedKey(database);
    const w = windows(100);
    expect((await a.keys.admit(key.hash, w, T))?.found.key.lastUsedAt).toBeNull();
    const at = new Date(T.getTime() + 5_000);
    await b.keys.touch(key.id, at);
    expect((await a.keys.admit(key.hash, w, T))?.found.key.lastUsedAt).toEqual(at);
    expect((await database.storage.keys.findByHash(key.hash))?.key.lastUsedAt).toEqual(at);
  });
});
