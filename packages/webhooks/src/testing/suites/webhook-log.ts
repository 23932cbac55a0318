import { farPast, HOUR, MINUTE, newId, now, orderedIds, SECOND, shift } from "@hireport/core/testing";
import { describe, expect, it } from "vitest";
import type { DeliveryRecord } from "../../store/webhook-records";
import type { WebhookConformanceContext } from "../context";
import { makeAttempt, makeDelivery } from "../fixtures";
import { deliveryHelpers } from "./webhook-delivery-support";

/** The delivery log as the console reads it (attempts of a page at once) and the recovery of failed deliveries. */
export function webhookLogTests(ctx: WebhookConformanceContext): void {
  const { endpointOf, eventOf, claim } = deliveryHelpers(ctx);

  describe("webhooks: the delivery log and recovery", () => {
    it("listAttemptsOf returns each delivery's attempts as listAttempts does, oldest first, scoped to the company", async () => {
      const x = farPast();
      const companyId = await ctx.company();
      const stranger = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const event = await eventOf(companyId, shift(x, -HOUR));
      const deliveries = [0, 1, 2].map(() =>
        makeDelivery(endpoint, event, { createdAt: shift(x, -HOUR), nextAttemptAt: shift(x, -HOUR) }),
      );
      await ctx.storage.webhooks.insertDeliveries(deliveries);
      // Three rounds: each claims the deliveries and records one failed attempt of each.
      for (const round of [0, 1, 2]) {
        const at = shift(x, round * MINUTE);
        const claimed = await claim(at);
        expect(claimed.map((c) => c.delivery.id).sort()).toEqual(deliveries.map((d) => d.id).sort());
        const results = await ctx.storage.webhooks.recordAttempts(
          claimed.map(({ delivery }, index) => ({
            deliveryId: delivery.id,
            leaseToken: delivery.leaseToken ?? "",
            outcome: {
              attempt: makeAttempt(delivery, {
                attemptedAt: shift(at, index),
                statusCode: 500 + round,
                responseBody: `answer ${round} ünï`,
              }),
              status: "pending",
              nextAttemptAt: shift(at, MINUTE),
              endpoint: { failureCount: "none", statusChanges: [] },
            },
          })),
        );
        expect(results.every((result) => result.recorded)).toBe(true);
      }
      const ids = deliveries.map((delivery) => delivery.id);
      const all = await ctx.storage.webhooks.listAttemptsOf(companyId, [...ids, ids[0] ?? "", newId("dlv")]);
      expect(all).toHaveLength(9);
      for (const id of ids) {
        const own = all.filter((attempt) => attempt.deliveryId === id);
        expect(own.map((attempt) => attempt.statusCode)).toEqual([500, 501, 502]);
        expect(own).toEqual(await ctx.storage.webhooks.listAttempts(companyId, id));
      }
      expect(await ctx.storage.webhooks.listAttemptsOf(stranger, ids)).toEqual([]);
      expect(await ctx.storage.webhooks.listAttemptsOf(companyId, [])).toEqual([]);
    });

    it("recoverFailedDeliveries makes failed deliveries since a time pending, oldest first, in batches after a position", async () => {
      const companyId = await ctx.company();
      const stranger = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const other = await endpointOf(companyId);
      const event = await eventOf(companyId);
      const t = now();
      const [a, b] = orderedIds("dlv", 2);
      const failed = (overrides: Partial<DeliveryRecord>) =>
        makeDelivery(endpoint, event, { status: "failed", attempts: 7, nextAttemptAt: null, ...overrides });
      const tooOld = failed({ createdAt: shift(t, -HOUR - 1) });
      const first = failed({ createdAt: shift(t, -HOUR) });
      const tieB = failed({ id: b, createdAt: shift(t, -MINUTE) });
      const tieA = failed({ id: a, createdAt: shift(t, -MINUTE) });
      const last = failed({ createdAt: t });
      const succeeded = makeDelivery(endpoint, event, { status: "succeeded", nextAttemptAt: null });
      const pending = makeDelivery(endpoint, event, { nextAttemptAt: new Date("2037-01-01T00:00:00Z") });
      const otherEndpoint = makeDelivery(other, event, { status: "failed", nextAttemptAt: null });
      await ctx.storage.webhooks.insertDeliveries([tooOld, first, tieB, tieA, last, succeeded, pending, otherEndpoint]);
      const since = shift(t, -HOUR);
      const at = shift(t, SECOND);
      const query = { companyId, endpointId: endpoint.id, since, now: at };

      expect(await ctx.storage.webhooks.recoverFailedDeliveries({ ...query, companyId: stranger, limit: 10 })).toEqual(
        [],
      );
      const batch = await ctx.storage.webhooks.recoverFailedDeliveries({ ...query, limit: 2 });
      expect(batch.map((delivery) => delivery.id)).toEqual([first.id, tieA.id]);
      const lastOfBatch = batch.at(-1) as DeliveryRecord;
      const rest = await ctx.storage.webhooks.recoverFailedDeliveries({
        ...query,
        limit: 10,
        after: { at: lastOfBatch.createdAt, id: lastOfBatch.id },
      });
      expect(rest.map((delivery) => delivery.id)).toEqual([tieB.id, last.id]);
      for (const recovered of [...batch, ...rest]) {
        expect(recovered).toMatchObject({
          status: "pending",
          attempts: 7,
          nextAttemptAt: at,
          leaseToken: null,
          leaseExpiresAt: null,
          updatedAt: at,
        });
        expect(await ctx.storage.webhooks.getDelivery(companyId, recovered.id)).toEqual(recovered);
      }
      // A second run over the same range finds nothing: they are pending now.
      expect(await ctx.storage.webhooks.recoverFailedDeliveries({ ...query, limit: 10 })).toEqual([]);
      expect(await ctx.storage.webhooks.getDelivery(companyId, tooOld.id)).toEqual(tooOld);
      expect(await ctx.storage.webhooks.getDelivery(companyId, succeeded.id)).toEqual(succeeded);
      expect(await ctx.storage.webhooks.getDelivery(companyId, pending.id)).toEqual(pending);
      expect(await ctx.storage.webhooks.getDelivery(companyId, otherEndpoint.id)).toEqual(otherEndpoint);
    });

    it("recoverFailedDeliveries run concurrently recovers each delivery once", async () => {
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const event = await eventOf(companyId);
      const t = now();
      const deliveries = Array.from({ length: 12 }, (_, i) =>
        makeDelivery(endpoint, event, { status: "failed", nextAttemptAt: null, createdAt: shift(t, -i * SECOND) }),
      );
      await ctx.storage.webhooks.insertDeliveries(deliveries);
      const query = { companyId, endpointId: endpoint.id, since: shift(t, -HOUR), now: t, limit: 5 };
      const runs = await Promise.all([0, 1, 2, 3].map(() => ctx.storage.webhooks.recoverFailedDeliveries(query)));
      const ids = runs.flat().map((delivery) => delivery.id);
      expect(new Set(ids).size).toBe(ids.length);
      let more = await ctx.storage.webhooks.recoverFailedDeliveries({ ...query, limit: 100 });
      ids.push(...more.map((delivery) => delivery.id));
      expect(new Set(ids).size).toBe(12);
      more = await ctx.storage.webhooks.recoverFailedDeliveries({ ...query, limit: 100 });
      expect(more).toEqual([]);
    });
  });
}
