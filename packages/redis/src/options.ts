/** The options of `withRedisAdmission`, each with its default. */
import type { Logger } from "@hireport/core";
import type { Cluster, Redis } from "ioredis";

export interface RedisAdmissionOptions {
  /**
   * The host's ioredis client: `new Redis(url, …)` or `new Redis.Cluster(nodes, …)`. The decorator
   * adds its scripts to it (`defineCommand`, names starting with `hireport`) and attaches no
   * listener. Give it `maxRetriesPerRequest: 1` and `enableOfflineQueue: false` so that commands
   * fail fast while Redis is away (see the README, "Faults").
   */
  redis: Redis | Cluster;
  /**
   * Prepended to every Redis key. Must not contain `{` or `}` (the keys carry a hash tag).
   * @default "hireport:"
   */
  prefix?: string;
  /**
   * How long a key record read from the database stays cached in Redis, in seconds. A company's
   * name changed in the database shows in admissions after at most this long.
   * @default 300
   */
  cacheTtlSeconds?: number;
  /**
   * How long a revocation tombstone stays in Redis, in seconds; it must outlive any cached record
   * and any database read still under way when the key was revoked.
   * @default 2592000 (30 days)
   */
  tombstoneTtlSeconds?: number;
  /**
   * How long one Redis call may take, in milliseconds, before the admission gives up on Redis and
   * uses the database instead (see `fallbackSeconds`). Checked by one timer for all the calls under
   * way: a call is given up between `timeoutMs` and a quarter more (at most 25 ms more).
   * @default 100
   */
  timeoutMs?: number;
  /**
   * After a Redis call failed or timed out, admissions use the wrapped storage's database admission
   * for this many seconds before trying Redis again.
   * @default 5
   */
  fallbackSeconds?: number;
  /**
   * Told once per outage when admissions move to the database, and once when they are back on Redis.
   * @default console
   */
  logger?: Logger;
}

/** The options with their defaults applied. */
export interface ResolvedRedisAdmissionOptions {
  redis: Redis | Cluster;
  prefix: string;
  cacheTtlSeconds: number;
  tombstoneTtlSeconds: number;
  timeoutMs: number;
  fallbackSeconds: number;
  logger: Logger;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  const resolved = value ?? fallback;
  if (!Number.isFinite(resolved) || resolved <= 0) {
    throw new TypeError(`withRedisAdmission: ${name} must be a positive number.`);
  }
  return resolved;
}

export function resolveOptions(options: RedisAdmissionOptions): ResolvedRedisAdmissionOptions {
  if (!options?.redis || typeof options.redis.defineCommand !== "function") {
    throw new TypeError("withRedisAdmission: `redis` must be an ioredis client (Redis or Cluster).");
  }
  const prefix = options.prefix ?? "hireport:";
  if (/[{}]/.test(prefix)) {
    throw new TypeError("withRedisAdmission: `prefix` must not contain `{` or `}`.");
  }
  return {
    redis: options.redis,
    prefix,
    cacheTtlSeconds: Math.ceil(positive("cacheTtlSeconds", options.cacheTtlSeconds, 300)),
    tombstoneTtlSeconds: Math.ceil(positive("tombstoneTtlSeconds", options.tombstoneTtlSeconds, 2_592_000)),
    timeoutMs: positive("timeoutMs", options.timeoutMs, 100),
    fallbackSeconds: positive("fallbackSeconds", options.fallbackSeconds, 5),
    logger: options.logger ?? console,
  };
}
