/**
 * Calendar days in IANA time zones, read with `Intl.DateTimeFormat`: the day an instant falls on in
 * a zone, and the instant a day ends there (the first instant of the next day). Daylight-saving
 * changes are taken as the zone has them: days of 23 and 25 hours, and zones whose clocks jump at
 * midnight (where the day starts at 01:00, or midnight comes once after the extra hour).
 */
import { utcDay } from "./domain";

const HOUR_MS = 3_600_000;
/** The largest distance of a zone's clock from UTC: a wall-clock midnight falls within it of UTC's. */
const MAX_OFFSET_MS = 14 * HOUR_MS;
/** Formatters kept at most (a host choosing zones per company has a few dozen). */
const MAX_CACHED = 256;

interface Zone {
  /** The zone's name as the runtime resolves it (`America/Los_Angeles` for `america/los_angeles`). */
  name: string;
  format: Intl.DateTimeFormat;
}

/** One formatter per zone name given: making one costs far more than using it. */
const zones = new Map<string, Zone>();

/** The zone of a name, made once; throws a RangeError when the runtime knows no such zone. */
function zone(timeZone: string): Zone {
  let found = zones.get(timeZone);
  if (!found) {
    const format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    found = { name: format.resolvedOptions().timeZone, format };
    if (zones.size < MAX_CACHED) zones.set(timeZone, found);
  }
  return found;
}

/**
 * The name the runtime gives an IANA time zone (`America/Los_Angeles` for `america/los_angeles` or
 * `US/Pacific`, `UTC` for `Etc/UTC`), or null when `timeZone` is not a zone it knows.
 */
export function timeZoneName(timeZone: unknown): string | null {
  if (typeof timeZone !== "string" || timeZone.length === 0) return null;
  try {
    return zone(timeZone).name;
  } catch {
    return null;
  }
}

/** The wall clock of an instant in a zone: its calendar day and its distance from UTC. */
interface WallClock {
  /** `YYYY-MM-DD`. */
  day: string;
  /** How far the zone's clock is ahead of UTC at that instant, in ms. */
  offsetMs: number;
}

function wallClock(atMs: number, timeZone: string): WallClock {
  const parts: Record<string, string> = {};
  for (const part of zone(timeZone).format.formatToParts(atMs)) parts[part.type] = part.value;
  const wallMs = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  // The formatter shows whole seconds.
  return { day: `${parts.year}-${parts.month}-${parts.day}`, offsetMs: wallMs - Math.floor(atMs / 1000) * 1000 };
}

/** Midnight UTC of the calendar day `days` after `day` (`YYYY-MM-DD`), in ms. */
function utcMidnight(day: string, days = 0): number {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return Date.UTC(year, month - 1, date + days);
}

/** The calendar day (`YYYY-MM-DD`) of an instant in a time zone the runtime knows. */
export function calendarDay(at: Date, timeZone: string): string {
  if (timeZone === "UTC") return utcDay(at);
  return wallClock(at.getTime(), timeZone).day;
}

/**
 * The first instant of the calendar day `day` (`YYYY-MM-DD`) in a zone, from `offsetBeforeMs`, the
 * zone's offset at an instant before the day starts with at most one clock change in between.
 */
function startOfDay(day: string, timeZone: string, offsetBeforeMs: number): number {
  const midnight = utcMidnight(day);
  // Midnight there at the offset before the day, then at the offset found there: they differ when
  // the clock changes in between.
  const first = midnight - offsetBeforeMs;
  const atFirst = wallClock(first, timeZone);
  const second = midnight - atFirst.offsetMs;
  if (second === first) return first;
  // A clock put forward before midnight: midnight comes earlier than the first guess.
  if (second < first && wallClock(second, timeZone).day >= day) return second;
  // A clock put forward at midnight (the first guess is the day's first instant, at 01:00), or one
  // put back before it (the first guess is still the day before).
  return atFirst.day >= day ? first : second;
}

/**
 * The instant the calendar day `day` (`YYYY-MM-DD`) ends in a time zone: the first instant of the
 * next day there.
 */
export function endOfDay(day: string, timeZone: string): Date {
  const midnight = utcMidnight(day, 1);
  if (timeZone === "UTC") return new Date(midnight);
  // At this instant every zone's clock still shows the day before.
  const before = wallClock(midnight - MAX_OFFSET_MS - HOUR_MS, timeZone);
  return new Date(startOfDay(utcDay(new Date(midnight)), timeZone, before.offsetMs));
}

/** The calendar day of an instant in a time zone, and the instant that day ends there. */
export function dayAt(at: Date, timeZone: string): { day: string; end: Date } {
  const now = wallClock(at.getTime(), timeZone);
  const next = utcDay(new Date(utcMidnight(now.day, 1)));
  return { day: now.day, end: new Date(startOfDay(next, timeZone, now.offsetMs)) };
}
