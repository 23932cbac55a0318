/**
 * Limits on anything the host names (the careers site's apply form per client address), counted in
 * the storage's rate-limit store with the same atomic rule as the API's key limits: a refused hit
 * counts in no window.
 */
import { HireportError } from "./errors";
import type { Runtime } from "./runtime";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const MAX_NAME = 200;

/** How many hits a name may make per window. */
export interface ThrottleLimits {
  /** Hits per minute (calendar minutes of UTC). */
  perMinute: number;
  /** Hits per day (UTC days). */
  perDay: number;
}

/** What one hit found. */
export interface ThrottleResult {
  allowed: boolean;
  /** The window that refused it, or null when allowed. */
  refusedBy: "minute" | "day" | null;
  /** Seconds until the refusing window ends (0 when allowed). */
  retryAfterSeconds: number;
}

/**
 * Counts one hit of `name` against both windows, or refuses it when either is full. `name` is
 * opaque text of at most 200 characters: give each use its own prefix (`careers:apply:{ip}`).
 */
export async function throttle(runtime: Runtime, name: string, limits: ThrottleLimits): Promise<ThrottleResult> {
  if (typeof name !== "string" || name.length === 0 || name.length > MAX_NAME) {
    throw new HireportError("invalid", `A throttle name is text of 1 to ${MAX_NAME} characters.`, {
      fields: [{ field: "name", message: `Must be 1 to ${MAX_NAME} characters.` }],
    });
  }
  for (const [field, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value < 1) {
      throw new HireportError("invalid", `The ${field} limit must be a positive whole number.`, {
        fields: [{ field, message: "Must be a positive whole number." }],
      });
    }
  }
  const now = runtime.clock.now();
  const minute = Math.floor(now.getTime() / MINUTE_MS);
  const day = Math.floor(now.getTime() / DAY_MS);
  const windows = [
    { key: `t:${name}:m:${minute}`, limit: limits.perMinute, resetAt: new Date((minute + 1) * MINUTE_MS) },
    { key: `t:${name}:d:${day}`, limit: limits.perDay, resetAt: new Date((day + 1) * DAY_MS) },
  ];
  const result = await runtime.storage.rateLimits.consume(windows, now);
  if (result.allowed) return { allowed: true, refusedBy: null, retryAfterSeconds: 0 };
  const refused = result.refusedBucket === 1 ? 1 : 0;
  const resetAt = windows[refused]?.resetAt ?? now;
  return {
    allowed: false,
    refusedBy: refused === 1 ? "day" : "minute",
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000)),
  };
}
