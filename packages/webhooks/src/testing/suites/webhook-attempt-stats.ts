import { HOUR, MINUTE, now, shift } from "@hireport/core/testing";
import { describe, expect, it } from "vitest";
import { endpointUpdate } from "../../endpoints/endpoint-stops";
import type { AttemptOutcome } from "../../store/webhook-store";
import type { WebhookConformanceContext } from "../context";
import { makeAttempt } from "../fixtures";
import { deliveryHelpers } from "./webhook-delivery-support";

/** `attemptStats`: an endpoint's attempts summed per time bucket (the console's endpoint health). */
export function webhookAttemptStatsTests(ctx: WebhookConformanceContext): void {
  const { endpointOf, leasedDelivery } = deliveryHelpers(ctx);

  /** Records one attempt of a new delivery of `endpoint`, made at `at`, taking `durationMs`. */
  async function attemptAt(
    endpoint: Awaited<ReturnType<typeof endpointOf>>,
    at: Date,
    durationMs: number,
    succeeded: boolean,
  ): Promise<void> {
    const { delivery, token } = await leasedDelivery(endpoint);
    const outcome: AttemptOutcome = {
      attempt: makeAttempt(delivery, {
        attemptedAt: at,
        durationMs,
        succeeded,
        statusCode: succeeded ? 200 : 503,
        error: succeeded ? null : "HTTP 503",
      }),
      status: succeeded ? "succeeded" : "failed",
      nextAttemptAt: null,
      endpoint: endpointUpdate({ succeeded, test: false, gone: false, pauseAfter: 50 }),
    };
    expect((await ctx.storage.webhooks.recordAttempt(delivery.id, token, outcome)).recorded).toBe(true);
  }

  describe("webhooks: attempt statistics per time bucket", () => {
    it("attemptStats sums an endpoint's attempts per bucket of the range, bounds included at the start only", async () => {
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const other = await endpointOf(companyId);
      const since = new Date(Math.floor(shift(now(), -5 * HOUR).getTime() / HOUR) * HOUR);
      // Bucket 0: the first instant of the range and its last millisecond.
      await attemptAt(endpoint, since, 120, true);
      await attemptAt(endpoint, shift(since, HOUR - 1), 300, false);
      await attemptAt(endpoint, shift(since, 30 * MINUTE), 40, true);
      // Bucket 2 (bucket 1 has none).
      await attemptAt(endpoint, shift(since, 2 * HOUR), 50, false);
      // Outside the range: just before it, and at its end (exclusive).
      await attemptAt(endpoint, shift(since, -1), 999, true);
      await attemptAt(endpoint, shift(since, 3 * HOUR), 999, true);
      // Another endpoint of the company, inside the range.
      await attemptAt(other, shift(since, HOUR), 999, true);

      const query = { companyId, endpointId: endpoint.id, since, bucketMs: HOUR, buckets: 3 };
      expect(await ctx.storage.webhooks.attemptStats(query)).toEqual([
        { index: 0, attempts: 3, succeeded: 2, totalDurationMs: 460, maxDurationMs: 300 },
        { index: 2, attempts: 1, succeeded: 0, totalDurationMs: 50, maxDurationMs: 50 },
      ]);
      // One bucket of the whole range, and one that starts later.
      expect(await ctx.storage.webhooks.attemptStats({ ...query, bucketMs: 3 * HOUR, buckets: 1 })).toEqual([
        { index: 0, attempts: 4, succeeded: 2, totalDurationMs: 510, maxDurationMs: 300 },
      ]);
      expect(await ctx.storage.webhooks.attemptStats({ ...query, since: shift(since, HOUR), buckets: 3 })).toEqual([
        { index: 1, attempts: 1, succeeded: 0, totalDurationMs: 50, maxDurationMs: 50 },
        { index: 2, attempts: 1, succeeded: 1, totalDurationMs: 999, maxDurationMs: 999 },
      ]);
      expect(
        await ctx.storage.webhooks.attemptStats({ ...query, endpointId: other.id, bucketMs: HOUR, buckets: 3 }),
      ).toEqual([{ index: 1, attempts: 1, succeeded: 1, totalDurationMs: 999, maxDurationMs: 999 }]);
    });

    it("attemptStats is scoped to the company and empty for an endpoint without attempts in the range", async () => {
      const companyId = await ctx.company();
      const stranger = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const since = new Date(Math.floor(shift(now(), -3 * HOUR).getTime() / HOUR) * HOUR);
      await attemptAt(endpoint, shift(since, MINUTE), 10, true);
      const query = { companyId, endpointId: endpoint.id, since, bucketMs: HOUR, buckets: 2 };
      expect(await ctx.storage.webhooks.attemptStats(query)).toHaveLength(1);
      expect(await ctx.storage.webhooks.attemptStats({ ...query, companyId: stranger })).toEqual([]);
      expect(await ctx.storage.webhooks.attemptStats({ ...query, since: shift(since, HOUR) })).toEqual([]);
      expect(await ctx.storage.webhooks.attemptStats({ ...query, endpointId: "we_missing" })).toEqual([]);
    });
  });
}
