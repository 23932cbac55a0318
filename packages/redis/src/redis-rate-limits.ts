/**
 * `rateLimits` of the decorated storage. A call whose buckets share one hash tag (every call core
 * makes: a key's windows `key.id + suffix`, `throttle(name)`'s `t:<name>:m:…` and `…:d:…`) counts
 * on Redis, in the same counters as `keys.admit`, so the contract's rule that admission counts in
 * the buckets `key.id + window.suffix` holds. A call whose buckets have different tags cannot be one
 * script in a Cluster: it counts in the wrapped storage, as does every call while Redis is away.
 */
import type { RateLimitBucket, RateLimitResult, RateLimitStore } from "@hireport/core/storage";
import type { Cluster, Redis } from "ioredis";
import { type CircuitBreaker, RedisUnavailable } from "./circuit-breaker";
import type { RedisKeys } from "./redis-keys";
import type { Scripts } from "./scripts";

/** Counters live this long past their window's end, so a late request of the window still finds them. */
export const COUNTER_MARGIN_MS = 60_000;

/** The script arguments of buckets: now, margin, then limit and window end of each. */
export function countArgs(buckets: readonly { limit: number; resetAt: Date }[], now: Date): (string | number)[] {
  const args: (string | number)[] = [now.getTime(), COUNTER_MARGIN_MS];
  for (const bucket of buckets) args.push(bucket.limit, bucket.resetAt.getTime());
  return args;
}

/** `{allowed, refused index, counts…}` of the count script as a RateLimitResult. */
export function toRateResult(reply: readonly unknown[]): RateLimitResult {
  const allowed = Number(reply[0]) === 1;
  const refused = Number(reply[1]);
  return { allowed, counts: reply.slice(2).map(Number), refusedBucket: allowed ? null : refused };
}

export interface RedisRateLimitsDeps {
  inner: RateLimitStore;
  redis: Redis | Cluster;
  keys: RedisKeys;
  scripts: Scripts;
  breaker: CircuitBreaker;
  logger: { warn(message: string, details?: Record<string, unknown>): void };
}

export function redisRateLimits(deps: RedisRateLimitsDeps): RateLimitStore {
  const { inner, keys, scripts, breaker } = deps;

  async function purgeRedis(now: Date): Promise<number> {
    const { redis } = deps;
    const nodes: Redis[] = "nodes" in redis && redis.isCluster ? redis.nodes("master") : [redis as Redis];
    let purged = 0;
    for (const node of nodes) {
      const stream = node.scanStream({ match: keys.counterPattern(), count: 500 });
      for await (const batch of stream as AsyncIterable<string[]>) {
        for (const key of batch) purged += Number(await scripts.hireportPurgeV1(1, key, now.getTime()));
      }
    }
    return purged;
  }

  return {
    async consume(buckets: readonly RateLimitBucket[], now: Date): Promise<RateLimitResult> {
      const tag = buckets[0] ? keys.tagOf(buckets[0].key) : null;
      const oneTag = tag !== null && buckets.every((bucket) => keys.tagOf(bucket.key) === tag);
      if (!oneTag || !breaker.closed) return inner.consume(buckets, now);
      try {
        const counters = buckets.map((bucket) => keys.counter(bucket.key));
        const reply = await breaker.call(() =>
          scripts.hireportConsumeV1(counters.length, ...counters, ...countArgs(buckets, now)),
        );
        return toRateResult(reply as unknown[]);
      } catch (error) {
        if (error instanceof RedisUnavailable) return inner.consume(buckets, now);
        throw error;
      }
    },

    /**
     * Purges the wrapped storage's counters and Redis counters of ended windows (they also expire by
     * themselves a minute after their window). A Redis failure is logged and skipped.
     */
    async purgeExpired(now: Date): Promise<number> {
      const purged = await inner.purgeExpired(now);
      try {
        return purged + (await purgeRedis(now));
      } catch (error) {
        deps.logger.warn("hireport: could not purge Redis rate-limit counters", { error: String(error) });
        return purged;
      }
    },
  };
}
