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
