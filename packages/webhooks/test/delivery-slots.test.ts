import { describe, expect, it } from "vitest";
import { DeliverySlots } from "../src/delivery/delivery-slots";

/** Starts every ready delivery, as the runner does when no lease is short; returns what started. */
function startReady(slots: DeliverySlots<string>): string[] {
  const started: string[] = [];
  for (const [endpointId, item] of slots.ready()) {
    slots.start(endpointId);
    started.push(item);
  }
  return started;
}

describe("DeliverySlots", () => {
  it("starts waiting deliveries oldest first, within the global and the per-endpoint limits", () => {
    const slots = new DeliverySlots<string>({ concurrency: 3, perEndpointConcurrency: 2 });
    expect(slots.claimable()).toBe(3);
    for (const item of ["a1", "a2", "a3"]) slots.wait("we_a", item);
    slots.wait("we_b", "b1");
    slots.wait("we_b", "b2");
    // Two of we_a (its limit), then one of we_b (the global limit).
    expect(startReady(slots)).toEqual(["a1", "a2", "b1"]);
    expect(slots.load("we_a")).toBe(3);
    expect(slots.endpointsAtLimit().sort()).toEqual(["we_a", "we_b"]);
    // Everything held stays within twice `concurrency`: 3 in flight and 2 waiting leave 1.
    expect(slots.claimable()).toBe(0);

    // A request is over: its slots are free while its attempt is recorded.
    slots.requestOver("we_a");
    expect(startReady(slots)).toEqual(["a3"]);
    slots.requestOver("we_b");
    expect(startReady(slots)).toEqual(["b2"]);
    expect(startReady(slots)).toEqual([]);
    // 3 in flight, 2 recording: 1 more may be held, none may be sent.
    expect(slots.claimable()).toBe(0);
    slots.recorded();
    slots.recorded();
    expect(slots.claimable()).toBe(0);
    for (const endpointId of ["we_a", "we_a", "we_b"]) {
      slots.requestOver(endpointId);
      slots.recorded();
    }
    expect(slots.claimable()).toBe(3);
    expect(slots.endpointsAtLimit()).toEqual([]);
  });

  it("a delivery it yields and the caller does not start takes no slot (given back to the storage)", () => {
    const slots = new DeliverySlots<string>({ concurrency: 2, perEndpointConcurrency: 2 });
    slots.wait("we_a", "short-lease");
    slots.wait("we_a", "a2");
    const started: string[] = [];
    for (const [endpointId, item] of slots.ready()) {
      if (item === "short-lease") continue;
      slots.start(endpointId);
      started.push(item);
    }
    expect(started).toEqual(["a2"]);
    expect(slots.load("we_a")).toBe(1);
    expect(slots.claimable()).toBe(1);
  });

  it("claims again once a quarter of the slots are free after a full claim, or half an endpoint's after a cut one", () => {
    const slots = new DeliverySlots<string>({ concurrency: 8, perEndpointConcurrency: 4 });
    expect(slots.backlog).toBe(false);
    // A full claim: 8 asked, 8 brought (two endpoints at their share).
    const endpointIds = [...Array(4).fill("we_a"), ...Array(4).fill("we_b")] as string[];
    slots.claimed({ asked: 8, perEndpoint: 4, excluded: [], endpointIds });
    for (const [index, endpointId] of endpointIds.entries()) slots.wait(endpointId, `d${index}`);
    expect(startReady(slots)).toHaveLength(8);
    expect(slots.backlog).toBe(true);
    slots.requestOver("we_a");
    expect(slots.wantsMore("we_a")).toBe(false);
    slots.requestOver("we_a");
    // 2 of 8 free (a quarter), and half of we_a's.
    expect(slots.wantsMore("we_a")).toBe(true);

    // A claim that brings less than asked, one endpoint cut at its share: only that one has more due.
    slots.recorded();
    slots.recorded();
    slots.claimed({ asked: 2, perEndpoint: 4, excluded: ["we_b"], endpointIds: ["we_a"] });
    expect(slots.backlog).toBe(true); // we_b was left out: it may still have more due
    slots.claimed({ asked: 6, perEndpoint: 4, excluded: [], endpointIds: ["we_a"] });
    expect(slots.backlog).toBe(false);
    expect(slots.wantsMore("we_a")).toBe(false);
  });

  it("with prefetch, claims ahead of the free slots, its share per endpoint, and again once half has gone", () => {
    const slots = new DeliverySlots<string>({ concurrency: 4, perEndpointConcurrency: 2, prefetch: 8 });
    // 2 slots and a share of 8 × 2 / 4 = 4 ahead per endpoint.
    expect(slots.maxPerEndpoint("ahead")).toBe(6);
    expect(slots.maxPerEndpoint()).toBe(6);
    expect(slots.maxPerEndpoint("slots only")).toBe(2);
    expect(slots.claimable()).toBe(12);
    expect(slots.claimable("slots only")).toBe(4);

    const endpointIds = [...Array(6).fill("we_a"), ...Array(6).fill("we_b")] as string[];
    slots.claimed({ asked: 12, perEndpoint: 6, excluded: [], endpointIds });
    for (const [index, endpointId] of endpointIds.entries()) slots.wait(endpointId, `d${index}`);
    // Only the slots start: 2 of each endpoint; the other 8 wait.
    expect(startReady(slots)).toEqual(["d0", "d1", "d6", "d7"]);
    expect(slots.claimable()).toBe(0);
    expect(slots.claimable("slots only")).toBe(0);
    expect(slots.endpointsAtLimit().sort()).toEqual(["we_a", "we_b"]);

    // Each finished request starts a waiting one; a claim is worth making once the slots' quarter
    // and half the prefetch (1 + 4) are free, not for every request.
    const finish = (endpointId: string) => {
      slots.requestOver(endpointId);
      slots.recorded();
      return startReady(slots);
    };
    expect(finish("we_a")).toEqual(["d2"]);
    expect(slots.wantsMore("we_a")).toBe(false);
    expect(finish("we_b")).toEqual(["d8"]);
    expect(finish("we_a")).toEqual(["d3"]);
    expect(finish("we_b")).toEqual(["d9"]);
    expect(slots.claimable()).toBe(4);
    expect(slots.wantsMore("we_b")).toBe(false);
    expect(finish("we_a")).toEqual(["d4"]);
    // 5 may be claimed now (half the prefetch and a quarter of the slots).
    expect(slots.claimable()).toBe(5);
    expect(slots.wantsMore("we_a")).toBe(true);
    // we_a holds 3 of its 6: half free, so it is claimed for again as an endpoint with more due.
    expect(slots.load("we_a")).toBe(3);
    expect(slots.endpointsAtLimit()).toEqual([]);
  });

  it("without prefetch, claims only the free slots, as runOnce does", () => {
    const slots = new DeliverySlots<string>({ concurrency: 4, perEndpointConcurrency: 2, prefetch: 0 });
    expect(slots.maxPerEndpoint("ahead")).toBe(2);
    expect(slots.claimable()).toBe(4);
    for (const item of ["a1", "a2", "a3"]) slots.wait("we_a", item);
    expect(startReady(slots)).toEqual(["a1", "a2"]);
    expect(slots.claimable()).toBe(2);
    expect(slots.endpointsAtLimit()).toEqual(["we_a"]);
  });

  it("takeAllWaiting empties the queues and forgets the backlog", () => {
    const slots = new DeliverySlots<string>({ concurrency: 1, perEndpointConcurrency: 1 });
    slots.full();
    slots.wait("we_a", "a1");
    slots.wait("we_a", "a2");
    slots.wait("we_b", "b1");
    expect(startReady(slots)).toEqual(["a1"]);
    expect(slots.takeAllWaiting().sort()).toEqual(["a2", "b1"]);
    expect(slots.backlog).toBe(false);
    expect(slots.load("we_b")).toBe(0);
    expect(startReady(slots)).toEqual([]);
  });
});
