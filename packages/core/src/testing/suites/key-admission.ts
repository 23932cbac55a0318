import { describe, expect, it } from "vitest";
import type { ApiKeyRecord } from "../../model/domain";
import type { KeyAdmission, KeyRateWindow } from "../../storage";
import type { ConformanceContext } from "../context";
import { HOUR, MINUTE, makeKey, newId, now, parallel, shift } from "../fixtures";

interface Setup {
  key: ApiKeyRecord;
  windows: KeyRateWindow[];
  /** The bucket keys of the windows, in order. */
  buckets: string[];
}

/** `keys.admit`: the key lookup and the request's count in the key's windows, the write of every request. */
export function keyAdmissionTests(ctx: ConformanceContext): void {
  describe("keys.admit", () => {
    const t = now();

    /** A stored key and two windows (minute, day) whose counters exist with a count of `primed`. */
    async function setup(limits: [number, number], primed = 1, overrides: Partial<ApiKeyRecord> = {}): Promise<Setup> {
      const companyId = await ctx.company("Admission Ltd");
      const key = makeKey(companyId, overrides);
      await ctx.storage.keys.insert(key, { maxActive: 10, now: t });
      const tag = newId("w");
      const windows: KeyRateWindow[] = [
        { suffix: `:m:${tag}`, limit: limits[0], resetAt: shift(t, MINUTE) },
        { suffix: `:d:${tag}`, limit: limits[1], resetAt: shift(t, 24 * HOUR) },
      ];
      const buckets = windows.map((window) => ctx.ownRateLimitKey(`${key.id}${window.suffix}`));
      const asBuckets = windows.map((window, i) => ({
        key: buckets[i] as string,
        limit: 1_000_000,
        resetAt: window.resetAt,
      }));
      for (let i = 0; i < primed; i++) await ctx.storage.rateLimits.consume(asBuckets, t);
      return { key, windows, buckets };
    }

    /** `keys.admit`, bound to its store (a storage may implement it as a method using `this`). */
    function admit(hash: string, windows: readonly KeyRateWindow[], at: Date): Promise<KeyAdmission | null> {
      return ctx.storage.keys.admit(hash, windows, at);
    }

    /** The counts of an admitted request; null for a refused one. */
    function counted(answer: KeyAdmission | null): number[] | null {
      return answer?.rate?.allowed ? answer.rate.counts : null;
    }

    async function counters(setup: Setup, expected: [number | null, number | null]): Promise<void> {
      await ctx.expectRaw("rateLimitCount", [setup.buckets[0] as string], expected[0]);
      await ctx.expectRaw("rateLimitCount", [setup.buckets[1] as string], expected[1]);
    }

    it("returns the key as findByHash does and counts the request in every window", async () => {
      const s = await setup([10, 100]);
      const first = await admit(s.key.hash, s.windows, t);
      expect(first?.found).toEqual(await ctx.storage.keys.findByHash(s.key.hash));
      expect(first?.found.key).toEqual(s.key);
      expect(first?.rate).toEqual({ allowed: true, counts: [2, 2], refusedBucket: null });
      expect(counted(await admit(s.key.hash, s.windows, t))).toEqual([3, 3]);
      await counters(s, [3, 3]);
    });

    it("answers null for an unknown key, and counts nothing for a revoked or expired one", async () => {
      const unknown = await setup([10, 100]);
      expect(await admit(makeKey(unknown.key.companyId).hash, unknown.windows, t)).toBeNull();

      const revoked = await setup([10, 100]);
      await ctx.storage.keys.revoke(revoked.key.companyId, revoked.key.id, t);
      const answer = await admit(revoked.key.hash, revoked.windows, t);
      expect(answer?.found.key.revokedAt).toEqual(t);
      expect(answer?.rate).toBeNull();
      await counters(revoked, [1, 1]);

      // Expired exactly at `now` is expired.
      const expired = await setup([10, 100], 1, { expiresAt: shift(t, 1) });
      expect((await admit(expired.key.hash, expired.windows, shift(t, 1)))?.rate).toBeNull();
      expect(counted(await admit(expired.key.hash, expired.windows, t))).toEqual([2, 2]);
      await counters(expired, [2, 2]);
    });

    it("refuses in no window when one of them is full, naming the window that refused with the counts as they are", async () => {
      const minuteFull = await setup([2, 100], 2);
      const answer = await admit(minuteFull.key.hash, minuteFull.windows, t);
      expect(answer?.found.key.id).toBe(minuteFull.key.id);
      expect(answer?.rate).toEqual({ allowed: false, counts: [2, 2], refusedBucket: 0 });
      await counters(minuteFull, [2, 2]);

      const dayFull = await setup([100, 3], 3);
      expect((await admit(dayFull.key.hash, dayFull.windows, t))?.rate).toEqual({
        allowed: false,
        counts: [3, 3],
        refusedBucket: 1,
      });
      await counters(dayFull, [3, 3]);
    });

    it("counts the first request of a window from 1, creating its counters", async () => {
      const s = await setup([10, 100], 0);
      const answer = await admit(s.key.hash, s.windows, t);
      expect(answer?.found.key.id).toBe(s.key.id);
      expect(counted(answer)).toEqual([1, 1]);
      await counters(s, [1, 1]);
    });

    it("sees a revocation at the very next admission", async () => {
      const s = await setup([10, 100]);
      expect(counted(await admit(s.key.hash, s.windows, t))).toEqual([2, 2]);
      await ctx.storage.keys.revoke(s.key.companyId, s.key.id, t);
      expect((await admit(s.key.hash, s.windows, t))?.rate).toBeNull();
      await counters(s, [2, 2]);
    });

    it("admits exactly the room left under 30 parallel calls, each with its own count", async () => {
      const s = await setup([10, 1000]);
      const answers = await parallel(30, () => admit(s.key.hash, s.windows, t));
      const admitted = answers.flatMap((a) => {
        const counts = counted(a);
        return counts ? [counts] : [];
      });
      expect(admitted).toHaveLength(9);
      expect(admitted.map((c) => c[0]).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
      for (const counts of admitted) expect(counts[1]).toBe(counts[0]);
      for (const answer of answers) expect(answer?.found.key.id).toBe(s.key.id);
      for (const answer of answers) if (!counted(answer)) expect(answer?.rate?.refusedBucket).toBe(0);
      await counters(s, [10, 10]);
    });

    it("counts every one of 150 parallel calls once when there is room", async () => {
      const s = await setup([1000, 1000]);
      const answers = await parallel(150, () => admit(s.key.hash, s.windows, t));
      const minutes = answers.map((a) => counted(a)?.[0]);
      expect(minutes.every((count) => typeof count === "number")).toBe(true);
      expect(new Set(minutes).size).toBe(150);
      expect(Math.max(...(minutes as number[]))).toBe(151);
      await counters(s, [151, 151]);
    });
  });
}
