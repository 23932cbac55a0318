import { describe, expect, it } from "vitest";
import { type UsageRecord, utcDay } from "../../model/domain";
import type { KeysetPosition, UsageListQuery } from "../../storage";
import type { ConformanceContext } from "../context";
import { DAY, farPast, HOUR, makeUsage, newId, now, orderedIds, shift } from "../fixtures";

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

    it("list applies the status, status class, route and until filters together with the others", async () => {
      const companyId = await ctx.company();
      const t = now();
      const keyId = newId("key");
      const entries = [
        makeUsage(companyId, { createdAt: t, status: 404, route: "/jobs/{id}", keyId }),
        makeUsage(companyId, { createdAt: shift(t, -1), status: 422, route: "/jobs", keyId }),
        makeUsage(companyId, { createdAt: shift(t, -2), status: 499, route: "/jobs/{id}" }),
        makeUsage(companyId, { createdAt: shift(t, -3), status: 500, route: "/jobs/{id}", keyId }),
        makeUsage(companyId, { createdAt: shift(t, -4), status: 200, route: "/jobs/{id}", keyId }),
        makeUsage(companyId, { createdAt: shift(t, -5), status: 400, route: "/Jobs/{id}", keyId }),
      ];
      await ctx.storage.usage.appendMany(entries);
      const ids = async (query: Partial<UsageListQuery>) =>
        (await ctx.storage.usage.list({ companyId, take: 100, ...query })).map((row) => row.id);
      const pick = (...indexes: number[]) => indexes.map((index) => entries[index]?.id);
      expect(await ids({ statusClass: 4 })).toEqual(pick(0, 1, 2, 5));
      expect(await ids({ status: 404 })).toEqual(pick(0));
      expect(await ids({ route: "/jobs/{id}" })).toEqual(pick(0, 2, 3, 4));
      expect(await ids({ statusClass: 4, route: "/jobs/{id}", keyId })).toEqual(pick(0));
      expect(await ids({ until: shift(t, -2) })).toEqual(pick(3, 4, 5));
      expect(await ids({ since: shift(t, -4), until: shift(t, -1) })).toEqual(pick(2, 3, 4));
      expect(await ids({ statusClass: 4, take: 2, after: { at: shift(t, -1), id: entries[1]?.id ?? "" } })).toEqual(
        pick(2, 5),
      );
    });

    it("appendMany counts each entry with a company in the daily roll-up by UTC day and status class", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const day = new Date("2036-03-04T00:00:00.000Z");
      const entries = [
        makeUsage(companyId, { createdAt: day, status: 200 }),
        makeUsage(companyId, { createdAt: shift(day, DAY - 1), status: 299 }),
        makeUsage(companyId, { createdAt: shift(day, -1), status: 201 }),
        makeUsage(companyId, { createdAt: shift(day, HOUR), status: 404 }),
        makeUsage(companyId, { createdAt: shift(day, HOUR), status: 503 }),
        makeUsage(companyId, { createdAt: shift(day, DAY), status: 302 }),
        makeUsage(other, { createdAt: day, status: 200 }),
        // No company: found by its key after the last test.
        { ...makeUsage(companyId, { createdAt: day, status: 401, keyId: ctx.ownKey(newId("key")) }), companyId: null },
      ];
      await ctx.storage.usage.appendMany(entries.slice(0, 4));
      await ctx.storage.usage.appendMany(entries.slice(4));
      expect(await ctx.storage.usage.daily({ companyId, from: "2036-03-03", to: "2036-03-05" })).toEqual([
        { day: "2036-03-03", statusClass: 2, count: 1 },
        { day: "2036-03-04", statusClass: 2, count: 2 },
        { day: "2036-03-04", statusClass: 4, count: 1 },
        { day: "2036-03-04", statusClass: 5, count: 1 },
        { day: "2036-03-05", statusClass: 3, count: 1 },
      ]);
      expect(await ctx.storage.usage.daily({ companyId, from: "2036-03-04", to: "2036-03-04" })).toHaveLength(3);
      expect(await ctx.storage.usage.daily({ companyId: other, from: "2036-03-01", to: "2036-03-31" })).toEqual([
        { day: "2036-03-04", statusClass: 2, count: 1 },
      ]);
      await ctx.expectRaw("usageDayCount", [companyId, "2036-03-04", 2], 2);
      await ctx.expectRaw("usageDayCount", [companyId, "2036-03-04", 3], null);
    });

    it("appendMany never loses a count when batches of one company and day are written at once", async () => {
      const companyId = await ctx.company();
      const t = new Date("2036-05-06T12:00:00.000Z");
      const batches = Array.from({ length: 8 }, (_, b) =>
        Array.from({ length: 25 }, (_, i) =>
          makeUsage(companyId, { createdAt: shift(t, b * 100 + i), status: 200 + (i % 2) * 200 }),
        ),
      );
      await Promise.all(batches.map((batch) => ctx.storage.usage.appendMany(batch)));
      expect(await ctx.storage.usage.daily({ companyId, from: "2036-05-06", to: "2036-05-06" })).toEqual([
        { day: "2036-05-06", statusClass: 2, count: 104 },
        { day: "2036-05-06", statusClass: 4, count: 96 },
      ]);
      await ctx.expectRaw("countUsage", [companyId], 200);
    });

    it("appendMany stores neither an entry nor its count when the batch fails", async () => {
      const companyId = await ctx.company();
      const t = new Date("2036-07-08T12:00:00.000Z");
      const first = makeUsage(companyId, { createdAt: t });
      await ctx.storage.usage.appendMany([first]);
      // The same id again: the batch is refused whole.
      await expect(
        ctx.storage.usage.appendMany([makeUsage(companyId, { createdAt: t, status: 500 }), first]),
      ).rejects.toThrow();
      expect(await ctx.storage.usage.daily({ companyId, from: "2036-07-08", to: "2036-07-08" })).toEqual([
        { day: "2036-07-08", statusClass: 2, count: 1 },
      ]);
      await ctx.expectRaw("countUsage", [companyId], 1);
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

    it("purge deletes the roll-up of days that ended at or before `before`, and only those", async () => {
      const companyId = await ctx.company();
      const x = new Date(Date.UTC(1991, 0, 1) + Math.floor(Math.random() * 3000) * DAY);
      await ctx.storage.usage.appendMany([
        makeUsage(companyId, { createdAt: shift(x, -1) }),
        makeUsage(companyId, { createdAt: x }),
        makeUsage(companyId, { createdAt: shift(x, DAY) }),
      ]);
      const days = [utcDay(shift(x, -1)), utcDay(x), utcDay(shift(x, DAY))];
      const range = { companyId, from: days[0] ?? "", to: days[2] ?? "" };
      // Mid-day: the day under way keeps its count, even if entries of it are deleted.
      await ctx.storage.usage.purge(shift(x, HOUR));
      expect((await ctx.storage.usage.daily(range)).map((row) => row.day)).toEqual([days[1], days[2]]);
      await ctx.storage.usage.purge(shift(x, DAY));
      expect((await ctx.storage.usage.daily(range)).map((row) => row.day)).toEqual([days[2]]);
      expect(await ctx.storage.usage.list({ companyId, take: 10 })).toHaveLength(1);
    });
  });
}
