import { HireportError } from "../base/errors";
import type { Runtime } from "../runtime/runtime";
import type { KeyRateWindow, RateLimitResult } from "../storage";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The minute window as the rate-limit headers report it. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** End of the current minute window. */
  resetAt: Date;
}

/** The headers of docs/api-reference.md, Rate limits: X-RateLimit-Limit, -Remaining (minute window) and -Reset (unix seconds). */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "x-ratelimit-limit": String(state.limit),
    "x-ratelimit-remaining": String(Math.max(0, state.remaining)),
    "x-ratelimit-reset": String(Math.ceil(state.resetAt.getTime() / 1000)),
  };
}

/** The state shown on answers that no key was charged for (no key, unknown route, /openapi.json). */
export function uncharged(runtime: Runtime, now: Date): RateLimitState {
  const resetAt = new Date((Math.floor(now.getTime() / MINUTE_MS) + 1) * MINUTE_MS);
  return { limit: runtime.limits.perMinute, remaining: runtime.limits.perMinute, resetAt };
}

/** The minute and day windows (docs/api-reference.md, Rate limits) at `now`, as suffixes of the key's id. */
export function rateWindows(runtime: Runtime, now: Date): [KeyRateWindow, KeyRateWindow] {
  const { perMinute, perDay } = runtime.limits;
  const minute = Math.floor(now.getTime() / MINUTE_MS);
  const day = Math.floor(now.getTime() / DAY_MS);
  return [
    { suffix: `:m:${minute}`, limit: perMinute, resetAt: new Date((minute + 1) * MINUTE_MS) },
    { suffix: `:d:${day}`, limit: perDay, resetAt: new Date((day + 1) * DAY_MS) },
  ];
}

/**
 * The minute window's state after a request was counted (docs/api-reference.md, Rate limits), or 429 when a window
 * was full: rate_limited or daily_limit, with Retry-After and X-RateLimit-Reset describing the
 * window that refused. A refused request counted in neither window.
 */
export function rateLimitState(
  runtime: Runtime,
  windows: readonly KeyRateWindow[],
  rate: RateLimitResult,
  now: Date,
): RateLimitState {
  const { perMinute, perDay } = runtime.limits;
  const [minuteWindow, dayWindow] = windows as [KeyRateWindow, KeyRateWindow];
  if (rate.allowed)
    return { limit: perMinute, remaining: perMinute - (rate.counts[0] ?? 0), resetAt: minuteWindow.resetAt };
  const daily = rate.refusedBucket === 1;
  // Retry-After and X-RateLimit-Reset describe the window that refused: the day for daily_limit.
  const resetAt = daily ? dayWindow.resetAt : minuteWindow.resetAt;
  const state: RateLimitState = { limit: perMinute, remaining: 0, resetAt };
  const retryAfter = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
  throw new HireportError(
    daily ? "daily_limit" : "rate_limited",
    daily
      ? `This key has made its ${perDay} requests for today (UTC). Wait ${retryAfter} seconds.`
      : `This key has made its ${perMinute} requests for this minute. Wait ${retryAfter} seconds.`,
    { headers: { ...rateLimitHeaders(state), "retry-after": String(retryAfter) } },
  );
}
