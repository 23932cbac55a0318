import { farPast, HOUR, MINUTE, makeEvent, newId, now, SECOND, shift } from "@hireport/core/testing";
import { describe, expect, it } from "vitest";
import { endpointUpdate } from "../../endpoints/endpoint-stops";
import type { AttemptOutcome } from "../../store/webhook-store";
import type { WebhookConformanceContext } from "../context";
import { makeAttempt, makeDelivery } from "../fixtures";

import { deliveryHelpers } from "./webhook-delivery-support";

/** Recording attempts, one by one and in batches: the delivery state machine and failure counts. */
export function webhookAttemptTests(ctx: WebhookConformanceContext): void {
  const { endpointOf, claim, failure, success, leasedDelivery, dueDelivery } = deliveryHelpers(ctx);

  describe("webhooks: recording attempts", () => {
    it("with a stale lease token records nothing and returns recorded false", async () => {
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId, { consecutiveFailures: 4 });
      const { delivery } = await leasedDelivery(endpoint);
      const outcome = failure(delivery, now());
      expect((await ctx.storage.webhooks.recordAttempt(delivery.id, newId("lease"), outcome)).recorded).toBe(false);
      expect(await ctx.storage.webhooks.getDelivery(companyId, delivery.id)).toEqual(delivery);
      expect(await ctx.storage.webhooks.listAttempts(companyId, delivery.id)).toEqual([]);
      expect((await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id))?.consecutiveFailures).toBe(4);
      await ctx.expectRaw("countAttempts", [delivery.id], 0);
    });

    it("after a failure: stores the attempt, moves the delivery on, clears the lease, counts the failure", async () => {
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId, { consecutiveFailures: 4 });
      const { delivery, token } = await leasedDelivery(endpoint, { attempts: 2 });
      const at = now();
      const outcome: AttemptOutcome = {
        attempt: makeAttempt(delivery, {
          attemptedAt: at,
          statusCode: null,
          durationMs: 10_000,
          responseBody: "",
          error: "timeout after 10 s – ünï",
        }),
        status: "pending",
        nextAttemptAt: shift(at, 5 * MINUTE),
        endpoint: endpointUpdate({ succeeded: false, test: false, gone: false, pauseAfter: 50 }),
      };
      const result = await ctx.storage.webhooks.recordAttempt(delivery.id, token, outcome);
      expect(result).toEqual({
        recorded: true,
        endpoint: { ...endpoint, consecutiveFailures: 5, updatedAt: at },
        paused: false,
        disabled: false,
      });
      expect(await ctx.storage.webhooks.getDelivery(companyId, delivery.id)).toMatchObject({
        status: "pending",
        attempts: 3,
        nextAttemptAt: outcome.nextAttemptAt,
        leaseToken: null,
        leaseExpiresAt: null,
      });
      expect(await ctx.storage.webhooks.listAttempts(companyId, delivery.id)).toEqual([outcome.attempt]);
      expect((await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id))?.consecutiveFailures).toBe(5);
      // The lease is gone: the same token cannot record again.
      expect((await ctx.storage.webhooks.recordAttempt(delivery.id, token, failure(delivery, at))).recorded).toBe(
        false,
      );
      await ctx.expectRaw("countAttempts", [delivery.id], 1);
    });

    it("a success resets the failure count; failureCount none leaves it as it is", async () => {
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId, { consecutiveFailures: 7 });
      const test = await leasedDelivery(endpoint);
      const at = now();
      const none = await ctx.storage.webhooks.recordAttempt(test.delivery.id, test.token, {
        attempt: makeAttempt(test.delivery, { attemptedAt: at, statusCode: 500 }),
        status: "failed",
        nextAttemptAt: null,
        endpoint: { failureCount: "none", statusChanges: [] },
      });
      expect(none).toMatchObject({ recorded: true, paused: false });
      expect(none.endpoint?.consecutiveFailures).toBe(7);
      expect((await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id))?.consecutiveFailures).toBe(7);
      expect(await ctx.storage.webhooks.getDelivery(companyId, test.delivery.id)).toMatchObject({
        status: "failed",
        attempts: 1,
        nextAttemptAt: null,
        leaseToken: null,
      });

      const ok = await leasedDelivery(endpoint);
      const succeeded = await ctx.storage.webhooks.recordAttempt(
        ok.delivery.id,
        ok.token,
        success(ok.delivery, { attemptedAt: at, statusCode: 204, responseBody: "" }),
      );
      expect(succeeded.recorded).toBe(true);
      expect(succeeded.endpoint?.consecutiveFailures).toBe(0);
      expect((await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id))?.consecutiveFailures).toBe(0);
      expect((await ctx.storage.webhooks.getDelivery(companyId, ok.delivery.id))?.status).toBe("succeeded");
    });

    it("pauses the endpoint with pausedReason failures when the count reaches pauseAfter", async () => {
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId, { consecutiveFailures: 1 });
      const first = await leasedDelivery(endpoint);
      const one = await ctx.storage.webhooks.recordAttempt(
        first.delivery.id,
        first.token,
        failure(first.delivery, now(), { pauseAfter: 3 }),
      );
      expect(one.endpoint).toMatchObject({ status: "active", consecutiveFailures: 2, pausedReason: null });
      expect(one.paused).toBe(false);
      const second = await leasedDelivery(endpoint);
      const two = await ctx.storage.webhooks.recordAttempt(
        second.delivery.id,
        second.token,
        failure(second.delivery, now(), { pauseAfter: 3 }),
      );
      expect(two.endpoint).toMatchObject({ status: "paused", pausedReason: "failures", consecutiveFailures: 3 });
      expect(two.paused).toBe(true);
      expect(await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id)).toMatchObject({
        status: "paused",
        pausedReason: "failures",
        consecutiveFailures: 3,
      });
      // Paused endpoints still queue events.
      const subscribed = await ctx.storage.webhooks.listSubscribedEndpoints(companyId, "job.created");
      expect(subscribed.map((e) => e.id)).toEqual([endpoint.id]);
      // Already paused: a further failure counts, and does not report a pause again.
      const third = await leasedDelivery(endpoint);
      const three = await ctx.storage.webhooks.recordAttempt(
        third.delivery.id,
        third.token,
        failure(third.delivery, now(), { pauseAfter: 3 }),
      );
      expect(three).toMatchObject({ recorded: true, paused: false, endpoint: { consecutiveFailures: 4 } });
    });

    it("of parallel failures that reach pauseAfter, exactly one reports paused", async () => {
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId, { consecutiveFailures: 2 });
      const held = [];
      for (let i = 0; i < 6; i += 1) held.push(await leasedDelivery(endpoint));
      const results = await Promise.all(
        held.map(({ delivery, token }) =>
          ctx.storage.webhooks.recordAttempt(delivery.id, token, failure(delivery, now(), { pauseAfter: 4 })),
        ),
      );
      expect(results.every((result) => result.recorded)).toBe(true);
      expect(results.filter((result) => result.paused)).toHaveLength(1);
      expect(results.find((result) => result.paused)?.endpoint).toMatchObject({
        status: "paused",
        consecutiveFailures: 4,
      });
      expect(await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id)).toMatchObject({
        status: "paused",
        pausedReason: "failures",
        consecutiveFailures: 8,
      });
      // A stale token reports nothing.
      const { delivery } = await leasedDelivery(endpoint);
      const stale = await ctx.storage.webhooks.recordAttempt(delivery.id, newId("lease"), failure(delivery, now()));
      expect(stale).toMatchObject({ recorded: false, paused: false });
    });

    it("disable (a 410 Gone): counts the failure, disables the endpoint and reports it once; resuming lets its deliveries go", async () => {
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId, { consecutiveFailures: 2 });
      // In the 1990s: the claims below see every company's due deliveries, and none of a host's are due then.
      const at = farPast();
      const gone = await leasedDelivery(endpoint);
      const waiting = await leasedDelivery(endpoint, {
        createdAt: at,
        nextAttemptAt: at,
        leaseToken: null,
        leaseExpiresAt: null,
      });
      const result = await ctx.storage.webhooks.recordAttempt(gone.delivery.id, gone.token, {
        attempt: makeAttempt(gone.delivery, { attemptedAt: at, statusCode: 410 }),
        status: "failed",
        nextAttemptAt: null,
        endpoint: endpointUpdate({ succeeded: false, test: false, gone: true, pauseAfter: 3 }),
      });
      const disabled = { status: "disabled", pausedReason: "gone", consecutiveFailures: 3, updatedAt: at };
      expect(result).toEqual({ recorded: true, endpoint: { ...endpoint, ...disabled }, paused: false, disabled: true });
      expect(await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id)).toEqual({ ...endpoint, ...disabled });
      expect(await ctx.storage.webhooks.getDelivery(companyId, gone.delivery.id)).toMatchObject({
        status: "failed",
        attempts: 1,
        leaseToken: null,
      });
      // Disabled: no claim takes its pending deliveries, no new event reaches it.
      expect((await claim(shift(at, HOUR))).map((c) => c.delivery.id)).not.toContain(waiting.delivery.id);
      expect(await ctx.storage.webhooks.listSubscribedEndpoints(companyId, "job.created")).toEqual([]);
      // A later attempt of it (one that was in flight) counts, and does not report a disabling again.
      const inFlight = await leasedDelivery(endpoint);
      const again = await ctx.storage.webhooks.recordAttempt(
        inFlight.delivery.id,
        inFlight.token,
        failure(inFlight.delivery, shift(at, SECOND), { gone: true }),
      );
      expect(again).toMatchObject({ recorded: true, paused: false, disabled: false });
      expect(again.endpoint).toMatchObject({ status: "disabled", pausedReason: "gone", consecutiveFailures: 4 });
      // The host resumes it: the waiting delivery is claimed again.
      await ctx.storage.webhooks.updateEndpoint(companyId, endpoint.id, {
        status: "active",
        pausedReason: null,
        consecutiveFailures: 0,
        updatedAt: shift(at, MINUTE),
      });
      const claimed = await claim(shift(at, HOUR));
      expect(claimed.map((c) => c.delivery.id)).toContain(waiting.delivery.id);
    });

    it("disable on a paused endpoint disables it; of parallel disabling attempts exactly one reports disabled", async () => {
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId, { status: "paused", pausedReason: "manual" });
      const held = [];
      for (let i = 0; i < 5; i += 1) held.push(await leasedDelivery(endpoint));
      const results = await Promise.all(
        held.map(({ delivery, token }) =>
          ctx.storage.webhooks.recordAttempt(delivery.id, token, failure(delivery, now(), { gone: true })),
        ),
      );
      expect(results.every((result) => result.recorded)).toBe(true);
      expect(results.filter((result) => result.disabled)).toHaveLength(1);
      expect(results.some((result) => result.paused)).toBe(false);
      expect(await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id)).toMatchObject({
        status: "disabled",
        pausedReason: "gone",
        consecutiveFailures: 5,
      });
    });

    it("listAttempts returns a delivery's attempts oldest first, scoped to the company", async () => {
      const t = farPast();
      const { companyId, delivery } = await dueDelivery(t);
      const [a] = await claim(t);
      const first = failure(delivery, shift(t, SECOND));
      await ctx.storage.webhooks.recordAttempt(delivery.id, a?.delivery.leaseToken ?? "", first);
      const [b] = await claim(shift(t, 2 * MINUTE));
      expect(b?.delivery).toMatchObject({ id: delivery.id, attempts: 1 });
      const second = failure(delivery, shift(t, 2 * MINUTE + SECOND));
      await ctx.storage.webhooks.recordAttempt(delivery.id, b?.delivery.leaseToken ?? "", second);
      expect(await ctx.storage.webhooks.listAttempts(companyId, delivery.id)).toEqual([first.attempt, second.attempt]);
      expect(await ctx.storage.webhooks.listAttempts(companyId, newId("dlv"))).toEqual([]);
      const other = await ctx.company();
      expect(await ctx.storage.webhooks.listAttempts(other, delivery.id)).toEqual([]);
    });
  });

  describe("webhooks: recording attempts in batches (recordAttempts)", () => {
    it("accepts an empty list", async () => {
      expect(await ctx.storage.webhooks.recordAttempts([])).toEqual([]);
    });

    it("records each item as recordAttempt would, in order, each delivery with its own values", async () => {
      const companyId = await ctx.company();
      const healthy = await endpointOf(companyId, { consecutiveFailures: 3 });
      const failing = await endpointOf(companyId, { consecutiveFailures: 0 });
      const t = now();
      const ok = await leasedDelivery(healthy, { attempts: 1 });
      const bad = await leasedDelivery(failing, { attempts: 2 });
      const test = await leasedDelivery(failing, { eventType: "webhook.test" });
      const stale = await leasedDelivery(healthy);
      const okOutcome = success(ok.delivery, { attemptedAt: shift(t, SECOND) });
      const badOutcome: AttemptOutcome = {
        ...failure(bad.delivery, shift(t, 2 * SECOND)),
        nextAttemptAt: shift(t, HOUR),
      };
      const testOutcome: AttemptOutcome = {
        attempt: makeAttempt(test.delivery, { attemptedAt: shift(t, 3 * SECOND) }),
        status: "failed",
        nextAttemptAt: null,
        endpoint: { failureCount: "none", statusChanges: [] },
      };
      const results = await ctx.storage.webhooks.recordAttempts([
        { deliveryId: ok.delivery.id, leaseToken: ok.token, outcome: okOutcome },
        { deliveryId: bad.delivery.id, leaseToken: bad.token, outcome: badOutcome },
        { deliveryId: stale.delivery.id, leaseToken: newId("lease"), outcome: failure(stale.delivery, t) },
        { deliveryId: test.delivery.id, leaseToken: test.token, outcome: testOutcome },
        // The same delivery again: its lease was cleared by the first item.
        { deliveryId: ok.delivery.id, leaseToken: ok.token, outcome: failure(ok.delivery, t) },
      ]);
      expect(results.map((result) => result.recorded)).toEqual([true, true, false, true, false]);
      expect(results.map((result) => result.paused)).toEqual([false, false, false, false, false]);
      expect(results[0]?.endpoint).toEqual({
        ...healthy,
        consecutiveFailures: 0,
        updatedAt: okOutcome.attempt.attemptedAt,
      });
      expect(results[1]?.endpoint).toEqual({
        ...failing,
        consecutiveFailures: 1,
        updatedAt: badOutcome.attempt.attemptedAt,
      });
      expect(results[2]?.endpoint?.id).toBe(healthy.id);
      expect(await ctx.storage.webhooks.getDelivery(companyId, ok.delivery.id)).toEqual({
        ...ok.delivery,
        status: "succeeded",
        attempts: 2,
        nextAttemptAt: null,
        leaseToken: null,
        leaseExpiresAt: null,
        updatedAt: okOutcome.attempt.attemptedAt,
      });
      expect(await ctx.storage.webhooks.getDelivery(companyId, bad.delivery.id)).toEqual({
        ...bad.delivery,
        status: "pending",
        attempts: 3,
        nextAttemptAt: shift(t, HOUR),
        leaseToken: null,
        leaseExpiresAt: null,
        updatedAt: badOutcome.attempt.attemptedAt,
      });
      expect(await ctx.storage.webhooks.getDelivery(companyId, test.delivery.id)).toMatchObject({
        status: "failed",
        attempts: 1,
        nextAttemptAt: null,
        leaseToken: null,
        updatedAt: testOutcome.attempt.attemptedAt,
      });
      expect(await ctx.storage.webhooks.getDelivery(companyId, stale.delivery.id)).toEqual(stale.delivery);
      expect(await ctx.storage.webhooks.listAttempts(companyId, ok.delivery.id)).toEqual([okOutcome.attempt]);
      expect(await ctx.storage.webhooks.listAttempts(companyId, bad.delivery.id)).toEqual([badOutcome.attempt]);
      expect(await ctx.storage.webhooks.listAttempts(companyId, test.delivery.id)).toEqual([testOutcome.attempt]);
      expect(await ctx.storage.webhooks.listAttempts(companyId, stale.delivery.id)).toEqual([]);
      await ctx.expectRaw("countAttempts", [ok.delivery.id], 1);
      expect(await ctx.storage.webhooks.getEndpoint(companyId, healthy.id)).toMatchObject({ consecutiveFailures: 0 });
      expect(await ctx.storage.webhooks.getEndpoint(companyId, failing.id)).toMatchObject({ consecutiveFailures: 1 });
    });

    it("applies failure counts in order: a reset between failures, and one pause reported in a batch", async () => {
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId, { consecutiveFailures: 1 });
      const held: Awaited<ReturnType<typeof leasedDelivery>>[] = [];
      for (let i = 0; i < 5; i += 1) held.push(await leasedDelivery(endpoint));
      const t = now();
      const item = (index: number, outcome: AttemptOutcome) => ({
        deliveryId: held[index]?.delivery.id ?? "",
        leaseToken: held[index]?.token ?? "",
        outcome,
      });
      const at = (index: number) => shift(t, index * SECOND);
      const d = (index: number) => held[index]?.delivery ?? makeDelivery(endpoint, makeEvent(companyId));
      // 1 -> reset 0 -> 1 -> 2 (pauses) -> 3 -> 4
      const results = await ctx.storage.webhooks.recordAttempts([
        item(0, success(d(0), { attemptedAt: at(0) })),
        item(1, failure(d(1), at(1), { pauseAfter: 2 })),
        item(2, failure(d(2), at(2), { pauseAfter: 2 })),
        item(3, failure(d(3), at(3), { pauseAfter: 2 })),
        item(4, failure(d(4), at(4), { pauseAfter: 2 })),
      ]);
      expect(results.map((result) => result.recorded)).toEqual([true, true, true, true, true]);
      expect(results.map((result) => result.paused)).toEqual([false, false, true, false, false]);
      // Each result shows the endpoint as its item left it.
      const states = [
        { status: "active", pausedReason: null, consecutiveFailures: 0, updatedAt: at(0) },
        { status: "active", pausedReason: null, consecutiveFailures: 1, updatedAt: at(1) },
        { status: "paused", pausedReason: "failures", consecutiveFailures: 2, updatedAt: at(2) },
        { status: "paused", pausedReason: "failures", consecutiveFailures: 3, updatedAt: at(3) },
        { status: "paused", pausedReason: "failures", consecutiveFailures: 4, updatedAt: at(4) },
      ];
      expect(results.map((result) => result.endpoint)).toEqual(states.map((state) => ({ ...endpoint, ...state })));
      expect(await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id)).toEqual({ ...endpoint, ...states[4] });
    });

    it("a disabling item in a batch: the endpoint as each item left it, one reports disabled, a pause before it kept", async () => {
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId, { consecutiveFailures: 0 });
      const held: Awaited<ReturnType<typeof leasedDelivery>>[] = [];
      for (let i = 0; i < 4; i += 1) held.push(await leasedDelivery(endpoint));
      const t = now();
      const at = (index: number) => shift(t, index * SECOND);
      const item = (index: number, disable: boolean) => {
        const entry = held[index] ?? held[0];
        if (!entry) throw new Error("no delivery");
        return {
          deliveryId: entry.delivery.id,
          leaseToken: entry.token,
          outcome: failure(entry.delivery, at(index), { pauseAfter: 2, gone: disable }),
        };
      };
      // 1 -> 2 (pauses) -> 3 (disables) -> 4 (disables again: no report)
      const results = await ctx.storage.webhooks.recordAttempts([
        item(0, false),
        item(1, false),
        item(2, true),
        item(3, true),
      ]);
      expect(results.map((result) => [result.paused, result.disabled])).toEqual([
        [false, false],
        [true, false],
        [false, true],
        [false, false],
      ]);
      expect(results.map((result) => result.endpoint?.status)).toEqual(["active", "paused", "disabled", "disabled"]);
      expect(await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id)).toEqual({
        ...endpoint,
        status: "disabled",
        pausedReason: "gone",
        consecutiveFailures: 4,
        updatedAt: at(3),
      });
    });

    it("of parallel batches that take an endpoint to pauseAfter, exactly one item reports paused", async () => {
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId, { consecutiveFailures: 2 });
      const held: Awaited<ReturnType<typeof leasedDelivery>>[] = [];
      for (let i = 0; i < 6; i += 1) held.push(await leasedDelivery(endpoint));
      const batch = (part: typeof held) =>
        ctx.storage.webhooks.recordAttempts(
          part.map(({ delivery, token }) => ({
            deliveryId: delivery.id,
            leaseToken: token,
            outcome: failure(delivery, now(), { pauseAfter: 4 }),
          })),
        );
      const results = (await Promise.all([batch(held.slice(0, 3)), batch(held.slice(3))])).flat();
      expect(results.every((result) => result.recorded)).toBe(true);
      expect(results.filter((result) => result.paused)).toHaveLength(1);
      expect(await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id)).toMatchObject({
        status: "paused",
        pausedReason: "failures",
        consecutiveFailures: 8,
      });
    });

    it("writes all or nothing: a batch that fails leaves every delivery held and no attempt", async () => {
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const first = await leasedDelivery(endpoint);
      const second = await leasedDelivery(endpoint);
      const taken = await leasedDelivery(endpoint);
      const recorded = failure(taken.delivery, now());
      expect((await ctx.storage.webhooks.recordAttempt(taken.delivery.id, taken.token, recorded)).recorded).toBe(true);
      // The second item reuses an attempt id that exists: the whole batch must fail.
      await expect(
        ctx.storage.webhooks.recordAttempts([
          { deliveryId: first.delivery.id, leaseToken: first.token, outcome: failure(first.delivery, now()) },
          {
            deliveryId: second.delivery.id,
            leaseToken: second.token,
            outcome: {
              ...failure(second.delivery, now()),
              attempt: { ...recorded.attempt, deliveryId: second.delivery.id },
            },
          },
        ]),
      ).rejects.toThrow();
      expect(await ctx.storage.webhooks.getDelivery(companyId, first.delivery.id)).toEqual(first.delivery);
      expect(await ctx.storage.webhooks.getDelivery(companyId, second.delivery.id)).toEqual(second.delivery);
      await ctx.expectRaw("countAttempts", [first.delivery.id], 0);
      expect((await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id))?.consecutiveFailures).toBe(1);
    });
  });
}
