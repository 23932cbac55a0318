/**
 * The circuit breaker's timeout without a timer per call (regression: a setTimeout and a
 * Promise.race per Redis call cost every request): many calls under way share one interval, calls
 * past their deadline fail with RedisUnavailable, and the interval stops once none is under way.
 * The timeout is about Redis, not about this process's event loop (regression: a loop held longer
 * than the timeout gave up calls whose answers had arrived): an answer that arrived while the loop
 * was held is taken, a call of several round trips each waiting for a held loop is not given up,
 * and a call Redis never answers is still given up while the loop is held on every turn.
 */
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CircuitBreaker, RedisUnavailable } from "../src/circuit-breaker";
import { standaloneRedis } from "./support/redis-servers";
import { recordingLogger } from "./support/targets";

const TIMEOUT_MS = 60;

afterEach(() => {
  vi.restoreAllMocks();
});

/** Keeps the event loop busy for `ms`: no timer and no socket read runs meanwhile. */
function hold(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // Busy.
  }
}

/** The next check phase: right after a poll phase, with the timers of the next turn still ahead. */
const checkPhase = () => new Promise((resolve) => setImmediate(resolve));

describe("CircuitBreaker.call", () => {
  it("bounds 50 calls with one interval, fails those past their deadline, and stops the interval when idle", async () => {
    const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
    const setIntervalSpy = vi.spyOn(globalThis, "setInterval");
    const clearIntervalSpy = vi.spyOn(globalThis, "clearInterval");
    const logger = recordingLogger();
    const breaker = new CircuitBreaker(TIMEOUT_MS, 1000, logger);
    const started = performance.now();
    const hanging = Array.from({ length: 50 }, () =>
      breaker
        .call(() => new Promise<never>(() => undefined))
        .then(
          () => "resolved",
          (error: unknown) => ({ error, after: performance.now() - started }),
        ),
    );
    expect(setTimeoutSpy).not.toHaveBeenCalled();
    expect(setIntervalSpy).toHaveBeenCalledTimes(1);
    const outcomes = await Promise.all(hanging);
    for (const outcome of outcomes) {
      expect(outcome).not.toBe("resolved");
      const { error, after } = outcome as { error: unknown; after: number };
      expect(error).toBeInstanceOf(RedisUnavailable);
      expect((error as Error).message).toMatch(/did not answer within 60 ms/);
      expect(after).toBeGreaterThanOrEqual(TIMEOUT_MS - 1);
    }
    expect(breaker.closed).toBe(false);
    expect(logger.lines.filter((line) => line.level === "warn")).toHaveLength(1);
    // Nothing under way: the interval stopped.
    expect(clearIntervalSpy).toHaveBeenCalledTimes(1);
  });

  it("answers what Redis answered in time and closes again; a failed call rejects with RedisUnavailable", async () => {
    const breaker = new CircuitBreaker(TIMEOUT_MS, 1000, recordingLogger());
    await expect(breaker.call(() => Promise.reject(new Error("connection refused")))).rejects.toBeInstanceOf(
      RedisUnavailable,
    );
    expect(breaker.closed).toBe(false);
    await expect(
      breaker.call(() => {
        throw new Error("thrown at once");
      }),
    ).rejects.toThrow(/thrown at once/);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => breaker.call(async () => i)));
    expect(answers).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(breaker.closed).toBe(true);
    // A call that answers after its deadline is not taken: it failed already.
    const late = breaker.call(() => new Promise((resolve) => setTimeout(() => resolve("late"), TIMEOUT_MS * 3)));
    await expect(late).rejects.toBeInstanceOf(RedisUnavailable);
  });
});

describe("CircuitBreaker.call with the event loop held", () => {
  let redis: Redis;

  beforeAll(async () => {
    redis = await standaloneRedis();
  });

  afterAll(() => {
    redis?.disconnect();
  });

  it("takes an answer that arrived while the loop was held past the deadline, however short the timeout", async () => {
    const logger = recordingLogger();
    // Shorter than a check's period (1 ms at least): the first check after the loop was held
    // finds the call past its deadline.
    const breaker = new CircuitBreaker(0.5, 1000, logger);
    for (let i = 0; i < 5; i++) {
      await checkPhase();
      // PING is written at once; Redis answers while the loop is held, and the next turn runs the
      // timers (the call past its deadline) before the poll phase reads the answer.
      const answer = breaker.call(() => redis.ping());
      hold(300);
      await expect(answer).resolves.toBe("PONG");
    }
    expect(breaker.closed).toBe(true);
    expect(logger.lines).toEqual([]);
  });

  it("does not give up a call of several round trips each waiting for a held loop", async () => {
    const logger = recordingLogger();
    const breaker = new CircuitBreaker(TIMEOUT_MS, 1000, logger);
    await checkPhase();
    const answer = breaker.call(async () => {
      // Four round trips (as a Cluster node's first connection, its ready check, EVALSHA answered
      // NOSCRIPT, then EVAL), the loop held after each is sent, longer than the whole timeout.
      for (let i = 0; i < 3; i++) {
        const reply = redis.ping();
        hold(TIMEOUT_MS * 3);
        await reply;
      }
      return redis.echo("done");
    });
    hold(TIMEOUT_MS * 3);
    await expect(answer).resolves.toBe("done");
    expect(breaker.closed).toBe(true);
    expect(logger.lines).toEqual([]);
  });

  it("still gives up a call that is never answered while the loop is held on every turn", async () => {
    const logger = recordingLogger();
    const breaker = new CircuitBreaker(TIMEOUT_MS, 1000, logger);
    let settled = false;
    const answer = breaker
      .call(() => new Promise<never>(() => undefined))
      .finally(() => {
        settled = true;
      });
    const holdEachTurn = () => {
      if (settled) return;
      hold(TIMEOUT_MS / 2);
      setImmediate(holdEachTurn);
    };
    setImmediate(holdEachTurn);
    await expect(answer).rejects.toBeInstanceOf(RedisUnavailable);
    expect(breaker.closed).toBe(false);
    expect(logger.lines.filter((line) => line.level === "warn")).toHaveLength(1);
  });
});
