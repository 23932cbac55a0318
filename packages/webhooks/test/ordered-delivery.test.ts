import { describe, expect, it } from "vitest";
import { COMPANY, type DeliveryFixture } from "./support/fixture";
import type { Receiver } from "./support/receiver";
import { storageSuite } from "./support/storage-suite";
import { storageFactories } from "./support/storages";

const RETRY_MS = 1_000;

// Memory and Postgres: the claim's two implementations (the store conformance suite checks every
// dialect's claims of ordered endpoints).
const factories = storageFactories().filter((factory) => factory.name === "memory" || factory.name === "postgres");

describe.each(factories)("ordered delivery on $name", (factory) => {
  const suite = storageSuite(factory);

  /** The `…-Delivery` header of each request to `path`, in the order they arrived. */
  const sentTo = (receiver: Receiver, path: string) =>
    receiver.requests
      .filter((request) => request.path === path)
      .map((request) => String(request.headers["service-delivery"]));

  /** Emits `count` job.created events a millisecond apart; the ids of their deliveries, event by event. */
  async function emitMany(f: DeliveryFixture, count: number): Promise<string[][]> {
    const ids: string[][] = [];
    for (let index = 0; index < count; index++) {
      f.clock.advance(1);
      ids.push((await f.emit("job.created", `job ${index}`)).deliveryIds);
    }
    return ids;
  }

  async function orderedEndpoint(f: DeliveryFixture, receiver: Receiver, path: string, ordered = true) {
    const { endpoint } = await f.dispatcher.endpoints.create({
      companyId: COMPANY,
      url: `${receiver.origin}${path}`,
      events: ["job.created"],
      ordered,
    });
    return endpoint;
  }

  /** Runs passes, moving the clock past each retry, until nothing is left to send. */
  async function drain(f: DeliveryFixture): Promise<void> {
    for (let round = 0; round < 40; round++) {
      const result = await f.dispatcher.runOnce({ maxPasses: 20 });
      const pending = [];
      for (const endpoint of await f.dispatcher.endpoints.list(COMPANY)) {
        pending.push(...(await f.dispatcher.deliveries.list(COMPANY, endpoint.id, { status: "pending" })).data);
      }
      if (pending.length === 0) return;
      if (result.claimed === 0) f.clock.advance(RETRY_MS);
    }
    throw new Error("deliveries were still pending after 40 rounds");
  }

  it("sends an ordered endpoint's events in order, the rest waiting while the receiver fails the head twice", async () => {
    const receiver = await suite.receiver();
    const f = await suite.fixture({ retrySchedule: [RETRY_MS, RETRY_MS, RETRY_MS] });
    const ordered = await orderedEndpoint(f, receiver, "/ordered");
    await orderedEndpoint(f, receiver, "/plain", false);
    expect(ordered).toMatchObject({ ordered: true, maxPerSecond: null });
    const emitted = await emitMany(f, 4);
    const orderedIds = emitted.map((ids) => ids.find((id) => id.endsWith(ordered.id.slice(3))) ?? "");
    const head = orderedIds[0];
    let headFailures = 0;
    receiver.setHandler((request, response) => {
      const id = String(request.headers["service-delivery"]);
      if (id === head && headFailures < 2) {
        headFailures++;
        response.writeHead(500).end("not yet");
      } else response.writeHead(200).end("ok");
    });

    const first = await f.dispatcher.runOnce({ maxPasses: 5 });
    // The first pass sends the ordered head and the plain endpoint's four; the head failed, and
    // nothing else of the ordered endpoint went out.
    expect(sentTo(receiver, "/ordered")).toEqual([head]);
    expect(sentTo(receiver, "/plain")).toHaveLength(4);
    expect(first.retrying).toBe(1);

    await drain(f);
    expect(sentTo(receiver, "/ordered")).toEqual([head, head, ...orderedIds]);
    expect(receiver.maxOpenByPath.get("/ordered")).toBe(1);
    const log = await f.dispatcher.deliveries.list(COMPANY, ordered.id, { limit: 10 });
    expect(log.data.map((delivery) => [delivery.id, delivery.status, delivery.attempts]).reverse()).toEqual([
      [head, "succeeded", 3],
      ...orderedIds.slice(1).map((id) => [id, "succeeded", 1]),
    ]);
  });

  it("goes on with the next once the head is given up on, and keeps the order over a pause and a resume", async () => {
    const receiver = await suite.receiver();
    const f = await suite.fixture({ retrySchedule: [RETRY_MS] });
    const endpoint = await orderedEndpoint(f, receiver, "/ordered");
    const [dead, ...rest] = (await emitMany(f, 3)).flat();
    receiver.setHandler((request, response) => {
      if (request.headers["service-delivery"] === dead) response.writeHead(503).end("down");
      else response.writeHead(200).end("ok");
    });
    await f.dispatcher.runOnce();
    await f.dispatcher.endpoints.pause(COMPANY, endpoint.id);
    f.clock.advance(RETRY_MS);
    expect(await f.dispatcher.runOnce({ maxPasses: 3 })).toMatchObject({ claimed: 0 });
    const later = (await emitMany(f, 2)).flat();
    await f.dispatcher.endpoints.resume(COMPANY, endpoint.id);
    await drain(f);
    expect(sentTo(receiver, "/ordered")).toEqual([dead, dead, ...rest, ...later]);
    expect((await f.dispatcher.deliveries.get(COMPANY, dead ?? "")).status).toBe("failed");
    expect(receiver.maxOpenByPath.get("/ordered")).toBe(1);
  });

  it("stores ordered and maxPerSecond from create and update, and refuses bad values", async () => {
    const receiver = await suite.receiver();
    const f = await suite.fixture();
    const { endpoint } = await f.dispatcher.endpoints.create({
      companyId: COMPANY,
      url: `${receiver.origin}/x`,
      events: ["job.created"],
      maxPerSecond: 20,
    });
    expect(endpoint).toMatchObject({ ordered: false, maxPerSecond: 20 });
    const updated = await f.dispatcher.endpoints.update(COMPANY, endpoint.id, { ordered: true, maxPerSecond: null });
    expect(updated).toMatchObject({ ordered: true, maxPerSecond: null });
    expect(await f.dispatcher.endpoints.get(COMPANY, endpoint.id)).toMatchObject({ ordered: true, maxPerSecond: null });
    for (const maxPerSecond of [0, 1.5, -1, 10_001, "5"]) {
      await expect(
        f.dispatcher.endpoints.update(COMPANY, endpoint.id, { maxPerSecond: maxPerSecond as number }),
      ).rejects.toMatchObject({ code: "invalid", fields: [{ field: "maxPerSecond" }] });
    }
    await expect(
      f.dispatcher.endpoints.update(COMPANY, endpoint.id, { ordered: "yes" as unknown as boolean }),
    ).rejects.toMatchObject({ code: "invalid", fields: [{ field: "ordered" }] });
    const audit = await f.storage.audit.list(COMPANY, { take: 10 });
    expect(audit.map((entry) => entry.details)).toContainEqual(
      expect.objectContaining({ fields: ["ordered", "maxPerSecond"], ordered: true, maxPerSecond: null }),
    );
  });
});
