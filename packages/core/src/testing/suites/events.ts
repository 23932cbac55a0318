import { describe, expect, it } from "vitest";
import type { EventRecord } from "../../model/domain";
import type { ConformanceContext } from "../context";
import { farPast, HOUR, makeEvent, newId, now, orderedIds, shift } from "../fixtures";

export function eventTests(ctx: ConformanceContext): void {
  describe("events", () => {
    it("append stores the event with its exact payload text; get reads it back; unknown id is null", async () => {
      const companyId = await ctx.company();
      const payload = `{"id":"x","data":{"title":"Zoë – 東京 🚀","quote":"\\"","nested":{"a":[1,2.50,null]}},  "spacing" : true}`;
      const event = makeEvent(companyId, {
        type: "application.updated",
        payload,
        createdAt: new Date("2026-10-25T01:59:59.999Z"),
      });
      const test = makeEvent(companyId, { type: "webhook.test" });
      await ctx.storage.events.append(event);
      await ctx.storage.events.append(test);
      expect(await ctx.storage.events.get(event.id)).toEqual(event);
      expect((await ctx.storage.events.get(event.id))?.payload).toBe(payload);
      expect(await ctx.storage.events.get(test.id)).toEqual(test);
      expect(await ctx.storage.events.get(newId("evt"))).toBeNull();
      await ctx.expectRaw("countEvents", [companyId], 2);
    });

    it("list returns the company's events newest first, ties by id, paged strictly after `after`", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const t = now();
      const [a, b] = orderedIds("evt", 2);
      const events = [
        makeEvent(companyId, { id: a, createdAt: t }),
        makeEvent(companyId, { createdAt: shift(t, 1) }),
        makeEvent(companyId, { id: b, createdAt: t }),
        makeEvent(companyId, { createdAt: shift(t, -1) }),
      ];
      for (const event of events) await ctx.storage.events.append(event);
      await ctx.storage.events.append(makeEvent(other, { createdAt: t }));
      const expected: (EventRecord | undefined)[] = [events[1], events[2], events[0], events[3]];
      expect(await ctx.storage.events.list(companyId, { take: 100 })).toEqual(expected);
      expect(await ctx.storage.events.list(companyId, { take: 2 })).toEqual(expected.slice(0, 2));
      expect(await ctx.storage.events.list(companyId, { take: 100, after: { at: t, id: b ?? "" } })).toEqual(
        expected.slice(2),
      );
    });

    it("feed reads the company's events by position, oldest first, filtered by type and time, paged after a position", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const t = now();
      const created = makeEvent(companyId, { type: "job.created", createdAt: t });
      const applied = makeEvent(companyId, { type: "application.created", createdAt: shift(t, 1) });
      const updated = makeEvent(companyId, { type: "job.updated", createdAt: shift(t, 2) });
      // Appended last, with an earlier time: the feed's order is its positions', not `createdAt`'s.
      const late = makeEvent(companyId, { type: "job.updated", createdAt: shift(t, -1) });
      const all = ["job.created", "job.updated", "application.created", "application.updated", "job.closed"] as const;
      const since = shift(t, -HOUR);
      const feed = (query: Partial<Parameters<typeof ctx.storage.events.feed>[1]>) =>
        ctx.storage.events.feed(companyId, { types: all, createdSince: since, take: 100, ...query });
      // Events visible at once may take their positions in any order (in time order, say): each
      // is read once before the next is appended.
      for (const event of [created, applied, updated]) {
        await ctx.storage.events.append(event);
        await feed({});
      }
      await ctx.storage.events.append(makeEvent(companyId, { type: "webhook.test", createdAt: t }));
      await ctx.storage.events.append(makeEvent(other, { type: "job.created", createdAt: t }));
      await ctx.storage.events.append(late);

      const read = await feed({});
      expect(read.map(({ position: _, ...event }) => event)).toEqual([created, applied, updated, late]);
      const positions = read.map((event) => event.position);
      for (const position of positions) expect(position).toMatch(/^[0-9]+$/);
      for (let i = 1; i < positions.length; i += 1) {
        expect(BigInt(positions[i] ?? "0")).toBeGreaterThan(BigInt(positions[i - 1] ?? "0"));
      }
      expect((await feed({ types: ["job.created", "job.updated"] })).map((event) => event.id)).toEqual([
        created.id,
        updated.id,
        late.id,
      ]);
      expect((await feed({ createdSince: shift(t, 1) })).map((event) => event.id)).toEqual([applied.id, updated.id]);
      expect((await feed({ take: 2 })).map((event) => event.id)).toEqual([created.id, applied.id]);
      expect((await feed({ after: positions[1] })).map((event) => event.id)).toEqual([updated.id, late.id]);
      expect(await feed({ after: positions[3] })).toEqual([]);
    });

    it("feed positions never change, and an event committed later reads after every one read before", async () => {
      const companyId = await ctx.company();
      const t = now();
      const types = ["job.created", "job.updated"] as const;
      const feed = () => ctx.storage.events.feed(companyId, { types, createdSince: shift(t, -HOUR), take: 100 });
      const first = makeEvent(companyId, { type: "job.created", createdAt: t });
      await ctx.storage.events.append(first);
      const before = await feed();
      expect(before.map((event) => event.id)).toEqual([first.id]);
      const inTransaction = makeEvent(companyId, { type: "job.updated", createdAt: shift(t, -1) });
      await ctx.storage.transaction((tx) => tx.events.append(inTransaction));
      const after = await feed();
      expect(after.map((event) => event.id)).toEqual([first.id, inTransaction.id]);
      expect(after[0]?.position).toBe(before[0]?.position);
      expect(BigInt(after[1]?.position ?? "0")).toBeGreaterThan(BigInt(before[0]?.position ?? "0"));
      // Read again: the same positions.
      expect(await feed()).toEqual(after);
    });

    // With deliveries that hold an event: the webhook store suite (`@hireport/webhooks/testing`).
    it("purge deletes old events that no delivery needs, and keeps the newer ones", async () => {
      const companyId = await ctx.company();
      const x = farPast();
      const lonely = makeEvent(companyId, { createdAt: shift(x, -HOUR) });
      const recent = makeEvent(companyId, { createdAt: x });
      for (const event of [lonely, recent]) await ctx.storage.events.append(event);
      expect(await ctx.storage.events.purge(x)).toBeGreaterThanOrEqual(1);
      expect(await ctx.storage.events.get(lonely.id)).toBeNull();
      expect(await ctx.storage.events.get(recent.id)).toEqual(recent);
      await ctx.expectRaw("countEvents", [companyId], 1);
    });
  });
}
