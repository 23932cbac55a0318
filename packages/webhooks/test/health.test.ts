/**
 * `dispatcher.health()` on every storage: the storage check, and the lag and backlog of the due
 * deliveries against the `health` limits; a failing storage makes the report unhealthy (503).
 */
import type { HealthReport } from "@hireport/core";
import { healthResponse } from "@hireport/core/extend";
import { answerHealth } from "@hireport/core/http";
import { describe, expect, it } from "vitest";
import { createWebhookDispatcher } from "../src/index";
import { memoryWebhookStorage } from "../src/memory/index";
import type { WebhookStorage } from "../src/store/webhook-storage";
import { delegate } from "./support/storage-proxy";
import { storageSuite } from "./support/storage-suite";
import { storageFactories } from "./support/storages";

const check = (report: HealthReport, name: string) => report.checks.find((entry) => entry.name === name);

describe.each(storageFactories())("dispatcher health on $name", (factory) => {
  const { receiver, fixture } = storageSuite(factory);

  it("is healthy with nothing due: lag 0, backlog 0", async () => {
    const f = await fixture();
    const report = await f.dispatcher.health();
    expect(report.ok).toBe(true);
    expect(report.checks.map((entry) => [entry.name, entry.status])).toEqual([
      ["webhook-storage", "pass"],
      ["webhook-deliveries", "pass"],
    ]);
    expect(check(report, "webhook-deliveries")?.details).toEqual({
      lagMs: 0,
      backlog: 0,
      maxLagMs: 300_000,
      maxBacklog: 10_000,
    });
  });

  it("turns unhealthy when more deliveries are due than maxBacklog, and healthy again once they are sent", async () => {
    const r = await receiver();
    const f = await fixture({ health: { maxBacklog: 2 } });
    await f.endpoint(`${r.origin}/hooks`);
    await f.emit();
    await f.emit();
    expect((await f.dispatcher.health()).ok).toBe(true);
    await f.emit();
    const behind = await f.dispatcher.health();
    expect(behind.ok).toBe(false);
    expect(check(behind, "webhook-deliveries")).toMatchObject({
      status: "fail",
      error: "Falling behind: more than 2 deliveries are due.",
      details: { backlog: 3, lagMs: 0 },
    });
    expect(healthResponse(behind).status).toBe(503);

    await f.dispatcher.runOnce();
    expect(r.requests).toHaveLength(3);
    const caughtUp = await f.dispatcher.health();
    expect(caughtUp.ok).toBe(true);
    expect(check(caughtUp, "webhook-deliveries")?.details).toMatchObject({ backlog: 0, lagMs: 0 });
  });

  it("turns unhealthy when the oldest due delivery has waited longer than maxLagMs", async () => {
    const r = await receiver();
    const f = await fixture({ health: { maxLagMs: 60_000 } });
    await f.endpoint(`${r.origin}/hooks`);
    await f.emit();
    f.clock.advance(60_000);
    expect(check(await f.dispatcher.health(), "webhook-deliveries")).toMatchObject({
      status: "pass",
      details: { lagMs: 60_000, backlog: 1 },
    });
    f.clock.advance(1);
    const late = await f.dispatcher.health();
    expect(late.ok).toBe(false);
    expect(check(late, "webhook-deliveries")).toMatchObject({
      status: "fail",
      error: "Falling behind: the oldest due delivery has waited 60001 ms (limit 60000 ms).",
      details: { lagMs: 60_001, backlog: 1 },
    });
  });
});

describe("dispatcher health on a failing storage", () => {
  it("fails both checks, answers 503 and shows no connection string", async () => {
    const base = memoryWebhookStorage();
    const lost = () => Promise.reject(new Error("Connection terminated: postgres://hook:pw123@db:5432/app"));
    const storage: WebhookStorage = delegate(base, {
      companies: delegate(base.companies, { get: lost }),
      webhooks: delegate(base.webhooks, { dueDeliveryStats: lost }),
    });
    const dispatcher = createWebhookDispatcher({ storage, logger: { warn: () => undefined, error: () => undefined } });
    const report = await dispatcher.health();
    expect(report.checks.map((entry) => entry.status)).toEqual(["fail", "fail"]);
    expect(check(report, "webhook-storage")?.error).toBe("Connection terminated: [address]");
    const answer = await answerHealth(dispatcher);
    expect(answer.status).toBe(503);
    expect(String(answer.body)).not.toContain("pw123");
  });

  it("refuses a negative limit", () => {
    expect(() => createWebhookDispatcher({ storage: memoryWebhookStorage(), health: { maxLagMs: -1 } })).toThrow(
      "health.maxLagMs must be a number of 0 or more",
    );
  });
});
