import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "../context";
import { makeCompany, parallel, shift } from "../fixtures";

export function companyTests(ctx: ConformanceContext): void {
  describe("companies", () => {
    it("upsert inserts a company that get returns, createdAt to the millisecond", async () => {
      const company = makeCompany({ name: "Ünïcode & Co 🚀", createdAt: new Date("2024-02-29T23:59:59.987Z") });
      expect(await ctx.storage.companies.upsert(company)).toEqual(company);
      const read = await ctx.storage.companies.get(company.id);
      expect(read).toEqual(company);
      expect(read?.createdAt).toBeInstanceOf(Date);
      expect(read?.createdAt.toISOString()).toBe("2024-02-29T23:59:59.987Z");
    });

    it("upsert of an existing company changes its name and keeps its createdAt", async () => {
      const company = makeCompany({ name: "Old name" });
      await ctx.storage.companies.upsert(company);
      const renamed = await ctx.storage.companies.upsert({
        ...company,
        name: "New name",
        createdAt: shift(company.createdAt, 60_000),
      });
      expect(renamed).toEqual({ ...company, name: "New name" });
      expect(await ctx.storage.companies.get(company.id)).toEqual({ ...company, name: "New name" });
    });

    it("get returns null for an unknown id", async () => {
      expect(await ctx.storage.companies.get(makeCompany().id)).toBeNull();
    });

    it("nextSequence starts at 1 and counts per company and kind", async () => {
      const a = await ctx.company();
      const b = await ctx.company();
      const seq = ctx.storage.companies;
      expect(await seq.nextSequence(a, "job")).toBe(1);
      expect(await seq.nextSequence(a, "job")).toBe(2);
      expect(await seq.nextSequence(a, "application")).toBe(1);
      expect(await seq.nextSequence(b, "job")).toBe(1);
      expect(await seq.nextSequence(a, "job")).toBe(3);
      expect(await seq.nextSequence(a, "application")).toBe(2);
    });

    it("nextSequence never hands out a number twice under 20 parallel calls", async () => {
      const companyId = await ctx.company();
      const numbers = await parallel(20, () => ctx.storage.companies.nextSequence(companyId, "application"));
      expect(new Set(numbers).size).toBe(20);
      for (const n of numbers) expect(n).toBeGreaterThanOrEqual(1);
      const next = await ctx.storage.companies.nextSequence(companyId, "application");
      expect(next).toBeGreaterThan(Math.max(...numbers));
    });
  });
}
