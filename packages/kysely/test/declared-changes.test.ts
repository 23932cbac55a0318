/**
 * Changes made anywhere become events: the change detector (`api.changes`) over declared tables on
 * SQLite, Postgres (with `pg` and with postgres-js) and MySQL/MariaDB. The product writes its own rows with plain SQL, as its screens
 * and scripts do; the detector announces each change once, with the API's envelopes, never repeats
 * what the API announced itself, merges several edits into one event, and runs from several
 * processes at once without a double event. The generated triggers move the change time of an
 * update that forgot it.
 */
import { randomBytes } from "node:crypto";
import { createPublicApi, type PublicApi } from "@hireport/core";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DomainDeclaration, declaredDomain, installChangeTriggers, kyselyStorage } from "../src/index";
import { toMysqlDateTime } from "../src/values";
import { createDb, openTestDatabase, type TestDatabase, type TestDialect } from "./helpers/databases";
import { createProductTables, dropProductTables, inlineDeclaration, productTables } from "./helpers/product-tables";

// biome-ignore lint/suspicious/noExplicitAny: the product's tables are named at run time (under the test's prefix).
type Names = any;

/** The product's tables as the declared-domain tests declare them, with ids stored whole and hireport's history. */
function declaration(prefix: string): DomainDeclaration<Names> {
  const product = inlineDeclaration(prefix);
  return {
    jobs: { ...product.jobs, ids: "whole" },
    applications: { ...product.applications, ids: "whole" },
    stageChanges: "hireport",
    notes: "hireport",
  } as DomainDeclaration<Names>;
}

const SETUPS: Array<{ dialect: TestDialect; name: string; postgresJs?: boolean }> = [
  { dialect: "sqlite", name: "sqlite" },
  { dialect: "postgres", name: "postgres" },
  { dialect: "postgres", name: "postgres-js", postgresJs: true },
  { dialect: "mysql", name: "mysql" },
];

for (const { dialect, name, postgresJs = false } of SETUPS) {
  describe(`changes made anywhere on ${name}`, () => {
    let opened: TestDatabase | null = null;
    let db: Kysely<Names>;
    let api: PublicApi;
    let t: ReturnType<typeof productTables>;
    const company = `co_${randomBytes(4).toString("hex")}`;
    const time = (date: Date) =>
      dialect === "postgres" ? date : dialect === "mysql" ? toMysqlDateTime(date) : date.toISOString();
    const flag = (value: boolean) => (dialect === "postgres" ? value : Number(value));
    const events = async () =>
      (
        await sql<{ type: string; subject_id: string; payload: string }>`select type, subject_id, payload
          from ${sql.table(`${opened?.prefix}event`)} where company_id = ${company} order by created_at, id`.execute(db)
      ).rows;
    const newApi = (on: Kysely<Names>) =>
      createPublicApi({
        storage: kyselyStorage({
          db: on,
          tablePrefix: opened?.prefix,
          domain: declaredDomain(declaration(opened?.prefix ?? "")),
        }),
        publicBaseUrl: "https://jobs.example.com",
        fileTokenSecret: "x".repeat(32),
        changes: { settleMs: 0, batchSize: 3 },
      });
    /** A job the product's own screen creates. */
    const productJob = async (title: string, at = new Date()) => {
      const id = `job_${randomBytes(8).toString("hex")}`;
      await db
        .insertInto(t.jobs)
        .values({
          id,
          company_id: company,
          title,
          status: "open",
          unlisted: flag(false),
          closes_on: null,
          applications_count: 0,
          data: "{}",
          created_at: time(at),
          updated_at: time(at),
        })
        .execute();
      return id;
    };

    beforeAll(async () => {
      opened = await openTestDatabase(dialect, { postgresJs });
      if (!opened) return;
      db = opened.db;
      t = productTables(opened.prefix);
      await opened.migrate();
      await createProductTables(db, dialect, opened.prefix);
      api = newApi(db);
      await api.companies.upsert({ id: company, name: "Acme" });
      // The first pass starts now: the rows before it are not announced.
      await productJob("Before the detector");
      expect(await api.changes.poll()).toEqual({ jobs: 0, applications: 0 });
    });
    afterAll(async () => {
      if (!opened) return;
      await api.close();
      await dropProductTables(db, opened.prefix);
      await opened.drop();
    });

    it("announces a job the product created, once, with the API's envelope", async () => {
      if (!opened) return;
      const id = await productJob("Welder");
      expect(await api.changes.poll()).toEqual({ jobs: 1, applications: 0 });
      expect(await api.changes.poll()).toEqual({ jobs: 0, applications: 0 });
      const created = (await events()).filter((event) => event.subject_id === id);
      expect(created.map((event) => event.type)).toEqual(["job.created"]);
      const envelope = JSON.parse(created[0]?.payload ?? "{}");
      expect(envelope).toMatchObject({
        type: "job.created",
        company_id: company,
        data: { id, title: "Welder", status: "active" },
      });
    });

    it("never repeats what the API announced itself", async () => {
      if (!opened) return;
      const job = await api.jobs.create(company, { title: "Through the API", status: "active" });
      await api.jobs.update(company, job.id, { title: "Renamed through the API" });
      const before = (await events()).length;
      expect(await api.changes.poll()).toEqual({ jobs: 0, applications: 0 });
      expect((await events()).length).toBe(before);
    });

    it("several edits between two passes are one event with the latest state; a close is job.closed", async () => {
      if (!opened) return;
      const id = await productJob("Baker");
      await api.changes.poll();
      for (const title of ["Baker II", "Baker III"]) {
        await db
          .updateTable(t.jobs)
          .set({ title, updated_at: time(new Date()) })
          .where("id", "=", id)
          .execute();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(await api.changes.poll()).toEqual({ jobs: 1, applications: 0 });
      const updated = (await events()).filter((event) => event.subject_id === id).at(-1);
      expect(updated?.type).toBe("job.updated");
      expect(JSON.parse(updated?.payload ?? "{}").data.title).toBe("Baker III");

      await new Promise((resolve) => setTimeout(resolve, 5));
      await db
        .updateTable(t.jobs)
        .set({ status: "closed", updated_at: time(new Date()) })
        .where("id", "=", id)
        .execute();
      expect(await api.changes.poll()).toEqual({ jobs: 1, applications: 0 });
      expect((await events()).filter((event) => event.subject_id === id).at(-1)?.type).toBe("job.closed");
    });

    it("pages through rows the product changed in one statement with the database's own clock", async () => {
      if (!opened) return;
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push(await productJob(`Same instant ${i}`));
      await api.changes.poll();
      // One statement: every row gets the same time, in Postgres with microseconds.
      const now =
        dialect === "postgres"
          ? sql`now()`
          : dialect === "mysql"
            ? sql`utc_timestamp(3)`
            : sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
      await db.updateTable(t.jobs).set({ status: "paused", updated_at: now }).where("id", "in", ids).execute();
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await api.changes.poll()).toEqual({ jobs: 10, applications: 0 });
      const paused = (await events()).filter((event) => ids.includes(event.subject_id) && event.type === "job.updated");
      expect(paused.map((event) => event.subject_id).sort()).toEqual([...ids].sort());
      expect(await api.changes.poll()).toEqual({ jobs: 0, applications: 0 });
    });

    it("announces applications the product added and moved", async () => {
      if (!opened) return;
      const job = await api.jobs.create(company, { title: "Applied through the product", status: "active" });
      const id = `app_${randomBytes(8).toString("hex")}`;
      const at = new Date();
      await db
        .insertInto(t.applications)
        .values({
          id,
          company_id: company,
          job_id: job.id,
          person_id: null,
          stage: "s_new",
          name: "Ada Lovelace",
          email: "ada@example.com",
          email_key: "ada@example.com",
          tags: "[]",
          cv_file: null,
          data: "{}",
          applied_at: time(at),
          updated_at: time(at),
          erased_at: null,
        })
        .execute();
      expect(await api.changes.poll()).toEqual({ jobs: 0, applications: 1 });
      await new Promise((resolve) => setTimeout(resolve, 5));
      await db
        .updateTable(t.applications)
        .set({ stage: "s_interview", updated_at: time(new Date()) })
        .where("id", "=", id)
        .execute();
      expect(await api.changes.poll()).toEqual({ jobs: 0, applications: 1 });
      const mine = (await events()).filter((event) => event.subject_id === id);
      expect(mine.map((event) => event.type)).toEqual(["application.created", "application.updated"]);
      expect(JSON.parse(mine[1]?.payload ?? "{}").data).toMatchObject({
        id,
        stage: "interview",
        job_title: "Applied through the product",
      });
    });

    // SQLite's writers take turns on the database's one write lock (`BEGIN IMMEDIATE`); three of its
    // connections cannot be tried in one process, where better-sqlite3's wait for the lock blocks
    // the event loop that would release it.
    it.skipIf(dialect === "sqlite")(
      "detectors in three processes at once announce each change exactly once",
      async () => {
        if (!opened) return;
        const others = [
          await createDb(dialect, { sqliteFile: opened.sqliteFile, postgresJs }),
          await createDb(dialect, { sqliteFile: opened.sqliteFile, postgresJs }),
        ];
        const apis = [api, ...others.map(newApi)];
        try {
          // Three rounds: the product writes ten jobs, then every detector polls at once.
          for (let round = 0; round < 3; round++) {
            const ids: string[] = [];
            for (let i = 0; i < 10; i++) ids.push(await productJob(`Parallel ${round}.${i}`));
            const results = await Promise.all(apis.map((each) => each.changes.poll()));
            expect(results.reduce((sum, result) => sum + result.jobs, 0)).toBe(10);
            const announced = (await events()).filter((event) => ids.includes(event.subject_id));
            expect(announced.map((event) => event.subject_id).sort()).toEqual([...ids].sort());
          }
        } finally {
          for (const each of apis.slice(1)) await each.close();
          for (const other of others) await other.destroy();
        }
      },
    );

    it("with the generated triggers, an update that forgets the change time is still announced, and moves updated_at", async () => {
      if (!opened) return;
      await installChangeTriggers(db, declaredDomain(declaration(opened.prefix)));
      await installChangeTriggers(db, declaredDomain(declaration(opened.prefix)));
      const id = await productJob("Forgetful");
      await api.changes.poll();
      const before = (await api.jobs.get(company, id)).updatedAt;
      await new Promise((resolve) => setTimeout(resolve, 20));
      await db.updateTable(t.jobs).set({ title: "Forgetful, renamed" }).where("id", "=", id).execute();
      const after = (await api.jobs.get(company, id)).updatedAt;
      expect(after.getTime()).toBeGreaterThan(before.getTime());
      expect(await api.changes.poll()).toEqual({ jobs: 1, applications: 0 });
      // hireport's own `+ 1` of the count is no change of the job.
      const job = await api.jobs.create(company, { title: "Counted", status: "active" });
      await api.changes.poll();
      await api.applications.create(company, {
        job_id: job.id,
        candidate: { name: "Grace", email: "grace@example.com" },
      } as never);
      expect((await api.jobs.get(company, job.id)).updatedAt).toEqual(job.updatedAt);
      expect(await api.changes.poll()).toEqual({ jobs: 0, applications: 0 });
    });
  });
}
