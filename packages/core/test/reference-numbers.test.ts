/**
 * The numbers of references (`JOB-1042`, `APP-20931`): reserved from the company's counter one at
 * a time while they are taken slowly, in growing blocks while they are taken fast, never twice.
 */
import { describe, expect, it } from "vitest";
import { createPublicApi } from "../src/index";
import { memoryStorage } from "../src/memory";
import { ReferenceNumbers } from "../src/runtime/reference-numbers";
import type { CompanyStore } from "../src/storage";

/** The memory storage's counters, with every reservation's size recorded and a failure on demand. */
function counters() {
  const base = memoryStorage().companies;
  const reserved: number[] = [];
  let failNext = false;
  const companies: CompanyStore = {
    ...base,
    async reserveSequence(companyId, kind, count) {
      if (failNext) {
        failNext = false;
        throw new Error("the database went away");
      }
      reserved.push(count);
      return base.reserveSequence(companyId, kind, count);
    },
  };
  return { companies, reserved, failOnce: () => (failNext = true) };
}

function clock() {
  let ms = 1_000;
  return { now: () => ms, advance: (by: number) => (ms += by) };
}

async function take(numbers: ReferenceNumbers, count: number, company = "co_a"): Promise<number[]> {
  const taken: number[] = [];
  for (let index = 0; index < count; index++) taken.push(await numbers.next(company, "application"));
  return taken;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("ReferenceNumbers", () => {
  it("reserves one number at a time while each lasts more than a second", async () => {
    const { companies, reserved } = counters();
    const time = clock();
    const numbers = new ReferenceNumbers(companies, 16, time.now);
    const taken: number[] = [];
    for (let index = 0; index < 5; index++) {
      taken.push(await numbers.next("co_a", "job"));
      time.advance(1_500);
    }
    expect(taken).toEqual(range(1, 5));
    expect(reserved).toEqual([1, 1, 1, 1, 1]);
  });

  it("doubles the block while each is used up within a second, up to the most allowed, numbers in order", async () => {
    const { companies, reserved } = counters();
    const numbers = new ReferenceNumbers(companies, 16, clock().now);
    expect(await take(numbers, 63)).toEqual(range(1, 63));
    expect(reserved).toEqual([1, 2, 4, 8, 16, 16, 16]);
  });

  it("halves the block again once one lasts longer than ten seconds", async () => {
    const { companies, reserved } = counters();
    const time = clock();
    const numbers = new ReferenceNumbers(companies, 8, time.now);
    await take(numbers, 15); // blocks of 1, 2, 4, 8
    time.advance(11_000);
    await take(numbers, 1); // the block of 8 lasted 11 s: the next is 4
    time.advance(11_000);
    await take(numbers, 6); // the 3 left; that block lasted 11 s too: 2, used up at once, then 4
    expect(reserved).toEqual([1, 2, 4, 8, 4, 2, 4]);
  });

  it("with a most of 1 reserves each number alone", async () => {
    const { companies, reserved } = counters();
    const numbers = new ReferenceNumbers(companies, 1, clock().now);
    expect(await take(numbers, 6)).toEqual(range(1, 6));
    expect(reserved).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it("keeps companies and kinds apart", async () => {
    const { companies } = counters();
    const numbers = new ReferenceNumbers(companies, 16, clock().now);
    await take(numbers, 7, "co_a");
    expect(await numbers.next("co_b", "application")).toBe(1);
    expect(await numbers.next("co_a", "job")).toBe(1);
    expect(await numbers.next("co_a", "application")).toBe(8);
  });

  it("hands concurrent callers distinct numbers, those that wait sharing one reservation", async () => {
    const { companies, reserved } = counters();
    const numbers = new ReferenceNumbers(companies, 16, clock().now);
    const taken = await Promise.all(Array.from({ length: 40 }, () => numbers.next("co_a", "application")));
    expect([...taken].sort((a, b) => a - b)).toEqual(range(1, 40));
    // One reservation at a time: 1, 2, 4, 8, 16, then 16 (9 of it used).
    expect(reserved).toEqual([1, 2, 4, 8, 16, 16]);
  });

  it("never gives two processes (two instances on one storage) the same number", async () => {
    const { companies } = counters();
    const time = clock();
    const first = new ReferenceNumbers(companies, 16, time.now);
    const second = new ReferenceNumbers(companies, 16, time.now);
    const taken = await Promise.all(
      Array.from({ length: 60 }, (_, index) => (index % 2 ? first : second).next("co_a", "application")),
    );
    expect(new Set(taken).size).toBe(60);
    // Blocks interleave: the second instance's first number follows the first instance's block.
    expect(Math.max(...taken)).toBeGreaterThan(60);
  });

  it("fails every caller waiting on a failed reservation, and tries again on the next call", async () => {
    const { companies, failOnce } = counters();
    const numbers = new ReferenceNumbers(companies, 16, clock().now);
    failOnce();
    const results = await Promise.allSettled([numbers.next("co_a", "job"), numbers.next("co_a", "job")]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    expect(await take(numbers, 3, "co_a")).toEqual([1, 2, 3]);
  });
});

describe("maxReferenceBlock of createPublicApi", () => {
  const base = {
    publicBaseUrl: "https://hr.example.com",
    fileTokenSecret: "a-secret-of-at-least-thirty-two-characters!",
  };

  it("refuses a value that is not an integer from 1 to 1000", () => {
    for (const maxReferenceBlock of [0, 1001, 2.5, Number.NaN]) {
      expect(() => createPublicApi({ ...base, storage: memoryStorage(), maxReferenceBlock })).toThrow(
        /maxReferenceBlock must be an integer from 1 to 1000/,
      );
    }
  });

  async function twoProcesses(maxReferenceBlock?: number) {
    const storage = memoryStorage();
    const apis = [0, 1].map(() =>
      createPublicApi({ ...base, storage, ...(maxReferenceBlock ? { maxReferenceBlock } : {}) }),
    );
    const [one] = apis;
    if (!one) throw new Error("no api");
    const company = await one.companies.upsert({ id: "co_refs", name: "Refs" });
    const job = await one.jobs.create(company.id, { title: "Welder", description: "Welds.", status: "active" });
    const references: string[] = [];
    for (let index = 0; index < 6; index++) {
      const api = apis[index % 2];
      if (!api) throw new Error("no api");
      const created = await api.applications.create(company.id, {
        job_id: job.id,
        candidate: { name: `C ${index}`, email: `c${index}@example.com` },
      });
      references.push(created.reference);
    }
    await Promise.all(apis.map((api) => api.close()));
    return references;
  }

  it("numbers each process's applications in order from blocks of its own", async () => {
    const references = await twoProcesses();
    expect(new Set(references).size).toBe(6);
    const byProcess = [0, 1].map((process) => references.filter((_, index) => index % 2 === process));
    for (const own of byProcess) {
      const numbers = own.map((reference) => Number(reference.replace("APP-", "")));
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    }
    expect(references[0]).toBe("APP-1001");
  });

  it("at 1, numbers applications in creation order across processes", async () => {
    expect(await twoProcesses(1)).toEqual(range(1001, 1006).map((n) => `APP-${n}`));
  });
});
