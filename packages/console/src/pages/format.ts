/** How the pages write times and sizes. Times are UTC, written out so that no script is needed. */

/** `2026-11-24 15:25:47 UTC`. */
export function formatTime(at: Date | null | undefined): string {
  if (!at) return "—";
  return `${at.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** `2026-11-24`. */
export function formatDay(at: Date | null | undefined): string {
  return at ? at.toISOString().slice(0, 10) : "—";
}

/** A whole number with thousands separators. */
export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}
