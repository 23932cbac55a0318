/**
 * The circuit breaker's timeout without a timer per call (regression: a setTimeout and a
 * Promise.race per Redis call cost every request): many calls under way share one interval, calls
 * past their deadline fail with RedisUnavailable, and the interval stops once none is under way.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { CircuitBreaker, RedisUnavailable } from "../src/circuit-breaker";
import { recordingLogger } from "./support/targets";

const TIMEOUT_MS = 60;

afterEach(() => {
  vi.restoreAllMocks();
});

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
