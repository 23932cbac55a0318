import type { KeysetPosition } from "../storage";
import { copy } from "./copy";

/** A record listed by creation time. */
type Created = { createdAt: Date; id: string };

/** Orders rows newest first: time descending, then id descending (code unit order). */
export function newestFirst<T>(at: (row: T) => Date, id: (row: T) => string): (a: T, b: T) => number {
  return (a, b) => {
    const diff = at(b).getTime() - at(a).getTime();
    if (diff !== 0) return diff;
    const idA = id(a);
    const idB = id(b);
    return idA < idB ? 1 : idA > idB ? -1 : 0;
  };
}

/** Orders records newest first by `createdAt`, then id: the order of most lists. */
export const newestCreatedFirst: (a: Created, b: Created) => number = newestFirst<Created>(
  (row) => row.createdAt,
  (row) => row.id,
);

/** Orders rows oldest first by time; rows with the same time keep their insertion order. */
export function oldestFirst<T>(at: (row: T) => Date): (a: T, b: T) => number {
  return (a, b) => at(a).getTime() - at(b).getTime();
}

/** The rows passing `test`, the oldest `limit` of them when a limit is given (a purge batch). */
export function oldestMatching<T>(
  rows: Iterable<T>,
  at: (row: T) => Date,
  test: (row: T) => boolean,
  limit: number | undefined,
): T[] {
  const kept: T[] = [];
  for (const row of rows) if (test(row)) kept.push(row);
  if (limit === undefined) return kept;
  return kept.sort(oldestFirst(at)).slice(0, Math.max(0, limit));
}

/** Whether a row comes strictly after `position` in newest-first order. */
export function isAfter(at: Date, id: string, position: KeysetPosition | undefined): boolean {
  if (!position) return true;
  const time = at.getTime();
  const positionTime = position.at.getTime();
  return time < positionTime || (time === positionTime && id < position.id);
}

/** Sorts newest first, keeps the rows after `after`, and returns at most `take` of them. */
export function keysetPage<T>(
  rows: Iterable<T>,
  at: (row: T) => Date,
  id: (row: T) => string,
  after: KeysetPosition | undefined,
  take: number,
): T[] {
  const kept: T[] = [];
  for (const row of rows) if (isAfter(at(row), id(row), after)) kept.push(row);
  kept.sort(newestFirst(at, id));
  return kept.slice(0, Math.max(0, take));
}

/** One page of records newest first by `createdAt` then id (`keysetPage`), copied out. */
export function createdPage<T extends Created>(
  rows: Iterable<T>,
  page: { after?: KeysetPosition | undefined; take: number },
): T[] {
  return keysetPage(
    rows,
    (row) => row.createdAt,
    (row) => row.id,
    page.after,
    page.take,
  ).map((row) => copy(row));
}

/** Every record passing `test`, newest first by `createdAt` then id, copied out. */
export function createdList<T extends Created>(rows: Iterable<T>, test: (row: T) => boolean): T[] {
  return [...rows]
    .filter(test)
    .sort(newestCreatedFirst)
    .map((row) => copy(row));
}
