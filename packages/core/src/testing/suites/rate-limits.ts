import { describe, expect, it } from "vitest";
import type { RateLimitBucket } from "../../storage";
import type { ConformanceContext } from "../context";
import { farPast, HOUR, MINUTE, newId, now, parallel, shift } from "../fixtures";

export function rateLimitTests(ctx: ConformanceContext): void {
  /** A bucket with a new key, noted for removal after the last test. */
  function bucket(limit: number, resetAt: Date): RateLimitBucket {
    return { key: ctx.ownRateLimitKey(newId("rl")), limit, resetAt };
  }

  describe("rateLimits", () => {
    it("counts up to the limit, then refuses without counting", async () => {
      const t = now();
      const b = bucket(3, shift(t, MINUTE));
      const results: unknown[] = [];
      for (let i = 0; i < 5; i++) results.push(await ctx.storage.rateLimits.consume([b], t));
      expect(results).toEqual([
        { allowed: true, counts: [1], refusedBucket: null },
        { allowed: true, counts: [2], refusedBucket: null },
        { allowed: true, counts: [3], refusedBucket: null },
        { allowed: false, counts: [3], refusedBucket: 0 },
        { allowed: false, counts: [3], refusedBucket: 0 },
      ]);
      await ctx.expectRaw("rateLimitCount", [b.key], 3);
    });

    it("admits exactly 10 of 30 parallel calls against a limit of 10", async () => {
      const t = now();
      const b = bucket(10, shift(t, MINUTE));
      const results = await parallel(30, () => ctx.storage.rateLimits.consume([b], t));
      const allowed = results.filter((r) => r.allowed);
      expect(allowed).toHaveLength(10);
      expect(allowed.map((r) => r.counts[0] ?? 0).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      for (const r of results.filter((r) => !r.allowed))
        expect(r).toEqual({ allowed: false, counts: [10], refusedBucket: 0 });
      await ctx.expectRaw("rateLimitCount", [b.key], 10);
    });

    it("is all or nothing over two buckets: a request refused by one counts in neither", async () => {
      const t = now();
      const day = bucket(100, shift(t, 24 * HOUR));
      const minute = bucket(2, shift(t, MINUTE));
      const consume = () => ctx.storage.rateLimits.consume([minute, day], t);
      expect(await consume()).toEqual({ allowed: true, counts: [1, 1], refusedBucket: null });
      expect(await consume()).toEqual({ allowed: true, counts: [2, 2], refusedBucket: null });
      expect(await consume()).toEqual({ allowed: false, counts: [2, 2], refusedBucket: 0 });
      await ctx.expectRaw("rateLimitCount", [day.key], 2);

      // The second bucket refuses: the first one is not counted either.
      const nextMinute = bucket(5, shift(t, 2 * MINUTE));
      const smallDay = bucket(1, shift(t, 24 * HOUR));
      expect(await ctx.storage.rateLimits.consume([nextMinute, smallDay], t)).toEqual({
        allowed: true,
        counts: [1, 1],
        refusedBucket: null,
      });
      expect(await ctx.storage.rateLimits.consume([nextMinute, smallDay], t)).toEqual({
        allowed: false,
        counts: [1, 1],
        refusedBucket: 1,
      });
      expect(await ctx.storage.rateLimits.consume([nextMinute, day], t)).toEqual({
        allowed: true,
        counts: [2, 3],
        refusedBucket: null,
      });
      await ctx.expectRaw("rateLimitCount", [nextMinute.key], 2);
    });

    it("keeps a shared bucket exact under parallel calls: 2 x 15 calls, day limit 12", async () => {
      const t = now();
      const day = bucket(12, shift(t, 24 * HOUR));
      const m1 = bucket(10, shift(t, MINUTE));
      const m2 = bucket(10, shift(t, MINUTE));
      const results = await Promise.all([
        ...Array.from({ length: 15 }, () => ctx.storage.rateLimits.consume([m1, day], t)),
        ...Array.from({ length: 15 }, () => ctx.storage.rateLimits.consume([m2, day], t)),
      ]);
      const first = results.slice(0, 15).filter((r) => r.allowed).length;
      const second = results.slice(15).filter((r) => r.allowed).length;
      expect(first + second).toBe(12);
      expect(first).toBeLessThanOrEqual(10);
      expect(second).toBeLessThanOrEqual(10);
      await ctx.expectRaw("rateLimitCount", [day.key], 12);
      await ctx.expectRaw("rateLimitCount", [m1.key], first);
      await ctx.expectRaw("rateLimitCount", [m2.key], second);
    });

    it("purgeExpired deletes counters whose window ended before now, and only those", async () => {
      const x = farPast();
      const ended = bucket(5, shift(x, -HOUR));
      const running = bucket(5, shift(x, HOUR));
      const early = shift(x, -2 * HOUR);
      await ctx.storage.rateLimits.consume([ended], early);
      await ctx.storage.rateLimits.consume([running], early);
      expect(await ctx.storage.rateLimits.purgeExpired(x)).toBeGreaterThanOrEqual(1);
      await ctx.expectRaw("rateLimitCount", [ended.key], null);
      await ctx.expectRaw("rateLimitCount", [running.key], 1);
      // Seen through consume: the purged counter starts again, the running one goes on.
      expect((await ctx.storage.rateLimits.consume([ended], early)).counts).toEqual([1]);
      expect((await ctx.storage.rateLimits.consume([running], early)).counts).toEqual([2]);
    });
  });
}
