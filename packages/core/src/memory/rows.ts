/**
 * The row operations the tables of the memory storage share: insert a new row, read or patch a
 * company's row, delete old rows.
 */
import { pickPatch, toStored } from "./copy";
import { oldestMatching } from "./keyset";

/** Stores a frozen copy of `record` under its id; a row with that id already there is an error naming `what`. */
export function insertNew<T extends { id: string }>(rows: Map<string, T>, record: T, what: string): void {
  if (rows.has(record.id)) throw new Error(`The memory storage already has ${what} ${record.id}.`);
  rows.set(record.id, toStored(record));
}

/** The row `id` when it belongs to the company; null otherwise (no such row, or another company's). */
export function ownRow<T extends { companyId: string }>(
  rows: ReadonlyMap<string, T>,
  companyId: string,
  id: string,
): T | null {
  const row = rows.get(id);
  return row && row.companyId === companyId ? row : null;
}

/**
 * Writes the fields of `patch` that are in `allowed` over the company's row `id`; returns the
 * stored row, or null when the company has no such row.
 */
export function patchOwnRow<T extends { companyId: string }, P extends object, K extends keyof P>(
  rows: Map<string, T>,
  companyId: string,
  id: string,
  patch: P,
  allowed: readonly K[],
): T | null {
  const row = ownRow(rows, companyId, id);
  if (!row) return null;
  const updated: T = toStored({ ...row, ...pickPatch(patch, allowed) });
  rows.set(id, updated);
  return updated;
}

/**
 * Deletes the rows passing `test`, the oldest `limit` of them by `at` when a limit is given (a
 * purge batch); returns the rows deleted.
 */
export function deleteMatching<K, T>(
  rows: Map<K, T>,
  at: (row: T) => Date,
  test: (row: T) => boolean,
  limit?: number,
): T[] {
  const doomed = oldestMatching(
    rows.entries(),
    ([, row]) => at(row),
    ([, row]) => test(row),
    limit,
  );
  for (const [key] of doomed) rows.delete(key);
  return doomed.map(([, row]) => row);
}

/** Deletes the rows whose time (`at`) is before `before`, the oldest `limit` of them when a limit is given; returns how many. */
export function deleteOlder<K, T>(rows: Map<K, T>, at: (row: T) => Date, before: Date, limit?: number): number {
  return deleteMatching(rows, at, (row) => at(row).getTime() < before.getTime(), limit).length;
}
