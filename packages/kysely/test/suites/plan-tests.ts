/**
 * Keyset paging reads an index in order: the plan of a deep page has no sort step and no OFFSET,
 * so a page a million rows deep costs what the first page costs. Checked with the database's own
 * EXPLAIN on the exact SQL the stores run.
 */
import type { Storage } from "@hireport/core";
import { ERASED_CANDIDATE, type NewApplication } from "@hireport/core/storage";
import { CompiledQuery, Kysely, type LogEvent, PostgresDialect } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { StoreContext } from "../../src/context";
import { applicationRow } from "../../src/stores/generated/application-rows";
import { kyselyWebhookStorage } from "../../src/webhooks";
import { type AnyDb, PG_URL, type TestDialect } from "../helpers/databases";
import * as make from "../helpers/records";

export function definePlanTests(options: {
  dialect: TestDialect;
  db: () => AnyDb;
  storage: () => Storage;
  prefix: string;
  lastQuery: () => LogEvent["query"] | undefined;
  /** Every query run so far, oldest first. */
  queries: () => readonly LogEvent["query"][];
}): void {
  const { dialect, prefix, queries } = options;

  async function plan(query: LogEvent["query"], priceOutSorts = true): Promise<string> {
    const explain = dialect === "sqlite" ? "explain query plan " : "explain ";
    const compiled = CompiledQuery.raw(`${explain}${query.sql}`, [...query.parameters]);
    // Postgres: on tables this small a sort can be cheaper than an index scan; what is checked is
    // that an index serves the page order and the keyset bound, so sorting is priced out.
    const result =
      dialect === "postgres" && priceOutSorts
        ? await options
            .db()
            .transaction()
            .execute(async (trx) => {
              await trx.executeQuery(CompiledQuery.raw("set local enable_sort = off"));
              return trx.executeQuery(compiled);
            })
        : await options.db().executeQuery(compiled);
    return dialect === "mysql"
      ? JSON.stringify(result.rows)
      : result.rows.map((row) => Object.values(row as Record<string, unknown>).join(" ")).join("\n");
  }

  function expectIndexRange(text: string): void {
    if (process.env.HIREPORT_PRINT_PLANS) console.log(text);
    if (dialect === "postgres") {
      expect(text).not.toMatch(/Sort/);
      expect(text).toMatch(/Index Cond: .*(applied_at|created_at) <=/);
    }
    if (dialect === "sqlite") {
      expect(text).not.toMatch(/TEMP B-TREE/i);
      expect(text).toMatch(/USING INDEX \S+ \([^)]*(applied_at|created_at)</);
    }
    if (dialect === "mysql") {
      expect(text).not.toMatch(/filesort/i);
      expect(text).toMatch(/"type":"range"/);
    }
  }

  /** What the row mapping needs of a store context: this dialect's booleans and times. */
  const rowValues = {
    bool: (value: boolean | null) => (value === null || dialect === "postgres" ? value : Number(value)),
    toDb: (date: Date | null) =>
      date === null
        ? null
        : dialect === "mysql"
          ? date.toISOString().replace("T", " ").slice(0, 23)
          : date.toISOString(),
  } as unknown as StoreContext;

  /** An application as a raw row of the dialect (bulk inserts that skip the storage), small. */
  function rawApplication(app: NewApplication, i: number, appliedAt: Date, updatedAt: Date) {
    return applicationRow(rowValues, {
      ...app,
      reference: `APP-${i}`,
      candidate: { ...ERASED_CANDIDATE, name: "x", email: app.candidate.email, skills: [] },
      coverLetter: "",
      resumeSourceUrl: null,
      resumeFileId: null,
      source: "api",
      aiMatch: 1,
      answers: [],
      knockedOut: false,
      appliedAt,
      updatedAt,
    });
  }

  async function insertRaw(rows: readonly Record<string, unknown>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 500) {
      await options
        .db()
        .insertInto(`${prefix}application`)
        .values(rows.slice(i, i + 500))
        .execute();
    }
  }

  async function analyze(): Promise<void> {
    const db = options.db();
    if (dialect === "mysql") {
      await db.executeQuery(CompiledQuery.raw(`analyze table ${prefix}application, ${prefix}job`));
    } else {
      await db.executeQuery(CompiledQuery.raw("analyze"));
    }
  }

  /** MySQL: index entries read by the statements `fn` runs on one connection (Handler_read_*). */
  async function handlerReads(conn: AnyDb, fn: () => Promise<unknown>): Promise<number> {
    const read = async () => {
      const { rows } = await conn.executeQuery<{ Variable_name: string; Value: string }>(
        CompiledQuery.raw("show session status like 'Handler_read%'"),
      );
      return rows.reduce((sum, row) => sum + (/_(next|prev)$/.test(row.Variable_name) ? Number(row.Value) : 0), 0);
    };
    const before = await read();
    await fn();
    return (await read()) - before;
  }

  describe("query plans of deep pages", () => {
    it("reads jobs and applications through an index in page order, with and without filters", async () => {
      const db = options.db();
      const storage = options.storage();
      const co = await make.addCompany(storage);
      const jobs = [make.job(co.id), make.job(co.id, { status: "closed" })];
      for (const job of jobs) await storage.jobs.insert(job);
      const base = Date.UTC(2025, 0, 1);
      // Updates far from every other test's data: the planner's estimate for updated_since is then
      // about this company alone.
      const later = Date.UTC(2031, 0, 1);
      const rows = Array.from({ length: 4000 }, (_, i) =>
        rawApplication(
          make.application(co.id, (jobs[i % 2] as (typeof jobs)[number]).id, { stage: i % 7 === 0 ? "hired" : "new" }),
          i,
          new Date(base + i * 1000),
          new Date(later + i * 1000),
        ),
      );
      await insertRaw(rows);
      for (let i = 0; i < 300; i += 1) {
        await storage.jobs.insert(
          make.job(co.id, { createdAt: new Date(base + i * 1000), status: i % 3 ? "active" : "draft" }),
        );
      }
      await analyze();

      const deep = { at: new Date(base + 1000 * 1000), id: "app_zzzz" };
      const jobId = (jobs[0] as (typeof jobs)[number]).id;
      const cases: ((s: Storage) => Promise<unknown>)[] = [
        (s) => s.applications.list({ companyId: co.id, after: deep, take: 26 }),
        (s) => s.applications.list({ companyId: co.id, jobId, after: deep, take: 26 }),
        (s) => s.applications.list({ companyId: co.id, stage: "hired", after: deep, take: 26 }),
        (s) => s.jobs.list({ companyId: co.id, after: { at: new Date(base + 200_000), id: "job_z" }, take: 26 }),
        (s) =>
          s.jobs.list({
            companyId: co.id,
            statuses: ["draft"],
            after: { at: new Date(base + 200_000), id: "job_z" },
            take: 26,
          }),
      ];
      for (const run of cases) {
        await run(storage);
        const query = options.lastQuery();
        expect(query?.sql.toLowerCase()).not.toContain("offset");
        expectIndexRange(await plan(query as LogEvent["query"]));
      }
      // Polling with updated_since near now (docs/api-reference.md, Paging and sync): the few changed rows are found by
      // the (company_id, updated_at) index, not by walking the whole company.
      await storage.applications.list({ companyId: co.id, updatedSince: new Date(later + 3990 * 1000), take: 26 });
      expect(await plan(options.lastQuery() as LogEvent["query"], false)).toMatch(/application_company_updated/);
      if (dialect === "mysql") {
        // The pages above start 3,000 rows (applications) and 100 rows (jobs) deep: a scan that
        // skipped to its position reads about one page of index entries, not everything before it.
        await db.connection().execute(async (conn) => {
          const onOneConnection = kyselyWebhookStorage({ db: conn, tablePrefix: prefix });
          for (const run of cases) expect(await handlerReads(conn, () => run(onOneConnection))).toBeLessThan(200);
        });
      }
    }, 60_000);

    // Postgres checks inside `create_application`: the test after this one reads that plan.
    it.skipIf(dialect === "postgres")(
      "checks for a duplicate through the duplicate index alone, also when statistics think the company has none",
      async () => {
        const storage = options.storage();
        const co = await make.addCompany(storage);
        const job = make.job(co.id);
        await storage.jobs.insert(job);
        // Statistics taken while the company has nothing; then 3,000 applications arrive in the
        // duplicate window (a new customer's first campaign).
        await analyze();
        const now = Date.now();
        const apps = Array.from({ length: 3000 }, () => make.application(co.id, job.id));
        await insertRaw(apps.map((app, i) => rawApplication(app, i, new Date(now - i * 1000), new Date(now))));
        const seen = queries().length;
        const again = make.application(co.id, job.id, {
          emailNormalized: (apps[10] as NewApplication).emailNormalized,
        });
        const result = await make.createApplication(storage, again, new Date(now - 30 * 86_400_000));
        expect(result).toEqual({ outcome: "duplicate", existingId: (apps[10] as NewApplication).id });
        // The check: a select of its own, after the job's row lock.
        const checks = queries()
          .slice(seen)
          .filter((query) => query.sql.includes("email_normalized") && /^\s*select/i.test(query.sql));
        expect(checks.length).toBeGreaterThan(0);
        for (const check of checks) {
          // It filters on the duplicate index's columns only: with a `company_id` condition too, the
          // (company_id, applied_at) index also serves it, and a planner whose statistics still see
          // no applications for the company may pick that one and read all 3,000 (seen on Postgres
          // with a million applications of another company in the table).
          const where = check.sql
            .split(/ where /i)
            .slice(1)
            .join(" where ");
          expect(where).toMatch(/job_id/);
          expect(where).not.toMatch(/company_id/);
          const text = await plan(check, false);
          if (process.env.HIREPORT_PRINT_PLANS) console.log(text);
          expect(text).toMatch(/application_duplicate/);
        }
      },
      60_000,
    );

    it.skipIf(dialect !== "postgres")(
      "create_application checks for a duplicate through the duplicate index, with the generic plan PL/pgSQL keeps",
      async () => {
        const storage = options.storage();
        const co = await make.addCompany(storage);
        const job = make.job(co.id, { title: "Welder" });
        await storage.jobs.insert(job);
        await analyze();
        const now = Date.now();
        const apps = Array.from({ length: 3000 }, () => make.application(co.id, job.id));
        await insertRaw(apps.map((app, i) => rawApplication(app, i, new Date(now - i * 1000), new Date(now))));
        const earlier = apps[10] as NewApplication;
        const input = make.newApplicationWrite(co.id, job);
        input.record = { ...input.record, emailNormalized: earlier.emailNormalized };
        input.duplicateSince = new Date(now - 30 * 86_400_000);
        // One session whose plans auto_explain sends back as notices, nested statements included,
        // with the generic plan from the first call (PL/pgSQL settles on it after five calls).
        const notices: string[] = [];
        const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
        pool.on("connect", (client) => client.on("notice", (notice) => notices.push(notice.message ?? "")));
        const session = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
        try {
          for (const setting of [
            "load 'auto_explain'",
            "set auto_explain.log_min_duration = 0",
            "set auto_explain.log_nested_statements = on",
            "set plan_cache_mode = force_generic_plan",
            "set client_min_messages = log",
          ]) {
            await session.executeQuery(CompiledQuery.raw(setting));
          }
          const onSession = kyselyWebhookStorage({ db: session, tablePrefix: prefix });
          expect(await onSession.applications.create(input)).toEqual({
            outcome: "duplicate",
            existingId: earlier.id,
          });
        } finally {
          await session.destroy();
        }
        const check = notices.find(
          (text) => /Query Text: select a\.id/.test(text) && text.includes("email_normalized"),
        );
        if (process.env.HIREPORT_PRINT_PLANS) console.log(notices.join("\n\n"));
        expect(check, notices.join("\n\n")).toMatch(/application_duplicate/);
      },
      60_000,
    );
  });

  describe("query plan of a claim", () => {
    it.skipIf(dialect !== "postgres")(
      "walks the pending deliveries alone, along the due_pending index, never the finished ones",
      async () => {
        const storage = kyselyWebhookStorage({ db: options.db(), tablePrefix: prefix });
        const co = await make.addCompany(storage);
        const endpoint = make.endpoint(co.id);
        await storage.webhooks.insertEndpoint(endpoint);
        const ev = make.event(co.id);
        await storage.events.append(ev);
        // 2,000 finished deliveries, then 20 pending; due before every other test's deliveries.
        const at = (i: number) => new Date(Date.UTC(2018, 0, 1) + i * 1000);
        const deliveries = Array.from({ length: 2020 }, (_, i) =>
          make.delivery(ev, endpoint.id, {
            status: i < 2000 ? "succeeded" : "pending",
            nextAttemptAt: i < 2000 ? null : at(i),
            createdAt: at(i),
          }),
        );
        for (let i = 0; i < deliveries.length; i += 500) {
          await storage.webhooks.insertDeliveries(deliveries.slice(i, i + 500));
        }
        await options.db().executeQuery(CompiledQuery.raw("analyze"));
        const now = at(3000);
        const claimed = await storage.webhooks.claimDueDeliveries({
          now,
          limit: 5,
          leaseUntil: new Date(now.getTime() + 30_000),
          leaseToken: "tok_plan",
        });
        expect(claimed.map((c) => c.delivery.id)).toEqual(deliveries.slice(2000, 2005).map((d) => d.id));
        const claim = queries().findLast((query) => query.sql.includes("with due as"));
        expect(claim).toBeDefined();
        const claimPlan = await plan(claim as LogEvent["query"], false);
        if (process.env.HIREPORT_PRINT_PLANS) console.log(claimPlan);
        expect(claimPlan).toMatch(/Index Scan using \S*webhook_delivery_due_pending/);
        expect(await storage.webhooks.dueDeliveryStats({ now, countLimit: 100 })).toMatchObject({ due: 15 });
        const count = queries().findLast((query) => query.sql.includes("count("));
        const countPlan = await plan(count as LogEvent["query"], false);
        if (process.env.HIREPORT_PRINT_PLANS) console.log(countPlan);
        expect(countPlan).toMatch(/webhook_delivery_due_pending/);
        // Gone with its deliveries: the tests after this one claim no leftover of it.
        expect(await storage.webhooks.deleteEndpoint(co.id, endpoint.id)).toBe(true);
      },
      60_000,
    );
  });

  describe("query plan of an endpoint's attempt statistics", () => {
    it("sums the attempts of a day through the (endpoint_id, attempted_at) index, a range read", async () => {
      const storage = kyselyWebhookStorage({ db: options.db(), tablePrefix: prefix });
      const co = await make.addCompany(storage);
      const endpoint = make.endpoint(co.id);
      await storage.webhooks.insertEndpoint(endpoint);
      // 30 days of attempts, one every 15 minutes: a day is a thirtieth of them.
      const start = Date.UTC(2024, 5, 1);
      const at = (ms: number) =>
        dialect === "mysql" ? new Date(ms).toISOString().replace("T", " ").slice(0, 23) : new Date(ms).toISOString();
      const rows = Array.from({ length: 30 * 96 }, (_, i) => ({
        id: `att_plan_${endpoint.id}_${i}`,
        delivery_id: `dlv_plan_${i}`,
        endpoint_id: endpoint.id,
        attempted_at: at(start + i * 15 * 60_000),
        status_code: 200,
        duration_ms: 100,
        response_body: "",
        error: null,
        succeeded: dialect === "postgres" ? true : 1,
      }));
      for (let i = 0; i < rows.length; i += 500) {
        await options
          .db()
          .insertInto(`${prefix}webhook_attempt`)
          .values(rows.slice(i, i + 500))
          .execute();
      }
      await options
        .db()
        .executeQuery(CompiledQuery.raw(dialect === "mysql" ? `analyze table ${prefix}webhook_attempt` : "analyze"));
      const since = new Date(start + 10 * 86_400_000);
      const stats = await storage.webhooks.attemptStats({
        companyId: co.id,
        endpointId: endpoint.id,
        since,
        bucketMs: 3_600_000,
        buckets: 24,
      });
      expect(stats).toHaveLength(24);
      expect(stats.every((bucket) => bucket.attempts === 4)).toBe(true);
      const text = await plan(options.lastQuery() as LogEvent["query"], false);
      if (process.env.HIREPORT_PRINT_PLANS) console.log(text);
      expect(text).toMatch(/webhook_attempt_endpoint_attempted/);
      if (dialect === "postgres") expect(text).toMatch(/Index Cond: .*attempted_at >=/);
      if (dialect === "sqlite") expect(text).toMatch(/USING (COVERING )?INDEX \S+ \([^)]*attempted_at>/);
      if (dialect === "mysql") expect(text).toMatch(/"type":"range"/);
    }, 60_000);
  });
}
