/** The options of `withRedisAdmission`, each with its default. */
import type { Logger } from "@hireport/core";
import type { Cluster, Redis } from "ioredis";

export interface RedisAdmissionOptions {
  /**
   * The host's ioredis client: `new Redis(url, …)` or `new Cluster(nodes, …)`. The decorator adds
   * its scripts to it (`defineCommand`, names starting with `hireport`) and attaches no listener.
   * Give it `maxRetriesPerRequest: 1` and `enableOfflineQueue: false` (a Cluster: the latter on the
   * Cluster's options, `maxRetriesPerRequest` in its `redisOptions`) so that commands fail fast
   * while Redis is away, and wait for its `ready` event before serving (see the README, "Faults").
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
   * How long Redis may leave one call unanswered, in milliseconds, before the admission gives up on
   * Redis and uses the database instead (see `fallbackSeconds`). Counted in time this process could
   * have read the answer: time its event loop was held (synchronous work, garbage collection) does
   * not count, and an answer that has arrived is always taken. Checked by one interval for all the
   * calls under way, every tenth of the timeout (at most 10 ms): on an idle event loop a call is
   * given up at most that much after `timeoutMs` (see the README, "Faults").
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
   * Where the decorator reports. It calls `warn(message, details)` once per outage when admissions
   * move to the database (details: `error`, `retryInSeconds`) and when `rateLimits.purgeExpired`
   * could not purge the Redis counters (details: `error`), and `info(message)` once when admissions
   * are back on Redis (`warn` when the logger has no `info`). It never calls `error` or `debug`.
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
