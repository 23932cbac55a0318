/**
 * Limits on anything the host names (the careers site's apply form per client address), counted in
 * the storage's rate-limit store with the same atomic rule as the API's key limits: a refused hit
 * counts in no window.
 */
import { HireportError } from "../base/errors";
import { dayAt, timeZoneName } from "../model/zone-days";
import type { Runtime } from "../runtime/runtime";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const MAX_NAME = 200;

/** How many hits a name may make per window, and whose calendar bounds the day. */
export interface ThrottleLimits {
  /** Hits per minute (calendar minutes of UTC). */
  perMinute: number;
  /** Hits per day: the calendar day in `dayTimeZone`. */
  perDay: number;
  /**
   * The IANA time zone whose calendar day is the day window (`America/Los_Angeles` for a quota that
   * renews at midnight Pacific Time): the window opens at midnight there, on days of 23 and 25 hours
   * too. A zone the runtime does not know is refused (`invalid`). Counts of different zones are kept
   * apart, even under one name.
   * @default "UTC"
   */
  dayTimeZone?: string;
}

/** What one hit found. */
export interface ThrottleResult {
  allowed: boolean;
  /** The window that refused it, or null when allowed. */
  refusedBy: "minute" | "day" | null;
  /** Seconds until the refusing window ends (0 when allowed). */
  retryAfterSeconds: number;
}

/** A positive whole number, or an `invalid` error naming the field. */
function checkLimit(field: "perMinute" | "perDay", value: unknown): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= 1) return value;
  throw new HireportError("invalid", `The ${field} limit must be a positive whole number.`, {
    fields: [{ field, message: "Must be a positive whole number." }],
  });
}

/** The zone's name as the runtime spells it, or an `invalid` error naming the field. */
function checkDayTimeZone(value: unknown): string {
  const name = timeZoneName(value);
  if (name !== null) return name;
  throw new HireportError("invalid", "The dayTimeZone of a throttle must be an IANA time zone.", {
    fields: [{ field: "dayTimeZone", message: 'Must be an IANA time zone such as "America/Los_Angeles".' }],
  });
}

/** The bucket of the day window and the instant it ends. */
function dayWindow(name: string, now: Date, zone: string): { key: string; resetAt: Date } {
  if (zone === "UTC") {
    // Days since the epoch: the key every version has used for UTC days.
    const day = Math.floor(now.getTime() / DAY_MS);
    return { key: `t:${name}:d:${day}`, resetAt: new Date((day + 1) * DAY_MS) };
  }
  const { day, end } = dayAt(now, zone);
  // The zone and its local date, in the last two `:` segments as every window of a name has them (a
  // Redis store keeps a name's windows together by what comes before); an offset zone (`+05:30`)
  // loses its colon.
  return { key: `t:${name}:d@${zone.replaceAll(":", "")}:${day}`, resetAt: end };
}

/**
 * Counts one hit of `name` against both windows, or refuses it when either is full. `name` is
 * opaque text of at most 200 characters: give each use its own prefix (`careers:apply:{ip}`).
 * Nothing is counted when an argument is refused.
 */
export async function throttle(runtime: Runtime, name: string, limits: ThrottleLimits): Promise<ThrottleResult> {
  if (typeof name !== "string" || name.length === 0 || name.length > MAX_NAME) {
    throw new HireportError("invalid", `A throttle name is text of 1 to ${MAX_NAME} characters.`, {
      fields: [{ field: "name", message: `Must be 1 to ${MAX_NAME} characters.` }],
    });
  }
  const perMinute = checkLimit("perMinute", limits.perMinute);
  const perDay = checkLimit("perDay", limits.perDay);
  const zone = limits.dayTimeZone === undefined ? "UTC" : checkDayTimeZone(limits.dayTimeZone);
  const now = runtime.clock.now();
  const minute = Math.floor(now.getTime() / MINUTE_MS);
  const day = dayWindow(name, now, zone);
  const windows = [
    { key: `t:${name}:m:${minute}`, limit: perMinute, resetAt: new Date((minute + 1) * MINUTE_MS) },
    { key: day.key, limit: perDay, resetAt: day.resetAt },
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
