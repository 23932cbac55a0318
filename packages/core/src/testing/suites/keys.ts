import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "../context";
import { MINUTE, makeKey, now, parallel, shift } from "../fixtures";

export function keyTests(ctx: ConformanceContext): void {
  describe("keys", () => {
    it("insert stores every field; get reads it back; another company's id reads as null", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const t = now();
      const key = makeKey(companyId, {
        name: "Careers site – prod 🚀",
        scopes: ["jobs:write", "applications:read", "jobs:read"],
        createdAt: new Date("2025-03-30T01:00:00.001Z"),
        expiresAt: new Date("2027-10-31T23:59:59.999Z"),
        lastUsedAt: t,
      });
      expect(await ctx.storage.keys.insert(key, { maxActive: 10, now: t })).toBe("inserted");
      expect(await ctx.storage.keys.get(companyId, key.id)).toEqual(key);
      expect(await ctx.storage.keys.get(other, key.id)).toBeNull();
    });

    it("findByHash returns the key with its company, and null for an unknown hash", async () => {
      const companyId = await ctx.company("Hash & Sons");
      const key = makeKey(companyId);
      await ctx.storage.keys.insert(key, { maxActive: 10, now: now() });
      const found = await ctx.storage.keys.findByHash(key.hash);
      expect(found?.key).toEqual(key);
      expect(found?.company).toMatchObject({ id: companyId, name: "Hash & Sons" });
      expect(await ctx.storage.keys.findByHash(makeKey(companyId).hash)).toBeNull();
    });

    it("findByHash returns revoked and expired keys too (core answers 401 with the right code)", async () => {
      const companyId = await ctx.company();
      const t = now();
      const revoked = makeKey(companyId);
      const expired = makeKey(companyId, { expiresAt: shift(t, MINUTE) });
      await ctx.storage.keys.insert(revoked, { maxActive: 10, now: t });
      await ctx.storage.keys.insert(expired, { maxActive: 10, now: t });
      const at = shift(t, 1);
      await ctx.storage.keys.revoke(companyId, revoked.id, at);
      expect((await ctx.storage.keys.findByHash(revoked.hash))?.key).toEqual({ ...revoked, revokedAt: at });
      expect((await ctx.storage.keys.findByHash(expired.hash))?.key).toEqual(expired);
    });

    it("list returns every key of the company, revoked ones included, newest first", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const t = now();
      const keys = [0, 1, 2].map((i) => makeKey(companyId, { createdAt: shift(t, i * 1000) }));
      for (const key of [keys[1], keys[0], keys[2]]) {
        if (key) await ctx.storage.keys.insert(key, { maxActive: 10, now: t });
      }
      await ctx.storage.keys.insert(makeKey(other), { maxActive: 10, now: t });
      const revokedAt = shift(t, 5000);
      await ctx.storage.keys.revoke(companyId, keys[1]?.id ?? "", revokedAt);
      const listed = await ctx.storage.keys.list(companyId);
      expect(listed.map((key) => key.id)).toEqual([keys[2]?.id, keys[1]?.id, keys[0]?.id]);
      expect(listed[1]?.revokedAt).toEqual(revokedAt);
    });

    it("insert refuses with limit_reached once the company has maxActive active keys", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const t = now();
      const results: string[] = [];
      for (let i = 0; i < 4; i++)
        results.push(await ctx.storage.keys.insert(makeKey(companyId), { maxActive: 3, now: t }));
      expect(results).toEqual(["inserted", "inserted", "inserted", "limit_reached"]);
      expect(await ctx.storage.keys.list(companyId)).toHaveLength(3);
      await ctx.expectRaw("countKeys", [companyId], 3);
      expect(await ctx.storage.keys.insert(makeKey(other), { maxActive: 3, now: t })).toBe("inserted");
    });

    it("revoked keys and keys expired at `now` do not count as active", async () => {
      const companyId = await ctx.company();
      const t = now();
      const options = { maxActive: 2, now: t };
      await ctx.storage.keys.insert(makeKey(companyId), options);
      const revoked = makeKey(companyId);
      await ctx.storage.keys.insert(revoked, options);
      await ctx.storage.keys.revoke(companyId, revoked.id, t);
      // Active at insert time, expired one minute later.
      expect(await ctx.storage.keys.insert(makeKey(companyId, { expiresAt: shift(t, MINUTE) }), options)).toBe(
        "inserted",
      );
      const later = { maxActive: 2, now: shift(t, 2 * MINUTE) };
      expect(await ctx.storage.keys.insert(makeKey(companyId), later)).toBe("inserted");
      expect(await ctx.storage.keys.insert(makeKey(companyId), later)).toBe("limit_reached");
      await ctx.expectRaw("countKeys", [companyId], 4);
    });

    it("insert keeps the limit under 15 parallel inserts with maxActive 10: exactly 10 inserted", async () => {
      const companyId = await ctx.company();
      const t = now();
      const results = await parallel(15, () => ctx.storage.keys.insert(makeKey(companyId), { maxActive: 10, now: t }));
      expect(results.filter((r) => r === "inserted")).toHaveLength(10);
      expect(results.filter((r) => r === "limit_reached")).toHaveLength(5);
      expect(await ctx.storage.keys.list(companyId)).toHaveLength(10);
      await ctx.expectRaw("countKeys", [companyId], 10);
    });

    it("revoke sets revokedAt once: a second revoke keeps the first time; findByHash sees it at once", async () => {
      const companyId = await ctx.company();
      const key = makeKey(companyId);
      const t = now();
      await ctx.storage.keys.insert(key, { maxActive: 10, now: t });
      const first = shift(t, 1000);
      expect(await ctx.storage.keys.revoke(companyId, key.id, first)).toEqual({ ...key, revokedAt: first });
      expect((await ctx.storage.keys.findByHash(key.hash))?.key.revokedAt).toEqual(first);
      expect(await ctx.storage.keys.revoke(companyId, key.id, shift(t, 9000))).toEqual({ ...key, revokedAt: first });
      expect((await ctx.storage.keys.get(companyId, key.id))?.revokedAt).toEqual(first);
    });

    it("revoke of another company's key returns null and leaves it active", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const key = makeKey(companyId);
      await ctx.storage.keys.insert(key, { maxActive: 10, now: now() });
      expect(await ctx.storage.keys.revoke(other, key.id, now())).toBeNull();
      expect((await ctx.storage.keys.get(companyId, key.id))?.revokedAt).toBeNull();
    });

    it("touch sets lastUsedAt", async () => {
      const companyId = await ctx.company();
      const key = makeKey(companyId);
      await ctx.storage.keys.insert(key, { maxActive: 10, now: now() });
      const at = new Date("2026-01-01T00:00:00.123Z");
      await ctx.storage.keys.touch(key.id, at);
      expect(await ctx.storage.keys.get(companyId, key.id)).toEqual({ ...key, lastUsedAt: at });
    });
  });
}
