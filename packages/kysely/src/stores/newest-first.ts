import type { KeysetPosition } from "@hireport/core";
import { type SelectQueryBuilder, sql } from "kysely";
import type { StoreContext } from "../context";
import { afterPosition } from "./keyset";

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
  const from = after
    ? select.where((eb) => afterPosition(ctx, eb, `${alias}.${timeColumn}`, `${alias}.id`, after))
    : select;
  return newestFirst(from, alias, timeColumn).limit(Math.max(0, page.take));
}
