/**
 * When to use Redis: always, except for `fallbackSeconds` after a Redis call failed or timed out.
 * Every Redis call goes through {@link CircuitBreaker.call}, which bounds its time and turns its
 * failure into a {@link RedisUnavailable}. A call fails between `timeoutMs` and `timeoutMs` plus a
 * quarter of it (at most 25 ms) after it started: one interval checks the calls under way.
 */
import type { Logger } from "@hireport/core";

/** A Redis call failed or took longer than `timeoutMs`: the caller uses the database instead. */
export class RedisUnavailable extends Error {
  override readonly name = "RedisUnavailable";
}

/** A call under way: when it times out, and how it fails then. */
interface Pending {
  deadline: number;
  fail(error: unknown): void;
}

export class CircuitBreaker {
  private openUntil = 0;
  private outage = false;
  private recoveredAt = 0;
  /** Calls under way, in the order they started (so by deadline). */
  private readonly pending = new Set<Pending>();
  /** Fails the calls past their deadline, every quarter of the timeout (at most 25 ms); only while some are under way. */
  private watcher: NodeJS.Timeout | undefined;

  constructor(
    private readonly timeoutMs: number,
    private readonly fallbackMs: number,
    private readonly logger: Logger,
  ) {}

  /**
   * Cached key records filled before this time (ms) are read again from the database: a key revoked
   * while this process could not reach Redis may still be cached as usable if its tombstone could
   * not be written. While in an outage, every record is (the call that finds Redis back included);
   * afterwards, those filled before Redis answered again. 0 when this process saw no outage.
   */
  get trustFrom(): number {
    return this.outage ? Date.now() : this.recoveredAt;
  }

  /** False while admissions use the database after a failure. */
  get closed(): boolean {
    return Date.now() >= this.openUntil;
  }

  /**
   * Runs one Redis call, bounded by the timeout; a failure opens the breaker and rejects with
   * RedisUnavailable. No timer per call: the calls under way are checked by one interval, which
   * runs only while there are some.
   */
  call<T>(run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = {
        deadline: performance.now() + this.timeoutMs,
        fail: (error) => this.failed(error, reject),
      };
      let attempt: Promise<T>;
      try {
        attempt = run();
      } catch (error) {
        this.failed(error, reject);
        return;
      }
      this.pending.add(pending);
      this.watch();
      attempt.then(
        (result) => {
          if (!this.pending.delete(pending)) return; // Timed out already.
          this.recovered();
          resolve(result);
        },
        (error: unknown) => {
          if (!this.pending.delete(pending)) return;
          this.failed(error, reject);
        },
      );
    });
  }

  private watch(): void {
    if (this.watcher) return;
    this.watcher = setInterval(() => this.expire(), Math.max(1, Math.min(this.timeoutMs / 4, 25)));
    this.watcher.unref();
  }

  /** Fails the calls past their deadline; stops the interval when none is left. */
  private expire(): void {
    const now = performance.now();
    for (const pending of this.pending) {
      if (pending.deadline > now) break;
      this.pending.delete(pending);
      pending.fail(new Error(`Redis did not answer within ${this.timeoutMs} ms.`));
    }
    if (this.pending.size === 0 && this.watcher) {
      clearInterval(this.watcher);
      this.watcher = undefined;
    }
  }

  private failed(error: unknown, reject: (reason: unknown) => void): void {
    this.trip(error);
    reject(new RedisUnavailable(error instanceof Error ? error.message : String(error), { cause: error }));
  }

  private trip(error: unknown): void {
    this.openUntil = Date.now() + this.fallbackMs;
    if (this.outage) return;
    this.outage = true;
    this.logger.warn("hireport: Redis admission failed; keys are admitted on the database meanwhile", {
      error: error instanceof Error ? error.message : String(error),
      retryInSeconds: this.fallbackMs / 1000,
    });
  }

  private recovered(): void {
    // Redis answered: admissions may use it again at once.
    this.openUntil = 0;
    if (!this.outage) return;
    this.outage = false;
    this.recoveredAt = Date.now();
    const log = this.logger.info ?? this.logger.warn;
    log.call(this.logger, "hireport: Redis admission recovered; keys are admitted on Redis again");
  }
}
