/**
 * When to use Redis: always, except for `fallbackSeconds` after a Redis call failed or timed out.
 * Every Redis call goes through {@link CircuitBreaker.call}, which bounds its time (see
 * {@link CallDeadlines}: `timeoutMs` of the event loop's own time, an answer already arrived always
 * taken) and turns its failure into a {@link RedisUnavailable}.
 */
import type { Logger } from "@hireport/core";
import { CallDeadlines } from "./call-deadlines";

/** A Redis call failed or took longer than `timeoutMs`: the caller uses the database instead. */
export class RedisUnavailable extends Error {
  override readonly name = "RedisUnavailable";
}

export class CircuitBreaker {
  private openUntil = 0;
  private outage = false;
  private recoveredAt = 0;
  private readonly deadlines: CallDeadlines;

  constructor(
    private readonly timeoutMs: number,
    private readonly fallbackMs: number,
    private readonly logger: Logger,
  ) {
    this.deadlines = new CallDeadlines(timeoutMs);
  }

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
   * RedisUnavailable. No timer per call: {@link CallDeadlines} checks the calls under way.
   */
  call<T>(run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const deadline = this.deadlines.start(() =>
        this.failed(new Error(`Redis did not answer within ${this.timeoutMs} ms.`), reject),
      );
      let attempt: Promise<T>;
      try {
        attempt = run();
      } catch (error) {
        this.deadlines.end(deadline);
        this.failed(error, reject);
        return;
      }
      attempt.then(
        (result) => {
          if (!this.deadlines.end(deadline)) return; // Given up already.
          this.recovered();
          resolve(result);
        },
        (error: unknown) => {
          if (!this.deadlines.end(deadline)) return;
          this.failed(error, reject);
        },
      );
    });
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
