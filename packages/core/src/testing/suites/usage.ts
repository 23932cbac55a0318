import { describe, expect, it } from "vitest";
import type { UsageRecord } from "../../domain";
import type { KeysetPosition } from "../../storage";
import type { ConformanceContext } from "../context";
import { farPast, HOUR, makeUsage, newId, now, orderedIds, shift } from "../fixtures";

export function usageTests(ctx: ConformanceContext): void {
  describe("usage", () => {
    it("appendMany stores every entry and field; list returns them newest first, ties by id", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const t = now();
      const [a, b] = orderedIds("use", 2);
      const keyId = newId("key");
      const entries: UsageRecord[] = [
        makeUsage(companyId, { id: a, createdAt: t, keyId, route: "/jobs/{id}", status: 404, ip: null }),
        makeUsage(companyId, { createdAt: shift(t, -5), method: "POST", route: "/applications", status: 201 }),
        makeUsage(companyId, { id: b, createdAt: t, keyId, durationMs: 0, route: "/unknown/ünï" }),
        makeUsage(companyId, { createdAt: shift(t, 7), status: 429, durationMs: 1234.567 }),
        // Text that array and list syntaxes give a meaning to is stored as it is.
        makeUsage(companyId, { createdAt: shift(t, -9), route: 'a,"b"\\{c} NULL', ip: "NULL", requestId: "'); --" }),
      ];
      await ctx.storage.usage.appendMany(entries);
      await ctx.storage.usage.appendMany([makeUsage(other, { createdAt: t })]);
      const listed = await ctx.storage.usage.list({ companyId, take: 100 });
      expect(listed).toEqual([entries[3], entries[2], entries[0], entries[1], entries[4]]);
      await ctx.expectRaw("countUsage", [companyId], 5);
    });

    it("appendMany stores a batch larger than one statement takes (1,201 entries), every one once", async () => {
      const companyId = await ctx.company();
      const t = now();
      const entries = Array.from({ length: 1201 }, (_, i) =>
        makeUsage(companyId, {
          createdAt: shift(t, -i),
          keyId: i % 3 === 0 ? null : `key_${i}`,
          status: 200 + (i % 300),
        }),
      );
      await ctx.storage.usage.appendMany(entries);
      await ctx.expectRaw("countUsage", [companyId], 1201);
      const listed = await ctx.storage.usage.list({ companyId, take: 2000 });
      expect(listed).toEqual(entries);
    });

    it("appendMany accepts an empty batch", async () => {
      await expect(ctx.storage.usage.appendMany([])).resolves.toBeUndefined();
    });

    it("list filters by keyId and since (inclusive) and pages strictly after `after`", async () => {
      const companyId = await ctx.company();
      const t = now();
      const keyId = newId("key");
      const entries = [0, 1, 2, 3, 4].map((i) =>
        makeUsage(companyId, { createdAt: shift(t, -i * 1000), keyId: i % 2 === 0 ? keyId : null }),
      );
      await ctx.storage.usage.appendMany(entries);
      const ids = (rows: UsageRecord[]) => rows.map((row) => row.id);
      expect(ids(await ctx.storage.usage.list({ companyId, keyId, take: 100 }))).toEqual(
        ids([entries[0], entries[2], entries[4]] as UsageRecord[]),
      );
      expect(ids(await ctx.storage.usage.list({ companyId, since: shift(t, -2000), take: 100 }))).toEqual(
        ids(entries.slice(0, 3)),
      );
      const seen: string[] = [];
      let after: KeysetPosition | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await ctx.storage.usage.list({ companyId, take: 2, ...(after ? { after } : {}) });
        seen.push(...ids(page));
        const last = page.at(-1);
        if (!last || page.length < 2) break;
        after = { at: last.createdAt, id: last.id };
      }
      expect(seen).toEqual(ids(entries));
    });

    it("purge deletes entries created before `before`, and only those", async () => {
      const companyId = await ctx.company();
      const x = farPast();
      const old = [
        makeUsage(companyId, { createdAt: shift(x, -HOUR) }),
        makeUsage(companyId, { createdAt: shift(x, -1) }),
      ];
      const kept = [makeUsage(companyId, { createdAt: x }), makeUsage(companyId, { createdAt: shift(x, HOUR) })];
      await ctx.storage.usage.appendMany([...old, ...kept]);
      expect(await ctx.storage.usage.purge(x)).toBeGreaterThanOrEqual(2);
      const listed = await ctx.storage.usage.list({ companyId, take: 100 });
      expect(listed.map((row) => row.id)).toEqual([kept[1]?.id, kept[0]?.id]);
      await ctx.expectRaw("countUsage", [companyId], 2);
    });
  });
}
