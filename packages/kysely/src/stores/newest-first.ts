import type { KeysetPosition } from "@hireport/core";
import { type SelectQueryBuilder, sql } from "kysely";
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
 * {@link newestFirstPage} with the values as the statement takes them (the time already
 * `ctx.toDb`): what a statement compiled once per shape (`runCompiled`) places.
 */
export function newestFirstAfter<DB, TB extends keyof DB, O>(
  select: SelectQueryBuilder<DB, TB, O>,
  alias: string,
  after: { at: unknown; id: unknown } | undefined,
  take: number,
  timeColumn = "created_at",
): SelectQueryBuilder<DB, TB, O> {
  const from = after ? select.where((eb) => afterValues(eb, `${alias}.${timeColumn}`, `${alias}.id`, after)) : select;
  return newestFirst(from, alias, timeColumn).limit(take);
}
