import { type ExpressionBuilder, sql } from "kysely";
import type { StoreContext } from "../context";

/**
 * The condition "strictly after `position`" for a `(time, id)` keyset, in newest-first order
 * (`desc`, the lists) or oldest-first order (`asc`, the recovery of deliveries), written so that
 * every dialect's planner can range-scan the `(…, time, id)` index: for `desc`,
 * `time <= at AND (time < at OR id < id)`; for `asc`, the same with the comparisons turned.
 */
export function afterPosition<DB, TB extends keyof DB>(
  ctx: StoreContext,
  eb: ExpressionBuilder<DB, TB>,
  timeColumn: string,
  idColumn: string,
  position: { at: Date; id: string },
  order: "desc" | "asc" = "desc",
) {
  return afterValues(eb, timeColumn, idColumn, { at: ctx.toDb(position.at), id: position.id }, order);
}

/** {@link afterPosition} with the position's values as the statement takes them (the time already `ctx.toDb`). */
export function afterValues<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  timeColumn: string,
  idColumn: string,
  position: { at: unknown; id: unknown },
  order: "desc" | "asc" = "desc",
) {
  const time = sql.ref(timeColumn);
  const id = sql.ref(idColumn);
  const [orEqual, strictly] = order === "desc" ? [sql.raw("<="), sql.raw("<")] : [sql.raw(">="), sql.raw(">")];
  return eb.and([
    sql<boolean>`${time} ${orEqual} ${position.at}`,
    eb.or([sql<boolean>`${time} ${strictly} ${position.at}`, sql<boolean>`${id} ${strictly} ${position.id}`]),
  ]);
}
