/**
 * Pieces two strategies share (Postgres and SQLite are alike in quoting, `ON CONFLICT` and
 * `RETURNING`). Each strategy still names every member itself; this file only avoids writing one
 * twice.
 */
import { type AliasedRawBuilder, type InsertQueryBuilder, type OnConflictBuilder, sql } from "kysely";
import type { StoreContext } from "../context";
import { readNumber } from "../values";
import type { Selection } from "./types";

/** Double-quoted identifier (Postgres, SQLite); the names are hireport's own, checked anyway. */
function quoted(identifier: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(identifier)) throw new Error(`Unexpected identifier: ${identifier}`);
  return `"${identifier}"`;
}

/**
 * `"a"."col" as "col", …` as a single selection. Kysely compiles a raw node in one step, and 28
 * aliased references one by one, a cost the list endpoints would pay on every request
 * (bench/RESULTS.md, "Claims").
 * Kysely accepts any expression node in `select`; its types want an alias, which the fragment
 * carries inside, hence the cast.
 */
export function preCompiledColumns(
  alias: string,
  columns: readonly string[],
  rename: (column: string) => string = (column) => column,
): Selection {
  const text = columns.map((column) => `${quoted(alias)}.${quoted(column)} as ${quoted(rename(column))}`).join(", ");
  return [sql.raw(text) as unknown as AliasedRawBuilder<unknown, string>];
}

/** `ON CONFLICT (columns) DO NOTHING`. */
export function onConflictDoNothing<DB, TB extends keyof DB, O>(
  insert: InsertQueryBuilder<DB, TB, O>,
  conflict: readonly string[],
): InsertQueryBuilder<DB, TB, O> {
  return insert.onConflict((oc: OnConflictBuilder<DB, TB>) => oc.columns(conflict as never).doNothing());
}

/** `ON CONFLICT (columns) DO UPDATE SET …`. */
export function onConflictUpdate<DB, TB extends keyof DB, O>(
  insert: InsertQueryBuilder<DB, TB, O>,
  conflict: readonly string[],
  set: Readonly<Record<string, unknown>>,
): InsertQueryBuilder<DB, TB, O> {
  return insert.onConflict((oc: OnConflictBuilder<DB, TB>) => oc.columns(conflict as never).doUpdateSet(set as never));
}

/**
 * The next value of a per-company counter in one upsert that adds one and returns the new value.
 * Inside a transaction the row stays locked until it ends, which also makes it a per-company lock.
 */
export async function upsertReturningSequence(
  ctx: StoreContext,
  companyId: string,
  kind: string,
  count: number,
): Promise<number> {
  const table = ctx.table("sequence");
  const row = await ctx.db
    .insertInto(table)
    .values({ company_id: companyId, kind, value: count })
    .onConflict((oc) =>
      oc.columns(["company_id", "kind"]).doUpdateSet({ value: sql<number>`${sql.ref(`${table}.value`)} + ${count}` }),
    )
    .returning("value")
    .executeTakeFirstOrThrow();
  return readNumber(row.value);
}
