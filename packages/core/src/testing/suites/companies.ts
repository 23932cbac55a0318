import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "../context";
import { makeCompany, parallel, shift } from "../fixtures";

export function companyTests(ctx: ConformanceContext): void {
  describe("companies", () => {
    it("upsert inserts a company that get returns, createdAt to the millisecond", async () => {
      const company = makeCompany({ name: "Ünïcode & Co 🚀", createdAt: new Date("2024-02-29T23:59:59.987Z") });
      ctx.ownCompany(company.id);
      expect(await ctx.storage.companies.upsert(company)).toEqual(company);
      const read = await ctx.storage.companies.get(company.id);
      expect(read).toEqual(company);
      expect(read?.createdAt).toBeInstanceOf(Date);
      expect(read?.createdAt.toISOString()).toBe("2024-02-29T23:59:59.987Z");
    });

    it("upsert of an existing company changes its name and keeps its createdAt", async () => {
      const company = makeCompany({ name: "Old name" });
      ctx.ownCompany(company.id);
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

    it("reserveSequence starts at 1 and counts per company and kind", async () => {
      const a = await ctx.company();
      const b = await ctx.company();
      const seq = ctx.storage.companies;
      expect(await seq.reserveSequence(a, "job", 1)).toBe(1);
      expect(await seq.reserveSequence(a, "job", 1)).toBe(2);
      expect(await seq.reserveSequence(a, "application", 1)).toBe(1);
      expect(await seq.reserveSequence(b, "job", 1)).toBe(1);
      expect(await seq.reserveSequence(a, "job", 1)).toBe(3);
      expect(await seq.reserveSequence(a, "application", 1)).toBe(2);
    });

    it("reserveSequence reserves a block: the first of count numbers, the next call after them", async () => {
      const companyId = await ctx.company();
      const seq = ctx.storage.companies;
      expect(await seq.reserveSequence(companyId, "job", 16)).toBe(1);
      expect(await seq.reserveSequence(companyId, "job", 3)).toBe(17);
      expect(await seq.reserveSequence(companyId, "job", 1)).toBe(20);
      expect(await seq.reserveSequence(companyId, "application", 2)).toBe(1);
    });

    it("reserveSequence never hands out a number twice under 20 parallel calls of different sizes", async () => {
      const companyId = await ctx.company();
      const sizes = Array.from({ length: 20 }, (_, i) => 1 + (i % 5));
      const firsts = await parallel(20, async (index) => {
        const size = sizes[index] ?? 1;
        return { first: await ctx.storage.companies.reserveSequence(companyId, "application", size), size };
      });
      const numbers = firsts.flatMap(({ first, size }) => Array.from({ length: size }, (_, k) => first + k));
      const total = sizes.reduce((sum, size) => sum + size, 0);
      expect([...numbers].sort((x, y) => x - y)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      expect(await ctx.storage.companies.reserveSequence(companyId, "application", 1)).toBe(total + 1);
    });
  });
}
