import type { RateLimitStore } from "@hireport/core/storage";
import type { StoreContext } from "../context";
import { readCounts, refusal } from "./rate-limit-counters";

/**
 * Rate-limit counters, one row per bucket (key and window). A call adds one to every bucket only
 * when all of them are below their limit, and changes nothing otherwise. A counter whose
 * `reset_at` has passed counts as zero (the same key used again after its window restarts).
 * The count itself is the dialect's (`DialectStrategy.consumeRateLimit`): one call of the
 * `count_requests` routine on Postgres, one transaction elsewhere (`consumeInTransaction`).
 */
export function createRateLimitStore(ctx: StoreContext): RateLimitStore {
  return {
    async consume(buckets, now) {
      if (buckets.length === 0) return { allowed: true, counts: [], refusedBucket: null };
      if (buckets.some((bucket) => bucket.limit <= 0)) {
        const keys = buckets.map((bucket) => bucket.key);
        return refusal(buckets, await readCounts(ctx, keys, now, false));
      }
      return ctx.strategy.consumeRateLimit(ctx, buckets, now);
    },

    async purgeExpired(now) {
      const result = await ctx.db
        .deleteFrom(ctx.table("rate_limit"))
        .where("reset_at", "<", ctx.toDb(now))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
