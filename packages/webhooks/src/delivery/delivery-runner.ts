import type { ResolvedDispatcherOptions } from "../dispatcher/options";
import type { Sender } from "../network/sender";
import { type AttemptReport, createDeliveryAttempts, type DeliveryResult, type HeldDelivery } from "./delivery-attempt";
import { type ClaimMode, DeliverySlots } from "./delivery-slots";
import { newLeaseToken } from "./random-tokens";
import { withWriteRetries } from "./write-retries";

export type { AttemptReport, DeliveryResult, HeldDelivery } from "./delivery-attempt";

/** Counts of one claim pass (`runOnce`). */
export interface RunResult {
  /** Deliveries claimed. */
  claimed: number;
  succeeded: number;
  retrying: number;
  failed: number;
  released: number;
  lost: number;
}

export interface DeliveryRunnerContext {
  options: ResolvedDispatcherOptions;
  sender: () => Sender;
  /** Called when a slot frees while more work may be due. */
  onCapacity: () => void;
}

/**
 * Claims due deliveries and sends them, keeping at most `concurrency` requests in flight and at
 * most `perEndpointConcurrency` per endpoint. The running loop claims ahead (`prefetch`): a claim
 * asks for the free request slots and what the prefetch leaves, at most
 * `DeliverySlots.maxPerEndpoint("ahead")` deliveries of one endpoint, and leaves out the endpoints
 * that hold that many; `runOnce` asks for the free slots alone, at most `perEndpointConcurrency` of
 * one endpoint. What a claim brings beyond the free slots waits in a queue of its endpoint, inside
 * its lease (renewed by the heartbeat). A storage that ignores `maxPerEndpoint` still works: the
 * excess queues the same way.
 *
 * It composes the parts: {@link DeliverySlots} counts, `delivery-attempt` sends and records, and
 * the runner claims, starts, and gives back what it cannot send in time.
 */
export interface DeliveryRunner {
  /**
   * One claim: as many deliveries as there are free slots, and with mode `"ahead"` (the default)
   * what `prefetch` leaves free. Resolves once claimed (sending has begun) with the number claimed
   * and `done`, which resolves when every one of them is done.
   */
  claim(mode?: ClaimMode): Promise<{ claimed: number; done: Promise<RunResult> }>;
  /** Sends one delivery already held (a test event inserted with its lease). */
  sendHeld(held: HeldDelivery): Promise<AttemptReport>;
  /**
   * Gives the deliveries waiting for a slot back to the storage (`releaseDeliveries`: any
   * dispatcher may claim them at once) and waits for those in flight. Returns how many it released.
   */
  drain(): Promise<number>;
  /** True when more may be due than the last claim took (it was cut by capacity or per endpoint). */
  readonly backlog: boolean;
}

interface QueuedDelivery {
  held: HeldDelivery;
  settle: (result: DeliveryResult) => void;
}

/** Minimum lease left, beyond the timeout, for a queued delivery to still be sent. */
const LEASE_MARGIN_MS = 2_000;

/** Heartbeats per lease: while deliveries are held, their leases are extended every `leaseMs / 4`. */
const RENEWALS_PER_LEASE = 4;

/** Held deliveries grouped by the lease token (the claim) they are held under. */
function byToken(items: Iterable<HeldDelivery>): Map<string, HeldDelivery[]> {
  const groups = new Map<string, HeldDelivery[]>();
  for (const item of items) {
    const group = groups.get(item.leaseToken);
    if (group) group.push(item);
    else groups.set(item.leaseToken, [item]);
  }
  return groups;
}

export function createDeliveryRunner({ options, sender, onCapacity }: DeliveryRunnerContext): DeliveryRunner {
  const { storage, clock, logger } = options;
  const slots = new DeliverySlots<QueuedDelivery>(options);
  const attempts = createDeliveryAttempts({ options, sender });
  const inFlightPromises = new Set<Promise<unknown>>();
  const releasing = new Set<Promise<unknown>>();
  /** Every delivery claimed and not settled yet (waiting, in flight, being recorded), for the heartbeat. */
  const held = new Map<string, HeldDelivery>();
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  let renewing = false;

  /**
   * The heartbeat: extends the lease of every delivery still held to `leaseMs` from now, so that
   * the lease need only cover the time between two beats, not the longest wait for a slot. A
   * dispatcher that dies leaves its deliveries to another within `leaseMs` of its last beat.
   */
  async function renewLeases(): Promise<void> {
    if (renewing || held.size === 0) return;
    renewing = true;
    const leaseUntil = new Date(clock.now().getTime() + options.leaseMs);
    try {
      for (const [leaseToken, items] of byToken(held.values())) {
        const ids = items.map((item) => item.claimed.delivery.id);
        try {
          await storage.webhooks.extendLeases(ids, leaseToken, leaseUntil);
          for (const item of items) item.leaseUntil = leaseUntil;
        } catch (error) {
          logger.warn("hireport webhooks: extending leases failed; they run out at their current end", {
            deliveryIds: ids,
            error: String(error),
          });
        }
      }
    } finally {
      renewing = false;
    }
  }

  function hold(item: HeldDelivery): void {
    held.set(item.claimed.delivery.id, item);
    if (heartbeat) return;
    heartbeat = setInterval(() => void renewLeases(), Math.floor(options.leaseMs / RENEWALS_PER_LEASE));
    heartbeat.unref?.();
  }

  function unhold(item: HeldDelivery): void {
    held.delete(item.claimed.delivery.id);
    if (held.size > 0 || !heartbeat) return;
    clearInterval(heartbeat);
    heartbeat = null;
  }

  /** Starts what may start: waiting deliveries with a free slot, unless their lease is nearly over. */
  function pump(): void {
    for (const [endpointId, next] of slots.ready()) {
      const leaseLeft = next.held.leaseUntil.getTime() - clock.now().getTime();
      if (leaseLeft < options.timeoutMs + LEASE_MARGIN_MS) {
        release([next]);
        continue;
      }
      start(endpointId, next);
    }
  }

  /**
   * Gives unsent deliveries back to the storage at once, then settles them as released. Should the
   * storage fail, their leases run out as before (logged).
   */
  function release(items: readonly QueuedDelivery[]): Promise<void> {
    const task = Promise.all(
      [...byToken(items.map((item) => item.held))].map(([leaseToken, group]) => {
        const ids = group.map((item) => item.claimed.delivery.id);
        return withWriteRetries(() => storage.webhooks.releaseDeliveries(ids, leaseToken)).catch((error: unknown) => {
          logger.error("hireport webhooks: releasing deliveries failed; they are claimed again when their lease ends", {
            deliveryIds: ids,
            error: String(error),
          });
        });
      }),
    ).then(() => {
      releasing.delete(task);
      for (const item of items) item.settle("released");
    });
    releasing.add(task);
    return task;
  }

  function wantMore(endpointId: string): void {
    if (slots.wantsMore(endpointId)) onCapacity();
  }

  function start(endpointId: string, item: QueuedDelivery): void {
    slots.start(endpointId);
    let requestOver = false;
    // The request is over: its slot (global and of its endpoint) is free while the attempt is
    // being recorded; the delivery stays held (leased, counted as recording) until then.
    const sent = (): void => {
      if (requestOver) return;
      requestOver = true;
      slots.requestOver(endpointId);
      pump();
      wantMore(endpointId);
    };
    const task = attempts
      .make(item.held, sent)
      .then((report) => report.result)
      .catch((error: unknown) => {
        logger.error("hireport webhooks: delivery failed unexpectedly", { error: String(error) });
        return "lost" as const;
      })
      .then((result) => {
        sent();
        slots.recorded();
        inFlightPromises.delete(task);
        item.settle(result);
        // An ordered endpoint's next delivery may be claimed once this one is written as done.
        if (item.held.claimed.endpoint.ordered && (result === "succeeded" || result === "failed")) onCapacity();
        else wantMore(endpointId);
      });
    inFlightPromises.add(task);
  }

  return {
    get backlog() {
      return slots.backlog;
    },

    async claim(mode = "ahead") {
      const counts: RunResult = { claimed: 0, succeeded: 0, retrying: 0, failed: 0, released: 0, lost: 0 };
      const free = slots.claimable(mode);
      if (free <= 0) {
        slots.full();
        return { claimed: 0, done: Promise.resolve(counts) };
      }
      const excludeEndpointIds = slots.endpointsAtLimit(mode);
      const maxPerEndpoint = slots.maxPerEndpoint(mode);
      const now = clock.now();
      const leaseToken = newLeaseToken();
      const leaseUntil = new Date(now.getTime() + options.leaseMs);
      const claimed = await storage.webhooks.claimDueDeliveries({
        now,
        limit: free,
        leaseUntil,
        leaseToken,
        excludeEndpointIds,
        maxPerEndpoint,
      });
      slots.claimed({
        asked: free,
        perEndpoint: maxPerEndpoint,
        excluded: excludeEndpointIds,
        endpointIds: claimed.map((item) => item.endpoint.id),
      });
      counts.claimed = claimed.length;
      const done = claimed.map(
        (item) =>
          new Promise<void>((resolve) => {
            const heldDelivery: HeldDelivery = { claimed: item, leaseToken, leaseUntil };
            hold(heldDelivery);
            slots.wait(item.endpoint.id, {
              held: heldDelivery,
              settle: (result) => {
                unhold(heldDelivery);
                counts[result]++;
                resolve();
              },
            });
          }),
      );
      pump();
      return { claimed: claimed.length, done: Promise.all(done).then(() => counts) };
    },

    sendHeld(held) {
      return attempts.make(held);
    },

    async drain() {
      const waiting = slots.takeAllWaiting();
      if (waiting.length > 0) release(waiting);
      while (inFlightPromises.size > 0 || releasing.size > 0) {
        await Promise.all([...inFlightPromises, ...releasing]);
      }
      return waiting.length;
    },
  };
}
