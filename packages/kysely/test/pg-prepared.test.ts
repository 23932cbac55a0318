/**
 * Named prepared statements on a pool readied by `hardenPgPool`: the statements hireport compiles
 * once per shape run as named statements (Postgres keeps them per connection), every other query
 * as before; with `preparedStatements: false` nothing is prepared.
 */
import { randomBytes } from "node:crypto";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PREPARED_MARK, runCompiled } from "../src/compiled-queries";
import { createContext } from "../src/context";
import { postgresStrategy } from "../src/dialects/postgres";
import { hardenPgPool, migrateToLatest } from "../src/index";
import { prepareMarkedStatements, statementNames, utcTimestampMs } from "../src/pg-prepared";
import type { HireportDatabase } from "../src/schema";
import { kyselyWebhookStorage } from "../src/webhooks";
import { type AnyDb, connectOrSkip, PG_URL, randomPrefix, sqliteFileFor, withOwnPrefix } from "./helpers/databases";
import * as make from "./helpers/records";

const db = await connectOrSkip("postgres", { sqliteFile: sqliteFileFor(randomPrefix()) });
const quiet = { warn: () => {} };

/** A Kysely on a one-connection pool, so every query below runs on the same session. */
function oneConnection(preparedStatements?: boolean) {
  const pool = hardenPgPool(
    new pg.Pool({ connectionString: PG_URL, max: 1 }),
    preparedStatements === undefined ? quiet : { logger: quiet, preparedStatements },
  );
  return new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
}

/** A store context on `on`, for statements of the tests' own. */
const postgresContext = (on: Kysely<unknown> | Kysely<HireportDatabase>) =>
  createContext({ db: on as never, strategy: postgresStrategy, tablePrefix: "", asyncRateLimitCommit: false });

/** The statements this session has prepared. */
async function prepared(on: Kysely<unknown>): Promise<{ name: string; statement: string }[]> {
  const { rows } = await sql<{ name: string; statement: string }>`
    select name, statement from pg_prepared_statements order by name`.execute(on);
  return rows;
}

describe.skipIf(!db)("named prepared statements (hardenPgPool)", () => {
  afterAll(async () => {
    await (db as AnyDb).destroy();
  });

  it("runs the storage's hot reads as named statements, prepared once per connection, with the right rows", async () => {
    await withOwnPrefix(db as AnyDb, randomPrefix(), async (tablePrefix) => {
      const on = oneConnection();
      try {
        expect((await migrateToLatest(on, { tablePrefix })).error).toBeUndefined();
        const storage = kyselyWebhookStorage({ db: on, tablePrefix });
        expect(await storage.jobs.list({ companyId: "nobody", take: 26 })).toEqual([]);
        expect(await storage.jobs.list({ companyId: "someone else", take: 26 })).toEqual([]);
        expect(await storage.jobs.list({ companyId: "nobody", take: 3 })).toEqual([]);
        expect(await storage.keys.findByHash("no such hash")).toBeNull();
        const statements = await prepared(on);
        // One statement per shape: two lists of one page size share one, whatever the company; the
        // page size is part of the text (see the generic-plan test below), so 3 has its own.
        const marked = statements.filter((row) => row.statement.startsWith(PREPARED_MARK));
        expect(marked).toHaveLength(3);
        expect(marked.every((row) => /^hireport_[0-9a-f]{24}_0$/.test(row.name))).toBe(true);
        const lists = marked.filter((row) => row.statement.includes(`"${tablePrefix}job"`));
        expect(lists.map((row) => /limit (\d+)$/.exec(row.statement)?.[1]).sort()).toEqual(["26", "3"]);
        expect(marked.some((row) => row.statement.includes(`"${tablePrefix}api_key"`))).toBe(true);
        // Only hireport's marked statements: the migrations and this query are not prepared.
        expect(statements).toHaveLength(3);
      } finally {
        await on.destroy();
      }
    });
  });

  it("plans a page of applications once per connection (a generic plan), and every updated_since page for its values", async () => {
    await withOwnPrefix(db as AnyDb, randomPrefix(), async (tablePrefix) => {
      const on = oneConnection();
      try {
        expect((await migrateToLatest(on, { tablePrefix })).error).toBeUndefined();
        const t = (name: string) => sql.table(`${tablePrefix}${name}`);
        // Enough rows that a LIMIT of unknown size makes a generic plan look worse than a custom
        // one (5,000 applications of one company, each joined to its job).
        await sql`insert into ${t("job")} (id, company_id, reference, title, description, short_description,
            department, location, employment_type, experience_level, salary_currency, salary_period,
            required_skills, preferred_skills, qualifications, responsibilities, benefits, status, hidden,
            created_at, updated_at, questions)
          values ('job_plan', 'co_plan', 'JOB-1', 'Engineer', '', '', '', '', '', '', 'GBP', 'year',
            '[]', '[]', '[]', '[]', '[]', 'active', false, now(), now(), '[]')`.execute(on);
        await sql`insert into ${t("application")} (id, company_id, job_id, reference, candidate_name,
            candidate_email, candidate_phone, candidate_location, candidate_linkedin_url,
            candidate_current_title, candidate_skills, email_normalized, cover_letter, source, consent,
            stage, ai_match, tags, starred, applied_at, updated_at, answers, knocked_out)
          select 'app_plan_' || n, 'co_plan', 'job_plan', 'APP-' || n, 'Candidate ' || n, 'c' || n || '@example.com',
            '', '', '', '', '[]', 'c' || n || '@example.com', '', 'api', true, 'new', 0, '[]', false,
            now() - n * interval '1 second', now(), '[]', false
          from generate_series(1, 5000) as n`.execute(on);
        await sql`analyze ${t("application")}`.execute(on);
        await sql`analyze ${t("job")}`.execute(on);
        const storage = kyselyWebhookStorage({ db: on, tablePrefix });
        for (let i = 0; i < 8; i += 1) {
          const page = await storage.applications.list({ companyId: "co_plan", take: 26 });
          expect(page.map((application) => application.id)).toEqual(
            Array.from({ length: 26 }, (_, n) => `app_plan_${n + 1}`),
          );
          const since = await storage.applications.list({
            companyId: "co_plan",
            take: 26,
            updatedSince: new Date(Date.now() - 86_400_000),
          });
          expect(since).toHaveLength(26);
        }
        const { rows } = await sql<{ statement: string; generic_plans: number; custom_plans: number }>`
          select statement, generic_plans::int, custom_plans::int from pg_prepared_statements
          where statement like ${`%"${tablePrefix}application"%`}`.execute(on);
        const page = rows.find((row) => !row.statement.includes('updated_at" >='));
        const sinceRow = rows.find((row) => row.statement.includes('updated_at" >='));
        // Postgres plans a prepared statement for its values five times, then keeps a generic plan
        // when it costs no more: the page (size in its text) does; the updated_since page, whose
        // index depends on the date, keeps its LIMIT a parameter and is planned on every run.
        expect(page?.statement).toMatch(/limit 26$/);
        expect(page?.generic_plans).toBeGreaterThan(0);
        expect(sinceRow?.statement).toMatch(/limit \$\d+$/);
      } finally {
        await on.destroy();
      }
    });
  });

  it("plans the webhook claim once per connection (a generic plan), not on every claim", async () => {
    await withOwnPrefix(db as AnyDb, randomPrefix(), async (tablePrefix) => {
      const on = oneConnection();
      try {
        expect((await migrateToLatest(on, { tablePrefix })).error).toBeUndefined();
        const storage = kyselyWebhookStorage({ db: on, tablePrefix });
        const co = await make.addCompany(storage);
        const endpoints = [make.endpoint(co.id), make.endpoint(co.id)];
        for (const endpoint of endpoints) await storage.webhooks.insertEndpoint(endpoint);
        const ev = make.event(co.id);
        await storage.events.append(ev);
        const at = (i: number) => new Date(Date.UTC(2020, 0, 1) + i * 1000);
        // Enough pending deliveries that a plan for the values (which knows the limits) looks
        // cheaper than a generic one (which does not), as with a dispatcher's backlog.
        const deliveries = Array.from({ length: 8000 }, (_, i) =>
          make.delivery(ev, endpoints[i % 2]?.id ?? "", { nextAttemptAt: at(i), createdAt: at(i) }),
        );
        for (let i = 0; i < deliveries.length; i += 1000) {
          await storage.webhooks.insertDeliveries(deliveries.slice(i, i + 1000));
        }
        await sql`analyze ${sql.table(`${tablePrefix}webhook_delivery`)}`.execute(on);
        const claimedIds: string[] = [];
        // Claims of different sizes and shares, as a dispatcher makes them.
        for (let i = 0; i < 10; i += 1) {
          const now = at(1000);
          const claimed = await storage.webhooks.claimDueDeliveries({
            now,
            limit: 3 + i,
            maxPerEndpoint: 2 + i,
            leaseUntil: new Date(now.getTime() + 60_000),
            leaseToken: `tok_${i}`,
          });
          expect(claimed).toHaveLength(3 + i);
          claimedIds.push(...claimed.map((item) => item.delivery.id));
        }
        // The first due, each once.
        expect(claimedIds.sort()).toEqual(
          deliveries
            .slice(0, claimedIds.length)
            .map((delivery) => delivery.id)
            .sort(),
        );
        const { rows } = await sql<{ generic_plans: number; custom_plans: number }>`
          select generic_plans::int, custom_plans::int from pg_prepared_statements
          where statement like ${"%with due as%"}`.execute(on);
        // Planned for its values five times, then the generic plan on every later claim.
        expect(rows).toEqual([{ generic_plans: 5, custom_plans: 5 }]);
      } finally {
        await on.destroy();
      }
    });
  });

  it("prepares nothing with preparedStatements: false", async () => {
    await withOwnPrefix(db as AnyDb, randomPrefix(), async (tablePrefix) => {
      const on = oneConnection(false);
      try {
        expect((await migrateToLatest(on, { tablePrefix })).error).toBeUndefined();
        const storage = kyselyWebhookStorage({ db: on, tablePrefix });
        expect(await storage.jobs.list({ companyId: "nobody", take: 26 })).toEqual([]);
        expect(await prepared(on)).toEqual([]);
      } finally {
        await on.destroy();
      }
    });
  });

  it("renames and runs again a statement whose plan no longer fits after its table changed", async () => {
    const table = `hireport_prepared_${randomBytes(4).toString("hex")}`;
    const on = oneConnection();
    try {
      await sql`create table ${sql.table(table)} (v integer)`.execute(on);
      await sql`insert into ${sql.table(table)} values (1)`.execute(on);
      const ctx = postgresContext(on);
      const read = () =>
        runCompiled(
          ctx,
          "test.read",
          { limit: 5 },
          (p) => sql<{ v: unknown }>`select v from ${sql.table(table)} limit ${p.limit}`,
        );
      expect(await read()).toEqual([{ v: 1 }]);
      const [first] = await prepared(on);
      expect(first?.name).toMatch(/_0$/);
      // Postgres refuses to reuse the plan: "cached plan must not change result type".
      await sql`alter table ${sql.table(table)} alter column v type text`.execute(on);
      expect(await read()).toEqual([{ v: "1" }]);
      expect((await prepared(on)).map((row) => row.name.slice(-2))).toEqual(["_0", "_1"]);
    } finally {
      await sql`drop table if exists ${sql.table(table)}`.execute(on);
      await on.destroy();
    }
  });
});

describe.skipIf(!db)("timestamptz read on the fast path", () => {
  it("reads every instant as node-postgres's own parser does, through a marked statement", async () => {
    const on = oneConnection();
    try {
      const ctx = postgresContext(on);
      // Instants across the years, with every fraction length Postgres writes (0 to 6 digits), the
      // epoch, a leap day, BC and infinity (the last two left to node-postgres's parser).
      const texts = [
        "1970-01-01 00:00:00+00",
        "2024-02-29 23:59:59.999+00",
        "0044-03-15 12:00:00+00 BC",
        "infinity",
        "-infinity",
        "0099-12-31 23:59:59.5+00",
        ...Array.from({ length: 400 }, (_, i) => {
          const at = Math.floor(Math.random() * 250_000_000_000_000) - 30_000_000_000_000 + i;
          const micros = Math.floor(Math.random() * 1_000_000);
          return `${new Date(at).toISOString().slice(0, 19).replace("T", " ")}.${String(micros).padStart(6, "0")}+00`;
        }),
      ];
      const read = (marked: boolean) =>
        marked
          ? runCompiled(
              ctx,
              "test.times",
              { texts },
              (p) => sql<{ t: unknown }>`select unnest(${p.texts}::timestamptz[]) as t`,
            )
          : sql<{ t: unknown }>`select unnest(${texts}::timestamptz[]) as t`.execute(on).then((result) => result.rows);
      const fast = await read(true);
      const general = await read(false);
      expect(fast).toHaveLength(texts.length);
      // The same instants, and the same kinds of value (Dates, and what the parser makes of infinity).
      const instant = (value: unknown) => (value instanceof Date ? value.getTime() : value);
      expect(fast.map((row) => instant(row.t))).toEqual(general.map((row) => instant(row.t)));
      expect(fast.filter((row) => row.t instanceof Date)).toHaveLength(texts.length - 2);
    } finally {
      await on.destroy();
    }
  });

  it("keeps a host's own timestamptz parser", async () => {
    const pool = hardenPgPool(
      new pg.Pool({
        connectionString: PG_URL,
        max: 1,
        types: {
          getTypeParser: (oid: number, format?: string) =>
            oid === 1184 ? (text: string) => `host:${text}` : pg.types.getTypeParser(oid, format as "text"),
        } as never,
      }),
      quiet,
    );
    const on = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    try {
      const ctx = postgresContext(on);
      const rows = await runCompiled(
        ctx,
        "test.host-parser",
        { text: "2026-11-27 10:00:00+00" },
        (p) => sql<{ t: unknown }>`select ${p.text}::timestamptz as t`,
      );
      expect(rows).toEqual([{ t: "host:2026-11-27 10:00:00+00" }]);
    } finally {
      await on.destroy();
    }
  });

  it("counts the days of every date from 1600 to 2400 as Date.UTC does (leap years and centuries)", () => {
    const wrong: string[] = [];
    let checked = 0;
    for (let at = Date.UTC(1600, 0, 1); at < Date.UTC(2400, 11, 31); at += 86_400_000 + 3_723_001) {
      const text = `${new Date(at).toISOString().slice(0, 23).replace("T", " ")}+00`;
      if (utcTimestampMs(text) !== at) wrong.push(text);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(280_000);
    expect(wrong).toEqual([]);
  });

  it("leaves a text it does not know to the general parser", () => {
    expect(utcTimestampMs("2026-11-27 10:00:00.123+00")).toBe(Date.UTC(2026, 10, 27, 10, 0, 0, 123));
    expect(utcTimestampMs("2026-11-27 10:00:00+00")).toBe(Date.UTC(2026, 10, 27, 10, 0, 0));
    expect(utcTimestampMs("2026-11-27 10:00:00.1+00")).toBe(Date.UTC(2026, 10, 27, 10, 0, 0, 100));
    for (const other of [
      "2026-11-27 10:00:00+01",
      "2026-11-27 10:00:00.123+05:30",
      "infinity",
      "0044-03-15 12:00:00+00 BC",
      "0099-01-01 00:00:00+00",
      "12026-11-27 10:00:00+00",
    ]) {
      expect(utcTimestampMs(other)).toBeNaN();
    }
  });
});

describe("statements compiled once per shape", () => {
  it("refuses a statement that does not take each argument as a parameter", async () => {
    const ctx = postgresContext(new Kysely<HireportDatabase>({ dialect: postgresStrategy.compileOnly() }));
    await expect(runCompiled(ctx, "test.lost", { a: 1, b: 2 }, (p) => sql`select ${p.a}`)).rejects.toThrow(
      "the arguments b are not parameters",
    );
  });
});

describe("the query config of a marked statement", () => {
  it("holds only its values, and inherits name, text and types from one base per statement", async () => {
    const configs: Record<string, unknown>[] = [];
    const client = {
      query: async (config: Record<string, unknown>) => {
        configs.push(config);
        return { rows: [] };
      },
      getTypeParser: pg.types.getTypeParser,
    };
    prepareMarkedStatements(client, statementNames());
    const run = client.query as unknown as (text: string, values: unknown[]) => Promise<unknown>;
    await run(`${PREPARED_MARK}select $1`, [1]);
    await run(`${PREPARED_MARK}select $1`, [2]);
    await run(`${PREPARED_MARK}select $1 + 1`, [3]);
    const [first, second, other] = configs as [
      Record<string, unknown>,
      Record<string, unknown>,
      Record<string, unknown>,
    ];
    // node-postgres copies a config through its own property descriptors: one, not four.
    expect(Object.keys(first)).toEqual(["values"]);
    expect(first.values).toEqual([1]);
    expect(second.values).toEqual([2]);
    expect(first.text).toBe(`${PREPARED_MARK}select $1`);
    expect(String(first.name)).toMatch(/^hireport_[0-9a-f]{24}_0$/);
    expect(typeof (first.types as { getTypeParser?: unknown }).getTypeParser).toBe("function");
    expect(Object.getPrototypeOf(first)).toBe(Object.getPrototypeOf(second));
    expect(other.name).not.toBe(first.name);
    expect(other.text).toBe(`${PREPARED_MARK}select $1 + 1`);
  });
});
