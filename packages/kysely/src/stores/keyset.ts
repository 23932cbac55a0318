import { type ExpressionBuilder, sql } from "kysely";
import type { StoreContext } from "../context";

/**
 * The condition "strictly after `position` in newest-first order" for a `(time, id)` keyset,
 * written so that every dialect's planner can range-scan the `(…, time, id)` index:
 * `time <= at AND (time < at OR id < id)`.
 */
export function afterPosition<DB, TB extends keyof DB>(
  ctx: StoreContext,
  eb: ExpressionBuilder<DB, TB>,
  timeColumn: string,
  idColumn: string,
  position: { at: Date; id: string },
) {
  const at = ctx.toDb(position.at);
  const time = sql.ref(timeColumn);
  const id = sql.ref(idColumn);
  return eb.and([
    sql<boolean>`${time} <= ${at}`,
    eb.or([sql<boolean>`${time} < ${at}`, sql<boolean>`${id} < ${position.id}`]),
  ]);
}
