import type { KeysetPosition } from "@hireport/core/storage";
import { type RawBuilder, type SelectQueryBuilder, sql } from "kysely";
import type { StoreContext } from "../context";
import { afterValues } from "./keyset";

/** `select` ordered newest first on the `(created_at, id)` keyset of the table aliased `alias`. */
export function newestFirst<DB, TB extends keyof DB, O>(
  select: SelectQueryBuilder<DB, TB, O>,
  alias: string,
  timeColumn = "created_at",
): SelectQueryBuilder<DB, TB, O> {
  return select.orderBy(sql.ref(`${alias}.${timeColumn}`), "desc").orderBy(sql.ref(`${alias}.id`), "desc");
}

/**
 * One page of a newest-first list on the `(created_at, id)` keyset (or `(timeColumn, id)`) of the
 * table aliased `alias`: `select` narrowed to the rows strictly after `after`, ordered by time then
 * id, both descending, and limited to `take` (the service asks for one more than it shows, to know
 * whether a next page exists).
 */
export function newestFirstPage<DB, TB extends keyof DB, O>(
  ctx: StoreContext,
  select: SelectQueryBuilder<DB, TB, O>,
  alias: string,
  page: { after?: KeysetPosition | undefined; take: number },
  timeColumn = "created_at",
): SelectQueryBuilder<DB, TB, O> {
  const { after } = page;
  return newestFirstAfter(
    select,
    alias,
    after && { at: ctx.toDb(after.at), id: after.id },
    Math.max(0, page.take),
    timeColumn,
  );
}

/**
 * The page size of a list statement compiled once per shape (`runCompiled`): written into the
 * statement's text, and so into its shape, when the list's index is fixed (`fixedIndex`), else a
 * parameter (`take` of the arguments).
 *
 * With the size in the text, Postgres plans a prepared statement once per connection and keeps
 * that generic plan. A `LIMIT $n` of unknown size makes the generic plan of a join over a large
 * table look costlier than a custom one, so Postgres would plan again on every run. Where the
 * optimizer must choose the index by the values (`updated_since`), the size stays a parameter and
 * every run is planned for its values. Page sizes are bounded (at most 101 with the look-ahead row),
 * so the shapes are too.
 */
export function pageTake(
  args: Record<string, unknown>,
  take: number,
  fixedIndex: boolean,
): { shape: string; limit: (slots: Record<string, unknown>) => unknown } {
  const size = Math.max(0, Math.trunc(take));
  if (fixedIndex) return { shape: `take=${size}`, limit: () => sql.lit(size) };
  args.take = size;
  return { shape: "take", limit: (slots) => slots.take };
}

/**
 * {@link newestFirstPage} with the values as the statement takes them (the time already
 * `ctx.toDb`): what a statement compiled once per shape (`runCompiled`) places. `take` is a number,
 * a placeholder of `runCompiled`, or a literal from {@link pageTake}.
 */
export function newestFirstAfter<DB, TB extends keyof DB, O>(
  select: SelectQueryBuilder<DB, TB, O>,
  alias: string,
  after: { at: unknown; id: unknown } | undefined,
  take: unknown,
  timeColumn = "created_at",
): SelectQueryBuilder<DB, TB, O> {
  const from = after ? select.where((eb) => afterValues(eb, `${alias}.${timeColumn}`, `${alias}.id`, after)) : select;
  return newestFirst(from, alias, timeColumn).limit(take as number | RawBuilder<number>);
}
