import type { RateLimitBucket, RateLimitResult, RateLimitStore } from "../storage";
import type { StateAccess } from "./access";
import { toStored } from "./copy";
import { deleteOlder } from "./rows";
import type { MemoryState } from "./state";

/** The rules of `rateLimits.consume` on a state being written: all buckets or none. */
export function countRequest(state: MemoryState, buckets: readonly RateLimitBucket[], now: Date): RateLimitResult {
  const counters = state.write("rateLimits");
  // A counter whose window has ended counts as absent, whether or not it was purged yet.
  const current = buckets.map((bucket) => {
    const counter = counters.get(bucket.key);
    return counter && counter.resetAt.getTime() > now.getTime() ? counter.count : 0;
  });
  const refused = buckets.findIndex((bucket, index) => (current[index] ?? 0) >= bucket.limit);
  if (refused !== -1) return { allowed: false, counts: current, refusedBucket: refused };
  const counts = buckets.map((bucket, index) => {
    const count = (current[index] ?? 0) + 1;
    const counter = counters.get(bucket.key);
    const resetAt = counter && count > 1 ? counter.resetAt : bucket.resetAt;
    counters.set(bucket.key, toStored({ key: bucket.key, count, resetAt }));
    return count;
  });
  return { allowed: true, counts, refusedBucket: null };
}

export function createRateLimitStore(access: StateAccess): RateLimitStore {
  return {
    consume: (buckets, now) => access.write((state) => countRequest(state, buckets, now)),

    purgeExpired: (now) =>
      access.write((state) => deleteOlder(state.write("rateLimits"), (counter) => counter.resetAt, now)),
  };
}
