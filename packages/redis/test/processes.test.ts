/**
 * Exactness across OS processes: three host processes (test/fixtures/admit-worker.ts), each with
 * its own ioredis client (made as the README says) and Postgres pool, admit one key at once against
 * one limit, on the standalone Redis and on a 3-master Cluster: exactly `limit` requests are
 * admitted, each with its own count, also while every process's event loop is held busy during the
 * burst, and nothing moves to the database.
 */
import type { ApiKeyRecord } from "@hireport/core";
import type { Cluster, Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PG_URL } from "../../kysely/test/helpers/databases";
import { RedisKeys } from "../src/redis-keys";
import type { BurstRequest } from "./fixtures/admit-worker";
import { type AdmitWorkers, startAdmitWorkers } from "./support/admit-workers";
import { REDIS_URL } from "./support/redis-servers";
import { type Database, openDatabase, openRedis, type RedisKind, type RedisSet } from "./support/targets";

const T = Date.parse("2026-03-02T10:00:30.000Z");
const PROCESSES = 3;

/** 1, 2, … n: the minute counts of n admitted requests. */
const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** `total` requests spread over the processes, as even as can be. */
const spread = (total: number) =>
  Array.from({ length: PROCESSES }, (_, i) => Math.floor(total / PROCESSES) + (i < total % PROCESSES ? 1 : 0));

describe.each<RedisKind>(["standalone", "cluster"])("three processes on Redis %s", (kind) => {
  let database: Database;
  let redis: RedisSet;
  let direct: Redis | Cluster;
  let workers: AdmitWorkers;
  let sequence = 0;

  /** A key of its own company, stored in the database (not through any process). */
  async function storedKey(): Promise<ApiKeyRecord> {
    sequence += 1;
    const id = `${kind}_${process.pid}_${sequence}`;
    const companyId = `co_proc_${id}`;
    await database.storage.companies.upsert({ id: companyId, name: "Processes", createdAt: new Date(T) });
    const key: ApiKeyRecord = {
      id: `key_proc_${id}`,
      companyId,
      name: "Shared",
      scopes: ["jobs:read"],
      hash: `proc_${id}`.padEnd(64, "0"),
      prefix: "svc_live_abcd",
      suffix: "wxyz",
      createdAt: new Date(T),
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: null,
    };
    await database.storage.keys.insert(key, { maxActive: 10, now: new Date(T) });
    return key;
  }

  /** One burst of `total` admissions spread over the processes, each holding its loop as given. */
  function requests(key: ApiKeyRecord, total: number, limit: number, holdMs: (worker: number) => number[]) {
    sequence += 1;
    const suffix = `proc${sequence}_${Date.now()}`;
    return {
      counter: new RedisKeys(redis.prefix).counter(`${key.id}:m:${suffix}`),
      requests: spread(total).map(
        (count, worker): BurstRequest => ({
          type: "burst",
          hash: key.hash,
          suffix,
          limit,
          count,
          at: T,
          holdMs: holdMs(worker),
        }),
      ),
    };
  }

  beforeAll(async () => {
    database = await openDatabase("postgres");
    redis = await openRedis(kind);
    direct = await redis.client();
    workers = await startAdmitWorkers(PROCESSES, {
      pgUrl: PG_URL,
      tablePrefix: database.tablePrefix ?? "",
      redis: redis.ports ? { cluster: redis.ports } : { url: REDIS_URL },
      prefix: redis.prefix,
    });
  });

  afterAll(async () => {
    await workers?.close();
    await redis?.close();
    await database?.close();
  });

  /** Held 150 to 300 ms at a time, four times: the durations vary with the burst and the process. */
  const held = (burst: number) => (worker: number) =>
    [0, 1, 2, 3].map((j) => 150 + ((burst * 7 + worker * 5 + j * 3) % 16) * 10);

  it.each([
    ["left alone", () => []],
    ["held", held(0)],
  ])(
    "admit exactly the limit of 3 x 20 parallel admissions of a key none has cached, counts 1 to the limit, event loops %s",
    async (_, holdMs) => {
      const key = await storedKey();
      const burst = requests(key, 60, 25, holdMs);
      const answers = await workers.burst(burst.requests);
      expect(answers.flatMap((answer) => answer.reported)).toEqual([]);
      expect(answers.flatMap((answer) => answer.admitted).sort((a, b) => a - b)).toEqual(upTo(25));
      expect(Number(await direct.hget(burst.counter, "c"))).toBe(25);
      expect(workers.errors()).toBe("");
    },
  );

  // Regression: the timeout's timer runs before the poll phase that reads replies already arrived,
  // so a loop held longer than `timeoutMs` (100 ms by default) took Redis for slow: the requests
  // moved to the database, which counted its own window on top (121 to 240 admitted of 120).
  it("admit exactly 120 of 400 admissions of one key in each of 10 bursts while each process holds its event loop 150 to 300 ms", async () => {
    const key = await storedKey();
    // Each process has the key cached already, as a host serving it has.
    const first = await workers.burst(requests(key, PROCESSES, 120, () => []).requests);
    expect(first.flatMap((answer) => answer.admitted)).toHaveLength(PROCESSES);
    const bursts: { admitted: number; onRedis: number; reported: string[] }[] = [];
    const counts: number[][] = [];
    for (let i = 0; i < 10; i++) {
      const burst = requests(key, 400, 120, held(i + 1));
      const answers = await workers.burst(burst.requests);
      const admitted = answers.flatMap((answer) => answer.admitted).sort((a, b) => a - b);
      counts.push(admitted);
      bursts.push({
        admitted: admitted.length,
        onRedis: Number(await direct.hget(burst.counter, "c")),
        reported: answers.flatMap((answer) => answer.reported),
      });
      expect(answers.every((answer) => answer.holds > 0)).toBe(true);
    }
    // Every burst admitted exactly the limit, all of it counted on Redis, nothing on the database.
    expect(bursts).toEqual(Array.from({ length: 10 }, () => ({ admitted: 120, onRedis: 120, reported: [] })));
    for (const admitted of counts) expect(admitted).toEqual(upTo(120));
    expect(workers.errors()).toBe("");
  }, 120_000);
});
