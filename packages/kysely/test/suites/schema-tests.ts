/**
 * The schema: the migrations, the SQL printer, the tables against `schema.ts`, and on Postgres the
 * routines beside the migration (their names, their installation, and tests that fail when their
 * SQL drifts from core or from the tables).
 */

import { deliveryId } from "@hireport/core/extend";
import { field } from "@hireport/core/storage";
import { CompiledQuery, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { deliveryIdSql, fanOutValues, insertedColumns } from "../../src/dialects/postgres/routine-sql";
import { routinesOf } from "../../src/dialects/postgres/routines";
import {
  createHireportMigrator,
  hireportMigrations,
  installRoutines,
  kyselyStorage,
  migrateToLatest,
  migrationSql,
  TABLE_NAMES,
} from "../../src/index";
import { addFieldColumnMigration } from "../../src/migrations/add-field-column";
import { COLUMNS } from "../../src/schema";
import { readBool } from "../../src/values";
import { kyselyWebhookStorage } from "../../src/webhooks";
import { type AnyDb, randomPrefix, withOwnPrefix } from "../helpers/databases";
import * as make from "../helpers/records";
import type { SuiteContext } from "./suite-context";

/** Ids with underscores where core's `deliveryId` might be restated wrongly: none, several, leading, trailing, non-ASCII. */
const AWKWARD_EVENT_IDS = [
  "evt_01hxyz",
  "evt_",
  "_lead",
  "noprefix",
  "evt_a_b_c",
  "évt_ünï_日本",
  "evt_🚀x",
  "ev't_q\"x",
];
const AWKWARD_ENDPOINT_IDS = ["we_01abc", "we", "we_a_b", "_", "ü_😀_z"];

/** The routines of a prefix present in the database, by name. */
async function routinesIn(db: AnyDb, prefix: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select p.proname as name from pg_proc as p
    where p.pronamespace = current_schema()::regnamespace and left(p.proname, length(${prefix})) = ${prefix}
    order by p.proname`.execute(db);
  return rows.map((row) => row.name);
}

/** `insert into "table" (a, b, …)` of a routine's statement: the columns per table it inserts. */
function insertsOf(statement: string, prefix: string): Map<string, string[]> {
  const inserts = new Map<string, string[]>();
  for (const match of statement.matchAll(/insert into "([^"]+)" \(([^)]*)\)/g)) {
    const [, table = "", columns = ""] = match;
    inserts.set(
      table.slice(prefix.length),
      columns.split(",").map((column) => column.trim()),
    );
  }
  return inserts;
}

export function defineSchemaTests(suite: SuiteContext): void {
  const { dialect, prefix, t, countQueries, storage, database } = suite;

  describe("schema: the migrations", () => {
    it("migrates an empty database with every migration, then migrating again is a no-op", async () => {
      const tables = await database.introspection.getTables();
      const ours = tables.map((table) => table.name).filter((name) => name.startsWith(prefix));
      expect(ours).toEqual(expect.arrayContaining([t("job"), t("application"), t("migration"), t("migration_lock")]));
      const again = await migrateToLatest(database, { tablePrefix: prefix });
      expect(again.error).toBeUndefined();
      expect(again.results).toEqual([]);
      const applied = await sql<{ name: string }>`select name from ${sql.table(t("migration"))}`.execute(database);
      expect(applied.rows.map((row) => row.name)).toEqual([
        "2026-11-21-0001-initial",
        "2026-11-27-0002-endpoint-signature-scheme",
        "2026-11-27-0003-job-index",
        "2026-11-27-0004-endpoint-delivery-order",
        "2026-11-27-0005-job-country",
        "2026-11-27-0006-job-region",
        "2026-11-27-0007-job-locality",
        "2026-11-27-0008-job-postal-code",
        "2026-11-27-0009-job-workplace-type",
        "2026-11-27-0010-attempt-endpoint-time-index",
        "2026-11-27-0011-job-questions",
        "2026-11-27-0012-application-answers",
        "2026-11-28-0013-delivery-due-pending",
        "2026-12-08-0014-event-feed-position",
        "2026-12-08-0015-change-position",
      ]);
    });

    it("gives every table exactly the columns schema.ts lists, which the stores and routines rely on", async () => {
      const tables = new Map((await database.introspection.getTables()).map((table) => [table.name, table]));
      for (const name of TABLE_NAMES) {
        const columns = tables.get(t(name))?.columns.map((column) => column.name);
        expect({ table: name, columns: columns?.sort() }).toEqual({ table: name, columns: [...COLUMNS[name]].sort() });
      }
    });

    it("returns a failed migration as a result instead of throwing", async () => {
      await withOwnPrefix(database, randomPrefix(), async (other) => {
        await sql`create table ${sql.table(`${other}company`)} (x integer)`.execute(database);
        const result = await migrateToLatest(database, { tablePrefix: other });
        expect(result.error).toBeInstanceOf(Error);
        expect(result.results?.[0]?.status).toBe("Error");
      });
    });

    it("adds the place columns of a job to a database that holds jobs: null on every old row, dropped again by down", async () => {
      await withOwnPrefix(database, randomPrefix(), async (other) => {
        expect((await migrateToLatest(database, { tablePrefix: other })).error).toBeUndefined();
        const stores = kyselyStorage({ db: database, tablePrefix: other });
        const co = await make.addCompany(stores);
        const before = make.job(co.id, { location: "Leeds, UK" });
        await stores.jobs.insert(before);
        // Back to the migration before the place columns, one migration down at a time.
        const names = Object.keys(hireportMigrations());
        const migrator = await createHireportMigrator(database, { tablePrefix: other });
        for (let step = names.indexOf("2026-11-27-0005-job-country"); step < names.length; step++) {
          const down = await migrator.migrateDown();
          expect(down.error).toBeUndefined();
        }
        const columns = async () =>
          (await database.introspection.getTables())
            .find((table) => table.name === `${other}job`)
            ?.columns.map((column) => column.name) ?? [];
        const place = ["country", "region", "locality", "postal_code", "workplace_type"];
        expect((await columns()).filter((name) => place.includes(name))).toEqual([]);
        const up = await migrateToLatest(database, { tablePrefix: other });
        expect(up.error).toBeUndefined();
        expect((await columns()).filter((name) => place.includes(name)).sort()).toEqual([...place].sort());
        const read = await stores.jobs.get(co.id, before.id);
        expect(read).toEqual({
          ...before,
          country: null,
          region: null,
          locality: null,
          postalCode: null,
          workplaceType: null,
          // The later migrations went down and up too: the questions column came back at its default.
          questions: [],
        });
        const placed = {
          country: "GB",
          region: "West Yorkshire",
          locality: "Leeds",
          postalCode: "LS1 4DY",
          workplaceType: "hybrid",
        };
        await stores.jobs.update(co.id, before.id, { ...placed, updatedAt: before.updatedAt });
        expect(await stores.jobs.get(co.id, before.id)).toEqual({ ...before, questions: [], ...placed });
      });
      // Each step is a DDL statement under the migration lock: seconds on MariaDB.
    }, 60_000);

    it("tries a run again when it failed before any migration ran (kysely-org/kysely#1313)", async () => {
      let failures = 0;
      // The first query of the run fails, as the table list does on Postgres when another table
      // is dropped at that moment: nothing was applied, so the run is tried again and succeeds.
      const flaky = database.withPlugin({
        transformQuery(args) {
          if (failures === 0) {
            failures++;
            throw new Error('relation "public.x_stage_change" does not exist');
          }
          return args.node;
        },
        transformResult: async (args) => args.result,
      });
      await withOwnPrefix(database, randomPrefix(), async (other) => {
        const result = await migrateToLatest(flaky, { tablePrefix: other });
        expect(failures).toBe(1);
        expect(result.error).toBeUndefined();
        expect(result.results?.map((r) => r.status)).toEqual(Object.keys(hireportMigrations()).map(() => "Success"));
      });
      // Every migration on an empty prefix: MariaDB's DDL alone takes seconds on a busy machine.
    }, 30_000);

    it("adds job.questions, application.answers and application.knocked_out to existing rows at their defaults", async () => {
      await withOwnPrefix(database, randomPrefix(), async (other) => {
        expect((await migrateToLatest(database, { tablePrefix: other })).error).toBeUndefined();
        const earlier = kyselyStorage({ db: database, tablePrefix: other });
        const co = make.company();
        await earlier.companies.upsert(co);
        const job = make.job(co.id);
        await earlier.jobs.insert(job);
        const write = make.newApplicationWrite(co.id, job);
        expect(await earlier.applications.create(write)).toEqual({ outcome: "created" });
        // Back to before the questions (their columns and any later ones dropped), then up again:
        // existing rows get the defaults.
        const migrator = await createHireportMigrator(database, { tablePrefix: other });
        const names = Object.keys(hireportMigrations());
        for (const name of names.slice(names.indexOf("2026-11-27-0011-job-questions")).reverse()) {
          const down = await migrator.migrateDown();
          expect(down.error).toBeUndefined();
          expect(down.results?.map((result) => [result.migrationName, result.direction])).toEqual([[name, "Down"]]);
        }
        expect((await migrateToLatest(database, { tablePrefix: other })).error).toBeUndefined();
        const storage = kyselyStorage({ db: database, tablePrefix: other });
        expect(await storage.jobs.get(co.id, job.id)).toEqual({ ...job, questions: [], applicationsCount: 1 });
        expect(await storage.applications.get(co.id, write.record.id)).toMatchObject({
          id: write.record.id,
          answers: [],
          knockedOut: false,
        });
      });
    }, 60_000);

    it("adds a declared Application field's column to a table that holds applications: each old row at the field's default, dropped again by down", async () => {
      const flag = field({ kind: "boolean", wire: "test_flag" });
      const flagOn = field({ kind: "boolean", wire: "test_flag_on", default: true });
      const seenAt = field({ kind: "timestamp", wire: "test_seen_at", nullable: true });
      const label = field({ kind: "label", wire: "test_label", default: "unset" });
      const list = field({ kind: "list", wire: "test_list" });
      const specs = [flag, flagOn, seenAt, label, list];
      await withOwnPrefix(database, randomPrefix(), async (other) => {
        expect((await migrateToLatest(database, { tablePrefix: other })).error).toBeUndefined();
        const stores = kyselyStorage({ db: database, tablePrefix: other });
        const co = make.company();
        await stores.companies.upsert(co);
        const job = make.job(co.id);
        await stores.jobs.insert(job);
        const write = make.newApplicationWrite(co.id, job);
        expect(await stores.applications.create(write)).toEqual({ outcome: "created" });
        const before = await stores.applications.get(co.id, write.record.id);
        const migrations = specs.map((spec) => addFieldColumnMigration(other, dialect, "application", spec));
        for (const migration of migrations) await migration.up(database);
        const row = await database
          .selectFrom(`${other}application`)
          .select(specs.map((spec) => spec.column))
          .where("id", "=", write.record.id)
          .executeTakeFirstOrThrow();
        expect({
          test_flag: readBool(row.test_flag),
          test_flag_on: readBool(row.test_flag_on),
          test_seen_at: row.test_seen_at,
          test_label: row.test_label,
          test_list: JSON.parse(row.test_list),
        }).toEqual({ test_flag: false, test_flag_on: true, test_seen_at: null, test_label: "unset", test_list: [] });
        expect(await stores.applications.get(co.id, write.record.id)).toEqual(before);
        for (const migration of [...migrations].reverse()) await migration.down?.(database);
        const columns = (await database.introspection.getTables())
          .find((table) => table.name === `${other}application`)
          ?.columns.map((column) => column.name);
        expect(columns?.filter((name) => name.startsWith("test_"))).toEqual([]);
        expect(await stores.applications.get(co.id, write.record.id)).toEqual(before);
      });
      // Each step is a DDL statement: seconds on MariaDB.
    }, 60_000);

    it("refuses to add the column of a required timestamp, which has no default for the rows already there", () => {
      const at = field({ kind: "timestamp", wire: "test_at", required: true });
      expect(() => addFieldColumnMigration(prefix, dialect, "application", at)).toThrow(
        "Field test_at has no default to fill existing rows with: its column needs a migration of its own.",
      );
    });

    it("prints the SQL of the migration, and on Postgres of the routines, for review", async () => {
      const text = await migrationSql(dialect, { tablePrefix: prefix });
      expect(text).toMatch(/create table/i);
      expect(text).toContain(`${prefix}webhook_delivery`);
      expect(text.length).toBeGreaterThan(1000);
      const down = await migrationSql(dialect, { tablePrefix: prefix, direction: "down" });
      expect(down).toMatch(/drop table/i);
      for (const routine of Object.values(routinesOf(prefix))) {
        if (dialect === "postgres") {
          expect(text).toContain(`create or replace function "${routine.name}"(`);
          expect(down).toContain(`drop function if exists "${routine.name}"(`);
        } else {
          expect(text).not.toContain(routine.base);
          expect(down).not.toContain(routine.base);
        }
      }
    });

    it("fans events out with core's deliveryId, whatever the ids", async () => {
      const co = make.company();
      const endpoints = AWKWARD_ENDPOINT_IDS.map((id) =>
        make.endpoint(co.id, { id: `${id}${make.id("").slice(1, 9)}`, events: ["job.closed"] }),
      );
      for (const endpoint of endpoints) await storage.webhooks.insertEndpoint(endpoint);
      const events = AWKWARD_EVENT_IDS.map((id) =>
        make.event(co.id, { id: `${id}${make.id("").slice(1, 9)}`, type: "job.closed" }),
      );
      for (const event of events) await storage.events.append(event);
      const stored = await sql<{ id: string; event_id: string; endpoint_id: string }>`select id, event_id, endpoint_id
        from ${sql.table(t("webhook_delivery"))} where company_id = ${co.id}`.execute(database);
      expect(stored.rows).toHaveLength(events.length * endpoints.length);
      for (const row of stored.rows) expect(row.id).toBe(deliveryId(row.event_id, row.endpoint_id));
      for (const endpoint of endpoints) await storage.webhooks.deleteEndpoint(co.id, endpoint.id);
    });

    it.skipIf(dialect === "postgres")("has no routines to install here", async () => {
      expect(await countQueries(() => installRoutines(database, { tablePrefix: prefix }))).toEqual([]);
    });
  });

  describe.runIf(dialect === "postgres")("Postgres routines", () => {
    it("names each routine {prefix}{name}_{digest of its definition} and installs only what is missing", async () => {
      const routines = Object.values(routinesOf(prefix));
      expect(await routinesIn(database, prefix)).toEqual(routines.map((routine) => routine.name).sort());
      for (const routine of routines) {
        expect(routine.name).toMatch(
          new RegExp(`^${prefix}(count_requests|append_event|create_application|application_erased)_[0-9a-f]{8}$`),
        );
      }
      // The digest does not depend on the prefix: a definition has one name in every prefix.
      const digests = (other: string) => Object.values(routinesOf(other)).map((r) => r.name.slice(other.length));
      expect(digests("a_")).toEqual(digests(prefix));
      // Installed already: one query finds nothing missing, and nothing is created again.
      const used = await countQueries(async () => {
        await installRoutines(database, { tablePrefix: prefix });
        await installRoutines(database, { tablePrefix: prefix });
      });
      expect(used).toHaveLength(2);
      expect(used.some((query) => /create or replace function/i.test(query.sql))).toBe(false);
      expect((await migrateToLatest(database, { tablePrefix: prefix })).error).toBeUndefined();
      expect(await routinesIn(database, prefix)).toEqual(routines.map((routine) => routine.name).sort());
    });

    it("inserts exactly the columns of the migrated tables (generated from schema.ts)", async () => {
      const tables = new Map((await database.introspection.getTables()).map((table) => [table.name, table]));
      const columnsOf = (name: string) =>
        (tables.get(t(name))?.columns.map((column) => column.name) ?? []).filter((column) => column !== "seq").sort();
      const { append_event: appendEvent, create_application: createApplication } = routinesOf(prefix);
      const created = insertsOf(createApplication.create, prefix);
      const appended = insertsOf(appendEvent.create, prefix);
      expect([...created.keys()].sort()).toEqual(["application", "event", "stage_change", "webhook_delivery"]);
      expect([...appended.keys()].sort()).toEqual(["event", "webhook_delivery"]);
      for (const inserts of [created, appended]) {
        for (const [table, columns] of inserts)
          expect({ table, columns: [...columns].sort() }).toEqual({ table, columns: columnsOf(table) });
      }
      for (const table of ["application", "stage_change", "event"] as const) {
        expect(insertedColumns(table).sort()).toEqual(columnsOf(table));
      }
      expect(Object.keys(fanOutValues({ id: "i", company: "c", type: "t", at: "a" })).sort()).toEqual(
        columnsOf("webhook_delivery"),
      );
    });

    it("computes core's deliveryId in SQL, also for awkward ids", async () => {
      const pairs = AWKWARD_EVENT_IDS.flatMap((event) => AWKWARD_ENDPOINT_IDS.map((endpoint) => [event, endpoint]));
      const expression = deliveryIdSql("x.ev", "x.ep");
      const { rows } = await database.executeQuery<{ ev: string; ep: string; id: string }>(
        CompiledQuery.raw(`select x.ev, x.ep, ${expression} as id from unnest($1::text[], $2::text[]) as x (ev, ep)`, [
          pairs.map(([event]) => event),
          pairs.map(([, endpoint]) => endpoint),
        ]),
      );
      expect(rows).toHaveLength(pairs.length);
      for (const row of rows) expect(row.id, `${row.ev} ${row.ep}`).toBe(deliveryId(row.ev, row.ep));
    });

    it("works under a quoted prefix with capitals: admission, create, append, counts", async () => {
      await withOwnPrefix(database, `Hr_${randomPrefix()}`, async (other) => {
        const result = await migrateToLatest(database, { tablePrefix: other });
        expect(result.error).toBeUndefined();
        expect(await routinesIn(database, other)).toHaveLength(Object.keys(routinesOf(other)).length);
        const mixed = kyselyWebhookStorage({ db: database, tablePrefix: other });
        const co = make.company();
        await mixed.companies.upsert(co);
        const key = make.apiKey(co.id);
        await mixed.keys.insert(key, { maxActive: 5, now: new Date() });
        const now = new Date();
        const windows = [{ suffix: ":m", limit: 2, resetAt: new Date(now.getTime() + 60_000) }];
        const rates = [];
        for (let i = 0; i < 3; i++) rates.push((await mixed.keys.admit(key.hash, windows, now))?.rate);
        expect(rates).toEqual([
          { allowed: true, counts: [1], refusedBucket: null },
          { allowed: true, counts: [2], refusedBucket: null },
          { allowed: false, counts: [2], refusedBucket: 0 },
        ]);
        const job = make.job(co.id, { title: "Welder" });
        await mixed.jobs.insert(job);
        const endpoint = make.endpoint(co.id);
        await mixed.webhooks.insertEndpoint(endpoint);
        const write = make.newApplicationWrite(co.id, job);
        expect(await mixed.applications.create(write)).toEqual({ outcome: "created" });
        expect(await mixed.applications.create({ ...write, jobTitle: "Painter" })).toEqual({ outcome: "job_changed" });
        const again = make.newApplicationWrite(co.id, job);
        again.record = { ...again.record, emailNormalized: write.record.emailNormalized };
        expect(await mixed.applications.create(again)).toEqual({ outcome: "duplicate", existingId: write.record.id });
        const closed = make.event(co.id, { type: "job.created" });
        await mixed.events.append(closed);
        const deliveries = await mixed.webhooks.listDeliveries({ companyId: co.id, endpointId: endpoint.id, take: 10 });
        expect(deliveries.map((delivery) => delivery.id).sort()).toEqual(
          [deliveryId(write.event.id, endpoint.id), deliveryId(closed.id, endpoint.id)].sort(),
        );
      });
    });

    it("names migrateToLatest and installRoutines when a routine is missing; installRoutines puts it back", async () => {
      await withOwnPrefix(database, randomPrefix(), async (other) => {
        expect((await migrateToLatest(database, { tablePrefix: other })).error).toBeUndefined();
        const bare = kyselyWebhookStorage({ db: database, tablePrefix: other });
        const co = make.company();
        await bare.companies.upsert(co);
        const job = make.job(co.id, { title: "Welder" });
        await bare.jobs.insert(job);
        const key = make.apiKey(co.id);
        await bare.keys.insert(key, { maxActive: 5, now: new Date() });
        const windows = [{ suffix: ":m", limit: 5, resetAt: new Date(Date.now() + 60_000) }];
        // A delivery of an application event held under a lease, for recordAttempts.
        const endpoint = make.endpoint(co.id);
        await bare.webhooks.insertEndpoint(endpoint);
        const event = make.event(co.id, { type: "application.updated" });
        await bare.events.append(event);
        const leaseToken = make.id("lease");
        const far = new Date(Date.now() + 3_600_000);
        const held = make.delivery(event, endpoint.id, { leaseToken, leaseExpiresAt: far, nextAttemptAt: far });
        await bare.webhooks.insertDeliveries([held]);
        const calls = {
          count_requests: () => bare.keys.admit(key.hash, windows, new Date()),
          append_event: () => bare.events.append(make.event(co.id)),
          create_application: () => bare.applications.create(make.newApplicationWrite(co.id, job)),
          application_erased: () =>
            bare.webhooks.recordAttempts([
              { deliveryId: held.id, leaseToken, outcome: make.succeeded(held, new Date()) },
            ]),
        };
        for (const routine of Object.values(routinesOf(other))) await sql.raw(routine.drop).execute(database);
        for (const [base, call] of Object.entries(calls)) {
          const name = routinesOf(other)[base as keyof typeof calls].name;
          await expect(call()).rejects.toThrow(
            new RegExp(
              `no routine ${name} .*migrateToLatest\\(db, \\{ tablePrefix: "${other}" \\}\\).*installRoutines\\(db`,
            ),
          );
        }
        await installRoutines(database, { tablePrefix: other });
        expect((await calls.count_requests())?.rate?.allowed).toBe(true);
        await calls.append_event();
        expect(await calls.create_application()).toEqual({ outcome: "created" });
        expect(await calls.application_erased()).toEqual([expect.objectContaining({ recorded: true })]);
      });
    });

    it("leaves the routines of other versions in place for processes still running them", async () => {
      await withOwnPrefix(database, randomPrefix(), async (other) => {
        expect((await migrateToLatest(database, { tablePrefix: other })).error).toBeUndefined();
        const previous = `${other}count_requests_00000000`;
        await sql`create function ${sql.id(previous)}(p text) returns integer language sql as 'select 1'`.execute(
          database,
        );
        expect((await migrateToLatest(database, { tablePrefix: other })).error).toBeUndefined();
        await installRoutines(database, { tablePrefix: other });
        expect(await routinesIn(database, other)).toContain(previous);
        expect(await routinesIn(database, other)).toHaveLength(Object.keys(routinesOf(other)).length + 1);
      });
    });
  });
}
