/**
 * When a Redis call under way is given up: once Redis has left it unanswered for `timeoutMs` of
 * time in which this process could have read the answer, and a last look finds no answer.
 *
 * - **Only time the event loop kept up counts.** One interval checks the calls under way every
 *   tenth of the timeout (at most 10 ms), and only while there are some. Each check counts the
 *   time since the previous one, but never more than one period: when a check comes late, the loop
 *   was held (synchronous work, a garbage collection, a starved CPU) and could not read replies,
 *   which is not Redis's time. A call of several round trips (EVALSHA then EVAL, a Cluster
 *   redirection, a node's first connection) whose every turn waits for a held loop is so not given
 *   up for the loop's delays, while a Redis that stays silent is still given up after `timeoutMs`
 *   of the loop's own time.
 * - **An answer that has arrived wins.** Node runs its timers before the poll phase that reads the
 *   sockets, so a check may find a call past its deadline whose reply is already waiting to be
 *   read. The check only marks the calls past their deadline; they are given up later in the same
 *   turn of the loop, after its poll phase (`setImmediate`), if their answer has still not come.
 */

/** One call's deadline, in the loop time of {@link CallDeadlines}. */
export interface Deadline {
  readonly at: number;
  readonly expire: () => void;
}

export class CallDeadlines {
  /** How often the calls under way are checked, in ms. */
  private readonly period: number;
  /** The calls under way, in the order they started: by deadline. */
  private readonly underWay = new Set<Deadline>();
  private interval: NodeJS.Timeout | undefined;
  /** The loop time the checks counted so far, in ms. */
  private counted = 0;
  /** When the last check ran, or the interval started (`performance.now()`). */
  private checkedAt = 0;
  /** The end of the turn that gives up the calls the last check found past their deadline. */
  private expiring: NodeJS.Immediate | undefined;

  constructor(private readonly timeoutMs: number) {
    this.period = Math.max(1, Math.min(timeoutMs / 10, 10));
  }

  /** Starts the deadline of a call that starts now; `expire` runs if the call is given up. */
  start(expire: () => void): Deadline {
    if (!this.interval) {
      this.checkedAt = performance.now();
      this.interval = setInterval(() => this.check(), this.period);
      this.interval.unref();
    }
    const deadline: Deadline = { at: this.now() + this.timeoutMs, expire };
    this.underWay.add(deadline);
    return deadline;
  }

  /** Ends the deadline of a call that settled; false when the call was given up already. */
  end(deadline: Deadline): boolean {
    return this.underWay.delete(deadline);
  }

  /** The loop time now: what the checks counted, and the time since the last one up to a period. */
  private now(): number {
    return this.counted + Math.min(performance.now() - this.checkedAt, this.period);
  }

  private check(): void {
    const at = performance.now();
    this.counted += Math.min(at - this.checkedAt, this.period);
    this.checkedAt = at;
    const first = this.underWay.values().next().value;
    if (first === undefined) {
      this.stop();
      return;
    }
    if (first.at <= this.counted && !this.expiring) {
      const through = this.counted;
      this.expiring = setImmediate(() => this.expire(through));
    }
  }

  /** After the poll phase: gives up the calls past `through` that are still unanswered. */
  private expire(through: number): void {
    this.expiring = undefined;
    for (const deadline of this.underWay) {
      if (deadline.at > through) break;
      this.underWay.delete(deadline);
      deadline.expire();
    }
    if (this.underWay.size === 0) this.stop();
  }

  /** No call under way: no interval either. */
  private stop(): void {
    clearInterval(this.interval);
    this.interval = undefined;
  }
}
