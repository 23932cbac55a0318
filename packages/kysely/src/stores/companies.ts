import type { CompanyRecord, CompanyStore } from "@hireport/core";
import { sql } from "kysely";
import type { StoreContext } from "../context";
import type { CompanyTable } from "../schema";
import { fromDb, readNumber } from "../values";

export function toCompany(row: CompanyTable): CompanyRecord {
  return { id: row.id, name: row.name, createdAt: fromDb(row.created_at) };
}

/**
 * The next value of a per-company counter, in one statement: an upsert that adds one and returns
 * the new value (`RETURNING` on Postgres and SQLite, `LAST_INSERT_ID(expr)` on MySQL). Inside a
 * transaction the row stays locked until it ends, which also makes it a per-company lock.
 */
export async function bumpSequence(ctx: StoreContext, companyId: string, kind: string): Promise<number> {
  const table = ctx.table("sequence");
  if (!ctx.returning) {
    // MySQL/MariaDB: `LAST_INSERT_ID(expr)` hands the new value back in the OK packet.
    const result = await ctx.db
      .insertInto(table)
      .values({ company_id: companyId, kind, value: sql<number>`last_insert_id(1)` })
      .onDuplicateKeyUpdate({ value: sql<number>`last_insert_id(${sql.ref("value")} + 1)` })
      .executeTakeFirstOrThrow();
    if (result.insertId === undefined) throw new Error("MySQL returned no LAST_INSERT_ID for a sequence.");
    return Number(result.insertId);
  }
  if (ctx.dialect === "postgres" && !ctx.inTransaction) {
    // Alone in its own statement (core numbers a change before its transaction): committed with
    // `synchronous_commit` off, so the counter row is free again without waiting for the WAL
    // flush. Safe: a change that stores this number commits durably later, and flushing its commit
    // writes every earlier WAL record to disk, this one included. A crash can only lose a number
    // that nothing stored.
    const seq = sql.table(table);
    const { rows } = await sql<{ value: number | string }>`
      with cfg as (select set_config('synchronous_commit', 'off', true))
      insert into ${seq} (company_id, kind, value) select ${companyId}, ${kind}, 1 from cfg
      on conflict (company_id, kind) do update set value = ${sql.ref(`${table}.value`)} + 1
      returning value`.execute(ctx.db);
    if (!rows[0]) throw new Error("Postgres returned no sequence value.");
    return readNumber(rows[0].value);
  }
  const row = await ctx.db
    .insertInto(table)
    .values({ company_id: companyId, kind, value: 1 })
    .onConflict((oc) =>
      oc.columns(["company_id", "kind"]).doUpdateSet({ value: sql<number>`${sql.ref(`${table}.value`)} + 1` }),
    )
    .returning("value")
    .executeTakeFirstOrThrow();
  return readNumber(row.value);
}

export function createCompanyStore(ctx: StoreContext): CompanyStore {
  const get = async (id: string): Promise<CompanyRecord | null> => {
    const row = await ctx.db
      .selectFrom(ctx.tableAs("company", "c"))
      .select(ctx.columns("company", "c"))
      .where("c.id", "=", id)
      .$castTo<CompanyTable>()
      .executeTakeFirst();
    return row ? toCompany(row) : null;
  };

  return {
    async upsert(company) {
      const insert = ctx.db
        .insertInto(ctx.table("company"))
        .values({ id: company.id, name: company.name, created_at: ctx.toDb(company.createdAt) });
      if (ctx.dialect === "mysql") await insert.onDuplicateKeyUpdate({ name: company.name }).execute();
      else await insert.onConflict((oc) => oc.column("id").doUpdateSet({ name: company.name })).execute();
      const stored = await get(company.id);
      if (!stored) throw new Error(`The company ${company.id} vanished right after its upsert.`);
      return stored;
    },

    get,

    nextSequence: (companyId, kind) => bumpSequence(ctx, companyId, kind),
  };
}
