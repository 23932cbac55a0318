/**
 * An endpoint's throttle (`maxPerSecond`), stated once for every store: a count of the deliveries
 * claimed for the endpoint in the current window, one whole second of the clock. A store keeps the
 * window's start and count per endpoint and changes them in the claim that takes the deliveries,
 * so that every dispatcher on the same storage draws from the same count.
 */

/** Length of a throttle window. */
export const THROTTLE_WINDOW_MS = 1000;

/** The throttle window a claim at `now` counts in: the start of the second of the clock it falls in. */
export function throttleWindowStart(now: Date): Date {
  return new Date(Math.floor(now.getTime() / THROTTLE_WINDOW_MS) * THROTTLE_WINDOW_MS);
}

/** An endpoint's throttle count as a store keeps it; `windowStart` null before the first claim. */
export interface ThrottleCount {
  windowStart: Date | null;
  count: number;
}

/**
 * How many more deliveries of the endpoint a claim at `now` may return: `maxPerSecond` less what
 * the current window has counted (a count of an earlier window counts nothing). Unbounded
 * (`Infinity`) when `maxPerSecond` is null.
 */
export function throttleAllowance(maxPerSecond: number | null, stored: ThrottleCount, now: Date): number {
  if (maxPerSecond === null) return Number.POSITIVE_INFINITY;
  const current = stored.windowStart?.getTime() === throttleWindowStart(now).getTime();
  return Math.max(0, maxPerSecond - (current ? stored.count : 0));
}

/** The count to store after a claim at `now` took `taken` deliveries of the endpoint. */
export function throttleAfter(stored: ThrottleCount, taken: number, now: Date): ThrottleCount {
  const windowStart = throttleWindowStart(now);
  const current = stored.windowStart?.getTime() === windowStart.getTime();
  return { windowStart, count: (current ? stored.count : 0) + taken };
}
