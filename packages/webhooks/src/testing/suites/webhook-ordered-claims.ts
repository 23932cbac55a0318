import { farPast, HOUR, MINUTE, SECOND, shift } from "@hireport/core/testing";
import { describe, expect, it } from "vitest";
import { throttleWindowStart } from "../../store/endpoint-throttle";
import type { DeliveryRecord } from "../../store/webhook-records";
import type { WebhookConformanceContext } from "../context";
import { makeDelivery } from "../fixtures";
import { deliveryHelpers } from "./webhook-delivery-support";

/** Claims of ordered endpoints (one at a time, oldest first) and throttled ones (a count per second). */
export function webhookOrderedClaimTests(ctx: WebhookConformanceContext): void {
  const { endpointOf, eventOf, claim, failure, success } = deliveryHelpers(ctx);
  const ids = (claimed: readonly { delivery: DeliveryRecord }[]) => claimed.map((c) => c.delivery.id);

  /**
   * A new company with an endpoint (`ordered` unless overridden) and `count` deliveries of one
   * event, made a minute apart before `t` and all due, inserted newest first.
   */
  async function queue(t: Date, count: number, overrides: Parameters<typeof endpointOf>[1] = { ordered: true }) {
    const companyId = await ctx.company();
    const endpoint = await endpointOf(companyId, overrides);
    const event = await eventOf(companyId, shift(t, -HOUR));
    const deliveries = Array.from({ length: count }, (_, i) => {
      const at = shift(t, (i - count) * MINUTE);
      return makeDelivery(endpoint, event, { createdAt: at, nextAttemptAt: at });
    });
    await ctx.storage.webhooks.insertDeliveries([...deliveries].reverse());
    return { companyId, endpoint, event, deliveries };
  }

  describe("webhooks: ordered and throttled endpoints", () => {
    it("stores ordered and maxPerSecond, and updateEndpoint changes them", async () => {
      const companyId = await ctx.company();
      const plain = await endpointOf(companyId);
      const special = await endpointOf(companyId, { ordered: true, maxPerSecond: 7 });
      expect(await ctx.storage.webhooks.getEndpoint(companyId, plain.id)).toMatchObject({
        ordered: false,
        maxPerSecond: null,
      });
      expect(await ctx.storage.webhooks.getEndpoint(companyId, special.id)).toEqual(special);
      const updatedAt = shift(special.updatedAt, SECOND);
      const changed = await ctx.storage.webhooks.updateEndpoint(companyId, special.id, {
        ordered: false,
        maxPerSecond: null,
        updatedAt,
      });
      expect(changed).toEqual({ ...special, ordered: false, maxPerSecond: null, updatedAt });
      const back = await ctx.storage.webhooks.updateEndpoint(companyId, plain.id, {
        ordered: true,
        maxPerSecond: 1,
        updatedAt,
      });
      expect(back).toMatchObject({ ordered: true, maxPerSecond: 1, url: plain.url });
    });

    it("claims only the head of an ordered endpoint, and the next once the head has succeeded", async () => {
      const t = farPast();
      const { companyId, deliveries } = await queue(t, 3);
      const [d1, d2, d3] = deliveries as [DeliveryRecord, DeliveryRecord, DeliveryRecord];
      const first = await claim(t, { maxPerEndpoint: 4 });
      expect(ids(first)).toEqual([d1.id]);
      // The head is held: nothing else of the endpoint goes out meanwhile.
      expect(await claim(shift(t, SECOND))).toEqual([]);
      const token = first[0]?.delivery.leaseToken ?? "";
      const done = await ctx.storage.webhooks.recordAttempt(
        d1.id,
        token,
        success(d1, { attemptedAt: shift(t, SECOND) }),
      );
      expect(done.recorded).toBe(true);
      expect(ids(await claim(shift(t, 2 * SECOND)))).toEqual([d2.id]);
      expect(await claim(shift(t, 2 * SECOND))).toEqual([]);
      expect(await ctx.storage.webhooks.getDelivery(companyId, d3.id)).toMatchObject({ leaseToken: null });
    });

    it("holds back an ordered endpoint while its head waits for a retry, and goes on once the head is given up", async () => {
      const t = farPast();
      const { deliveries } = await queue(t, 2);
      const [d1, d2] = deliveries as [DeliveryRecord, DeliveryRecord];
      const other = await queue(t, 2, { ordered: false });
      const [held] = await claim(t, { excludeEndpointIds: [other.endpoint.id] });
      expect(held?.delivery.id).toBe(d1.id);
      // Failed: pending again, due a minute later; d2 is due but waits behind it.
      await ctx.storage.webhooks.recordAttempt(d1.id, held?.delivery.leaseToken ?? "", failure(d1, t));
      const meanwhile = await claim(shift(t, 30 * SECOND), { leaseUntil: shift(t, HOUR) });
      expect(ids(meanwhile).sort()).toEqual(ids(other.deliveries.map((delivery) => ({ delivery }))).sort());
      const retry = await claim(shift(t, MINUTE));
      expect(ids(retry)).toEqual([d1.id]);
      // Given up on (failed for good): the next one may go.
      const dead = { ...failure(d1, shift(t, MINUTE)), status: "failed" as const, nextAttemptAt: null };
      await ctx.storage.webhooks.recordAttempt(d1.id, retry[0]?.delivery.leaseToken ?? "", dead);
      expect(ids(await claim(shift(t, MINUTE + SECOND)))).toEqual([d2.id]);
    });

    it("keeps the order of an ordered endpoint over a pause and a resume", async () => {
      const t = farPast();
      const { companyId, endpoint, deliveries } = await queue(t, 3);
      const [d1] = deliveries as [DeliveryRecord];
      await ctx.storage.webhooks.updateEndpoint(companyId, endpoint.id, {
        status: "paused",
        pausedReason: "manual",
        updatedAt: t,
      });
      expect(await claim(t)).toEqual([]);
      await ctx.storage.webhooks.updateEndpoint(companyId, endpoint.id, {
        status: "active",
        pausedReason: null,
        updatedAt: t,
      });
      expect(ids(await claim(t))).toEqual([d1.id]);
    });

    it("gives a delivery resent to an ordered endpoint its place by creation, after the one being sent", async () => {
      const t = farPast();
      const { companyId, deliveries } = await queue(t, 3);
      const [d1, d2, d3] = deliveries as [DeliveryRecord, DeliveryRecord, DeliveryRecord];
      const dead = { ...failure(d1, t), status: "failed" as const, nextAttemptAt: null };
      const [h1] = await claim(t);
      await ctx.storage.webhooks.recordAttempt(d1.id, h1?.delivery.leaseToken ?? "", dead);
      const [h2] = await claim(shift(t, SECOND));
      expect(h2?.delivery.id).toBe(d2.id);
      // d1 is sent again while d2 is held: it waits for d2, then goes before d3.
      await ctx.storage.webhooks.resendDelivery(companyId, d1.id, shift(t, SECOND));
      expect(await claim(shift(t, 2 * SECOND))).toEqual([]);
      await ctx.storage.webhooks.recordAttempt(d2.id, h2?.delivery.leaseToken ?? "", success(d2));
      expect(ids(await claim(shift(t, 3 * SECOND)))).toEqual([d1.id]);
      expect(await ctx.storage.webhooks.getDelivery(companyId, d3.id)).toMatchObject({ leaseToken: null });
    });

    it("finds a free ordered endpoint behind many whose heads are held or waiting for a retry", async () => {
      const t = farPast();
      for (let index = 0; index < 6; index++) {
        const { deliveries } = await queue(t, 2);
        const head = deliveries[0] as DeliveryRecord;
        const [held] = await claim(t, { leaseUntil: shift(t, HOUR) });
        expect(held?.delivery.id).toBe(head.id);
        // Half wait for a retry, half are still being sent.
        if (index % 2 === 0)
          await ctx.storage.webhooks.recordAttempt(head.id, held?.delivery.leaseToken ?? "", failure(head, t));
      }
      const free = await queue(t, 2);
      expect(ids(await claim(shift(t, SECOND), { limit: 1 }))).toEqual([free.deliveries[0]?.id]);
    });

    it("never gives two parallel claims deliveries of one ordered endpoint", async () => {
      const t = farPast();
      const { deliveries } = await queue(t, 6);
      const claims = await Promise.all(Array.from({ length: 5 }, () => claim(t, { maxPerEndpoint: 4 })));
      expect(claims.flatMap(ids)).toEqual([deliveries[0]?.id]);
    });

    it("counts a throttled endpoint's claims per second of the clock, only what was returned", async () => {
      const t = throttleWindowStart(farPast());
      const { deliveries } = await queue(t, 10, { maxPerSecond: 3 });
      const first = await claim(t, { limit: 1 });
      expect(first).toHaveLength(1);
      // Only the one returned counted: two more in this second, then none.
      expect(await claim(shift(t, 100), { maxPerEndpoint: 4 })).toHaveLength(2);
      expect(await claim(shift(t, 999))).toEqual([]);
      const next = await claim(shift(t, SECOND));
      expect(next).toHaveLength(3);
      expect(new Set([...ids(first), ...ids(next)]).size).toBe(4);
      expect(ids(next).every((id) => deliveries.some((delivery) => delivery.id === id))).toBe(true);
    });

    it("keeps parallel claims of a throttled endpoint under its limit together", async () => {
      const t = throttleWindowStart(farPast());
      await queue(t, 20, { maxPerSecond: 5 });
      const claims = await Promise.all(Array.from({ length: 6 }, () => claim(shift(t, 10), { maxPerEndpoint: 4 })));
      const taken = claims.flatMap(ids);
      expect(new Set(taken).size).toBe(taken.length);
      expect(taken.length).toBeLessThanOrEqual(5);
      expect(taken.length).toBeGreaterThan(0);
      // The claims that found the endpoint held left it: what is left of the second is claimable.
      const rest = await claim(shift(t, 20), { maxPerEndpoint: 10 });
      expect(taken.length + rest.length).toBe(5);
    });

    it("throttles an ordered endpoint too, and counts its waiting deliveries as due", async () => {
      const t = throttleWindowStart(farPast());
      const { deliveries } = await queue(t, 3, { ordered: true, maxPerSecond: 1 });
      const stats = await ctx.storage.webhooks.dueDeliveryStats({ now: t, countLimit: 100 });
      expect(stats.due).toBe(3);
      expect(stats.oldestDueAt).toEqual(deliveries[0]?.nextAttemptAt);
      const [h1] = await claim(t);
      await ctx.storage.webhooks.recordAttempt(
        h1?.delivery.id ?? "",
        h1?.delivery.leaseToken ?? "",
        success(deliveries[0] as DeliveryRecord),
      );
      expect(await claim(shift(t, 500))).toEqual([]);
      expect(ids(await claim(shift(t, SECOND)))).toEqual([deliveries[1]?.id]);
    });
  });
}
