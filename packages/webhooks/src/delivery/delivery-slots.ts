/**
 * The dispatcher's capacity: how many deliveries it holds and where, and when to claim more. No
 * I/O and no clock: the runner asks it how much to claim, tells it what a claim brought, and takes
 * from it the waiting deliveries that may start.
 *
 * A delivery this dispatcher holds is in one of three places: waiting for a slot of its endpoint
 * (in a queue per endpoint, oldest first), in flight (a request slot, in all and of its endpoint),
 * or being recorded (its request is over and its slots are free, but it is still leased until its
 * attempt is written).
 *
 * With `prefetch`, a claim may bring more than the free request slots: up to `prefetch` deliveries
 * wait in the queues (at most `maxPerEndpoint("ahead")` of one endpoint, in flight and
 * waiting), so that one claim brings many at once and the storage sees a few large statements
 * instead of one small claim per couple of finished requests.
 */
export interface SlotLimits {
  /** Most requests in flight at once, over all endpoints. */
  concurrency: number;
  /** Most requests in flight at once to one endpoint. */
  perEndpointConcurrency: number;
  /** Deliveries that may be claimed ahead of the free request slots, to wait for one. @default 0 */
  prefetch?: number;
}

/**
 * The most deliveries a dispatcher holds at once (in flight, waiting for a slot, being recorded):
 * twice `concurrency` plus `prefetch`.
 */
export function mostHeld(limits: Pick<SlotLimits, "concurrency" | "prefetch">): number {
  return 2 * limits.concurrency + (limits.prefetch ?? 0);
}

/** Whether a claim may bring deliveries beyond the free request slots (`prefetch`). */
export type ClaimMode = "ahead" | "slots only";

/** What one claim asked for and brought, for {@link DeliverySlots.claimed}. */
export interface ClaimOutcome {
  /** How many deliveries the claim asked for (`claimable()` at the time). */
  asked: number;
  /** The most of one endpoint it asked for (`maxPerEndpoint()` at the time). */
  perEndpoint: number;
  /** The endpoints it left out (`endpointsAtLimit()` at the time). */
  excluded: readonly string[];
  /** The endpoint of each delivery it brought. */
  endpointIds: readonly string[];
}

export class DeliverySlots<T> {
  readonly #limits: Required<SlotLimits>;
  /** In flight and waiting deliveries one endpoint may have when claiming ahead. */
  readonly #perEndpointHold: number;
  readonly #waiting = new Map<string, T[]>();
  readonly #inFlightByEndpoint = new Map<string, number>();
  #inFlight = 0;
  #waitingCount = 0;
  #recording = 0;
  /** The last claim was cut by the number it asked for: more may be due. */
  #backlog = false;
  /** Endpoints whose last claim was cut at the most it asked of one, or left out: more may be due. */
  readonly #endpointBacklog = new Set<string>();
  /** With a backlog, claim again once this many deliveries may be claimed (a quarter of `concurrency`). */
  readonly #refillAt: number;
  /** An endpoint with more due is claimed for again once this many of its slots are free (half). */
  readonly #endpointRefillAt: number;

  constructor(limits: SlotLimits) {
    const prefetch = limits.prefetch ?? 0;
    this.#limits = { ...limits, prefetch };
    // The prefetch spread over endpoints as the request slots are: an endpoint may hold its share.
    const aheadPerEndpoint = Math.ceil((prefetch * limits.perEndpointConcurrency) / limits.concurrency);
    this.#perEndpointHold = limits.perEndpointConcurrency + aheadPerEndpoint;
    // Claimed ahead, claim again once half of the prefetch has gone (a quarter of the slots without).
    this.#refillAt = Math.max(1, Math.ceil(limits.concurrency / 4) + Math.ceil(prefetch / 2));
    this.#endpointRefillAt = Math.max(
      1,
      Math.ceil(limits.perEndpointConcurrency / 2) + Math.ceil(aheadPerEndpoint / 2),
    );
  }

  /**
   * The most deliveries of one endpoint a claim of this mode asks for, in flight and waiting: with
   * `"ahead"`, `perEndpointConcurrency` plus its share of `prefetch` (`prefetch ×
   * perEndpointConcurrency / concurrency`, rounded up); with `"slots only"`, `perEndpointConcurrency`.
   */
  maxPerEndpoint(mode: ClaimMode = "ahead"): number {
    return mode === "ahead" ? this.#perEndpointHold : this.#limits.perEndpointConcurrency;
  }

  /** True when more may be due than the last claim took (it was cut by capacity or per endpoint). */
  get backlog(): boolean {
    return this.#backlog || this.#endpointBacklog.size > 0;
  }

  /**
   * Deliveries a claim may bring now: free request slots, and ahead of them (mode `"ahead"`) what
   * `prefetch` leaves free of the waiting deliveries, while everything held (in flight, waiting for a
   * slot, being recorded) stays within {@link mostHeld}. Waiting deliveries beyond
   * the prefetch do not take request slots (their endpoint is left out of the next claim instead),
   * so a slow endpoint's queue never holds back the others.
   */
  claimable(mode: ClaimMode = "ahead"): number {
    const { concurrency } = this.#limits;
    const prefetch = mode === "ahead" ? this.#limits.prefetch : 0;
    const free = Math.min(
      concurrency - this.#inFlight + Math.max(0, prefetch - this.#waitingCount),
      mostHeld({ concurrency, prefetch }) - this.#inFlight - this.#waitingCount - this.#recording,
    );
    return Math.max(0, free);
  }

  /** In flight and waiting deliveries of one endpoint. */
  load(endpointId: string): number {
    return (this.#inFlightByEndpoint.get(endpointId) ?? 0) + (this.#waiting.get(endpointId)?.length ?? 0);
  }

  /**
   * Endpoints at {@link maxPerEndpoint} of the mode (in flight and waiting), to leave out of the
   * next claim.
   */
  endpointsAtLimit(mode: ClaimMode = "ahead"): string[] {
    const limit = this.maxPerEndpoint(mode);
    return [...new Set([...this.#inFlightByEndpoint.keys(), ...this.#waiting.keys()])].filter(
      (endpointId) => this.load(endpointId) >= limit,
    );
  }

  /** A claim was not made: nothing may be claimed now, and more may be due. */
  full(): void {
    this.#backlog = true;
  }

  /**
   * Learns from a claim whether more may be due. An endpoint cut at its share may have more due;
   * one that got less (and was not left out) has nothing more due, unless the claim was cut by the
   * number it asked for.
   */
  claimed({ asked, perEndpoint: share, excluded, endpointIds }: ClaimOutcome): void {
    this.#backlog = endpointIds.length >= asked;
    const perEndpoint = new Map<string, number>();
    for (const endpointId of endpointIds) perEndpoint.set(endpointId, (perEndpoint.get(endpointId) ?? 0) + 1);
    for (const endpointId of [...this.#endpointBacklog]) {
      if (!this.#backlog && !excluded.includes(endpointId) && !perEndpoint.has(endpointId)) {
        this.#endpointBacklog.delete(endpointId);
      }
    }
    for (const [endpointId, count] of perEndpoint) {
      if (count >= share) this.#endpointBacklog.add(endpointId);
      else if (!this.#backlog) this.#endpointBacklog.delete(endpointId);
    }
  }

  /** Queues a claimed delivery behind the others of its endpoint. */
  wait(endpointId: string, item: T): void {
    const queue = this.#waiting.get(endpointId) ?? [];
    this.#waiting.set(endpointId, queue);
    queue.push(item);
    this.#waitingCount++;
  }

  /**
   * Takes the waiting deliveries that have a free slot, endpoint by endpoint, oldest first. Each
   * one yielded is off its queue: the caller then calls {@link start} for it, or gives it back to
   * the storage. The slots are counted again before each one, so that starts count.
   */
  *ready(): Generator<[endpointId: string, item: T]> {
    for (const [endpointId, queue] of this.#waiting) {
      while (queue.length > 0 && this.#inFlight < this.#limits.concurrency) {
        const running = this.#inFlightByEndpoint.get(endpointId) ?? 0;
        if (running >= this.#limits.perEndpointConcurrency) break;
        const next = queue.shift();
        if (next === undefined) break;
        this.#waitingCount--;
        yield [endpointId, next];
      }
      if (queue.length === 0) this.#waiting.delete(endpointId);
    }
  }

  /** A request to the endpoint begins: it takes a slot in all and one of its endpoint. */
  start(endpointId: string): void {
    this.#inFlight++;
    this.#inFlightByEndpoint.set(endpointId, (this.#inFlightByEndpoint.get(endpointId) ?? 0) + 1);
  }

  /** The request is over: its slots are free; the delivery stays held until {@link recorded}. */
  requestOver(endpointId: string): void {
    this.#inFlight--;
    this.#recording++;
    const left = (this.#inFlightByEndpoint.get(endpointId) ?? 1) - 1;
    if (left > 0) this.#inFlightByEndpoint.set(endpointId, left);
    else this.#inFlightByEndpoint.delete(endpointId);
  }

  /** The attempt of a request that was over is written (or given up): the delivery is no longer held. */
  recorded(): void {
    this.#recording--;
  }

  /**
   * Whether to claim again now that a slot freed: a claim per finished request would cost a query
   * per delivery, so only while more may be due and once a quarter of the slots and half of the
   * prefetch are free, or half of what an endpoint that has more due may hold (its slots and its
   * share of the prefetch).
   */
  wantsMore(endpointId: string): boolean {
    if (this.#backlog && this.claimable() >= this.#refillAt) return true;
    return (
      this.#endpointBacklog.has(endpointId) && this.#perEndpointHold - this.load(endpointId) >= this.#endpointRefillAt
    );
  }

  /** Takes every waiting delivery off its queue (to give them back when stopping) and forgets the backlog. */
  takeAllWaiting(): T[] {
    const waiting = [...this.#waiting.values()].flatMap((queue) => queue.splice(0));
    this.#waiting.clear();
    this.#waitingCount = 0;
    this.#endpointBacklog.clear();
    this.#backlog = false;
    return waiting;
  }
}
