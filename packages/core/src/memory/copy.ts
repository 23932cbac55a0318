/**
 * Deep copies of records: plain objects, arrays and `Date` values are copied, other values are
 * kept. The memory storage copies every record on the way in and on the way out, so no caller can
 * change stored state through an object it passed or received.
 */
export function copy<T>(value: T): T {
  if (value instanceof Date) {
    const time = value.getTime();
    if (Number.isNaN(time)) throw new TypeError("Invalid Date given to the memory storage.");
    return new Date(time) as T;
  }
  if (Array.isArray(value)) return value.map((item: unknown) => copy(item)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) out[key] = copy(item);
    }
    return out as T;
  }
  return value;
}

/**
 * Freezes a stored copy (objects and arrays, deeply) so that a slip in this package that mutates
 * a stored record in place throws instead of leaking into a rolled-back transaction.
 */
export function freeze<T>(value: T): T {
  if (value instanceof Date || value === null || typeof value !== "object") return value;
  for (const item of Object.values(value)) freeze(item);
  return Object.freeze(value);
}

/** A frozen deep copy, as kept in the state. */
export function toStored<T>(value: T): T {
  return freeze(copy(value));
}

/** Copies of the fields of `patch` that are in `allowed` and not undefined (others are not written). */
export function pickPatch<P extends object, K extends keyof P>(patch: P, allowed: readonly K[]): Partial<Pick<P, K>> {
  const out: Partial<Pick<P, K>> = {};
  for (const key of allowed) {
    const value = patch[key];
    if (value !== undefined) out[key] = copy(value);
  }
  return out;
}
