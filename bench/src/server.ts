/**
 * One server under test, in its own process: `server.ts <kind>` listens on a free loopback port and
 * prints `READY <port>`. SIGTERM closes it (and writes the CPU profile when run with --cpu-prof).
 *
 * - `hireport-fastify`, `hireport-express`: the public API through @hireport/fastify or
 *   @hireport/express on @hireport/kysely, full pipeline (key lookup, rate limit, usage log).
 * - `hireport-fastify-durable`: `hireport-fastify` with `usageLog: "durable"` (each request's usage
 *   entry written before its answer leaves), for `src/usage-durable.ts`.
 * - `bare-fastify`, `bare-express`: the hand-written baseline (src/bare.ts). The same list queries
 *   through Kysely (same columns, filter, order, limit + 1), the same rows serialized to the same
 *   JSON shape, a signed opaque cursor; no key, no rate limit, no usage log.
 * - `hireport-fastify-redis`: `hireport-fastify` with key admission on Redis (`withRedisAdmission` of
 *   @hireport/redis, ioredis on `BENCH_REDIS_URL`): the key lookup and both rate-limit counts in one
 *   Redis script call; the usage log still goes to Postgres.
 * - `peer-fastify`: the stack a host would assemble by hand (src/peer.ts): `@fastify/rate-limit`
 *   on Redis, a key lookup by hash in Postgres and a usage INSERT per request around the bare routes.
 */
import { writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { Session } from "node:inspector/promises";
import type { PublicApi, Storage } from "@hireport/core";
import { hireportExpress } from "@hireport/express";
import { hireportFastify } from "@hireport/fastify";
import { withRedisAdmission } from "@hireport/redis";
import express from "express";
import Fastify from "fastify";
import { Redis } from "ioredis";
import { bareApplications, bareJobs } from "./bare";
import { createDb } from "./common";
import { BASE_PATH, benchApi, SKIPPABLE, type Skippable } from "./hireport";
import { peerFastify, REDIS_URL } from "./peer";
import { benchWakeUps } from "./wake";

const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 10);

/** The ioredis client of `hireport-fastify-redis`, as the @hireport/redis README sets one up. */
async function benchRedis(): Promise<Redis> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on("error", (error: Error) => console.warn("redis:", error.message));
  // Without the offline queue, a command sent before the connection is up fails (and admission
  // would use the database for a while): start measuring on a ready client.
  await new Promise((resolve) => redis.once("ready", resolve));
  return redis;
}
/** Diagnostic servers only: `BENCH_WITHOUT=rate-limit,key-lookup` (see SKIPPABLE). */
const WITHOUT = (process.env.BENCH_WITHOUT ?? "")
  .split(",")
  .filter((name): name is Skippable => (SKIPPABLE as readonly string[]).includes(name));

/**
 * With `BENCH_HEAP_PROFILE=<file>` (src/profile.ts), V8's sampling heap profiler runs from start-up
 * and keeps the samples of objects already collected, so the profile shows what each function
 * allocates, not only what is still alive; the returned function writes it to the file.
 */
async function startHeapSampling(): Promise<(() => Promise<void>) | undefined> {
  const file = process.env.BENCH_HEAP_PROFILE;
  if (!file) return undefined;
  const session = new Session();
  session.connect();
  await session.post("HeapProfiler.enable");
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return async () => {
    const { profile } = await session.post("HeapProfiler.stopSampling");
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

// ---- the processes --------------------------------------------------------------------------

async function main(): Promise<void> {
  const kind = process.argv[2] ?? "";
  const db = createDb(POOL_SIZE);
  let close: () => Promise<void>;
  let port: number;
  let redis: Redis | undefined;

  if (kind === "peer-fastify") {
    const peer = await peerFastify(db);
    await peer.app.listen({ port: 0, host: "127.0.0.1" });
    const address = peer.app.server.address();
    port = typeof address === "object" && address ? address.port : 0;
    close = peer.close;
  } else if (
    kind === "hireport-fastify" ||
    kind === "hireport-fastify-durable" ||
    kind === "hireport-fastify-redis" ||
    kind === "bare-fastify"
  ) {
    const app = Fastify({ logger: false });
    let api: PublicApi | undefined;
    // The scaling benchmark's app processes wake its dispatcher process (src/wake.ts).
    const wake = kind !== "bare-fastify" ? benchWakeUps() : undefined;
    if (kind !== "bare-fastify") {
      redis = kind === "hireport-fastify-redis" ? await benchRedis() : undefined;
      const admission = redis
        ? (storage: Storage) => withRedisAdmission(storage, { redis: redis as Redis })
        : undefined;
      api = benchApi(
        db,
        WITHOUT,
        kind === "hireport-fastify-durable" ? "durable" : "batched",
        wake?.publish,
        admission,
      );
      await app.register(hireportFastify, { api, prefix: BASE_PATH });
    } else {
      app.get(`${BASE_PATH}/jobs`, async (request) => bareJobs(db, request.query as Record<string, unknown>));
      app.get(`${BASE_PATH}/applications`, async (request) =>
        bareApplications(db, request.query as Record<string, unknown>),
      );
    }
    await app.listen({ port: 0, host: "127.0.0.1" });
    const address = app.server.address();
    port = typeof address === "object" && address ? address.port : 0;
    close = async () => {
      await app.close();
      await api?.close();
      await wake?.end();
      redis?.disconnect();
    };
  } else if (kind === "hireport-express" || kind === "bare-express") {
    const app = express();
    app.disable("x-powered-by");
    let api: PublicApi | undefined;
    if (kind === "hireport-express") {
      api = benchApi(db, WITHOUT);
      app.use(BASE_PATH, hireportExpress(api));
    } else {
      app.get(`${BASE_PATH}/jobs`, (req, res, next) => {
        bareJobs(db, req.query as Record<string, unknown>).then((body) => res.json(body), next);
      });
      app.get(`${BASE_PATH}/applications`, (req, res, next) => {
        bareApplications(db, req.query as Record<string, unknown>).then((body) => res.json(body), next);
      });
    }
    const server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
    });
    const address = server.address();
    port = typeof address === "object" && address ? address.port : 0;
    close = async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await api?.close();
    };
  } else {
    throw new TypeError(`unknown server kind "${kind}"`);
  }

  const heap = await startHeapSampling();
  let closing = false;
  process.on("SIGTERM", () => {
    if (closing) return;
    closing = true;
    void close()
      .then(() => db.destroy())
      .then(() => heap?.())
      .finally(() => process.exit(0));
  });
  process.stdout.write(`READY ${port}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
