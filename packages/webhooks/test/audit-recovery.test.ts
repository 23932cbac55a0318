import type { AuditRecord, ChangeOptions } from "@hireport/core";
import { afterEach, describe, expect, it } from "vitest";
import type { WebhookStorage, WebhookStore } from "../src/index";
import { createWebhookDispatcher, type EndpointWithSecret, type WebhookDispatcher } from "../src/index";
import { memoryWebhookStorage } from "../src/memory/index";
import { type ManualClock, manualClock } from "./support/clock";
import { emitEvent, sampleJob } from "./support/outbox";
import { type Receiver, startReceiver } from "./support/receiver";

const COMPANY = "co_audit";
const OTHER = "co_other";
const owner = { type: "host" as const, id: "user_1", name: "Olivia (owner)" };

interface Setup {
  storage: WebhookStorage;
  clock: ManualClock;
  dispatcher: WebhookDispatcher;
  receiver: Receiver;
}

let running: Setup | null = null;

/** A dispatcher on a memory storage with one attempt per delivery (no retries), and a local receiver. */
async function setup(): Promise<Setup> {
  const storage = memoryWebhookStorage();
  const clock = manualClock();
  for (const id of [COMPANY, OTHER]) await storage.companies.upsert({ id, name: id, createdAt: clock.now() });
  const dispatcher = createWebhookDispatcher({
    storage,
    clock,
    allowPrivateAddresses: true,
    retrySchedule: [],
    timeoutMs: 1_000,
    leaseMs: 30_000,
  });
  const receiver = await startReceiver();
  running = { storage, clock, dispatcher, receiver };
  return running;
}

afterEach(async () => {
  await running?.dispatcher.stop();
  await running?.receiver.close();
  running = null;
});

async function auditOf(storage: WebhookStorage, companyId = COMPANY): Promise<AuditRecord[]> {
  return (await storage.audit.list(companyId, { take: 100 })).reverse();
}

/** The company's endpoint for `job.created` at the receiver's `/hooks`, created through the dispatcher. */
async function hooksEndpoint(
  { dispatcher, receiver }: Setup,
  options?: ChangeOptions,
): Promise<EndpointWithSecret["endpoint"]> {
  const created = await dispatcher.endpoints.create(
    { companyId: COMPANY, url: `${receiver.origin}/hooks`, events: ["job.created"] },
    options,
  );
  return created.endpoint;
}

async function emit({ storage, clock }: Setup, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await emitEvent(storage, {
      companyId: COMPANY,
      type: "job.created",
      data: sampleJob(`Job ${i}`),
      now: clock.now(),
    });
    clock.advance(1_000);
  }
}

describe("webhook host methods record who changed what", () => {
  it("records every endpoint change, the reveal, the test send and the resend with the actor, in the audit list", async () => {
    const context = await setup();
    const { dispatcher, storage, receiver } = context;
    const options = { actor: owner };
    // The clock moves between changes, so that the audit list (newest first, by time) keeps their order.
    const step = async <T>(change: () => Promise<T>): Promise<T> => {
      context.clock.advance(1_000);
      return change();
    };
    const endpoint = await step(() => hooksEndpoint(context, options));
    await step(() =>
      dispatcher.endpoints.update(COMPANY, endpoint.id, { events: ["job.created", "job.closed"] }, options),
    );
    await step(() => dispatcher.endpoints.pause(COMPANY, endpoint.id, options));
    await step(() => dispatcher.endpoints.pause(COMPANY, endpoint.id, options));
    await step(() => dispatcher.endpoints.resume(COMPANY, endpoint.id, options));
    const rotated = await step(() => dispatcher.endpoints.rotateSecret(COMPANY, endpoint.id, options));
    const revealed = await step(() => dispatcher.endpoints.revealSecret(COMPANY, endpoint.id, options));
    expect(revealed.secret).toBe(rotated.secret);
    const test = await step(() => dispatcher.sendTest(COMPANY, endpoint.id, options));
    await step(() => dispatcher.deliveries.resend(COMPANY, test.delivery.id, options));
    await step(() => dispatcher.endpoints.delete(COMPANY, endpoint.id));

    const entries = await auditOf(storage);
    expect(entries.map((entry) => entry.action)).toEqual([
      "webhook_endpoint.created",
      "webhook_endpoint.updated",
      "webhook_endpoint.paused",
      "webhook_endpoint.resumed",
      "webhook_endpoint.secret_rotated",
      "webhook_endpoint.secret_revealed",
      "webhook_endpoint.test_sent",
      "webhook_delivery.resent",
      "webhook_endpoint.deleted",
    ]);
    expect(entries.slice(0, -1).every((entry) => entry.actor.name === owner.name && entry.actor.id === "user_1")).toBe(
      true,
    );
    expect(entries.at(-1)?.actor).toEqual({ type: "host", id: null, name: "host" });
    expect(entries[1]?.details).toEqual({ fields: ["events"], events: ["job.created", "job.closed"] });
    // No secret, no URL in the audit list.
    expect(JSON.stringify(entries)).not.toContain("whsec_");
    expect(JSON.stringify(entries)).not.toContain(receiver.origin);
    expect(await auditOf(storage, OTHER)).toEqual([]);
  });

  it("records nothing when the change does not happen (another company's endpoint)", async () => {
    const context = await setup();
    const { dispatcher, storage } = context;
    const endpoint = await hooksEndpoint(context);
    await expect(dispatcher.endpoints.pause(OTHER, endpoint.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(dispatcher.endpoints.delete(OTHER, endpoint.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(dispatcher.endpoints.revealSecret(OTHER, endpoint.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await auditOf(storage, OTHER)).toEqual([]);
  });
});

describe("deliveries.recover", () => {
  it("queues every failed delivery since a time, once; a second run queues nothing; they then go out", async () => {
    const context = await setup();
    const { dispatcher, storage, receiver, clock } = context;
    receiver.setHandler((_request, response) => response.writeHead(500).end("down for maintenance"));
    const endpoint = await hooksEndpoint(context);
    const start = clock.now();
    await emit(context, 1);
    const since = clock.now();
    await emit(context, 3);
    const run = await dispatcher.runOnce({ maxPasses: 5 });
    expect(run).toMatchObject({ claimed: 4, failed: 4 });

    const recovered = await dispatcher.deliveries.recover(COMPANY, endpoint.id, { since, actor: owner });
    expect(recovered).toEqual({ queued: 3, more: false });
    expect(await dispatcher.deliveries.recover(COMPANY, endpoint.id, { since })).toEqual({ queued: 0, more: false });
    await expect(dispatcher.deliveries.recover(OTHER, endpoint.id, { since })).rejects.toMatchObject({
      code: "not_found",
    });

    receiver.setHandler((_request, response) => response.writeHead(204).end());
    expect(await dispatcher.runOnce({ maxPasses: 5 })).toMatchObject({ claimed: 3, succeeded: 3 });
    const failed = await dispatcher.deliveries.list(COMPANY, endpoint.id, { status: "failed" });
    expect(failed.data).toHaveLength(1);
    expect(failed.data[0]?.createdAt.getTime()).toBe(start.getTime());

    const entries = await auditOf(storage);
    expect(entries.filter((entry) => entry.action === "webhook_endpoint.deliveries_recovered")).toEqual([
      expect.objectContaining({
        actor: owner,
        target: { type: "webhook_endpoint", id: endpoint.id },
        details: { count: 3, since: since.toISOString() },
      }),
    ]);
  });

  it("stops at its limit and says there is more; the next run goes on", async () => {
    const context = await setup();
    const { dispatcher, receiver, clock } = context;
    receiver.setHandler((_request, response) => response.writeHead(503).end());
    const endpoint = await hooksEndpoint(context);
    const since = clock.now();
    await emit(context, 5);
    await dispatcher.runOnce({ maxPasses: 5 });
    expect(await dispatcher.deliveries.recover(COMPANY, endpoint.id, { since, limit: 2 })).toEqual({
      queued: 2,
      more: true,
    });
    expect(await dispatcher.deliveries.recover(COMPANY, endpoint.id, { since, limit: 2 })).toEqual({
      queued: 2,
      more: true,
    });
    expect(await dispatcher.deliveries.recover(COMPANY, endpoint.id, { since, limit: 2 })).toEqual({
      queued: 1,
      more: false,
    });
    await expect(
      dispatcher.deliveries.recover(COMPANY, endpoint.id, { since: new Date("nope") }),
    ).rejects.toMatchObject({ code: "invalid" });
  });
});

describe("deliveries.list", () => {
  it("reads the attempts of a whole page in one storage call (no query per delivery)", async () => {
    const context = await setup();
    const { dispatcher, storage, receiver } = context;
    receiver.setHandler((_request, response) => response.writeHead(500).end("no"));
    const endpoint = await hooksEndpoint(context);
    await emit(context, 6);
    await dispatcher.runOnce({ maxPasses: 5 });
    const webhooks = storage.webhooks as WebhookStore;
    const calls = { one: 0, many: 0 };
    const listAttempts = webhooks.listAttempts;
    const listAttemptsOf = webhooks.listAttemptsOf;
    Object.assign(webhooks, {
      listAttempts: (...args: Parameters<WebhookStore["listAttempts"]>) => {
        calls.one++;
        return listAttempts(...args);
      },
      listAttemptsOf: (...args: Parameters<WebhookStore["listAttemptsOf"]>) => {
        calls.many++;
        return listAttemptsOf(...args);
      },
    });
    const page = await dispatcher.deliveries.list(COMPANY, endpoint.id, { limit: 5 });
    expect(page.data).toHaveLength(5);
    expect(page.data.every((delivery) => delivery.attemptLog.length === 1)).toBe(true);
    expect(page.data[0]?.attemptLog[0]).toMatchObject({ statusCode: 500, responseBody: "no" });
    expect(calls).toEqual({ one: 0, many: 1 });
  });
});
