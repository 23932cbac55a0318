import { describe, expect, it } from "vitest";
import type { DeliveryRecord, EventRecord, WebhookEndpointRecord } from "../../domain";
import type { AttemptOutcome, ClaimOptions } from "../../storage";
import type { ConformanceContext } from "../context";
import {
  farPast,
  HOUR,
  MINUTE,
  makeAttempt,
  makeDelivery,
  makeEndpoint,
  makeEvent,
  newId,
  now,
  orderedIds,
  SECOND,
  shift,
} from "../fixtures";

/** A lease that no claim of this suite reaches, for deliveries leased at insert time. */
const FAR_LEASE = new Date("2037-01-01T00:00:00.000Z");

export function webhookDeliveryTests(ctx: ConformanceContext): void {
  async function endpointOf(companyId: string, overrides: Partial<WebhookEndpointRecord> = {}) {
    const endpoint = makeEndpoint(companyId, overrides);
    await ctx.storage.webhooks.insertEndpoint(endpoint);
    ctx.defer(() => ctx.storage.webhooks.deleteEndpoint(companyId, endpoint.id));
    return endpoint;
  }

  async function eventOf(companyId: string, createdAt = now()): Promise<EventRecord> {
    const event = makeEvent(companyId, { createdAt });
    await ctx.storage.events.append(event);
    return event;
  }

  function claim(at: Date, overrides: Partial<ClaimOptions> = {}) {
    return ctx.storage.webhooks.claimDueDeliveries({
      now: at,
      limit: 100,
      leaseUntil: shift(at, 30 * SECOND),
      leaseToken: newId("lease"),
      ...overrides,
    });
  }

  function failure(delivery: Pick<DeliveryRecord, "id" | "endpointId">, at: Date): AttemptOutcome {
    return {
      attempt: makeAttempt(delivery, { attemptedAt: at }),
      status: "pending",
      nextAttemptAt: shift(at, MINUTE),
      failureCount: "increment",
      pauseAfter: 50,
    };
  }

  /** A pending delivery that already holds a lease (as if claimed), never due for a claim test. */
  async function leasedDelivery(endpoint: WebhookEndpointRecord, overrides: Partial<DeliveryRecord> = {}) {
    const event = await eventOf(endpoint.companyId);
    const token = newId("lease");
    const delivery = makeDelivery(endpoint, event, {
      nextAttemptAt: now(),
      leaseToken: token,
      leaseExpiresAt: FAR_LEASE,
      ...overrides,
    });
    await ctx.storage.webhooks.insertDeliveries([delivery]);
    return { delivery, token };
  }

  describe("webhooks: claiming deliveries", () => {
    it("claims due pending deliveries of active endpoints only, oldest first, up to limit, and sets the lease", async () => {
      const t = farPast();
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const paused = await endpointOf(companyId, { status: "paused", pausedReason: "manual" });
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
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const event = await eventOf(companyId, shift(t, -HOUR));
      const delivery = makeDelivery(endpoint, event, { createdAt: shift(t, -MINUTE), nextAttemptAt: t });
      await ctx.storage.webhooks.insertDeliveries([delivery]);
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

  describe("webhooks: releasing deliveries", () => {
    it("releaseDeliveries clears the lease of those still held under the token, leaving them as they were", async () => {
      const t = farPast();
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const event = await eventOf(companyId, shift(t, -HOUR));
      const at = (ms: number) => ({ createdAt: shift(t, ms), nextAttemptAt: shift(t, ms) });
      const d1 = makeDelivery(endpoint, event, { ...at(-3 * MINUTE), attempts: 2 });
      const d2 = makeDelivery(endpoint, event, at(-2 * MINUTE));
      const d3 = makeDelivery(endpoint, event, at(-MINUTE));
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
        failureCount: "increment",
        pauseAfter: 50,
      };
      const result = await ctx.storage.webhooks.recordAttempt(delivery.id, token, outcome);
      expect(result).toEqual({
        recorded: true,
        endpoint: { ...endpoint, consecutiveFailures: 5, updatedAt: at },
        paused: false,
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
        failureCount: "none",
        pauseAfter: 50,
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
      const success = await ctx.storage.webhooks.recordAttempt(ok.delivery.id, ok.token, {
        attempt: makeAttempt(ok.delivery, {
          attemptedAt: at,
          statusCode: 204,
          responseBody: "",
          error: null,
          succeeded: true,
        }),
        status: "succeeded",
        nextAttemptAt: null,
        failureCount: "reset",
        pauseAfter: 50,
      });
      expect(success.recorded).toBe(true);
      expect(success.endpoint?.consecutiveFailures).toBe(0);
      expect((await ctx.storage.webhooks.getEndpoint(companyId, endpoint.id))?.consecutiveFailures).toBe(0);
      expect((await ctx.storage.webhooks.getDelivery(companyId, ok.delivery.id))?.status).toBe("succeeded");
    });

    it("pauses the endpoint with pausedReason failures when the count reaches pauseAfter", async () => {
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId, { consecutiveFailures: 1 });
      const first = await leasedDelivery(endpoint);
      const one = await ctx.storage.webhooks.recordAttempt(first.delivery.id, first.token, {
        ...failure(first.delivery, now()),
        pauseAfter: 3,
      });
      expect(one.endpoint).toMatchObject({ status: "active", consecutiveFailures: 2, pausedReason: null });
      expect(one.paused).toBe(false);
      const second = await leasedDelivery(endpoint);
      const two = await ctx.storage.webhooks.recordAttempt(second.delivery.id, second.token, {
        ...failure(second.delivery, now()),
        pauseAfter: 3,
      });
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
      const three = await ctx.storage.webhooks.recordAttempt(third.delivery.id, third.token, {
        ...failure(third.delivery, now()),
        pauseAfter: 3,
      });
      expect(three).toMatchObject({ recorded: true, paused: false, endpoint: { consecutiveFailures: 4 } });
    });

    it("of parallel failures that reach pauseAfter, exactly one reports paused", async () => {
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId, { consecutiveFailures: 2 });
      const held = [];
      for (let i = 0; i < 6; i += 1) held.push(await leasedDelivery(endpoint));
      const results = await Promise.all(
        held.map(({ delivery, token }) =>
          ctx.storage.webhooks.recordAttempt(delivery.id, token, { ...failure(delivery, now()), pauseAfter: 4 }),
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

    it("listAttempts returns a delivery's attempts oldest first, scoped to the company", async () => {
      const t = farPast();
      const companyId = await ctx.company();
      const endpoint = await endpointOf(companyId);
      const event = await eventOf(companyId, shift(t, -HOUR));
      const delivery = makeDelivery(endpoint, event, { createdAt: shift(t, -MINUTE), nextAttemptAt: t });
      await ctx.storage.webhooks.insertDeliveries([delivery]);
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
      await ctx.storage.webhooks.recordAttempt(withAttempt.delivery.id, withAttempt.token, {
        attempt: makeAttempt(withAttempt.delivery, { succeeded: true, statusCode: 200, error: null }),
        status: "succeeded",
        nextAttemptAt: null,
        failureCount: "reset",
        pauseAfter: 50,
      });
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

  describe("webhooks: recording attempts in batches (recordAttempts)", () => {
    function success(delivery: Pick<DeliveryRecord, "id" | "endpointId">, at: Date): AttemptOutcome {
      return {
        attempt: makeAttempt(delivery, { attemptedAt: at, statusCode: 200, error: null, succeeded: true }),
        status: "succeeded",
        nextAttemptAt: null,
        failureCount: "reset",
        pauseAfter: 50,
      };
    }

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
      const okOutcome = success(ok.delivery, shift(t, SECOND));
      const badOutcome: AttemptOutcome = {
        ...failure(bad.delivery, shift(t, 2 * SECOND)),
        nextAttemptAt: shift(t, HOUR),
      };
      const testOutcome: AttemptOutcome = {
        attempt: makeAttempt(test.delivery, { attemptedAt: shift(t, 3 * SECOND) }),
        status: "failed",
        nextAttemptAt: null,
        failureCount: "none",
        pauseAfter: 50,
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
        outcome: { ...outcome, pauseAfter: 2 },
      });
      const at = (index: number) => shift(t, index * SECOND);
      const d = (index: number) => held[index]?.delivery ?? makeDelivery(endpoint, makeEvent(companyId));
      // 1 -> reset 0 -> 1 -> 2 (pauses) -> 3 -> 4
      const results = await ctx.storage.webhooks.recordAttempts([
        item(0, success(d(0), at(0))),
        item(1, failure(d(1), at(1))),
        item(2, failure(d(2), at(2))),
        item(3, failure(d(3), at(3))),
        item(4, failure(d(4), at(4))),
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
            outcome: { ...failure(delivery, now()), pauseAfter: 4 },
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
