/**
 * Exactness across OS processes: three host processes (test/fixtures/admit-worker.ts), each with
 * its own ioredis client and Postgres pool, admit one key at once against one limit, on the
 * standalone Redis and on a 3-master Cluster: exactly `limit` requests are admitted, each with its
 * own count.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { ApiKeyRecord } from "@hireport/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PG_URL } from "../../kysely/test/helpers/databases";
import { REDIS_URL } from "./support/redis-servers";
import { type Database, openDatabase, openRedis, type RedisKind, type RedisSet } from "./support/targets";

const run = promisify(execFile);
const WORKER = fileURLToPath(new URL("./fixtures/admit-worker.ts", import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const T = Date.parse("2026-03-02T10:00:30.000Z");

describe.each<RedisKind>(["standalone", "cluster"])("three processes on Redis %s", (kind) => {
  let database: Database & { tablePrefix?: string };
  let redis: RedisSet;

  beforeAll(async () => {
    database = await openDatabase("postgres");
    redis = await openRedis(kind);
  });

  afterAll(async () => {
    await redis?.close();
    await database?.close();
  });

  it("admit exactly the limit of 3 x 20 parallel admissions, counts 1 to the limit", async () => {
    const companyId = `co_proc_${kind}_${process.pid}`;
    await database.storage.companies.upsert({ id: companyId, name: "Processes", createdAt: new Date(T) });
    const key: ApiKeyRecord = {
      id: `key_proc_${kind}_${process.pid}`,
      companyId,
      name: "Shared",
      scopes: ["jobs:read"],
      hash: `proc_${kind}_${process.pid}`.padEnd(64, "0"),
      prefix: "svc_live_abcd",
      suffix: "wxyz",
      createdAt: new Date(T),
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: null,
    };
    await database.storage.keys.insert(key, { maxActive: 10, now: new Date(T) });
    const limit = 25;
    const args = {
      pgUrl: PG_URL,
      tablePrefix: database.tablePrefix,
      redis: redis.ports ? { cluster: redis.ports } : { url: REDIS_URL },
      prefix: redis.prefix,
      hash: key.hash,
      suffix: `proc${Date.now()}`,
      limit,
      count: 20,
      at: T,
    };
    const outputs = await Promise.all(
      [0, 1, 2].map(() =>
        run(process.execPath, ["--import", "tsx", WORKER, JSON.stringify(args)], { cwd: PACKAGE_DIR, timeout: 60_000 }),
      ),
    );
    for (const { stderr } of outputs) expect(stderr).toBe("");
    const admitted = outputs.flatMap(({ stdout }) => JSON.parse(stdout) as number[]);
    expect(admitted.sort((a, b) => a - b)).toEqual(Array.from({ length: limit }, (_, i) => i + 1));
  });
});
