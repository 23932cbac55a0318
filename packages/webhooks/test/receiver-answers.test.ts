/**
 * What a receiver's answer does beyond success and failure, against a local receiver on every
 * storage: 410 Gone disables the endpoint, `Retry-After` on 429 and 503 delays the next attempt,
 * and the leases of the deliveries a dispatcher holds are extended while it holds them.
 */
import { describe, expect, it } from "vitest";
import { createWebhookDispatcher, type WebhookEndpoint } from "../src/index";
import { COMPANY } from "./support/fixture";
import { ignoringMaxPerEndpoint } from "./support/storage-proxy";
import { storageSuite } from "./support/storage-suite";
import { storageFactories } from "./support/storages";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe.each(storageFactories())("receiver answers on $name", (factory) => {
  const suite = storageSuite(factory);
  const { receiver, fixture } = suite;

  it("410 Gone disables the endpoint at once, tells the host once, and nothing goes to it until it is resumed", async () => {
    const r = await receiver();
    let gone = true;
    r.setHandler((_request, response) => response.writeHead(gone ? 410 : 204).end());
    const told: WebhookEndpoint[] = [];
    const f = await fixture({ onEndpointPaused: (endpoint) => void told.push(endpoint) });
    const { id } = await f.endpoint(r.origin);
    const first = await f.emit();
    const second = await f.emit();
    expect(await f.dispatcher.runOnce()).toMatchObject({ claimed: 2, retrying: 2 });

    const endpoint = await f.dispatcher.endpoints.get(COMPANY, id);
    expect(endpoint).toMatchObject({ status: "disabled", pausedReason: "gone", consecutiveFailures: 2 });
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ id, status: "disabled", pausedReason: "gone" });
    // The 410'd deliveries keep their retry: nothing is lost when the endpoint comes back.
    for (const deliveryId of [...first.deliveryIds, ...second.deliveryIds]) {
      const [attempt] = await f.dispatcher.deliveries.attempts(COMPANY, deliveryId);
      expect(attempt).toMatchObject({ statusCode: 410, succeeded: false });
      expect(await f.dispatcher.deliveries.get(COMPANY, deliveryId)).toMatchObject({ status: "pending" });
    }

    // Disabled: no new event reaches it, and its due retries are not claimed.
    const third = await f.emit();
    expect(third.deliveryIds).toEqual([]);
    f.clock.advance(HOUR);
    expect((await f.dispatcher.runOnce()).claimed).toBe(0);
    expect(r.requests).toHaveLength(2);

    // Resumed by the host: the queued retries go out.
    gone = false;
    expect(await f.dispatcher.endpoints.resume(COMPANY, id)).toMatchObject({
      status: "active",
      pausedReason: null,
      consecutiveFailures: 0,
    });
    expect(await f.dispatcher.runOnce()).toMatchObject({ claimed: 2, succeeded: 2 });
    expect((await f.emit()).deliveryIds).toHaveLength(1);
    expect(await f.dispatcher.runOnce()).toMatchObject({ succeeded: 1 });
    expect(told).toHaveLength(1);
  });

  it("a 410 to a test event disables nothing", async () => {
    const r = await receiver();
    r.setHandler((_request, response) => response.writeHead(410).end());
    const f = await fixture();
    const { id } = await f.endpoint(r.origin);
    expect(await f.dispatcher.sendTest(COMPANY, id)).toMatchObject({ result: "failed" });
    expect(await f.dispatcher.endpoints.get(COMPANY, id)).toMatchObject({ status: "active" });
  });

  /** The delay before the second attempt after the receiver's first answer. */
  async function nextDelay(status: number, retryAfter?: (now: Date) => string): Promise<number> {
    const r = await receiver();
    const f = await fixture();
    r.setHandler((_request, response) =>
      response.writeHead(status, retryAfter ? { "retry-after": retryAfter(f.clock.now()) } : {}).end(),
    );
    await f.endpoint(r.origin);
    const { deliveryIds } = await f.emit();
    expect(await f.dispatcher.runOnce()).toMatchObject({ retrying: 1 });
    const delivery = await f.dispatcher.deliveries.get(COMPANY, deliveryIds[0] ?? "");
    return (delivery.nextAttemptAt?.getTime() ?? 0) - f.clock.now().getTime();
  }

  it("Retry-After on 429 or 503 delays the next attempt when later than the schedule's, up to 12 h", async () => {
    // Seconds, later than the first retry's 1 min.
    expect(await nextDelay(429, () => "3600")).toBe(HOUR);
    // An HTTP-date, 2 h ahead.
    expect(await nextDelay(503, (now) => new Date(now.getTime() + 2 * HOUR).toUTCString())).toBe(2 * HOUR);
    // Sooner than the schedule: the schedule wins.
    expect(await nextDelay(429, () => "10")).toBe(MINUTE);
    // Capped at 12 h.
    expect(await nextDelay(503, () => String(7 * 24 * 3600))).toBe(12 * HOUR);
    // Not a value it understands: the schedule.
    expect(await nextDelay(429, () => "soon")).toBe(MINUTE);
  });

  it("Retry-After on other statuses is ignored", async () => {
    expect(await nextDelay(500, () => "3600")).toBe(MINUTE);
    expect(await nextDelay(410, () => "3600")).toBe(MINUTE);
  });

  it("a Retry-After on the last scheduled attempt does not keep the delivery alive", async () => {
    const r = await receiver();
    const f = await fixture({ retrySchedule: [MINUTE] });
    r.setHandler((_request, response) => response.writeHead(429, { "retry-after": "7200" }).end());
    await f.endpoint(r.origin);
    const { deliveryIds } = await f.emit();
    await f.dispatcher.runOnce();
    f.clock.advance(2 * HOUR);
    expect(await f.dispatcher.runOnce()).toMatchObject({ failed: 1 });
    expect(await f.dispatcher.deliveries.get(COMPANY, deliveryIds[0] ?? "")).toMatchObject({
      status: "failed",
      nextAttemptAt: null,
    });
  });

  it("the heartbeat extends the leases of the deliveries it holds: a queued one outlives its first lease and is sent", async () => {
    const r = await receiver();
    const answers: Array<() => void> = [];
    r.setHandler((_request, response) => void answers.push(() => response.writeHead(200).end("ok")));
    // A beat every leaseMs / 4 = 2 s of real time, inside the 3 s a request may take.
    const f = await fixture({ timeoutMs: 3_000, leaseMs: 8_001, perEndpointConcurrency: 1 });
    await f.endpoint(r.origin);
    const deliveryIds = [...(await f.emit()).deliveryIds, ...(await f.emit()).deliveryIds];
    const dispatcher = createWebhookDispatcher({ ...f.dispatcher.options, storage: ignoringMaxPerEndpoint(f.storage) });
    suite.defer(() => dispatcher.stop());
    const running = dispatcher.runOnce();
    await r.waitForRequests(1, 2_000);
    // A minute passes on the dispatcher's clock: both first leases (8 s) are over.
    f.clock.advance(MINUTE);
    const extended = new Date(f.clock.now().getTime() + 8_001);
    const deadline = Date.now() + 2_900;
    for (;;) {
      const rows = await Promise.all(deliveryIds.map((id) => f.storage.webhooks.getDelivery(COMPANY, id)));
      if (rows.every((row) => row?.leaseExpiresAt?.getTime() === extended.getTime())) break;
      if (Date.now() > deadline) throw new Error(`the leases were not extended: ${JSON.stringify(rows)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Without the beat the queued delivery would be given back here, its lease over.
    answers.shift()?.();
    await r.waitForRequests(2, 2_000);
    answers.shift()?.();
    expect(await running).toMatchObject({ claimed: 2, succeeded: 2, released: 0, lost: 0 });
  });
});
