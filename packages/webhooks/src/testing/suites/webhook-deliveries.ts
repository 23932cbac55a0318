import { farPast, HOUR, MINUTE, newId, now, orderedIds, shift } from "@hireport/core/testing";
import { describe, expect, it } from "vitest";
import type { WebhookConformanceContext } from "../context";
import { makeDelivery } from "../fixtures";

import { deliveryHelpers } from "./webhook-delivery-support";

/** Listing, resending and purging deliveries. */
export function webhookDeliveryTests(ctx: WebhookConformanceContext): void {
  const { endpointOf, eventOf, claim, failure, success, leasedDelivery } = deliveryHelpers(ctx);

  describe("webhooks: listing, resending, purging deliveries", () => {
    it("listDeliveries returns an endpoint's deliveries newest first, ties by id, filtered and paged", async () => {
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const other = await endpointOf(companyId);
      const event = await eventOf(companyId);
      const t = now();
      const [a, b] = orderedIds("dlv", 2);
      const far = new Date("2037-01-01T00:00:00Z");
      const deliveries = [
        makeDelivery(endpoint, event, { id: a, createdAt: t, nextAttemptAt: far }),
        makeDelivery(endpoint, event, { createdAt: shift(t, 1000), status: "failed", nextAttemptAt: null }),
        makeDelivery(endpoint, event, { id: b, createdAt: t, status: "succeeded", nextAttemptAt: null }),
        makeDelivery(endpoint, event, { createdAt: shift(t, -1000), status: "failed", nextAttemptAt: null }),
      ];
      await ctx.storage.webhooks.insertDeliveries([...deliveries, makeDelivery(other, event, { nextAttemptAt: far })]);
      const expected = [deliveries[1], deliveries[2], deliveries[0], deliveries[3]];
      expect(await ctx.storage.webhooks.listDeliveries({ companyId, endpointId: endpoint.id, take: 100 })).toEqual(
        expected,
      );
      expect(await ctx.storage.webhooks.listDeliveries({ companyId, endpointId: endpoint.id, take: 2 })).toEqual(
        expected.slice(0, 2),
      );
      expect(
        await ctx.storage.webhooks.listDeliveries({
          companyId,
          endpointId: endpoint.id,
          take: 100,
          after: { at: t, id: b ?? "" },
        }),
      ).toEqual(expected.slice(2));
      expect(
        await ctx.storage.webhooks.listDeliveries({ companyId, endpointId: endpoint.id, status: "failed", take: 100 }),
      ).toEqual([deliveries[1], deliveries[3]]);
      const stranger = await ctx.company();
      expect(
        await ctx.storage.webhooks.listDeliveries({ companyId: stranger, endpointId: endpoint.id, take: 100 }),
      ).toEqual([]);
    });

    it("resendDelivery makes a delivery pending again, due at now, without a lease; scoped to the company", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const event = await eventOf(companyId);
      const delivery = makeDelivery(endpoint, event, { status: "failed", attempts: 7, nextAttemptAt: null });
      await ctx.storage.webhooks.insertDeliveries([delivery]);
      const at = shift(now(), HOUR);
      expect(await ctx.storage.webhooks.resendDelivery(other, delivery.id, at)).toBeNull();
      expect(await ctx.storage.webhooks.getDelivery(companyId, delivery.id)).toEqual(delivery);
      const resent = await ctx.storage.webhooks.resendDelivery(companyId, delivery.id, at);
      expect(resent).toMatchObject({ id: delivery.id, status: "pending", nextAttemptAt: at, leaseToken: null });
      expect(await ctx.storage.webhooks.getDelivery(companyId, delivery.id)).toEqual(resent);
      expect(await ctx.storage.webhooks.resendDelivery(companyId, newId("dlv"), at)).toBeNull();
    });

    it("resendDelivery clears the lease of a held delivery: it is claimed again at once and the old token is stale", async () => {
      const t = farPast();
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const event = await eventOf(companyId, shift(t, -HOUR));
      const delivery = makeDelivery(endpoint, event, {
        createdAt: shift(t, -MINUTE),
        nextAttemptAt: shift(t, -MINUTE),
      });
      await ctx.storage.webhooks.insertDeliveries([delivery]);
      const token = newId("lease");
      expect(await claim(t, { leaseToken: token, leaseUntil: shift(t, HOUR) })).toHaveLength(1);
      const resent = await ctx.storage.webhooks.resendDelivery(companyId, delivery.id, t);
      expect(resent).toMatchObject({ status: "pending", nextAttemptAt: t, leaseToken: null, leaseExpiresAt: null });
      expect(await ctx.storage.webhooks.getDelivery(companyId, delivery.id)).toMatchObject({
        leaseToken: null,
        leaseExpiresAt: null,
      });
      expect((await ctx.storage.webhooks.recordAttempt(delivery.id, token, failure(delivery, t))).recorded).toBe(false);
      expect((await claim(t)).map((c) => c.delivery.id)).toEqual([delivery.id]);
    });

    it("purgeDeliveries deletes finished deliveries created before `before` with their attempts, only", async () => {
      const x = farPast();
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const event = await eventOf(companyId, shift(x, -2 * HOUR));
      const old = { createdAt: shift(x, -HOUR) };
      const withAttempt = await leasedDelivery(endpoint, { ...old, nextAttemptAt: null });
      await ctx.storage.webhooks.recordAttempt(
        withAttempt.delivery.id,
        withAttempt.token,
        success(withAttempt.delivery),
      );
      const failed = makeDelivery(endpoint, event, { ...old, status: "failed", nextAttemptAt: null });
      const pending = makeDelivery(endpoint, event, { ...old, nextAttemptAt: new Date("2037-01-01T00:00:00Z") });
      const recent = makeDelivery(endpoint, event, { createdAt: x, status: "succeeded", nextAttemptAt: null });
      await ctx.storage.webhooks.insertDeliveries([failed, pending, recent]);
      expect(await ctx.storage.webhooks.purgeDeliveries(x)).toBeGreaterThanOrEqual(2);
      expect(await ctx.storage.webhooks.getDelivery(companyId, withAttempt.delivery.id)).toBeNull();
      expect(await ctx.storage.webhooks.listAttempts(companyId, withAttempt.delivery.id)).toEqual([]);
      expect(await ctx.storage.webhooks.getDelivery(companyId, failed.id)).toBeNull();
      expect(await ctx.storage.webhooks.getDelivery(companyId, pending.id)).toEqual(pending);
      expect(await ctx.storage.webhooks.getDelivery(companyId, recent.id)).toEqual(recent);
      await ctx.expectRaw("countAttempts", [withAttempt.delivery.id], 0);
      await ctx.expectRaw("countDeliveries", [endpoint.id], 2);
    });
  });
}
