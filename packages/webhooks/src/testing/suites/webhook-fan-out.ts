import { deliveryId } from "@hireport/core/extend";
import {
  ancientPast,
  DAY,
  farPast,
  HOUR,
  makeApplicationWrite,
  makeEvent,
  now,
  SECOND,
  shift,
} from "@hireport/core/testing";
import { describe, expect, it } from "vitest";
import type { WebhookConformanceContext } from "../context";
import { makeDelivery, makeEndpoint } from "../fixtures";
import { deliveryHelpers } from "./webhook-delivery-support";

class Rollback extends Error {}

/**
 * The webhook data as core's stores reach it (`eventDeliveries`: the outbox's fan-out, retention's
 * purge), and the webhook store inside core's transactions.
 */
export function webhookFanOutTests(ctx: WebhookConformanceContext): void {
  const { endpointOf } = deliveryHelpers(ctx);

  describe("webhooks: fan-out, purge and transactions with core's stores", () => {
    it("applications.create fans its event out: one delivery per subscribed endpoint, active or paused, none elsewhere", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const job = await ctx.job(companyId);
      const active = await endpointOf(companyId, { events: ["job.created", "application.created"] });
      const paused = await endpointOf(companyId, {
        events: ["application.created"],
        status: "paused",
        pausedReason: "failures",
      });
      const disabled = await endpointOf(companyId, {
        events: ["application.created"],
        status: "disabled",
        pausedReason: "gone",
      });
      const unsubscribed = await endpointOf(companyId, { events: ["application.updated"] });
      const foreign = await endpointOf(other, { events: ["application.created"] });
      const subscribed = await ctx.storage.eventDeliveries.listSubscribedEndpoints(companyId, "application.created");
      expect(subscribed.map((endpoint) => endpoint.id).sort()).toEqual([active.id, paused.id].sort());
      const write = makeApplicationWrite(job);
      expect(await ctx.storage.applications.create(write)).toEqual({ outcome: "created" });
      const deliveriesOf = (owner: string, endpointId: string) =>
        ctx.storage.webhooks.listDeliveries({ companyId: owner, endpointId, take: 10 });
      for (const subscribed of [active, paused]) {
        expect(await deliveriesOf(companyId, subscribed.id)).toEqual([
          {
            id: deliveryId(write.event.id, subscribed.id),
            endpointId: subscribed.id,
            companyId,
            eventId: write.event.id,
            eventType: "application.created",
            status: "pending",
            attempts: 0,
            nextAttemptAt: write.event.createdAt,
            leaseExpiresAt: null,
            leaseToken: null,
            createdAt: write.event.createdAt,
            updatedAt: write.event.createdAt,
          },
        ]);
      }
      expect(await deliveriesOf(companyId, unsubscribed.id)).toEqual([]);
      expect(await deliveriesOf(companyId, disabled.id)).toEqual([]);
      expect(await deliveriesOf(other, foreign.id)).toEqual([]);
    });

    it("events.purge deletes old events that no pending delivery needs, and keeps the rest", async () => {
      const companyId = await ctx.company();
      const x = farPast();
      const endpoint = await endpointOf(companyId);
      const lonely = makeEvent(companyId, { createdAt: shift(x, -HOUR) });
      const pending = makeEvent(companyId, { createdAt: shift(x, -HOUR) });
      const delivered = makeEvent(companyId, { createdAt: shift(x, -HOUR) });
      const recent = makeEvent(companyId, { createdAt: x });
      for (const event of [lonely, pending, delivered, recent]) await ctx.storage.events.append(event);
      await ctx.storage.eventDeliveries.insertDeliveries([
        // Not due at any time a claim test uses: only here to hold the event.
        makeDelivery(endpoint, pending, {
          createdAt: shift(x, -HOUR),
          nextAttemptAt: new Date("2037-01-01T00:00:00Z"),
        }),
        makeDelivery(endpoint, delivered, { createdAt: shift(x, -HOUR), status: "succeeded", nextAttemptAt: null }),
      ]);
      expect(await ctx.storage.events.purge(x)).toBeGreaterThanOrEqual(2);
      expect(await ctx.storage.events.get(lonely.id)).toBeNull();
      expect(await ctx.storage.events.get(delivered.id)).toBeNull();
      expect(await ctx.storage.events.get(pending.id)).toEqual(pending);
      expect(await ctx.storage.events.get(recent.id)).toEqual(recent);
      await ctx.expectRaw("countEvents", [companyId], 2);
    });

    it("purgeDeliveries takes a limit: at most that many finished deliveries, the oldest first", async () => {
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId);
      // A random time of the 1980s, before every other test's rows; whatever finished delivery is
      // older (another run's) is purged first, so that the counts below are this test's alone.
      const base = ancientPast();
      const at = (ms: number) => shift(base, ms);
      const cut = at(DAY);
      await ctx.storage.eventDeliveries.purgeDeliveries(cut);
      const events = [0, 1, 2].map((i) => makeEvent(companyId, { createdAt: at(i * SECOND) }));
      for (const event of events) await ctx.storage.events.append(event);
      const deliveries = events.map((event, i) =>
        makeDelivery(endpoint, event, { createdAt: at(i * SECOND), status: "succeeded", nextAttemptAt: null }),
      );
      await ctx.storage.eventDeliveries.insertDeliveries(deliveries);

      expect(await ctx.storage.eventDeliveries.purgeDeliveries(cut, 2)).toBe(2);
      expect(await ctx.storage.webhooks.getDelivery(companyId, deliveries[2]?.id ?? "")).not.toBeNull();
      expect(await ctx.storage.webhooks.getDelivery(companyId, deliveries[0]?.id ?? "")).toBeNull();
      expect(await ctx.storage.eventDeliveries.purgeDeliveries(cut, 2)).toBe(1);
      expect(await ctx.storage.eventDeliveries.purgeDeliveries(cut, 2)).toBe(0);
      await ctx.expectRaw("countDeliveries", [endpoint.id], 0);
    });

    it("a transaction rolls the webhook store's writes back with core's", async () => {
      const companyId = await ctx.company();
      // Subscribed to nothing this test emits: its deliveries are the transaction's alone.
      const endpoint = makeEndpoint(companyId, { events: ["job.closed"] });
      await ctx.storage.webhooks.insertEndpoint(endpoint);
      ctx.defer(() => ctx.storage.webhooks.deleteEndpoint(companyId, endpoint.id));
      const added = makeEndpoint(companyId);
      const event = makeEvent(companyId);
      const delivery = makeDelivery(endpoint, event, { nextAttemptAt: null });
      const error = new Rollback("boom");

      const run = ctx.storage.transaction(async (tx) => {
        await tx.events.append(event);
        await tx.eventDeliveries.insertDeliveries([delivery]);
        await tx.webhooks.updateEndpoint(companyId, endpoint.id, {
          url: "https://changed.example.com",
          updatedAt: now(),
        });
        await tx.webhooks.insertEndpoint(added);
        expect(await tx.webhooks.getDelivery(companyId, delivery.id)).toEqual(delivery);
        throw error;
      });
      await expect(run).rejects.toBe(error);

      expect(await ctx.storage.events.get(event.id)).toBeNull();
      expect(await ctx.storage.webhooks.getDelivery(companyId, delivery.id)).toBeNull();
      expect(await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id)).toEqual(endpoint);
      expect(await ctx.storage.webhooks.getEndpoint(companyId, added.id)).toBeNull();
      await ctx.expectRaw("countDeliveries", [endpoint.id], 0);

      const second = makeEvent(companyId);
      const committed = makeDelivery(endpoint, second, { nextAttemptAt: null });
      await ctx.storage.transaction(async (tx) => {
        await tx.events.append(second);
        await tx.webhooks.insertDeliveries([committed]);
      });
      expect(await ctx.storage.webhooks.getDelivery(companyId, committed.id)).toEqual(committed);
    });
  });
}
