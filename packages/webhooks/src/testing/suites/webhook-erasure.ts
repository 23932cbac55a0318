import { type EventRecord, REDACTED_RESPONSE_BODY, redactApplications } from "@hireport/core/storage";
import { applicationEvent, makeApplication, newId, now, randomHex } from "@hireport/core/testing";
import { describe, expect, it } from "vitest";
import type { WebhookConformanceContext } from "../context";
import { makeDelivery } from "../fixtures";
import { deliveryHelpers, FAR_LEASE } from "./webhook-delivery-support";

/** Erasure of a candidate (`candidates.erase` of core) as it meets the webhook store's attempts. */
export function webhookErasureTests(ctx: WebhookConformanceContext): void {
  const { endpointOf, eventOf, success } = deliveryHelpers(ctx);

  /** A company with a job and a candidate with a unique e-mail and name. */
  async function world() {
    const companyId = await ctx.company();
    const job = await ctx.job(companyId, { title: "Data Engineer" });
    const email = `zoe.${randomHex(10)}@example.com`;
    const base = makeApplication(companyId, job.id);
    const application = makeApplication(companyId, job.id, {
      candidate: { ...base.candidate, name: `Zoë Ångström ${randomHex(6)}`, email },
      emailNormalized: email,
    });
    expect(await ctx.createApplication(application)).toEqual({ outcome: "created" });
    return { companyId, job, application };
  }

  /** `world()` with a second candidate, an endpoint, and an appended event of each application. */
  async function twoCandidates() {
    const { companyId, job, application } = await world();
    const other = makeApplication(companyId, job.id);
    expect(await ctx.createApplication(other)).toEqual({ outcome: "created" });
    const endpoint = await endpointOf(companyId);
    const mine = applicationEvent(application, job.title);
    const theirs = applicationEvent(other, job.title);
    for (const event of [mine, theirs]) await ctx.storage.events.append(event);
    return { companyId, job, application, other, endpoint, mine, theirs };
  }

  /** A delivery of `event` held under a lease (an attempt is stored through recordAttempt only). */
  async function heldDelivery(endpoint: Awaited<ReturnType<typeof endpointOf>>, event: EventRecord) {
    const token = newId("lease");
    const held = makeDelivery(endpoint, event, {
      nextAttemptAt: FAR_LEASE,
      leaseToken: token,
      leaseExpiresAt: FAR_LEASE,
    });
    await ctx.storage.webhooks.insertDeliveries([held]);
    return { held, token };
  }

  describe("webhooks: erasure", () => {
    it("erase redacts the answers of the attempts of the subject's events, and only those", async () => {
      const { companyId, application, endpoint, mine, theirs } = await twoCandidates();
      const echo = async (event: EventRecord) => {
        const { held, token } = await heldDelivery(endpoint, event);
        const outcome = success(held, { responseBody: `echo: ${event.payload}` });
        expect((await ctx.storage.webhooks.recordAttempt(held.id, token, outcome)).recorded).toBe(true);
        return { held, attempt: outcome.attempt };
      };
      const myAttempt = await echo(mine);
      const theirAttempt = await echo(theirs);

      const at = now();
      const result = await ctx.storage.transaction((tx) =>
        tx.candidates.erase({ companyId, applicationIds: [application.id], erasedAt: at }),
      );
      expect(result).toMatchObject({ events: 2, attempts: 1 });
      expect((await ctx.storage.events.get(mine.id))?.payload).toBe(
        redactApplications(mine.payload, [application.id], at),
      );
      expect(await ctx.storage.webhooks.listAttempts(companyId, myAttempt.held.id)).toEqual([
        { ...myAttempt.attempt, responseBody: REDACTED_RESPONSE_BODY },
      ]);
      expect(await ctx.storage.webhooks.listAttempts(companyId, theirAttempt.held.id)).toEqual([theirAttempt.attempt]);
      await ctx.expectRaw("findText", [application.candidate.email], []);
      await ctx.expectRaw("findText", [application.candidate.name], []);
    });

    it("recordAttempt after the erasure stores no answer for an event of the erased application", async () => {
      const { companyId, job, application } = await world();
      const endpoint = await endpointOf(companyId);
      const event = applicationEvent(application, job.title);
      await ctx.storage.events.append(event);
      const { held, token } = await heldDelivery(endpoint, event);
      await ctx.storage.transaction((tx) =>
        tx.candidates.erase({ companyId, applicationIds: [application.id], erasedAt: now() }),
      );
      const outcome = success(held, { responseBody: `you sent: ${event.payload}` });
      const [result] = await ctx.storage.webhooks.recordAttempts([{ deliveryId: held.id, leaseToken: token, outcome }]);
      expect(result?.recorded).toBe(true);
      expect(await ctx.storage.webhooks.listAttempts(companyId, held.id)).toEqual([
        { ...outcome.attempt, responseBody: REDACTED_RESPONSE_BODY },
      ]);
      await ctx.expectRaw("findText", [application.candidate.email], []);
    });

    it("recordAttempts of a batch mixing job and application events keeps only the erased application's answer out", async () => {
      const { companyId, application, endpoint, mine: erasedEvent, theirs: keptEvent } = await twoCandidates();
      const jobEvent = await eventOf(companyId);
      await ctx.storage.transaction((tx) =>
        tx.candidates.erase({ companyId, applicationIds: [application.id], erasedAt: now() }),
      );
      const held = [];
      for (const event of [jobEvent, erasedEvent, keptEvent, erasedEvent]) {
        const { held: delivery, token } = await heldDelivery(endpoint, event);
        const outcome = success(delivery, { responseBody: `you sent: ${event.payload}` });
        held.push({ delivery, item: { deliveryId: delivery.id, leaseToken: token, outcome } });
      }
      const results = await ctx.storage.webhooks.recordAttempts(held.map((entry) => entry.item));
      expect(results.map((result) => result.recorded)).toEqual([true, true, true, true]);
      const bodies = [];
      for (const { delivery } of held) {
        bodies.push((await ctx.storage.webhooks.listAttempts(companyId, delivery.id)).map((a) => a.responseBody));
      }
      expect(bodies).toEqual([
        [`you sent: ${jobEvent.payload}`],
        [REDACTED_RESPONSE_BODY],
        [`you sent: ${keptEvent.payload}`],
        [REDACTED_RESPONSE_BODY],
      ]);
      await ctx.expectRaw("findText", [application.candidate.email], []);
    });
  });
}
