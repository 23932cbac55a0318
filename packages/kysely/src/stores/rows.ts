/** Whole rows: every column of a table, as most reads of the stores start, and one row by its key. */
import { type SelectQueryBuilder, sql } from "kysely";
import { runCompiled } from "../compiled-queries";
import type { StoreContext } from "../context";
import type { HireportDatabase, TableName } from "../schema";

/** The database with `table` under `alias`, as Kysely types `selectFrom("table as alias")`. */
export type Aliased<T extends TableName, A extends string> = HireportDatabase & Record<A, HireportDatabase[T]>;

/**
 * `SELECT` every column of `table` as `alias` (dates as UTC text on MySQL, see
 * `StoreContext.columns`), read through the index `index` when one is named (`StoreContext.from`).
 */
export function selectAll<T extends TableName, A extends string>(
  ctx: StoreContext,
  table: T,
  alias: A,
  index?: string,
): SelectQueryBuilder<Aliased<T, A>, A, Record<string, unknown>> {
  const from: SelectQueryBuilder<Aliased<T, A>, A, object> = ctx.db.selectFrom(
    index === undefined ? ctx.tableAs(table, alias) : ctx.from(table, alias, index),
  );
  return from.select(ctx.columns(table, alias));
}

/**
 * The row of `table` whose columns have the values of `key` (its primary key, with `company_id`
 * where the row must belong to that company), locked `FOR UPDATE` with `lock`; undefined if none.
 */
export async function findRow<T extends TableName, K extends keyof HireportDatabase[T] & string>(
  ctx: StoreContext,
  table: T,
  key: Record<K, string>,
  options?: { lock?: boolean },
): Promise<HireportDatabase[T] | undefined> {
  const columns = Object.keys(key) as K[];
  const lock = options?.lock === true;
  const shape = `row:${table}:${columns.join(",")}:${lock ? "lock" : ""}`;
  const rows = await runCompiled(ctx, shape, key, (p) => {
    let query = selectAll(ctx, table, "r");
    for (const column of columns) query = query.where(sql.ref(`r.${column}`), "=", p[column]);
    return lock ? ctx.strategy.forUpdate(query) : query;
  });
  // Every column was selected: the row is the table's.
  return rows[0] as HireportDatabase[T] | undefined;
}

/** The record of the row {@link findRow} finds, through `toRecord`; null if there is none. */
export async function findRecord<T extends TableName, K extends keyof HireportDatabase[T] & string, R>(
  ctx: StoreContext,
  table: T,
  key: Record<K, string>,
  toRecord: (row: HireportDatabase[T]) => R,
  options?: { lock?: boolean },
): Promise<R | null> {
  const row = await findRow(ctx, table, key, options);
  return row === undefined ? null : toRecord(row);
}
