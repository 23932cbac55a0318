import type { CompanyRecord } from "@hireport/core";
import type { CompanyStore } from "@hireport/core/storage";
import type { StoreContext } from "../context";
import type { CompanyTable } from "../schema";
import { fromDb } from "../values";
import { findRecord } from "./rows";

export function toCompany(row: CompanyTable): CompanyRecord {
  return { id: row.id, name: row.name, createdAt: fromDb(row.created_at) };
}

export function createCompanyStore(ctx: StoreContext): CompanyStore {
  const get = (id: string) => findRecord(ctx, "company", { id }, toCompany);

  return {
    async upsert(company) {
      const insert = ctx.db
        .insertInto(ctx.table("company"))
        .values({ id: company.id, name: company.name, created_at: ctx.toDb(company.createdAt) });
      await ctx.strategy.upsert(insert, ["id"], { name: company.name }).execute();
      const stored = await get(company.id);
      if (!stored) throw new Error(`The company ${company.id} vanished right after its upsert.`);
      return stored;
    },

    get,

    reserveSequence: async (companyId, kind, count) =>
      (await ctx.strategy.nextSequence(ctx, companyId, kind, count)) - count + 1,
  };
}
