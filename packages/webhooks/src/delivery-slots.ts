/**
 * The dispatcher's capacity: how many deliveries it holds and where, and when to claim more. No
 * I/O and no clock: the runner asks it how much to claim, tells it what a claim brought, and takes
 * from it the waiting deliveries that may start.
 *
 * A delivery this dispatcher holds is in one of three places: waiting for a slot of its endpoint
 * (in a queue per endpoint, oldest first), in flight (a request slot, in all and of its endpoint),
 * or being recorded (its request is over and its slots are free, but it is still leased until its
 * attempt is written).
 */
export interface SlotLimits {
  /** Most requests in flight at once, over all endpoints. */
  concurrency: number;
  /** Most requests in flight at once to one endpoint. */
  perEndpointConcurrency: number;
}

/** What one claim asked for and brought, for {@link DeliverySlots.claimed}. */
export interface ClaimOutcome {
  /** How many deliveries the claim asked for (`claimable()` at the time). */
  asked: number;
  /** The endpoints it left out (`endpointsAtLimit()` at the time). */
  excluded: readonly string[];
  /** The endpoint of each delivery it brought. */
  endpointIds: readonly string[];
}

export class DeliverySlots<T> {
  readonly #limits: SlotLimits;
  readonly #waiting = new Map<string, T[]>();
  readonly #inFlightByEndpoint = new Map<string, number>();
  #inFlight = 0;
  #waitingCount = 0;
  #recording = 0;
  /** The last claim was cut by the number it asked for: more may be due. */
  #backlog = false;
  /** Endpoints whose last claim was cut at `perEndpointConcurrency`, or left out: more may be due. */
  readonly #endpointBacklog = new Set<string>();
  /** With a backlog, claim again once this many deliveries may be claimed (a quarter of `concurrency`). */
  readonly #refillAt: number;
  /** An endpoint with more due is claimed for again once this many of its slots are free (half). */
  readonly #endpointRefillAt: number;

  constructor(limits: SlotLimits) {
    this.#limits = limits;
    this.#refillAt = Math.max(1, Math.ceil(limits.concurrency / 4));
    this.#endpointRefillAt = Math.max(1, Math.ceil(limits.perEndpointConcurrency / 2));
  }

  /** True when more may be due than the last claim took (it was cut by capacity or per endpoint). */
  get backlog(): boolean {
    return this.#backlog || this.#endpointBacklog.size > 0;
  }

  /**
   * Deliveries a claim may bring now: free request slots, while everything held (in flight,
   * waiting for a slot, being recorded) stays within twice `concurrency`. Deliveries waiting for
   * their endpoint's slot do not take request slots (their endpoint is left out of the next claim
   * instead), so a slow endpoint's queue never holds back the others.
   */
  claimable(): number {
    const { concurrency } = this.#limits;
    return Math.min(
      concurrency - this.#inFlight,
      2 * concurrency - this.#inFlight - this.#waitingCount - this.#recording,
    );
  }

  /** In flight and waiting deliveries of one endpoint. */
  load(endpointId: string): number {
    return (this.#inFlightByEndpoint.get(endpointId) ?? 0) + (this.#waiting.get(endpointId)?.length ?? 0);
  }

  /** Endpoints at `perEndpointConcurrency` (in flight and waiting), to leave out of the next claim. */
  endpointsAtLimit(): string[] {
    return [...new Set([...this.#inFlightByEndpoint.keys(), ...this.#waiting.keys()])].filter(
      (endpointId) => this.load(endpointId) >= this.#limits.perEndpointConcurrency,
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
  claimed({ asked, excluded, endpointIds }: ClaimOutcome): void {
    this.#backlog = endpointIds.length >= asked;
    const perEndpoint = new Map<string, number>();
    for (const endpointId of endpointIds) perEndpoint.set(endpointId, (perEndpoint.get(endpointId) ?? 0) + 1);
    for (const endpointId of [...this.#endpointBacklog]) {
      if (!this.#backlog && !excluded.includes(endpointId) && !perEndpoint.has(endpointId)) {
        this.#endpointBacklog.delete(endpointId);
      }
    }
    for (const [endpointId, count] of perEndpoint) {
      if (count >= this.#limits.perEndpointConcurrency) this.#endpointBacklog.add(endpointId);
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
   * per delivery, so only once a quarter of the slots are free while more may be due, or half the
   * slots of an endpoint that has more due.
   */
  wantsMore(endpointId: string): boolean {
    if (this.#backlog && this.claimable() >= this.#refillAt) return true;
    return (
      this.#endpointBacklog.has(endpointId) &&
      this.#limits.perEndpointConcurrency - this.load(endpointId) >= this.#endpointRefillAt
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
