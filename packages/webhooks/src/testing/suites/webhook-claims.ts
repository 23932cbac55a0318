import { farPast, HOUR, MINUTE, newId, SECOND, shift } from "@hireport/core/testing";
import { describe, expect, it } from "vitest";
import type { DeliveryRecord, WebhookEndpointRecord } from "../../store/webhook-records";
import type { WebhookConformanceContext } from "../context";
import { makeDelivery } from "../fixtures";

import { deliveryHelpers } from "./webhook-delivery-support";

/** Claiming and releasing deliveries: leases, limits per endpoint, parallel claims. */
export function webhookClaimTests(ctx: WebhookConformanceContext): void {
  const { endpointOf, eventOf, claim, failure, dueDelivery } = deliveryHelpers(ctx);

  /**
   * A new company with one endpoint, an event an hour before `t`, and three deliveries of it due
   * 3, 2 and 1 minutes before `t` (the first tried twice already), not inserted; `at(ms)` makes
   * more, made and due `ms` from `t`.
   */
  async function threeDue(t: Date) {
    const companyId = await ctx.company();
    const endpoint = await endpointOf(companyId);
    const event = await eventOf(companyId, shift(t, -HOUR));
    const at = (ms: number) => ({ createdAt: shift(t, ms), nextAttemptAt: shift(t, ms) });
    const d1 = makeDelivery(endpoint, event, { ...at(-3 * MINUTE), attempts: 2 });
    const d2 = makeDelivery(endpoint, event, at(-2 * MINUTE));
    const d3 = makeDelivery(endpoint, event, at(-MINUTE));
    return { companyId, endpoint, event, at, d1, d2, d3 };
  }

  describe("webhooks: claiming deliveries", () => {
    it("claims due pending deliveries of active endpoints only, oldest first, up to limit, and sets the lease", async () => {
      const t = farPast();
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const paused = await endpointOf(companyId, { status: "paused", pausedReason: "manual" });
      const disabled = await endpointOf(companyId, { status: "disabled", pausedReason: "gone" });
      const event = await eventOf(companyId, shift(t, -HOUR));
      const at = (ms: number) => ({ createdAt: shift(t, ms), nextAttemptAt: shift(t, ms) });
      const d1 = makeDelivery(endpoint, event, at(-3 * MINUTE));
      const d2 = makeDelivery(endpoint, event, at(-2 * MINUTE));
      const d3 = makeDelivery(endpoint, event, { createdAt: shift(t, -MINUTE), nextAttemptAt: t });
      await ctx.storage.webhooks.insertDeliveries([
        d3,
        makeDelivery(endpoint, event, { createdAt: shift(t, -4 * MINUTE), nextAttemptAt: shift(t, HOUR) }),
        makeDelivery(endpoint, event, { ...at(-5 * MINUTE), nextAttemptAt: null }),
        makeDelivery(endpoint, event, { ...at(-5 * MINUTE), status: "succeeded" }),
        makeDelivery(endpoint, event, { ...at(-5 * MINUTE), status: "failed" }),
        makeDelivery(paused, event, at(-5 * MINUTE)),
        makeDelivery(disabled, event, at(-6 * MINUTE)),
        d1,
        d2,
      ]);

      const token = newId("lease");
      const leaseUntil = shift(t, 30 * SECOND);
      const first = await claim(t, { limit: 2, leaseToken: token, leaseUntil });
      expect(first.map((c) => c.delivery.id)).toEqual([d1.id, d2.id]);
      expect(first[0]).toEqual({
        delivery: { ...d1, leaseToken: token, leaseExpiresAt: leaseUntil, updatedAt: first[0]?.delivery.updatedAt },
        endpoint,
        payload: event.payload,
      });
      expect(await ctx.storage.webhooks.getDelivery(companyId, d2.id)).toMatchObject({
        leaseToken: token,
        leaseExpiresAt: leaseUntil,
        status: "pending",
      });

      const second = await claim(t);
      expect(second.map((c) => c.delivery.id)).toEqual([d3.id]);
      expect(await claim(shift(t, 10 * SECOND))).toEqual([]);
    });

    it("claims a delivery again once its lease has passed; the old lease token is then stale", async () => {
      const t = farPast();
      const { companyId, delivery } = await dueDelivery(t);
      const [held] = await claim(t, { leaseUntil: shift(t, 30 * SECOND) });
      expect(held?.delivery.id).toBe(delivery.id);
      expect(await claim(shift(t, 29 * SECOND))).toEqual([]);
      const token = newId("lease");
      const again = await claim(shift(t, 31 * SECOND), { leaseToken: token });
      expect(again.map((c) => c.delivery.id)).toEqual([delivery.id]);
      expect(again[0]?.delivery.leaseToken).toBe(token);

      const late = await ctx.storage.webhooks.recordAttempt(
        delivery.id,
        held?.delivery.leaseToken ?? "",
        failure(delivery, shift(t, 40 * SECOND)),
      );
      expect(late.recorded).toBe(false);
      expect(await ctx.storage.webhooks.listAttempts(companyId, delivery.id)).toEqual([]);
      const current = await ctx.storage.webhooks.recordAttempt(
        delivery.id,
        token,
        failure(delivery, shift(t, 41 * SECOND)),
      );
      expect(current.recorded).toBe(true);
    });

    it("leaves out deliveries of excludeEndpointIds", async () => {
      const t = farPast();
      const companyId = await ctx.company();
      const busy = await endpointOf(companyId);
      const free = await endpointOf(companyId);
      const event = await eventOf(companyId, shift(t, -HOUR));
      const d1 = makeDelivery(busy, event, { createdAt: shift(t, -2 * MINUTE), nextAttemptAt: shift(t, -2 * MINUTE) });
      const d2 = makeDelivery(free, event, { createdAt: shift(t, -MINUTE), nextAttemptAt: shift(t, -MINUTE) });
      await ctx.storage.webhooks.insertDeliveries([d1, d2]);
      expect((await claim(t, { excludeEndpointIds: [busy.id] })).map((c) => c.delivery.id)).toEqual([d2.id]);
      expect((await claim(t, { excludeEndpointIds: [] })).map((c) => c.delivery.id)).toEqual([d1.id]);
    });

    it("never gives one delivery to two parallel claims", async () => {
      const t = farPast();
      const companyId = await ctx.company();
      const e1 = await endpointOf(companyId);
      const e2 = await endpointOf(companyId);
      const event = await eventOf(companyId, shift(t, -HOUR));
      const deliveries = Array.from({ length: 20 }, (_, i) =>
        makeDelivery(i % 2 ? e1 : e2, event, {
          createdAt: shift(t, -i * SECOND),
          nextAttemptAt: shift(t, -i * SECOND),
        }),
      );
      await ctx.storage.webhooks.insertDeliveries(deliveries);
      const claims = await Promise.all(Array.from({ length: 4 }, () => claim(t, { limit: 10 })));
      const ids = claims.flatMap((c) => c.map((d) => d.delivery.id));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBeGreaterThan(0);
      for (const [i, batch] of claims.entries()) {
        for (const claimed of batch) {
          expect(claimed.delivery.leaseToken).toBe(batch[0]?.delivery.leaseToken);
          expect(claims.findIndex((other) => other.some((d) => d.delivery.id === claimed.delivery.id))).toBe(i);
        }
      }
      const rest = await claim(t);
      const all = [...ids, ...rest.map((c) => c.delivery.id)];
      expect(all.sort()).toEqual(deliveries.map((d) => d.id).sort());
    });

    it("insertDeliveries stores the lease fields as given: the delivery is held under that token until the lease passes", async () => {
      const t = farPast();
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const event = await eventOf(companyId, shift(t, -HOUR));
      const token = newId("lease");
      const held = makeDelivery(endpoint, event, {
        createdAt: shift(t, -MINUTE),
        nextAttemptAt: shift(t, -MINUTE),
        leaseToken: token,
        leaseExpiresAt: shift(t, 30 * SECOND),
      });
      await ctx.storage.webhooks.insertDeliveries([held]);
      expect(await ctx.storage.webhooks.getDelivery(companyId, held.id)).toEqual(held);
      expect(await claim(t)).toEqual([]);
      expect(await claim(shift(t, 29 * SECOND))).toEqual([]);
      const later = await claim(shift(t, 31 * SECOND));
      expect(later.map((c) => c.delivery.id)).toEqual([held.id]);
    });

    it("maxPerEndpoint: at most that many of one endpoint per claim, filling up with other endpoints' deliveries", async () => {
      const t = farPast();
      const companyId = await ctx.company();
      const [e1, e2, e3, e4] = [
        await endpointOf(companyId),
        await endpointOf(companyId),
        await endpointOf(companyId),
        await endpointOf(companyId),
      ] as const;
      const event = await eventOf(companyId, shift(t, -HOUR));
      let n = 0;
      const due = (endpoint: WebhookEndpointRecord) => {
        n += 1;
        return makeDelivery(endpoint, event, {
          createdAt: shift(t, -HOUR + n * SECOND),
          nextAttemptAt: shift(t, -HOUR + n * SECOND),
        });
      };
      // The oldest rows are all e1's, more of them than the claim's limit.
      const first = Array.from({ length: 12 }, () => due(e1));
      const second = [due(e2), due(e2), due(e2)];
      const third = [due(e3)];
      const fourth = [due(e4), due(e4)];
      await ctx.storage.webhooks.insertDeliveries([...first, ...second, ...third, ...fourth]);
      const ids = (batch: { delivery: DeliveryRecord }[]) => batch.map((c) => c.delivery.id);

      const one = await claim(t, { limit: 5, maxPerEndpoint: 2, excludeEndpointIds: [e4.id] });
      expect(ids(one)).toEqual([first[0]?.id, first[1]?.id, second[0]?.id, second[1]?.id, third[0]?.id]);
      // What the limit left out is not leased.
      expect(await ctx.storage.webhooks.getDelivery(companyId, first[2]?.id ?? "")).toMatchObject({
        leaseToken: null,
        leaseExpiresAt: null,
      });
      const two = await claim(t, { maxPerEndpoint: 2 });
      expect(ids(two)).toEqual([first[2]?.id, first[3]?.id, second[2]?.id, fourth[0]?.id, fourth[1]?.id]);
      expect(ids(await claim(t, { maxPerEndpoint: 1, limit: 1 }))).toEqual([first[4]?.id]);
      expect(await claim(t, { maxPerEndpoint: 0 })).toEqual([]);
      const rest = await claim(t);
      expect(ids(rest)).toEqual(first.slice(5).map((d) => d.id));
    });

    it("maxPerEndpoint holds for each of several parallel claims, which never share a delivery", async () => {
      const t = farPast();
      const companyId = await ctx.company();
      const endpoints = [await endpointOf(companyId), await endpointOf(companyId), await endpointOf(companyId)];
      const event = await eventOf(companyId, shift(t, -HOUR));
      const deliveries = Array.from({ length: 36 }, (_, i) =>
        makeDelivery(endpoints[i % 3] as WebhookEndpointRecord, event, {
          createdAt: shift(t, -i * SECOND),
          nextAttemptAt: shift(t, -i * SECOND),
        }),
      );
      await ctx.storage.webhooks.insertDeliveries(deliveries);
      const claims = await Promise.all(Array.from({ length: 4 }, () => claim(t, { limit: 8, maxPerEndpoint: 2 })));
      for (const batch of claims) {
        expect(batch.length).toBeLessThanOrEqual(6);
        for (const endpoint of endpoints) {
          expect(batch.filter((c) => c.delivery.endpointId === endpoint.id).length).toBeLessThanOrEqual(2);
        }
      }
      const ids = claims.flatMap((batch) => batch.map((c) => c.delivery.id));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBeGreaterThan(0);
    });
  });

  describe("webhooks: due delivery stats (dispatcher health)", () => {
    it("counts what a claim could take now, up to countLimit, with the earliest due time; it leases nothing", async () => {
      // Before every other suite's times (1991 on), so only this test's deliveries are due.
      const t = new Date(Date.UTC(1988, 5, 1) + Math.floor(Math.random() * 1_000_000) * 1_000);
      const before = await ctx.storage.webhooks.dueDeliveryStats({ now: t, countLimit: 100 });
      expect(before).toEqual({ due: 0, oldestDueAt: null });

      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const paused = await endpointOf(companyId, { status: "paused", pausedReason: "manual" });
      const event = await eventOf(companyId, shift(t, -HOUR));
      const at = (ms: number) => ({ createdAt: shift(t, ms), nextAttemptAt: shift(t, ms) });
      const oldest = makeDelivery(endpoint, event, at(-3 * MINUTE));
      await ctx.storage.webhooks.insertDeliveries([
        makeDelivery(endpoint, event, at(-MINUTE)),
        oldest,
        makeDelivery(endpoint, event, at(-2 * MINUTE)),
        makeDelivery(endpoint, event, { ...at(-2 * MINUTE), nextAttemptAt: t }),
        // Not due: later, finished, of a paused endpoint, or held under a lease that has not passed.
        makeDelivery(endpoint, event, at(MINUTE)),
        makeDelivery(endpoint, event, { ...at(-5 * MINUTE), status: "succeeded", nextAttemptAt: null }),
        makeDelivery(paused, event, at(-10 * MINUTE)),
        makeDelivery(endpoint, event, {
          ...at(-9 * MINUTE),
          leaseToken: newId("lease"),
          leaseExpiresAt: shift(t, MINUTE),
        }),
        // Held under a lease that has passed: due again.
        makeDelivery(endpoint, event, { ...at(-30 * SECOND), leaseToken: newId("lease"), leaseExpiresAt: t }),
      ]);

      expect(await ctx.storage.webhooks.dueDeliveryStats({ now: t, countLimit: 100 })).toEqual({
        due: 5,
        oldestDueAt: oldest.nextAttemptAt,
      });
      expect(await ctx.storage.webhooks.dueDeliveryStats({ now: t, countLimit: 2 })).toEqual({
        due: 2,
        oldestDueAt: oldest.nextAttemptAt,
      });
      expect(await ctx.storage.webhooks.dueDeliveryStats({ now: shift(t, 2 * MINUTE), countLimit: 100 })).toMatchObject(
        {
          due: 7,
        },
      );
      // Only a read: a claim still takes all five.
      expect(await claim(t)).toHaveLength(5);
      expect(await ctx.storage.webhooks.dueDeliveryStats({ now: t, countLimit: 100 })).toEqual({
        due: 0,
        oldestDueAt: null,
      });
    });
  });

  describe("webhooks: extending leases", () => {
    it("extendLeases moves the lease of those still pending under the token, and nothing else", async () => {
      const t = farPast();
      const { companyId, d1, d2, d3 } = await threeDue(t);
      await ctx.storage.webhooks.insertDeliveries([d1, d2, d3]);
      const mine = newId("lease");
      const theirs = newId("lease");
      const held = await claim(t, { limit: 2, leaseToken: mine, leaseUntil: shift(t, 30 * SECOND) });
      expect(held.map((c) => c.delivery.id)).toEqual([d1.id, d2.id]);
      expect(
        (await claim(t, { leaseToken: theirs, leaseUntil: shift(t, 30 * SECOND) })).map((c) => c.delivery.id),
      ).toEqual([d3.id]);
      // d2's attempt is recorded: it is no longer held, so it is not extended.
      await ctx.storage.webhooks.recordAttempt(d2.id, mine, failure(d2, shift(t, SECOND)));
      const recorded = await ctx.storage.webhooks.getDelivery(companyId, d2.id);
      const before = await ctx.storage.webhooks.getDelivery(companyId, d1.id);
      const later = shift(t, 2 * MINUTE);

      expect(await ctx.storage.webhooks.extendLeases([], mine, later)).toBe(0);
      expect(await ctx.storage.webhooks.extendLeases([d1.id, d2.id, d3.id, newId("dlv")], mine, later)).toBe(1);
      expect(await ctx.storage.webhooks.getDelivery(companyId, d1.id)).toEqual({ ...before, leaseExpiresAt: later });
      expect(await ctx.storage.webhooks.getDelivery(companyId, d2.id)).toEqual(recorded);
      expect(await ctx.storage.webhooks.getDelivery(companyId, d3.id)).toMatchObject({
        leaseToken: theirs,
        leaseExpiresAt: shift(t, 30 * SECOND),
      });
      // Past the first lease, d1 is still held (d3's lease has passed: it is claimed again).
      const next = await claim(shift(t, MINUTE));
      expect(next.map((c) => c.delivery.id)).toEqual([d3.id]);
      // Once the extended lease has passed, d1 is claimed again, and the old token no longer records.
      expect((await claim(shift(later, 1))).map((c) => c.delivery.id)).toContain(d1.id);
      expect((await ctx.storage.webhooks.recordAttempt(d1.id, mine, failure(d1, later))).recorded).toBe(false);
    });
  });

  describe("webhooks: releasing deliveries", () => {
    it("releaseDeliveries clears the lease of those still held under the token, leaving them as they were", async () => {
      const t = farPast();
      const { companyId, endpoint, event, at, d1, d2, d3 } = await threeDue(t);
      const finished = makeDelivery(endpoint, event, { ...at(-5 * MINUTE), status: "succeeded", nextAttemptAt: null });
      await ctx.storage.webhooks.insertDeliveries([d1, d2, d3, finished]);
      const mine = newId("lease");
      const theirs = newId("lease");
      const held = await claim(t, { limit: 2, leaseToken: mine, leaseUntil: shift(t, HOUR) });
      expect(held.map((c) => c.delivery.id)).toEqual([d1.id, d2.id]);
      expect((await claim(t, { leaseToken: theirs, leaseUntil: shift(t, HOUR) })).map((c) => c.delivery.id)).toEqual([
        d3.id,
      ]);
      const before = await ctx.storage.webhooks.getDelivery(companyId, d1.id);

      expect(await ctx.storage.webhooks.releaseDeliveries([], mine)).toBe(0);
      expect(await ctx.storage.webhooks.releaseDeliveries([d3.id], mine)).toBe(0);
      expect(await ctx.storage.webhooks.releaseDeliveries([d1.id, d2.id, d3.id, finished.id, newId("dlv")], mine)).toBe(
        2,
      );
      expect(await ctx.storage.webhooks.getDelivery(companyId, d1.id)).toEqual({
        ...before,
        leaseToken: null,
        leaseExpiresAt: null,
      });
      expect(await ctx.storage.webhooks.getDelivery(companyId, d1.id)).toMatchObject({
        status: "pending",
        attempts: 2,
        nextAttemptAt: d1.nextAttemptAt,
      });
      expect(await ctx.storage.webhooks.getDelivery(companyId, d3.id)).toMatchObject({ leaseToken: theirs });
      expect(await ctx.storage.webhooks.getDelivery(companyId, finished.id)).toEqual(finished);
      // A second release finds nothing held under the token.
      expect(await ctx.storage.webhooks.releaseDeliveries([d1.id, d2.id], mine)).toBe(0);
      // Released deliveries are claimed again at once, long before the old lease would have passed.
      const again = await claim(t);
      expect(again.map((c) => c.delivery.id)).toEqual([d1.id, d2.id]);
      // The old token no longer records.
      expect((await ctx.storage.webhooks.recordAttempt(d1.id, mine, failure(d1, t))).recorded).toBe(false);
      await ctx.expectRaw("countAttempts", [d1.id], 0);
    });
  });
}
