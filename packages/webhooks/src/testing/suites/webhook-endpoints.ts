import { deliveryId } from "@hireport/core/extend";
import { makeEvent, newId, now, orderedIds, shift } from "@hireport/core/testing";
import { describe, expect, it } from "vitest";
import type { WebhookEndpointRecord } from "../../store/webhook-records";
import type { WebhookConformanceContext } from "../context";
import { makeAttempt, makeDelivery, makeEndpoint } from "../fixtures";

export function webhookEndpointTests(ctx: WebhookConformanceContext): void {
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
        signatureScheme: "standard-v1a",
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
        signatureScheme: "standard-v1" as const,
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

    /**
     * A company whose active and paused endpoints take job.closed, beside ones that do not: another
     * kind, another company, and a disabled endpoint (its receiver answered 410 Gone).
     */
    async function subscriptions() {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const active = await endpointOf(companyId, { events: ["job.created", "job.closed"] });
      const paused = await endpointOf(companyId, {
        events: ["job.closed"],
        status: "paused",
        pausedReason: "failures",
      });
      const disabled = await endpointOf(companyId, {
        events: ["job.closed"],
        status: "disabled",
        pausedReason: "gone",
      });
      await endpointOf(companyId, { events: ["job.created"] });
      await endpointOf(other, { events: ["job.closed"] });
      return { companyId, active, paused, disabled };
    }

    it("events.append fans out: one pending delivery per subscribed endpoint, active or paused, with the derived id", async () => {
      const { companyId, active, paused, disabled } = await subscriptions();
      const event = makeEvent(companyId, { type: "job.closed" });
      await ctx.storage.events.append(event);
      expect(await ctx.storage.events.get(event.id)).toEqual(event);
      for (const endpoint of [active, paused]) {
        expect(await ctx.storage.webhooks.listDeliveries({ companyId, endpointId: endpoint.id, take: 10 })).toEqual([
          {
            id: deliveryId(event.id, endpoint.id),
            endpointId: endpoint.id,
            companyId,
            eventId: event.id,
            eventType: "job.closed",
            status: "pending",
            attempts: 0,
            nextAttemptAt: event.createdAt,
            leaseExpiresAt: null,
            leaseToken: null,
            createdAt: event.createdAt,
            updatedAt: event.createdAt,
          },
        ]);
      }
      // A disabled endpoint gets nothing.
      expect(await ctx.storage.webhooks.listDeliveries({ companyId, endpointId: disabled.id, take: 10 })).toEqual([]);
      await ctx.expectRaw("countDeliveries", [disabled.id], 0);
      // An event nobody subscribes to is stored alone.
      const none = makeEvent(companyId, { type: "application.updated" });
      await ctx.storage.events.append(none);
      expect(await ctx.storage.events.get(none.id)).toEqual(none);
      // Inside a transaction it writes with the change: a rollback takes the event and its deliveries back.
      const rolledBack = makeEvent(companyId, { type: "job.closed" });
      await expect(
        ctx.storage.transaction(async (tx) => {
          await tx.events.append(rolledBack);
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await ctx.storage.events.get(rolledBack.id)).toBeNull();
      for (const endpoint of [active, paused]) {
        const listed = await ctx.storage.webhooks.listDeliveries({ companyId, endpointId: endpoint.id, take: 10 });
        expect(listed.map((delivery) => delivery.eventId)).toEqual([event.id]);
        await ctx.expectRaw("countDeliveries", [endpoint.id], 1);
      }
    });

    it("listSubscribedEndpoints returns active and paused endpoints subscribed to the type, only (never disabled ones)", async () => {
      const { companyId, active, paused } = await subscriptions();
      const subscribed = await ctx.storage.webhooks.listSubscribedEndpoints(companyId, "job.closed");
      expect(subscribed.map((e) => e.id).sort()).toEqual([active.id, paused.id].sort());
      // Core's `WebhookSubscription` of it, at least (a storage may return the whole record).
      const { id, events, status, createdAt } = paused;
      expect(subscribed.find((e) => e.id === id)).toMatchObject({ id, companyId, events, status, createdAt });
      expect(await ctx.storage.webhooks.listSubscribedEndpoints(companyId, "application.updated")).toEqual([]);
    });

    it("listEndpointsAfter walks every company's endpoints by id, a page at a time", async () => {
      const [first, second] = [await ctx.company(), await ctx.company()];
      // Three ids in a row under one random stem: the walk starts at the stem, before them, so
      // that it reads this test's endpoints however many others the database holds.
      const [a, b, c] = orderedIds("we", 3) as [string, string, string];
      const stem = a.slice(0, -1);
      const mine = [
        await endpointOf(first, { id: a }),
        await endpointOf(second, { id: b, status: "disabled", pausedReason: "gone" }),
        await endpointOf(first, { id: c, status: "paused", pausedReason: "manual" }),
      ];
      const walked: WebhookEndpointRecord[] = [];
      let after = stem;
      for (let page = 0; page < 3; page += 1) {
        const rows = await ctx.storage.webhooks.listEndpointsAfter(after, 2);
        expect(rows.length).toBeLessThanOrEqual(2);
        if (rows.length === 0) break;
        walked.push(...rows);
        after = rows[rows.length - 1]?.id ?? after;
        if (after >= c) break;
      }
      const ids = walked.map((endpoint) => endpoint.id);
      expect(ids).toEqual([...ids].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
      expect(new Set(ids).size).toBe(ids.length);
      expect(walked.slice(0, 3)).toEqual(mine);
      // From the start (null): the lowest id there is, which is not above this test's lowest.
      const [lowest] = await ctx.storage.webhooks.listEndpointsAfter(null, 1);
      expect((lowest?.id ?? "~") <= a, `${lowest?.id} comes first, not after ${a}`).toBe(true);
      expect(await ctx.storage.webhooks.listEndpointsAfter(null, 0)).toEqual([]);
    });

    it("replaceEndpointSecrets writes only while the secrets are still the expected ones, and nothing else", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const expiresAt = new Date("2026-11-22T12:00:00.123Z");
      const endpoint = await endpointOf(companyId, {
        secrets: [
          { secret: `whsec_${newId("cur")}`, expiresAt: null },
          { secret: `whsec_${newId("old")}`, expiresAt },
        ],
      });
      const sealed = [
        { secret: `enc:v1:k1:${newId("a")}`, expiresAt: null },
        { secret: `enc:v1:k1:${newId("b")}`, expiresAt },
      ];
      // Another company, a changed list, a changed expiry: nothing is written.
      expect(await ctx.storage.webhooks.replaceEndpointSecrets(other, endpoint.id, endpoint.secrets, sealed)).toBe(
        false,
      );
      expect(
        await ctx.storage.webhooks.replaceEndpointSecrets(companyId, endpoint.id, endpoint.secrets.slice(0, 1), sealed),
      ).toBe(false);
      const moved = endpoint.secrets.map((secret) => ({ ...secret, expiresAt: shift(expiresAt, 1) }));
      expect(await ctx.storage.webhooks.replaceEndpointSecrets(companyId, endpoint.id, moved, sealed)).toBe(false);
      expect(await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id)).toEqual(endpoint);
      // The expected list: written, every other field as it was.
      expect(await ctx.storage.webhooks.replaceEndpointSecrets(companyId, endpoint.id, endpoint.secrets, sealed)).toBe(
        true,
      );
      expect(await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id)).toEqual({ ...endpoint, secrets: sealed });
      // Run again with the old list (a second pass, or a rotation won the race): refused.
      expect(await ctx.storage.webhooks.replaceEndpointSecrets(companyId, endpoint.id, endpoint.secrets, sealed)).toBe(
        false,
      );
      expect(await ctx.storage.webhooks.replaceEndpointSecrets(companyId, newId("we"), endpoint.secrets, sealed)).toBe(
        false,
      );
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
        endpoint: { failureCount: "none", statusChanges: [] },
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
      // Of a type the endpoint does not take: append fans out nothing, the delivery is the test's own.
      const event = makeEvent(companyId, { type: "application.updated" });
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
