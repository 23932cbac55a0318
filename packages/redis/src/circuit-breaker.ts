/**
 * When to use Redis: always, except for `fallbackSeconds` after a Redis call failed or timed out.
 * Every Redis call goes through {@link CircuitBreaker.call}, which bounds its time and turns its
 * failure into a {@link RedisUnavailable}.
 */
import type { Logger } from "@hireport/core";

/** A Redis call failed or took longer than `timeoutMs`: the caller uses the database instead. */
export class RedisUnavailable extends Error {
  override readonly name = "RedisUnavailable";
}

export class CircuitBreaker {
  private openUntil = 0;
  private outage = false;
  private recoveredAt = 0;

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

  /** Runs one Redis call, bounded by the timeout; a failure opens the breaker and rejects with RedisUnavailable. */
  async call<T>(run: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const attempt = Promise.resolve().then(run);
    // Settled later or never looked at: no unhandled rejection.
    attempt.catch(() => undefined);
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${this.timeoutMs} ms.`)), this.timeoutMs);
    });
    try {
      const result = await Promise.race([attempt, timeout]);
      this.recovered();
      return result;
    } catch (error) {
      this.trip(error);
      throw new RedisUnavailable(error instanceof Error ? error.message : String(error), { cause: error });
    } finally {
      clearTimeout(timer);
    }
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
