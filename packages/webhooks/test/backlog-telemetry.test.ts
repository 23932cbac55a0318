/**
 * The gauge `hireport.outbox.backlog` (docs/observability.md), read back through the SDK's metric
 * reader on every storage: a started dispatcher reports the deliveries due and not claimed, reads
 * the count on its polls at most once per interval of its clock (never on a collection), and
 * reports nothing before it starts, nothing new after it stops, nothing while the count cannot be read.
 */
import { openTelemetry } from "@hireport/core/telemetry";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type MemorySdk, memorySdk, points } from "../../core/test/telemetry/otel";
import { BACKLOG_READ_INTERVAL_MS } from "../src/dispatcher/backlog-telemetry";
import { createWebhookDispatcher, type DueDeliveryStatsQuery, type WebhookStorage } from "../src/index";
import { memoryWebhookStorage } from "../src/memory/index";
import { COMPANY, registerCompany } from "./support/fixture";
import { delegate } from "./support/storage-proxy";
import { storageSuite } from "./support/storage-suite";
import { storageFactories } from "./support/storages";

let sdk: MemorySdk;
beforeEach(() => {
  sdk = memorySdk();
});
afterEach(async () => {
  await sdk.shutdown();
});

const quiet = { warn: () => undefined, error: () => undefined };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The gauge's points now, as a metrics system collects them. */
async function backlogPoints() {
  return points((await sdk.metrics()).get("hireport.outbox.backlog"));
}

/** The storage, counting the backlog reads the dispatcher makes. */
function countingReads(storage: WebhookStorage): { storage: WebhookStorage; reads: DueDeliveryStatsQuery[] } {
  const reads: DueDeliveryStatsQuery[] = [];
  const base = storage.webhooks;
  const webhooks = delegate(base, {
    dueDeliveryStats: (query: DueDeliveryStatsQuery) => {
      reads.push(query);
      return base.dueDeliveryStats(query);
    },
  });
  return { storage: delegate(storage, { webhooks }), reads };
}

describe.each(storageFactories())("the backlog gauge on $name", (factory) => {
  const suite = storageSuite(factory);

  it("reports the due deliveries not claimed, read on the polls at most once per interval, and stops with the dispatcher", async () => {
    const receiver = await suite.receiver();
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    receiver.setHandler(async (_request, response) => {
      await held;
      response.writeHead(200).end("ok");
    });
    const f = await suite.fixture();
    await f.endpoint(`${receiver.origin}/hooks`);
    for (let i = 0; i < 3; i++) await f.emit();

    const { storage, reads } = countingReads(f.storage);
    const dispatcher = createWebhookDispatcher({
      storage,
      clock: f.clock,
      allowPrivateAddresses: true,
      tls: { ca: suite.certificate.cert },
      // One request at a time, held by the receiver, and nothing claimed ahead: the other two stay
      // due and unclaimed.
      concurrency: 1,
      prefetch: 0,
      timeoutMs: 10_000,
      leaseMs: 30_000,
      pollIntervalMs: 10,
      logger: quiet,
      telemetry: openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider }),
    });
    suite.defer(() => dispatcher.stop());
    expect(await backlogPoints()).toEqual([]);

    dispatcher.start();
    await receiver.waitForRequests(1);
    await vi.waitFor(async () => expect((await backlogPoints()).length).toBe(1));
    // Many polls and collections later, still the one read: the clock has not moved.
    await pause(100);
    for (let i = 0; i < 5; i++) await sdk.metrics();
    expect(reads).toHaveLength(1);
    expect(reads[0]?.countLimit).toBe(10_001);

    f.clock.advance(BACKLOG_READ_INTERVAL_MS);
    await vi.waitFor(async () => expect(await backlogPoints()).toEqual([{ attributes: {}, value: 2 }]));
    expect(reads).toHaveLength(2);
    expect((await sdk.metrics()).get("hireport.outbox.backlog")?.descriptor.unit).toBe("{delivery}");

    answer();
    await receiver.waitForRequests(3);
    f.clock.advance(BACKLOG_READ_INTERVAL_MS);
    await vi.waitFor(async () => expect(await backlogPoints()).toEqual([{ attributes: {}, value: 0 }]));

    // Stopped: no read and no new value, though a delivery is due now (the SDK keeps the last one).
    await dispatcher.stop();
    const before = reads.length;
    await f.emit();
    f.clock.advance(BACKLOG_READ_INTERVAL_MS);
    await pause(50);
    expect(reads).toHaveLength(before);
    expect(await backlogPoints()).toEqual([{ attributes: {}, value: 0 }]);
  });
});

describe("the backlog gauge on a failing storage", () => {
  it("reports no value while the count cannot be read, and logs it once", async () => {
    const base = memoryWebhookStorage();
    await registerCompany(base, COMPANY);
    let failing = true;
    const webhooks = delegate(base.webhooks, {
      dueDeliveryStats: (query: DueDeliveryStatsQuery) =>
        failing ? Promise.reject(new Error("the database is down")) : base.webhooks.dueDeliveryStats(query),
    });
    const warnings: string[] = [];
    let now = Date.parse("2026-03-01T09:00:00.000Z");
    const dispatcher = createWebhookDispatcher({
      storage: delegate(base, { webhooks }),
      clock: { now: () => new Date(now) },
      pollIntervalMs: 10,
      logger: { warn: (message) => warnings.push(message), error: () => undefined },
      telemetry: openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider }),
    });
    dispatcher.start();
    try {
      await vi.waitFor(() => expect(warnings).toContain("hireport webhooks: counting the backlog failed"));
      expect(await backlogPoints()).toEqual([]);
      now += BACKLOG_READ_INTERVAL_MS;
      await pause(50);
      expect(warnings.filter((message) => message.includes("backlog"))).toHaveLength(1);
      failing = false;
      now += BACKLOG_READ_INTERVAL_MS;
      await vi.waitFor(async () => expect(await backlogPoints()).toEqual([{ attributes: {}, value: 0 }]));
    } finally {
      await dispatcher.stop();
    }
  });
});
