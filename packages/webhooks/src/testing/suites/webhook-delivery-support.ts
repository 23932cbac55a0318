import type { EventRecord } from "@hireport/core/storage";
import { HOUR, MINUTE, makeEvent, newId, now, SECOND, shift } from "@hireport/core/testing";
import { endpointUpdate } from "../../endpoints/endpoint-stops";
import type { DeliveryAttemptRecord, DeliveryRecord, WebhookEndpointRecord } from "../../store/webhook-records";
import type { AttemptOutcome, ClaimOptions } from "../../store/webhook-store";
import type { WebhookConformanceContext } from "../context";
import { makeAttempt, makeDelivery, makeEndpoint } from "../fixtures";

/** A lease that no claim of the delivery suites reaches, for deliveries leased at insert time. */
export const FAR_LEASE = new Date("2037-01-01T00:00:00.000Z");

/** Helpers the webhook delivery suites share: endpoints, events, claims and leased deliveries. */
export function deliveryHelpers(ctx: WebhookConformanceContext) {
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

  /**
   * What a dispatcher records for a failed attempt (`endpointUpdate` of this package decides what it
   * does to the endpoint): a retry a minute later, the endpoint paused at `pauseAfter` failures in a
   * row (50 unless given), disabled when `gone` (a 410 Gone).
   */
  function failure(
    delivery: Pick<DeliveryRecord, "id" | "endpointId">,
    at: Date,
    { pauseAfter = 50, gone = false }: { pauseAfter?: number; gone?: boolean } = {},
  ): AttemptOutcome {
    return {
      attempt: makeAttempt(delivery, { attemptedAt: at, ...(gone ? { statusCode: 410 } : {}) }),
      status: "pending",
      nextAttemptAt: shift(at, MINUTE),
      endpoint: endpointUpdate({ succeeded: false, test: false, gone, pauseAfter }),
    };
  }

  /** What a dispatcher records for a 2xx answer (200 unless `attempt` says otherwise): the failure count reset. */
  function success(
    delivery: Pick<DeliveryRecord, "id" | "endpointId">,
    attempt: Partial<DeliveryAttemptRecord> = {},
  ): AttemptOutcome {
    return {
      attempt: makeAttempt(delivery, { statusCode: 200, error: null, succeeded: true, ...attempt }),
      status: "succeeded",
      nextAttemptAt: null,
      endpoint: endpointUpdate({ succeeded: true, test: false, gone: false, pauseAfter: 50 }),
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

  /**
   * A new company with one endpoint, an event an hour before `t`, and one pending delivery of it
   * made a minute before `t` and due at `t`, inserted.
   */
  async function dueDelivery(t: Date) {
    const companyId = await ctx.company();
    const endpoint = await endpointOf(companyId);
    const event = await eventOf(companyId, shift(t, -HOUR));
    const delivery = makeDelivery(endpoint, event, { createdAt: shift(t, -MINUTE), nextAttemptAt: t });
    await ctx.storage.webhooks.insertDeliveries([delivery]);
    return { companyId, endpoint, event, delivery };
  }

  return { endpointOf, eventOf, claim, failure, success, leasedDelivery, dueDelivery };
}
