/** `dispatcher.endpoints.stats`: an endpoint's attempts of the last hours, hour by hour. */
import { HireportError } from "@hireport/core";
import { makeEvent, newId } from "@hireport/core/testing";
import { describe, expect, it } from "vitest";
import { createWebhookDispatcher, endpointUpdate } from "../src/index";
import { memoryWebhookStorage } from "../src/memory/index";
import { makeAttempt, makeDelivery } from "../src/testing/fixtures";
import { manualClock } from "./support/clock";
import { rejectionOf } from "./support/rejection";

const HOUR = 3_600_000;

async function setup() {
  const storage = memoryWebhookStorage();
  const clock = manualClock(new Date("2026-03-01T09:40:00.000Z"));
  for (const id of ["co_1", "co_2"]) await storage.companies.upsert({ id, name: id, createdAt: clock.now() });
  const dispatcher = createWebhookDispatcher({
    storage,
    clock,
    resolveHost: async () => [{ address: "93.184.215.14", family: 4 }],
  });
  const { endpoint } = await dispatcher.endpoints.create({
    companyId: "co_1",
    url: "https://hooks.example.com/hireport",
    events: ["job.created"],
  });
  /** One recorded attempt of a new delivery of the endpoint. */
  async function attempt(at: string, durationMs: number, succeeded: boolean) {
    const event = makeEvent("co_1");
    await storage.events.append(event);
    const token = newId("lease");
    const delivery = makeDelivery({ id: endpoint.id, companyId: "co_1" }, event, {
      leaseToken: token,
      leaseExpiresAt: new Date("2037-01-01T00:00:00Z"),
    });
    await storage.webhooks.insertDeliveries([delivery]);
    await storage.webhooks.recordAttempt(delivery.id, token, {
      attempt: makeAttempt(delivery, { attemptedAt: new Date(at), durationMs, succeeded }),
      status: succeeded ? "succeeded" : "failed",
      nextAttemptAt: null,
      endpoint: endpointUpdate({ succeeded, test: false, gone: false, pauseAfter: 50 }),
    });
  }
  return { dispatcher, endpoint, attempt };
}

describe("endpoints.stats", () => {
  it("covers the current hour and the 23 before it, each hour with its figures, and the whole range", async () => {
    const { dispatcher, endpoint, attempt } = await setup();
    await attempt("2026-03-01T09:05:00.000Z", 100, true);
    await attempt("2026-03-01T09:39:00.000Z", 300, false);
    await attempt("2026-02-28T10:00:00.000Z", 200, true); // the first hour of the range
    await attempt("2026-02-28T09:59:59.999Z", 5000, false); // just before it
    const stats = await dispatcher.endpoints.stats("co_1", endpoint.id);
    expect(stats.since).toEqual(new Date("2026-02-28T10:00:00.000Z"));
    expect(stats.until).toEqual(new Date("2026-03-01T10:00:00.000Z"));
    expect(stats.hours).toHaveLength(24);
    expect(stats.hours.map((hour) => hour.start.getTime() - stats.since.getTime())).toEqual(
      Array.from({ length: 24 }, (_, index) => index * HOUR),
    );
    expect(stats.hours[0]).toEqual({
      start: new Date("2026-02-28T10:00:00.000Z"),
      attempts: 1,
      succeeded: 1,
      successRate: 1,
      meanDurationMs: 200,
      maxDurationMs: 200,
    });
    expect(stats.hours[1]).toMatchObject({ attempts: 0, successRate: null, meanDurationMs: null, maxDurationMs: null });
    expect(stats.hours[23]).toMatchObject({ attempts: 2, succeeded: 1, successRate: 0.5, meanDurationMs: 200 });
    expect(stats.hours[23]?.maxDurationMs).toBe(300);
    expect(stats).toMatchObject({ attempts: 3, succeeded: 2, meanDurationMs: 200, maxDurationMs: 300 });
    expect(stats.successRate).toBeCloseTo(2 / 3, 10);

    const short = await dispatcher.endpoints.stats("co_1", endpoint.id, { hours: 1 });
    expect(short.hours).toHaveLength(1);
    expect(short).toMatchObject({ attempts: 2, since: new Date("2026-03-01T09:00:00.000Z") });
  });

  it("refuses another company's endpoint and hours out of range", async () => {
    const { dispatcher, endpoint } = await setup();
    expect((await rejectionOf(dispatcher.endpoints.stats("co_2", endpoint.id), HireportError)).code).toBe("not_found");
    for (const hours of [0, 169, 1.5]) {
      const error = await rejectionOf(dispatcher.endpoints.stats("co_1", endpoint.id, { hours }), HireportError);
      expect(error.code).toBe("invalid");
      expect(error.fields?.map((field) => field.field)).toEqual(["hours"]);
    }
  });
});
