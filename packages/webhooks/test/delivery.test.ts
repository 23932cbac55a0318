import { deliveryId } from "@hireport/core/extend";
import { describe, expect, it } from "vitest";
import { type ClaimOptions, createWebhookDispatcher, endpointUpdate } from "../src/index";
import type { WebhookStorage } from "../src/store/webhook-storage";
import { parseEvent, verifySignature } from "../src/verify/index";
import { COMPANY, type DeliveryFixture } from "./support/fixture";
import { closedPort, type Receiver } from "./support/receiver";
import { delegate, ignoringMaxPerEndpoint } from "./support/storage-proxy";
import { storageSuite } from "./support/storage-suite";
import { storageFactories } from "./support/storages";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe.each(storageFactories())("delivery on $name", (factory) => {
  const suite = storageSuite(factory);
  const { receiver, fixture } = suite;
  async function attemptsOf(f: DeliveryFixture, deliveryId: string) {
    return f.dispatcher.deliveries.attempts(COMPANY, deliveryId);
  }

  it("POSTs the exact payload bytes over https with the headers and a signature verify accepts", async () => {
    const r = await receiver();
    const f = await fixture({ userAgent: "hireport-test/1" });
    const { id, secret } = await f.endpoint(`${r.origin}/hooks?x=1`);
    const { deliveryIds, payload, eventId } = await f.emit("job.created", "Zoë — 日本語 🎉 Ünïcödé");
    const result = await f.dispatcher.runOnce();
    expect(result).toMatchObject({ claimed: 1, succeeded: 1 });

    expect(r.requests).toHaveLength(1);
    const [request] = r.requests;
    if (!request) throw new Error("no request");
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/hooks?x=1");
    expect(request.body.equals(Buffer.from(payload, "utf8"))).toBe(true);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("hireport-test/1");
    expect(request.headers["service-event"]).toBe("job.created");
    expect(request.headers["service-delivery"]).toBe(deliveryIds[0]);
    const header = String(request.headers["service-signature"]);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    await expect(verifySignature({ payload: request.body, header, secret, now: f.clock.now() })).resolves.toEqual({
      timestamp: new Date(Math.floor(f.clock.now().getTime() / 1000) * 1000),
      secret,
    });
    const event = parseEvent(request.body);
    expect(event.id).toBe(eventId);
    expect(event.type === "job.created" && event.data.title).toBe("Zoë — 日本語 🎉 Ünïcödé");

    const page = await f.dispatcher.deliveries.list(COMPANY, id);
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({ status: "succeeded", attempts: 1, nextAttemptAt: null });
    expect(page.data[0]?.attemptLog).toEqual([
      expect.objectContaining({ statusCode: 200, succeeded: true, error: null, responseBody: "ok" }),
    ]);
    const details = await f.dispatcher.deliveries.get(COMPANY, deliveryIds[0] ?? "");
    expect(details.payload).toBe(payload);
  });

  it("deliveries come from the storage's own fan-out: one per subscribed endpoint, with the derived id", async () => {
    const r = await receiver();
    const f = await fixture();
    const created = await f.endpoint(`${r.origin}/created`, ["job.created"]);
    const both = await f.endpoint(`${r.origin}/both`, ["job.created", "job.closed"]);
    const paused = await f.endpoint(`${r.origin}/paused`, ["job.created"]);
    await f.dispatcher.endpoints.pause(COMPANY, paused.id);
    await f.endpoint(`${r.origin}/closed`, ["job.closed"]);
    const { eventId, deliveryIds } = await f.emit("job.created");
    // A paused endpoint queues events; one not subscribed to the type gets none.
    expect(deliveryIds.sort()).toEqual([created.id, both.id, paused.id].map((we) => deliveryId(eventId, we)).sort());
    expect(await f.dispatcher.runOnce()).toMatchObject({ claimed: 2, succeeded: 2 });
    expect(r.requests.map((request) => request.path).sort()).toEqual(["/both", "/created"]);
  });

  it("uses the header prefix option", async () => {
    const r = await receiver();
    const f = await fixture({ headerPrefix: "Acme" });
    await f.endpoint(r.origin);
    await f.emit();
    await f.dispatcher.runOnce();
    expect(Object.keys(r.requests[0]?.headers ?? {})).toEqual(
      expect.arrayContaining(["acme-event", "acme-delivery", "acme-signature"]),
    );
    expect(r.requests[0]?.headers["service-signature"]).toBeUndefined();
  });

  it("counts a 500 as a failure and stores the first 4 KiB of the answer", async () => {
    const r = await receiver();
    r.setHandler((_request, response) => {
      response.writeHead(500, { "content-type": "text/plain" }).end(`é${"x".repeat(10_000)}`);
    });
    const f = await fixture();
    await f.endpoint(r.origin);
    const { deliveryIds } = await f.emit();
    expect(await f.dispatcher.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    const [attempt] = await attemptsOf(f, deliveryIds[0] ?? "");
    expect(attempt).toMatchObject({ statusCode: 500, succeeded: false });
    expect(attempt?.error).toMatch(/HTTP 500/);
    expect(Buffer.byteLength(attempt?.responseBody ?? "")).toBe(4096);
    expect(attempt?.responseBody.startsWith("éx")).toBe(true);
  });

  it("records an attempt that went out even when its first writes fail (a deadlock, a dropped connection)", async () => {
    const r = await receiver();
    const f = await fixture();
    await f.endpoint(r.origin);
    const { deliveryIds } = await f.emit();
    let failures = 0;
    const base = f.storage.webhooks;
    const webhooks = delegate(base, {
      recordAttempts: async (...args: Parameters<typeof base.recordAttempts>) => {
        if (failures < 2) {
          failures++;
          throw new Error("deadlock found when trying to get lock");
        }
        return base.recordAttempts(...args);
      },
    });
    const dispatcher = secondDispatcher(f, delegate(f.storage, { webhooks }));
    expect(await dispatcher.runOnce()).toMatchObject({ claimed: 1, succeeded: 1, lost: 0 });
    expect(failures).toBe(2);
    expect(r.requests).toHaveLength(1);
    const attempts = await attemptsOf(f, deliveryIds[0] ?? "");
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ succeeded: true });
  });

  it("stores any answer body: binary, NUL bytes and a character cut at the 4 KiB edge", async () => {
    const r = await receiver();
    const binary = Buffer.concat([Buffer.from([0x00, 0xff, 0xfe, 0x41, 0x00]), Buffer.from("€".repeat(2000), "utf8")]);
    r.setHandler((_request, response) => {
      response.writeHead(502, { "content-type": "application/octet-stream" }).end(binary);
    });
    const f = await fixture();
    await f.endpoint(r.origin);
    const { deliveryIds } = await f.emit();
    expect(await f.dispatcher.runOnce()).toMatchObject({ retrying: 1, lost: 0 });
    const [attempt] = await attemptsOf(f, deliveryIds[0] ?? "");
    expect(attempt).toMatchObject({ statusCode: 502, succeeded: false });
    const body = attempt?.responseBody ?? "";
    expect(body.startsWith("\uFFFD\uFFFD\uFFFDA\uFFFD€€")).toBe(true);
    expect(body).not.toContain("\0");
    expect(Buffer.byteLength(body, "utf8")).toBeLessThanOrEqual(4096);
    expect(body.endsWith("€")).toBe(true);
  });

  it("counts a redirect as a failure and does not follow it", async () => {
    const target = await receiver();
    const r = await receiver();
    r.setHandler((_request, response) => {
      response.writeHead(307, { location: `${target.origin}/moved` }).end();
    });
    const f = await fixture();
    await f.endpoint(r.origin);
    const { deliveryIds } = await f.emit();
    expect(await f.dispatcher.runOnce()).toMatchObject({ retrying: 1 });
    const [attempt] = await attemptsOf(f, deliveryIds[0] ?? "");
    expect(attempt).toMatchObject({ statusCode: 307, succeeded: false });
    expect(attempt?.error).toMatch(/redirect/);
    expect(target.requests).toHaveLength(0);
  });

  it("counts no answer within the timeout as a failure", async () => {
    const r = await receiver();
    r.setHandler(() => {
      // never answers
    });
    const f = await fixture({ timeoutMs: 300, leaseMs: 10_000 });
    await f.endpoint(r.origin);
    const { deliveryIds } = await f.emit();
    const started = Date.now();
    expect(await f.dispatcher.runOnce()).toMatchObject({ retrying: 1 });
    expect(Date.now() - started).toBeLessThan(3_000);
    const [attempt] = await attemptsOf(f, deliveryIds[0] ?? "");
    expect(attempt).toMatchObject({ statusCode: null, succeeded: false });
    expect(attempt?.error).toMatch(/No answer within 300 ms/);
    expect(attempt?.durationMs).toBeGreaterThanOrEqual(290);
  });

  it("counts a 2xx that comes after the timeout as a failure", async () => {
    const r = await receiver();
    r.setHandler((_request, response) => {
      setTimeout(() => response.writeHead(200).end("late"), 600);
    });
    const f = await fixture({ timeoutMs: 300, leaseMs: 10_000 });
    await f.endpoint(r.origin);
    await f.emit();
    expect(await f.dispatcher.runOnce()).toMatchObject({ retrying: 1, succeeded: 0 });
  });

  it("counts a refused connection as a failure", async () => {
    const port = await closedPort();
    const f = await fixture();
    await f.endpoint(`https://127.0.0.1:${port}/`);
    const { deliveryIds } = await f.emit();
    expect(await f.dispatcher.runOnce()).toMatchObject({ retrying: 1 });
    const [attempt] = await attemptsOf(f, deliveryIds[0] ?? "");
    expect(attempt).toMatchObject({ statusCode: null, succeeded: false });
    expect(attempt?.error).toMatch(/ECONNREFUSED/);
  });

  it("counts a certificate it does not trust as a failure (TLS errors)", async () => {
    const r = await receiver();
    const f = await fixture({ tls: undefined });
    await f.endpoint(r.origin);
    const { deliveryIds } = await f.emit();
    expect(await f.dispatcher.runOnce()).toMatchObject({ retrying: 1 });
    const [attempt] = await attemptsOf(f, deliveryIds[0] ?? "");
    expect(attempt?.error).toMatch(/self[- ]signed|certificate/i);
    expect(r.requests).toHaveLength(0);
  });

  it("delivers over plain http only with allowPrivateAddresses", async () => {
    const r = await receiver({ tls: false });
    const f = await fixture();
    await f.endpoint(`${r.origin}/plain`);
    await f.emit();
    expect(await f.dispatcher.runOnce()).toMatchObject({ succeeded: 1 });
  });

  it("retries after 1 min, 5 min, 30 min, 2 h, 6 h and 12 h, then fails (still resendable)", async () => {
    const r = await receiver();
    r.setHandler((_request, response) => response.writeHead(503).end("down"));
    const f = await fixture();
    await f.endpoint(r.origin);
    const { deliveryIds } = await f.emit();
    const id = deliveryIds[0] ?? "";
    const schedule = [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR, 12 * HOUR];

    expect(await f.dispatcher.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    for (const [index, delay] of schedule.entries()) {
      const delivery = await f.dispatcher.deliveries.get(COMPANY, id);
      expect(delivery).toMatchObject({ status: "pending", attempts: index + 1 });
      expect(delivery.nextAttemptAt).toEqual(new Date(f.clock.now().getTime() + delay));
      f.clock.advance(delay - 1);
      expect((await f.dispatcher.runOnce()).claimed).toBe(0);
      f.clock.advance(1);
      const last = index === schedule.length - 1;
      expect(await f.dispatcher.runOnce()).toMatchObject(
        last ? { claimed: 1, failed: 1 } : { claimed: 1, retrying: 1 },
      );
    }
    const failed = await f.dispatcher.deliveries.get(COMPANY, id);
    expect(failed).toMatchObject({ status: "failed", attempts: 7, nextAttemptAt: null });
    expect(failed.attemptLog).toHaveLength(7);
    expect(r.requests).toHaveLength(7);
    f.clock.advance(48 * HOUR);
    expect((await f.dispatcher.runOnce()).claimed).toBe(0);

    // Resend: one more attempt, now succeeding.
    r.setHandler((_request, response) => response.writeHead(204).end());
    expect(await f.dispatcher.deliveries.resend(COMPANY, id)).toMatchObject({ status: "pending" });
    expect(await f.dispatcher.runOnce()).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(await f.dispatcher.deliveries.get(COMPANY, id)).toMatchObject({ status: "succeeded", attempts: 8 });
    // Every attempt of the delivery carries the same delivery id.
    expect(new Set(r.requests.map((request) => request.headers["service-delivery"]))).toEqual(new Set([id]));
  });

  it("resends a delivery that succeeded (receivers drop repeats by event id)", async () => {
    const r = await receiver();
    const f = await fixture();
    await f.endpoint(r.origin);
    const { deliveryIds } = await f.emit();
    await f.dispatcher.runOnce();
    await f.dispatcher.deliveries.resend(COMPANY, deliveryIds[0] ?? "");
    expect(await f.dispatcher.runOnce()).toMatchObject({ succeeded: 1 });
    expect(r.requests).toHaveLength(2);
    expect(r.requests[0]?.body.equals(r.requests[1]?.body ?? Buffer.alloc(0))).toBe(true);
    await expect(f.dispatcher.deliveries.resend("co_other", deliveryIds[0] ?? "")).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("pauses an endpoint after 50 failed attempts in a row, calls onEndpointPaused once, and holds its events until resumed", async () => {
    const r = await receiver();
    let healthy = false;
    r.setHandler((_request, response) => response.writeHead(healthy ? 200 : 500).end());
    const paused: Array<{ id: string; consecutiveFailures: number; pausedReason: string | null }> = [];
    const f = await fixture({
      perEndpointConcurrency: 8,
      concurrency: 16,
      onEndpointPaused: (endpoint) => {
        paused.push(endpoint);
      },
    });
    const { id } = await f.endpoint(r.origin);
    for (let index = 0; index < 56; index++) await f.emit();
    await f.dispatcher.runOnce({ maxPasses: 20 });
    const endpoint = await f.dispatcher.endpoints.get(COMPANY, id);
    expect(endpoint).toMatchObject({ status: "paused", pausedReason: "failures" });
    expect(endpoint.consecutiveFailures).toBeGreaterThanOrEqual(50);
    expect(paused).toHaveLength(1);
    expect(paused[0]).toMatchObject({ id, pausedReason: "failures", consecutiveFailures: 50 });
    const sentBeforePause = r.requests.length;
    expect(sentBeforePause).toBeGreaterThanOrEqual(50);
    expect(sentBeforePause).toBeLessThan(56 + 8);

    // Paused: due retries and new events wait.
    f.clock.advance(HOUR);
    await f.emit();
    expect((await f.dispatcher.runOnce()).claimed).toBe(0);
    expect(r.requests).toHaveLength(sentBeforePause);

    // Resumed: everything queued goes out, and a success keeps the count at 0.
    healthy = true;
    expect(await f.dispatcher.endpoints.resume(COMPANY, id)).toMatchObject({
      status: "active",
      consecutiveFailures: 0,
    });
    const after = await f.dispatcher.runOnce({ maxPasses: 20 });
    expect(after.succeeded).toBe(57);
    const pending = await f.dispatcher.deliveries.list(COMPANY, id, { status: "pending" });
    expect(pending.data).toHaveLength(0);
    expect(paused).toHaveLength(1);
  });

  it("a success resets the failure count: failures must be in a row to pause", async () => {
    const r = await receiver();
    const answers: number[] = [];
    r.setHandler((_request, response) => response.writeHead(answers.shift() ?? 200).end());
    const paused: string[] = [];
    const f = await fixture({
      pauseAfterFailures: 3,
      perEndpointConcurrency: 1,
      onEndpointPaused: (e) => void paused.push(e.id),
    });
    const { id } = await f.endpoint(r.origin);
    answers.push(500, 500, 200, 500, 500);
    for (let index = 0; index < 5; index++) {
      await f.emit();
      await f.dispatcher.runOnce();
    }
    expect(await f.dispatcher.endpoints.get(COMPANY, id)).toMatchObject({ status: "active", consecutiveFailures: 2 });
    expect(paused).toEqual([]);
    answers.push(500);
    await f.emit();
    await f.dispatcher.runOnce();
    expect(await f.dispatcher.endpoints.get(COMPANY, id)).toMatchObject({ status: "paused", consecutiveFailures: 3 });
    expect(paused).toEqual([id]);
  });

  it("a manually paused endpoint's events wait and go out after resume", async () => {
    const r = await receiver();
    const f = await fixture();
    const { id } = await f.endpoint(r.origin);
    await f.dispatcher.endpoints.pause(COMPANY, id);
    await f.emit();
    await f.emit();
    expect((await f.dispatcher.runOnce()).claimed).toBe(0);
    await f.dispatcher.endpoints.resume(COMPANY, id);
    expect(await f.dispatcher.runOnce()).toMatchObject({ claimed: 2, succeeded: 2 });
  });

  it("signs with the old and the new secret for 24 h after a rotation, then only the new", async () => {
    const r = await receiver();
    const f = await fixture();
    const { id, secret: oldSecret } = await f.endpoint(r.origin);
    const { secret: newSecret } = await f.dispatcher.endpoints.rotateSecret(COMPANY, id);
    await f.emit();
    await f.dispatcher.runOnce();
    f.clock.advance(24 * HOUR - 1000);
    await f.emit();
    await f.dispatcher.runOnce();
    f.clock.advance(2000);
    await f.emit();
    await f.dispatcher.runOnce();
    expect(r.requests).toHaveLength(3);
    const [first, second, third] = r.requests;
    const headerOf = (request: typeof first) => String(request?.headers["service-signature"]);
    for (const [request, now] of [
      [first, new Date(f.clock.now().getTime() - 24 * HOUR - 1000)],
      [second, new Date(f.clock.now().getTime() - 2000)],
    ] as const) {
      expect(headerOf(request).match(/v1=/g)).toHaveLength(2);
      const payload = request?.body ?? Buffer.alloc(0);
      await expect(
        verifySignature({ payload, header: headerOf(request), secret: oldSecret, now }),
      ).resolves.toBeTruthy();
      await expect(
        verifySignature({ payload, header: headerOf(request), secret: newSecret, now }),
      ).resolves.toBeTruthy();
    }
    expect(headerOf(third).match(/v1=/g)).toHaveLength(1);
    const now = f.clock.now();
    const payload = third?.body ?? Buffer.alloc(0);
    await expect(verifySignature({ payload, header: headerOf(third), secret: newSecret, now })).resolves.toBeTruthy();
    await expect(verifySignature({ payload, header: headerOf(third), secret: oldSecret, now })).rejects.toMatchObject({
      code: "signature_mismatch",
    });
  });

  it("sendTest sends a signed webhook.test event with { endpoint_id } and records it, also on a paused endpoint", async () => {
    const r = await receiver();
    const f = await fixture();
    const { id, secret } = await f.endpoint(r.origin);
    await f.dispatcher.endpoints.pause(COMPANY, id);
    const result = await f.dispatcher.sendTest(COMPANY, id);
    expect(result.result).toBe("succeeded");
    expect(result.delivery).toMatchObject({ status: "succeeded", attempts: 1, eventType: "webhook.test" });
    expect(result.attempt).toMatchObject({ statusCode: 200, succeeded: true });
    const [request] = r.requests;
    expect(request?.headers["service-event"]).toBe("webhook.test");
    expect(request?.headers["service-delivery"]).toBe(result.delivery.id);
    await expect(
      verifySignature({
        payload: request?.body ?? "",
        header: String(request?.headers["service-signature"]),
        secret,
        now: f.clock.now(),
      }),
    ).resolves.toBeTruthy();
    const event = parseEvent(request?.body ?? "");
    expect(event).toMatchObject({
      type: "webhook.test",
      company_id: COMPANY,
      api_version: "1.0",
      data: { endpoint_id: id },
    });
    // Core's ids: the event's from newId, the delivery's derived from the event and the endpoint.
    expect(event.id).toMatch(/^evt_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(result.delivery).toMatchObject({ id: deliveryId(event.id, id), eventId: event.id });
    expect(result.attempt.id).toMatch(/^att_[0-9a-hjkmnp-tv-z]{26}$/);
    expect((await f.storage.events.get(event.id))?.payload).toBe(request?.body.toString("utf8"));
    const page = await f.dispatcher.deliveries.list(COMPANY, id);
    expect(page.data.map((d) => d.id)).toEqual([result.delivery.id]);
    // The test event never counts towards pausing, and a failed one is not retried.
    r.setHandler((_request, response) => response.writeHead(500).end());
    const failed = await f.dispatcher.sendTest(COMPANY, id);
    expect(failed).toMatchObject({ result: "failed", delivery: { status: "failed" } });
    expect((await f.dispatcher.endpoints.get(COMPANY, id)).consecutiveFailures).toBe(0);
  });

  it("lists deliveries newest first with cursors and a status filter", async () => {
    const r = await receiver();
    r.setHandler((request, response) => response.writeHead(request.body.includes("fail") ? 500 : 200).end());
    const f = await fixture();
    const { id } = await f.endpoint(r.origin);
    const ids: string[] = [];
    for (let index = 0; index < 5; index++) {
      ids.push(...(await f.emit("job.created", index % 2 === 0 ? "fail" : "fine")).deliveryIds);
      f.clock.advance(1000);
    }
    await f.dispatcher.runOnce();
    const first = await f.dispatcher.deliveries.list(COMPANY, id, { limit: 2 });
    expect(first.data.map((d) => d.id)).toEqual([ids[4], ids[3]]);
    expect(first.hasMore).toBe(true);
    const second = await f.dispatcher.deliveries.list(COMPANY, id, { limit: 2, cursor: first.nextCursor });
    expect(second.data.map((d) => d.id)).toEqual([ids[2], ids[1]]);
    const third = await f.dispatcher.deliveries.list(COMPANY, id, { limit: 2, cursor: second.nextCursor });
    expect(third).toMatchObject({ hasMore: false, nextCursor: null });
    expect(third.data.map((d) => d.id)).toEqual([ids[0]]);
    const pending = await f.dispatcher.deliveries.list(COMPANY, id, { status: "pending" });
    expect(pending.data.map((d) => d.id)).toEqual([ids[4], ids[2], ids[0]]);
    await expect(f.dispatcher.deliveries.list(COMPANY, id, { limit: 0 })).rejects.toMatchObject({ code: "invalid" });
    // Cursors are core's codec: one that is not a cursor, or one of another list, is refused (400).
    await expect(f.dispatcher.deliveries.list(COMPANY, id, { cursor: "nope" })).rejects.toMatchObject({
      code: "bad_request",
      status: 400,
    });
    const other = await f.endpoint(`${r.origin}/other`);
    for (const [endpointId, options] of [
      [other.id, { limit: 2 }],
      [id, { limit: 2, status: "pending" as const }],
    ] as const) {
      await expect(
        f.dispatcher.deliveries.list(COMPANY, endpointId, { ...options, cursor: first.nextCursor }),
      ).rejects.toMatchObject({ code: "bad_request" });
    }
    const pendingFirst = await f.dispatcher.deliveries.list(COMPANY, id, { status: "pending", limit: 1 });
    expect(pendingFirst).toMatchObject({ hasMore: true });
    const pendingNext = await f.dispatcher.deliveries.list(COMPANY, id, {
      status: "pending",
      limit: 1,
      cursor: pendingFirst.nextCursor,
    });
    expect(pendingNext.data.map((d) => d.id)).toEqual([ids[2]]);
  });

  /** Holds every answer back; releases them one by one until `total` requests were answered. */
  async function holdThenRelease(r: Receiver, f: DeliveryFixture, total: number, expectOpen: number) {
    const release: Array<() => void> = [];
    r.setHandler((_request, response) => {
      release.push(() => response.writeHead(200).end());
    });
    f.dispatcher.start();
    await r.waitForRequests(expectOpen);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Nothing is answered yet: the dispatcher holds exactly as many requests open as it may.
    expect(r.open).toBe(expectOpen);
    expect(r.requests).toHaveLength(expectOpen);
    const deadline = Date.now() + 8_000;
    while (r.requests.length < total || release.length > 0 || r.open > 0) {
      if (Date.now() > deadline) throw new Error(`stuck at ${r.requests.length} requests`);
      const next = release.shift();
      if (next) next();
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await f.dispatcher.stop();
  }

  it("keeps to the global concurrency limit", async () => {
    const r = await receiver();
    const f = await fixture({ concurrency: 5, perEndpointConcurrency: 5, timeoutMs: 5_000, leaseMs: 60_000 });
    for (const path of ["/a", "/b", "/c"]) await f.endpoint(`${r.origin}${path}`);
    for (let index = 0; index < 6; index++) await f.emit();
    await holdThenRelease(r, f, 18, 5);
    expect(r.maxOpen).toBe(5);
    const succeeded = await Promise.all(
      (await f.dispatcher.endpoints.list(COMPANY)).map(
        async (endpoint) =>
          (await f.dispatcher.deliveries.list(COMPANY, endpoint.id, { status: "succeeded" })).data.length,
      ),
    );
    expect(succeeded).toEqual([6, 6, 6]);
  }, 15_000);

  it("keeps to the per-endpoint concurrency limit", async () => {
    const r = await receiver();
    const f = await fixture({ concurrency: 8, perEndpointConcurrency: 2, timeoutMs: 5_000, leaseMs: 60_000 });
    await f.endpoint(`${r.origin}/only`);
    for (let index = 0; index < 9; index++) await f.emit();
    await holdThenRelease(r, f, 9, 2);
    expect(r.maxOpen).toBe(2);
    expect(r.maxOpenByPath.get("/only")).toBe(2);
  }, 15_000);

  it("a slow endpoint does not hold back a fast one", async () => {
    const slow = await receiver();
    slow.setHandler((_request, response) => {
      setTimeout(() => response.writeHead(200).end(), 1_500);
    });
    const fast = await receiver();
    const f = await fixture({ concurrency: 8, perEndpointConcurrency: 2, timeoutMs: 3_000, leaseMs: 20_000 });
    await f.endpoint(slow.origin, ["job.created"]);
    await f.endpoint(fast.origin, ["job.closed"]);
    for (let index = 0; index < 12; index++) await f.emit("job.created");
    for (let index = 0; index < 6; index++) await f.emit("job.closed");
    const started = Date.now();
    f.dispatcher.start();
    await fast.waitForRequests(6, 3_000);
    const fastDone = Date.now() - started;
    expect(fastDone).toBeLessThan(1_000);
    expect(slow.maxOpen).toBeLessThanOrEqual(2);
    expect(slow.requests.length).toBeLessThan(12);
    await f.dispatcher.stop();
  });

  it("keeps connections alive: deliveries to one origin reuse a few TLS connections", async () => {
    const r = await receiver();
    const f = await fixture({ perEndpointConcurrency: 1 });
    await f.endpoint(`${r.origin}/one`);
    await f.endpoint(`${r.origin}/two`, ["job.closed"]);
    for (let index = 0; index < 10; index++) {
      await f.emit("job.created");
      await f.emit("job.closed");
      await f.dispatcher.runOnce();
    }
    expect(r.requests).toHaveLength(20);
    // Two requests at a time, each on a pooled connection: a handful of connections, not twenty.
    expect(r.connections).toBeLessThanOrEqual(4);
  });

  it("notify() wakes the running loop at once", async () => {
    const r = await receiver();
    const f = await fixture({ pollIntervalMs: 60_000 });
    await f.endpoint(r.origin);
    f.dispatcher.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await f.emit();
    const started = Date.now();
    f.dispatcher.notify();
    await r.waitForRequests(1, 2_000);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("the running loop polls when nothing notifies it", async () => {
    const r = await receiver();
    const f = await fixture({ pollIntervalMs: 100 });
    await f.endpoint(r.origin);
    f.dispatcher.start();
    await f.emit();
    await r.waitForRequests(1, 2_000);
  });

  it("a delivery held by a dispatcher that died is claimed again when the lease ends", async () => {
    const r = await receiver();
    const f = await fixture({ leaseMs: 30_000 });
    await f.endpoint(r.origin);
    const { deliveryIds } = await f.emit();
    // The dead dispatcher: claims and never records.
    const dead = await f.storage.webhooks.claimDueDeliveries({
      now: f.clock.now(),
      limit: 10,
      leaseUntil: new Date(f.clock.now().getTime() + 30_000),
      leaseToken: "dead-dispatcher",
    });
    expect(dead.map((item) => item.delivery.id)).toEqual(deliveryIds);
    expect((await f.dispatcher.runOnce()).claimed).toBe(0);
    f.clock.advance(29_999);
    expect((await f.dispatcher.runOnce()).claimed).toBe(0);
    f.clock.advance(2);
    expect(await f.dispatcher.runOnce()).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(r.requests).toHaveLength(1);
    // The dead dispatcher's late write is refused: the lease passed on.
    const late = await f.storage.webhooks.recordAttempt(deliveryIds[0] ?? "", "dead-dispatcher", {
      attempt: {
        id: "att_late",
        deliveryId: deliveryIds[0] ?? "",
        endpointId: dead[0]?.endpoint.id ?? "",
        attemptedAt: f.clock.now(),
        statusCode: 500,
        durationMs: 1,
        responseBody: "",
        error: "late",
        succeeded: false,
      },
      status: "pending",
      nextAttemptAt: f.clock.now(),
      endpoint: endpointUpdate({ succeeded: false, test: false, gone: false, pauseAfter: 50 }),
    });
    expect(late.recorded).toBe(false);
    expect(await f.dispatcher.deliveries.get(COMPANY, deliveryIds[0] ?? "")).toMatchObject({
      status: "succeeded",
      attempts: 1,
    });
  });

  it("stop() waits for the requests in flight, records them, and claims nothing more", async () => {
    const r = await receiver();
    r.setHandler((_request, response) => {
      setTimeout(() => response.writeHead(200).end("done"), 400);
    });
    const f = await fixture({ pollIntervalMs: 20 });
    await f.endpoint(r.origin);
    const { deliveryIds } = await f.emit();
    f.dispatcher.start();
    await r.waitForRequests(1, 2_000);
    await f.dispatcher.stop();
    expect(await f.dispatcher.deliveries.get(COMPANY, deliveryIds[0] ?? "")).toMatchObject({
      status: "succeeded",
      attempts: 1,
    });
    await f.emit();
    f.dispatcher.notify();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(r.requests).toHaveLength(1);
  });

  /** Answers the first `hold` requests only when told to, every later one at once. */
  function holdFirst(r: Receiver, hold: number): () => void {
    const held: Array<() => void> = [];
    let seen = 0;
    r.setHandler((_request, response) => {
      seen++;
      if (seen <= hold) held.push(() => response.writeHead(200).end("ok"));
      else response.writeHead(200).end("ok");
    });
    return () => {
      for (const answer of held.splice(0)) answer();
    };
  }

  /** A second dispatcher on the same clock and storage (or `storage` over it), as another process would run. */
  function secondDispatcher(f: DeliveryFixture, storage: WebhookStorage = f.storage) {
    const other = createWebhookDispatcher({
      storage,
      clock: f.clock,
      allowPrivateAddresses: true,
      tls: { ca: suite.certificate.cert },
      timeoutMs: 1_000,
      leaseMs: 30_000,
      logger: { warn: () => {}, error: () => {} },
    });
    suite.defer(() => other.stop());
    return other;
  }

  it("stop() gives back the deliveries it claimed but had not started: another dispatcher claims them at once", async () => {
    const r = await receiver();
    const answer = holdFirst(r, 2);
    const f = await fixture({ concurrency: 8, perEndpointConcurrency: 2, leaseMs: 30_000 });
    const { id } = await f.endpoint(r.origin);
    const deliveryIds: string[] = [];
    for (let index = 0; index < 6; index++) deliveryIds.push(...(await f.emit()).deliveryIds);
    // A storage that ignores maxPerEndpoint hands the dispatcher all six in one claim: two start,
    // four wait for the endpoint's slots.
    const first = createWebhookDispatcher({
      ...f.dispatcher.options,
      storage: ignoringMaxPerEndpoint(f.storage),
      pollIntervalMs: 20,
    });
    suite.defer(() => first.stop());
    first.start();
    await r.waitForRequests(2, 2_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(r.requests).toHaveLength(2);
    const heldBefore = await Promise.all(deliveryIds.map((d) => f.storage.webhooks.getDelivery(COMPANY, d)));
    expect(heldBefore.filter((delivery) => delivery?.leaseToken !== null)).toHaveLength(6);

    const stopping = first.stop();
    const startedIds = new Set(r.requests.map((request) => String(request.headers["service-delivery"])));
    const waiting = deliveryIds.filter((d) => !startedIds.has(d));
    // stop() releases before it waits for the two requests still in flight (held open).
    const deadline = Date.now() + 2_000;
    for (;;) {
      const rows = await Promise.all(waiting.map((d) => f.storage.webhooks.getDelivery(COMPANY, d)));
      if (rows.every((row) => row?.status === "pending" && row.leaseToken === null)) break;
      if (Date.now() > deadline) throw new Error("stop() did not release the waiting deliveries");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // The clock has not moved: without the release these would wait out their 30 s lease.
    const second = secondDispatcher(f);
    expect(await second.runOnce()).toMatchObject({ claimed: 4, succeeded: 4 });
    answer();
    await stopping;
    const page = await f.dispatcher.deliveries.list(COMPANY, id, { limit: 10 });
    expect(page.data).toHaveLength(6);
    for (const delivery of page.data) expect(delivery).toMatchObject({ status: "succeeded", attempts: 1 });
    const sent = r.requests.map((request) => String(request.headers["service-delivery"]));
    expect(sent.sort()).toEqual([...deliveryIds].sort());
  });

  it("a waiting delivery whose lease would run out before a slot frees is released, and claimed again at once", async () => {
    const r = await receiver();
    const answer = holdFirst(r, 2);
    const f = await fixture({ concurrency: 8, perEndpointConcurrency: 2, timeoutMs: 1_000, leaseMs: 30_000 });
    await f.endpoint(r.origin);
    for (let index = 0; index < 6; index++) await f.emit();
    const first = createWebhookDispatcher({ ...f.dispatcher.options, storage: ignoringMaxPerEndpoint(f.storage) });
    suite.defer(() => first.stop());
    const running = first.runOnce();
    await r.waitForRequests(2, 2_000);
    // 2 s of lease left: less than the timeout and the margin, so the four waiting are not sent.
    f.clock.advance(28_000);
    answer();
    expect(await running).toMatchObject({ claimed: 6, succeeded: 2, released: 4, lost: 0 });
    expect(r.requests).toHaveLength(2);
    expect(await secondDispatcher(f).runOnce()).toMatchObject({ claimed: 4, succeeded: 4 });
  });

  it("the running loop claims ahead (prefetch): few large claims, the requests within their limits, each delivery once", async () => {
    const r = await receiver();
    const release: Array<() => void> = [];
    r.setHandler((_request, response) => {
      release.push(() => response.writeHead(200).end());
    });
    const f = await fixture({ concurrency: 4, perEndpointConcurrency: 2, prefetch: 8, leaseMs: 60_000 });
    await f.endpoint(`${r.origin}/a`, ["job.created"]);
    await f.endpoint(`${r.origin}/b`, ["job.closed"]);
    const deliveryIds: string[] = [];
    for (let index = 0; index < 10; index++) {
      deliveryIds.push(...(await f.emit("job.created")).deliveryIds);
      deliveryIds.push(...(await f.emit("job.closed")).deliveryIds);
    }
    const claims: Array<{ limit: number; maxPerEndpoint: number | undefined; brought: number }> = [];
    const base = f.storage.webhooks;
    const webhooks = delegate(base, {
      claimDueDeliveries: async (options: ClaimOptions) => {
        const claimed = await base.claimDueDeliveries(options);
        claims.push({ limit: options.limit, maxPerEndpoint: options.maxPerEndpoint, brought: claimed.length });
        return claimed;
      },
    });
    const dispatcher = createWebhookDispatcher({ ...f.dispatcher.options, storage: delegate(f.storage, { webhooks }) });
    suite.defer(() => dispatcher.stop());
    dispatcher.start();
    await r.waitForRequests(4, 2_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // One claim took the 4 slots and the prefetch of 8: 2 + 8 × 2 / 4 = 6 of each endpoint, of
    // which 2 each are in flight and the rest wait, leased.
    expect(claims[0]).toEqual({ limit: 12, maxPerEndpoint: 6, brought: 12 });
    expect(r.open).toBe(4);
    const held = await Promise.all(deliveryIds.map((id) => f.storage.webhooks.getDelivery(COMPANY, id)));
    expect(held.filter((delivery) => delivery?.leaseToken !== null)).toHaveLength(12);

    const deadline = Date.now() + 8_000;
    while (r.requests.length < 20 || release.length > 0 || r.open > 0) {
      if (Date.now() > deadline) throw new Error(`stuck at ${r.requests.length} requests`);
      const next = release.shift();
      if (next) next();
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await dispatcher.stop();
    expect(r.maxOpen).toBe(4);
    expect(r.maxOpenByPath.get("/a")).toBe(2);
    expect(r.maxOpenByPath.get("/b")).toBe(2);
    const sent = r.requests.map((request) => String(request.headers["service-delivery"]));
    expect(sent.sort()).toEqual([...deliveryIds].sort());
    // Each delivery claimed once. After the first claim of 12 the other 8 come in refills taken once
    // an endpoint has half of what it may hold (6) free: about 3 then 1 of each, so a handful of
    // claims, never one per delivery (how the timing splits them varies on a loaded machine).
    expect(claims.reduce((sum, claim) => sum + claim.brought, 0)).toBe(20);
    expect(claims.filter((claim) => claim.brought > 0).length).toBeLessThanOrEqual(6);
    for (const delivery of await Promise.all(deliveryIds.map((id) => f.storage.webhooks.getDelivery(COMPANY, id)))) {
      expect(delivery).toMatchObject({ status: "succeeded", attempts: 1 });
    }
  }, 15_000);

  it("the running loop writes every attempt that finished during a write in the next one, beyond concurrency", async () => {
    const r = await receiver();
    // concurrency 4 and prefetch 16: one claim holds 20 deliveries, all sent while the first write waits.
    const f = await fixture({ concurrency: 4, perEndpointConcurrency: 4, prefetch: 16, leaseMs: 60_000 });
    await f.endpoint(r.origin, ["job.created"]);
    const deliveryIds: string[] = [];
    for (let index = 0; index < 20; index++) deliveryIds.push(...(await f.emit("job.created")).deliveryIds);
    let openGate = (): void => {};
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    const batches: number[] = [];
    const base = f.storage.webhooks;
    const webhooks = delegate(base, {
      recordAttempts: async (...args: Parameters<typeof base.recordAttempts>) => {
        batches.push(args[0].length);
        if (batches.length === 1) await gate;
        return base.recordAttempts(...args);
      },
    });
    const dispatcher = createWebhookDispatcher({ ...f.dispatcher.options, storage: delegate(f.storage, { webhooks }) });
    suite.defer(() => dispatcher.stop());
    dispatcher.start();
    await r.waitForRequests(20, 5_000);
    // Every answer sent, and a moment for the dispatcher (in this process) to read them.
    while (r.open > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));
    openGate();
    const deadline = Date.now() + 5_000;
    while (batches.reduce((sum, size) => sum + size, 0) < 20) {
      if (Date.now() > deadline) throw new Error(`recorded ${batches.join(" + ")} of 20`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await dispatcher.stop();
    // The first attempt's write, then the other 19 in one (more than concurrency, and than 16).
    expect(batches).toEqual([1, 19]);
    for (const delivery of await Promise.all(deliveryIds.map((id) => f.storage.webhooks.getDelivery(COMPANY, id)))) {
      expect(delivery).toMatchObject({ status: "succeeded", attempts: 1 });
    }
  }, 15_000);

  it("a claim takes at most perEndpointConcurrency deliveries of one endpoint, and others' beside them", async () => {
    const r = await receiver();
    const f = await fixture({ concurrency: 8, perEndpointConcurrency: 2 });
    await f.endpoint(`${r.origin}/busy`, ["job.created"]);
    await f.endpoint(`${r.origin}/quiet`, ["job.closed"]);
    for (let index = 0; index < 6; index++) await f.emit("job.created");
    await f.emit("job.closed");
    const result = await f.dispatcher.runOnce();
    expect(result).toMatchObject({ claimed: 3, succeeded: 3, released: 0 });
    expect(r.requests.map((request) => request.path).sort()).toEqual(["/busy", "/busy", "/quiet"]);
  });

  it("purge() deletes finished deliveries, attempts and events older than the retention", async () => {
    const r = await receiver();
    r.setHandler((request, response) => response.writeHead(request.body.includes("fail") ? 500 : 200).end());
    const f = await fixture(); // retentionDays: 30 by default
    const { id } = await f.endpoint(r.origin);
    const done = await f.emit("job.created", "fine");
    const pending = await f.emit("job.created", "fail");
    await f.dispatcher.runOnce();
    f.clock.advance(29 * 24 * HOUR);
    expect(await f.dispatcher.purge()).toEqual({ deliveries: 0, events: 0 });
    f.clock.advance(2 * 24 * HOUR);
    const recent = await f.emit("job.created", "fine");
    await f.dispatcher.runOnce();
    expect(await f.dispatcher.purge()).toEqual({ deliveries: 1, events: 1 });
    const left = await f.dispatcher.deliveries.list(COMPANY, id);
    expect(left.data.map((d) => d.id).sort()).toEqual([...pending.deliveryIds, ...recent.deliveryIds].sort());
    expect(await f.storage.events.get(done.eventId)).toBeNull();
    expect(await f.storage.events.get(pending.eventId)).not.toBeNull();
  });
});
