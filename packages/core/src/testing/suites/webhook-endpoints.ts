import { describe, expect, it } from "vitest";
import type { WebhookEndpointRecord } from "../../domain";
import type { ConformanceContext } from "../context";
import { makeAttempt, makeDelivery, makeEndpoint, makeEvent, newId, now, shift } from "../fixtures";

export function webhookEndpointTests(ctx: ConformanceContext): void {
  async function endpointOf(companyId: string, overrides: Partial<WebhookEndpointRecord> = {}) {
    const endpoint = makeEndpoint(companyId, overrides);
    await ctx.storage.webhooks.insertEndpoint(endpoint);
    ctx.defer(() => ctx.storage.webhooks.deleteEndpoint(companyId, endpoint.id));
    return endpoint;
  }

  describe("webhooks: endpoints", () => {
    it("insertEndpoint stores every field; getEndpoint reads it back; another company's id reads as null", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const t = now();
      const endpoint = await endpointOf(companyId, {
        url: "https://hooks.example.com/ünï?x=1&y=2",
        description: "Zapier – prod 🚀",
        events: ["job.closed", "application.created", "job.created"],
        status: "paused",
        pausedReason: "manual",
        secrets: [
          { secret: `whsec_${newId("new")}`, expiresAt: null },
          { secret: `whsec_${newId("old")}`, expiresAt: new Date("2026-11-22T12:00:00.123Z") },
        ],
        consecutiveFailures: 12,
        createdAt: new Date("2025-01-01T00:00:00.001Z"),
        updatedAt: t,
      });
      expect(await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id)).toEqual(endpoint);
      expect(await ctx.storage.webhooks.getEndpoint(other, endpoint.id)).toBeNull();
      expect(await ctx.storage.webhooks.listEndpoints(companyId)).toEqual([endpoint]);
      expect(await ctx.storage.webhooks.listEndpoints(other)).toEqual([]);
    });

    it("updateEndpoint writes only the columns in the patch; another company's endpoint is untouched", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const endpoint = await endpointOf(companyId, { description: "keep me", consecutiveFailures: 3 });
      const updatedAt = shift(endpoint.updatedAt, 1000);
      expect(
        await ctx.storage.webhooks.updateEndpoint(other, endpoint.id, { url: "https://evil.example", updatedAt }),
      ).toBeNull();
      expect(await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id)).toEqual(endpoint);

      const patch = { status: "paused" as const, pausedReason: "manual" as const, updatedAt };
      const expected = { ...endpoint, ...patch };
      expect(await ctx.storage.webhooks.updateEndpoint(companyId, endpoint.id, patch)).toEqual(expected);
      const secrets = [
        { secret: "whsec_new", expiresAt: null },
        { secret: "whsec_old", expiresAt: shift(updatedAt, 86_400_000) },
      ];
      const second = {
        events: ["job.updated" as const],
        secrets,
        status: "active" as const,
        pausedReason: null,
        consecutiveFailures: 0,
        updatedAt: shift(updatedAt, 1),
      };
      expect(await ctx.storage.webhooks.updateEndpoint(companyId, endpoint.id, second)).toEqual({
        ...expected,
        ...second,
      });
      expect(await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id)).toEqual({ ...expected, ...second });
    });

    /** A company whose active and paused endpoints take job.closed, beside ones that do not. */
    async function subscriptions() {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const active = await endpointOf(companyId, { events: ["job.created", "job.closed"] });
      const paused = await endpointOf(companyId, {
        events: ["job.closed"],
        status: "paused",
        pausedReason: "failures",
      });
      await endpointOf(companyId, { events: ["job.created"] });
      await endpointOf(other, { events: ["job.closed"] });
      return { companyId, active, paused };
    }

    it("appendAndListSubscribers (optional) stores the event as append does and returns what listSubscribedEndpoints does", async ({
      skip,
    }) => {
      const events = ctx.storage.events;
      if (!events.appendAndListSubscribers) return skip();
      const { companyId, active, paused } = await subscriptions();
      const event = makeEvent(companyId, { type: "job.closed" });
      const subscribed = await events.appendAndListSubscribers.call(events, event);
      expect(subscribed).toEqual(await ctx.storage.webhooks.listSubscribedEndpoints(companyId, "job.closed"));
      expect(subscribed.map((e) => e.id).sort()).toEqual([active.id, paused.id].sort());
      expect(await events.get(event.id)).toEqual(event);
      const none = makeEvent(companyId, { type: "application.updated" });
      expect(await events.appendAndListSubscribers.call(events, none)).toEqual([]);
      expect(await events.get(none.id)).toEqual(none);
      // Inside a transaction it writes with the change: a rollback takes the event back.
      const rolledBack = makeEvent(companyId, { type: "job.closed" });
      await expect(
        ctx.storage.transaction(async (tx) => {
          expect(await tx.events.appendAndListSubscribers?.(rolledBack)).toHaveLength(2);
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await events.get(rolledBack.id)).toBeNull();
    });

    it("listSubscribedEndpoints returns active and paused endpoints subscribed to the type, only", async () => {
      const { companyId, active, paused } = await subscriptions();
      const subscribed = await ctx.storage.webhooks.listSubscribedEndpoints(companyId, "job.closed");
      expect(subscribed.map((e) => e.id).sort()).toEqual([active.id, paused.id].sort());
      expect(subscribed.find((e) => e.id === paused.id)).toEqual(paused);
      expect(await ctx.storage.webhooks.listSubscribedEndpoints(companyId, "application.updated")).toEqual([]);
    });

    it("deleteEndpoint deletes the endpoint with its deliveries and attempts; another company's is kept", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const keep = await endpointOf(companyId);
      const event = makeEvent(companyId);
      await ctx.storage.events.append(event);
      const token = newId("lease");
      const leased = makeDelivery(endpoint, event, {
        nextAttemptAt: null,
        leaseToken: token,
        leaseExpiresAt: new Date("2037-01-01T00:00:00Z"),
      });
      const other1 = makeDelivery(endpoint, event, { nextAttemptAt: null, status: "failed" });
      const kept = makeDelivery(keep, event, { nextAttemptAt: null, status: "succeeded" });
      await ctx.storage.webhooks.insertDeliveries([leased, other1, kept]);
      const attempt = makeAttempt(leased);
      const recorded = await ctx.storage.webhooks.recordAttempt(leased.id, token, {
        attempt,
        status: "failed",
        nextAttemptAt: null,
        failureCount: "none",
        pauseAfter: 50,
      });
      expect(recorded.recorded).toBe(true);

      expect(await ctx.storage.webhooks.deleteEndpoint(other, endpoint.id)).toBe(false);
      expect(await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id)).toEqual(endpoint);
      expect(await ctx.storage.webhooks.deleteEndpoint(companyId, endpoint.id)).toBe(true);
      expect(await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id)).toBeNull();
      expect(await ctx.storage.webhooks.deleteEndpoint(companyId, endpoint.id)).toBe(false);
      expect(await ctx.storage.webhooks.getDelivery(companyId, leased.id)).toBeNull();
      expect(await ctx.storage.webhooks.getDelivery(companyId, other1.id)).toBeNull();
      expect(await ctx.storage.webhooks.listAttempts(companyId, leased.id)).toEqual([]);
      expect(await ctx.storage.webhooks.getDelivery(companyId, kept.id)).toEqual(kept);
      await ctx.expectRaw("countDeliveries", [endpoint.id], 0);
      await ctx.expectRaw("countAttempts", [leased.id], 0);
      await ctx.expectRaw("countDeliveries", [keep.id], 1);
    });

    it("insertDeliveries stores every field; getDelivery reads it back, scoped to the company", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const event = makeEvent(companyId, { type: "application.created" });
      await ctx.storage.events.append(event);
      const t = now();
      const delivery = makeDelivery(endpoint, event, {
        attempts: 3,
        nextAttemptAt: new Date("2036-02-29T12:00:00.999Z"),
        createdAt: shift(t, -1000),
        updatedAt: t,
      });
      await ctx.storage.webhooks.insertDeliveries([delivery]);
      await ctx.storage.webhooks.insertDeliveries([]);
      expect(await ctx.storage.webhooks.getDelivery(companyId, delivery.id)).toEqual(delivery);
      expect(await ctx.storage.webhooks.getDelivery(other, delivery.id)).toBeNull();
      await ctx.expectRaw("countDeliveries", [endpoint.id], 1);
    });
  });
}
