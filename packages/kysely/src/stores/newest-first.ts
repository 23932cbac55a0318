import type { KeysetPosition } from "@hireport/core";
import { type SelectQueryBuilder, sql } from "kysely";
import type { StoreContext } from "../context";
import { afterPosition } from "./keyset";

/**
 * One page of a newest-first list on the `(created_at, id)` keyset of the table aliased `alias`:
 * `select` narrowed to the rows strictly after `after`, ordered by time then id, both descending,
 * and limited to `take` (the service asks for one more than it shows, to know whether a next page
 * exists).
 */
export function newestFirstPage<DB, TB extends keyof DB, O>(
  ctx: StoreContext,
  select: SelectQueryBuilder<DB, TB, O>,
  alias: string,
  page: { after?: KeysetPosition | undefined; take: number },
): SelectQueryBuilder<DB, TB, O> {
  const time = `${alias}.created_at`;
  const id = `${alias}.id`;
  const { after } = page;
  const from = after ? select.where((eb) => afterPosition(ctx, eb, time, id, after)) : select;
  return from.orderBy(sql.ref(time), "desc").orderBy(sql.ref(id), "desc").limit(Math.max(0, page.take));
}
