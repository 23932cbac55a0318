/**
 * `declaredDomain`: a product's own tables described, not hand-written, checked by the domain
 * conformance suite on SQLite, Postgres and MySQL/MariaDB in two shapes (the candidate on the
 * application row with the product's history tables; a person table shared by applications with
 * hireport's history tables), and the mapping features the suite cannot see: ids without the kind
 * prefix, words kept on a round trip, an unknown word, a shared person erased with its last
 * application, a single-company product, and the mistakes a declaration can hold.
 */
import { randomBytes } from "node:crypto";
import { createPublicApi } from "@hireport/core";
import { runDomainConformance } from "@hireport/core/testing";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DeclarationError, type DomainDeclaration, declaredDomain, kyselyStorage, migrateToLatest } from "../src/index";
import { kyselyConformanceInspector } from "../src/testing";
import { openTestDatabase, type TestDatabase, type TestDialect } from "./helpers/databases";
import {
  createProductTables,
  dropProductTables,
  inlineDeclaration,
  productTables,
  STAGE_WORDS,
  STATUS_WORDS,
} from "./helpers/product-tables";

// biome-ignore lint/suspicious/noExplicitAny: the product's tables are named at run time (under the test's prefix).
type Names = any;

/**
 * A person table (shared by the applications of one address, or a row for each application), the
 * applications counted rather than stored, hireport's own history and notes.
 */
function personDeclaration(prefix: string, options: { shared: boolean; company?: string }): DomainDeclaration<Names> {
  const { shared, company } = options;
  const t = productTables(prefix);
  const inline = inlineDeclaration(prefix);
  const tenant =
    company === undefined ? { company: "company_id" } : { onInsert: () => ({ company_id: "the-only-one" }) };
  return {
    ...(company === undefined ? {} : { company }),
    jobs: {
      ...inline.jobs,
      ids: "whole",
      company: undefined,
      applicationsCount: shared ? "computed" : "applications_count",
      ...tenant,
    },
    applications: {
      ...inline.applications,
      ids: "whole",
      company: undefined,
      ...tenant,
      candidate: {
        table: t.people,
        from: "person_id",
        shared,
        columns: { name: "full_name", email: "email", emailNormalized: "email_key" },
        // A personal column of the product's that no candidate field is kept in.
        erase: { private_notes: null },
        ...tenant,
      },
    },
    stageChanges: "hireport",
    notes: "hireport",
  } as DomainDeclaration<Names>;
}

const DIALECTS: TestDialect[] = ["sqlite", "postgres", "mysql"];

for (const dialect of DIALECTS) {
  for (const [shape, declare] of [
    ["candidate on the application row", inlineDeclaration],
    ["a person table, hireport's history", (prefix: string) => personDeclaration(prefix, { shared: false })],
  ] as const) {
    runDomainConformance({
      name: `declared tables on ${dialect}: ${shape}`,
      async setup() {
        const opened = await openTestDatabase(dialect);
        if (!opened) throw new Error(`${dialect} is not reachable`);
        // Without hireport's own job and application tables: the product's hold them.
        await opened.migrate({ domainTables: false });
        await createProductTables(opened.db, dialect, opened.prefix);
        const domain = declaredDomain(declare(opened.prefix));
        return {
          storage: kyselyStorage({ db: opened.db, tablePrefix: opened.prefix, domain }),
          inspect: kyselyConformanceInspector({ db: opened.db, tablePrefix: opened.prefix, domain }),
          async teardown() {
            await dropProductTables(opened.db, opened.prefix);
            await opened.drop();
          },
        };
      },
    });
  }

  describe(`declared tables on ${dialect}: what the suite cannot see`, () => {
    let opened: TestDatabase;
    let db: Kysely<Names>;
    const company = `co_${randomBytes(4).toString("hex")}`;
    const setup = (declaration: DomainDeclaration<Names>) =>
      createPublicApi({
        storage: kyselyStorage({ db, tablePrefix: opened.prefix, domain: declaredDomain(declaration) }),
        publicBaseUrl: "https://jobs.example.com",
        fileTokenSecret: "x".repeat(32),
      });

    beforeAll(async () => {
      const found = await openTestDatabase(dialect);
      if (!found) return;
      opened = found;
      db = found.db;
      await found.migrate({ domainTables: false });
      await createProductTables(db, dialect, found.prefix);
    });
    afterAll(async () => {
      if (!opened) return;
      await dropProductTables(db, opened.prefix);
      await opened.drop();
    });

    it("migrated with domainTables: false, hireport has no job or application table of its own", async (context) => {
      if (!opened) return context.skip();
      const names = new Set((await db.introspection.getTables()).map((table) => table.name));
      expect(names.has(`${opened.prefix}job`)).toBe(false);
      expect(names.has(`${opened.prefix}application`)).toBe(false);
      expect(names.has(`${opened.prefix}event`)).toBe(true);
      expect(names.has(`${opened.prefix}p_job`)).toBe(true);
      // Every migration is recorded: running them again does nothing.
      const again = await migrateToLatest(db, { tablePrefix: opened.prefix, domainTables: false });
      expect(again.error).toBeUndefined();
      expect(again.results).toEqual([]);
    });

    it("stores ids without their kind prefix and answers them with it", async () => {
      if (!opened) return;
      const api = setup(inlineDeclaration(opened.prefix));
      await api.companies.upsert({ id: company, name: "Acme" });
      const job = await api.jobs.create(company, { title: "Welder", status: "active" });
      expect(job.id).toMatch(/^job_/);
      const t = productTables(opened.prefix);
      const row = await db.selectFrom(t.jobs).select("id").where("title", "=", "Welder").executeTakeFirstOrThrow();
      expect(`job_${row.id}`).toBe(job.id);
      expect((await api.jobs.get(company, job.id)).title).toBe("Welder");
      await expect(api.jobs.get(company, `app_${row.id}`)).rejects.toMatchObject({ code: "not_found" });
    });

    it("keeps the product's word when the API's value does not change, and writes the first word otherwise", async () => {
      if (!opened) return;
      const api = setup(inlineDeclaration(opened.prefix));
      await api.companies.upsert({ id: company, name: "Acme" });
      const job = await api.jobs.create(company, { title: "Live role", status: "active" });
      const t = productTables(opened.prefix);
      const stored = job.id.slice("job_".length);
      const status = async () =>
        (await db.selectFrom(t.jobs).select("status").where("id", "=", stored).executeTakeFirstOrThrow()).status;
      expect(await status()).toBe("open");
      // The product's own screen uses a word of its own for the API's `active`.
      await db.updateTable(t.jobs).set({ status: "live" }).where("id", "=", stored).execute();
      expect((await api.jobs.get(company, job.id)).status).toBe("active");
      await api.jobs.update(company, job.id, { title: "Live role, renamed", status: "active" });
      expect(await status()).toBe("live");
      await api.jobs.update(company, job.id, { status: "paused" });
      expect(await status()).toBe("paused");
      await api.jobs.update(company, job.id, { status: "active" });
      expect(await status()).toBe("open");
    });

    it("reads a word the declaration does not name as its `otherwise`, finds it by that status, and keeps it", async () => {
      if (!opened) return;
      const api = setup(inlineDeclaration(opened.prefix));
      await api.companies.upsert({ id: company, name: "Acme" });
      const job = await api.jobs.create(company, { title: "Legacy", status: "draft" });
      const t = productTables(opened.prefix);
      const stored = job.id.slice("job_".length);
      await db.updateTable(t.jobs).set({ status: "legacy_pending" }).where("id", "=", stored).execute();
      expect((await api.jobs.get(company, job.id)).status).toBe("draft");
      const drafts = await api.jobs.list(company, { status: "draft" });
      expect(drafts.data.map((found) => found.id)).toContain(job.id);
      const active = await api.jobs.list(company, { status: "open" });
      expect(active.data.map((found) => found.id)).not.toContain(job.id);
      await api.jobs.update(company, job.id, { title: "Legacy, renamed" });
      const row = await db.selectFrom(t.jobs).select("status").where("id", "=", stored).executeTakeFirstOrThrow();
      expect(row.status).toBe("legacy_pending");
    });

    it("a job field without a column lives in the extras object, and an older row without it reads its default", async () => {
      if (!opened) return;
      const api = setup(inlineDeclaration(opened.prefix));
      await api.companies.upsert({ id: company, name: "Acme" });
      const job = await api.jobs.create(company, {
        title: "Baker",
        status: "active",
        location: "Leeds",
        salary_min: 30_000,
      } as never);
      const t = productTables(opened.prefix);
      const stored = job.id.slice("job_".length);
      const row = await db.selectFrom(t.jobs).select("data").where("id", "=", stored).executeTakeFirstOrThrow();
      expect(JSON.parse(row.data)).toMatchObject({ location: "Leeds", salaryMin: 30_000 });
      await db
        .updateTable(t.jobs)
        .set({ data: JSON.stringify({ location: "York" }) })
        .where("id", "=", stored)
        .execute();
      const read = await api.jobs.get(company, job.id);
      expect(read).toMatchObject({ location: "York", salaryMin: null, requiredSkills: [] });
    });

    it("one person row for one address: an erased application reads erased, the row waits for the last one", async () => {
      if (!opened) return;
      const api = setup(personDeclaration(opened.prefix, { shared: true }));
      const other = `co_${randomBytes(4).toString("hex")}`;
      await api.companies.upsert({ id: other, name: "Shared people" });
      const first = await api.jobs.create(other, { title: "First", status: "active" });
      const second = await api.jobs.create(other, { title: "Second", status: "active" });
      const candidate = { name: "Grace Hopper", email: "Grace@Example.com" };
      const a = await api.applications.create(other, { job_id: first.id, candidate } as never);
      const b = await api.applications.create(other, {
        job_id: second.id,
        candidate: { ...candidate, name: "Grace B. Hopper" },
      } as never);
      const t = productTables(opened.prefix);
      const people = () => db.selectFrom(t.people).selectAll().where("company_id", "=", other).execute();
      expect(await people()).toHaveLength(1);
      expect((await people())[0]).toMatchObject({ full_name: "Grace B. Hopper", email_key: "grace@example.com" });
      // The person's latest details, on each of their applications; the count is the rows'.
      expect((await api.applications.get(other, a.id)).candidate.name).toBe("Grace B. Hopper");
      expect((await api.jobs.get(other, first.id)).applicationsCount).toBe(1);

      await db
        .updateTable(t.people)
        .set({ private_notes: "Met at the fair" })
        .where("company_id", "=", other)
        .execute();
      await api.candidates.erase(other, { applicationId: a.id }, { actor: "test" });
      expect((await api.applications.get(other, a.id)).candidate.name).toBe("");
      expect((await api.applications.get(other, b.id)).candidate.name).toBe("Grace B. Hopper");
      expect((await people())[0]).toMatchObject({ full_name: "Grace B. Hopper", private_notes: "Met at the fair" });
      expect(
        (await api.candidates.find(other, { email: "grace@example.com" })).map((found: { id: string }) => found.id),
      ).toEqual([b.id]);

      await api.candidates.erase(other, { applicationId: b.id }, { actor: "test" });
      expect((await people())[0]).toMatchObject({ full_name: "", email: "", email_key: "", private_notes: null });
    });

    it("a single-company product: its one company reads and writes, any other reads nothing", async () => {
      if (!opened) return;
      const only = `co_${randomBytes(4).toString("hex")}`;
      const api = setup(personDeclaration(opened.prefix, { shared: true, company: only }));
      await api.companies.upsert({ id: only, name: "The only one" });
      await api.companies.upsert({ id: company, name: "Acme" });
      const job = await api.jobs.create(only, { title: "Only", status: "active" });
      expect((await api.jobs.get(only, job.id)).companyId).toBe(only);
      await expect(api.jobs.get(company, job.id)).rejects.toMatchObject({ code: "not_found" });
      expect((await api.jobs.list(company)).data).toEqual([]);
      await expect(api.jobs.create(company, { title: "Elsewhere", status: "active" })).rejects.toThrow(
        /cannot hold job/,
      );
      await db.deleteFrom(productTables(opened.prefix).jobs).where("company_id", "=", "the-only-one").execute();
    });
  });
}

describe("a declaration's mistakes", () => {
  const base = inlineDeclaration("x_");

  it("a field with no column and no extras column", () => {
    expect(() => declaredDomain<Names>({ ...base, jobs: { ...base.jobs, extras: undefined } })).toThrow(
      DeclarationError,
    );
    expect(() => declaredDomain<Names>({ ...base, jobs: { ...base.jobs, extras: undefined } })).toThrow(
      /x_p_job.*`description`/,
    );
  });

  it("a word map that leaves an API value without a word", () => {
    const { s_technical: _, ...words } = STAGE_WORDS;
    const stage = { column: "stage", words };
    expect(() => declaredDomain<Names>({ ...base, applications: { ...base.applications, stage } })).toThrow(
      /technical/,
    );
  });

  it("a word for a value the API does not have, a column for a field that does not exist, a table without a company", () => {
    const status = { column: "status", words: { ...STATUS_WORDS, gone: "deleted" } } as never;
    expect(() => declaredDomain<Names>({ ...base, jobs: { ...base.jobs, status } })).toThrow(/"deleted" is no value/);
    const columns = { ...base.jobs.columns, colour: "colour" } as never;
    expect(() => declaredDomain<Names>({ ...base, jobs: { ...base.jobs, columns } })).toThrow(/`colour`/);
    expect(() => declaredDomain<Names>({ ...base, jobs: { ...base.jobs, company: undefined } })).toThrow(
      /no `company` column/,
    );
  });

  it("names are checked against the product's table types", () => {
    interface Product {
      vacancy: {
        id: string;
        org: string;
        name: string;
        state: string;
        secret: number;
        opens: string;
        made: string;
        changed: string;
        blob: string;
      };
      applicant: {
        id: string;
        org: string;
        vacancy: string;
        step: string;
        cv: string | null;
        at: string;
        changed: string;
        gone: string | null;
        blob: string;
        mail: string;
      };
    }
    const jobs = {
      table: "vacancy",
      company: "org",
      status: "state",
      applicationsCount: "computed",
      columns: { title: "name", hidden: "secret", closingDate: "opens", createdAt: "made", updatedAt: "changed" },
      extras: "blob",
    } as const;
    const applications = {
      table: "applicant",
      company: "org",
      job: "vacancy",
      stage: "step",
      columns: { resumeFileId: "cv", appliedAt: "at", updatedAt: "changed", erasedAt: "gone" },
      extras: "blob",
      candidate: { columns: { emailNormalized: "mail" } },
    } as const;
    expect(() =>
      declaredDomain<Product>({ jobs, applications, stageChanges: "hireport", notes: "hireport" }),
    ).not.toThrow();
    const checks = (): void => {
      declaredDomain<Product>({
        jobs: {
          ...jobs,
          // @ts-expect-error: `title` is no column of `vacancy`.
          columns: { ...jobs.columns, title: "title" },
        },
        applications,
        stageChanges: "hireport",
        notes: "hireport",
      });
      declaredDomain<Product>({
        // @ts-expect-error: `candidates` is no table of the product.
        jobs: { ...jobs, table: "candidates" },
        applications,
        stageChanges: "hireport",
        notes: "hireport",
      });
    };
    expect(checks).toBeTypeOf("function");
  });
});
