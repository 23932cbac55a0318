/**
 * Which Kysely instance runs which statement when `kyselyStorage` has a `readDb`: two instances on
 * the same database, each logging its statements, behind the v1 API (`api.handle()`), on every
 * dialect the tests reach. Only the list reads (`jobs.list`, `applications.list`) and the reads by
 * id that ask for it (`replica`: the API's GET by id and job filter) may reach the reader, a miss
 * there read again on the primary; admission, usage, idempotency, writes, the reads that decide
 * them and reads in a transaction stay on the primary. On SQLite and Postgres the conformance suite of core also runs on a storage with a
 * `readDb` (a second instance on the same database, so without lag).
 */
import { type ApiResponse, createPublicApi, type PublicApi } from "@hireport/core";
import { SCOPES } from "@hireport/core/schemas";
import { runStorageConformance } from "@hireport/core/testing";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kyselyStorage, migrateToLatest } from "../src/index";
import { kyselyConformanceInspector } from "../src/testing";
import {
  type AnyDb,
  createDb,
  dropTables,
  openTestDatabase,
  randomPrefix,
  type TestDatabase,
  type TestDialect,
} from "./helpers/databases";
import * as make from "./helpers/records";

const SECRET = "kysely-replica-secret-0123456789-abcdefghij";

/** The SQL each instance ran while `fn` ran. */
interface Ran {
  primary: string[];
  reader: string[];
}

function body(answer: ApiResponse): { data: Record<string, unknown> & Record<string, unknown>[] } {
  const raw = answer.body;
  if (typeof raw !== "string" && !(raw instanceof Uint8Array)) throw new Error("The API answered with a stream.");
  return JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw));
}

async function defineRoutingTests(dialect: TestDialect, options: { conformance: boolean }): Promise<void> {
  const primaryLog: string[] = [];
  const readerLog: string[] = [];
  const opened: TestDatabase | null = await openTestDatabase(dialect, {
    onQuery: (event) => primaryLog.push(event.query.sql),
  });

  // The whole storage contract with the list reads on a second instance (same database: no lag).
  if (options.conformance) {
    describe.skipIf(!opened)(`@hireport/core conformance with readDb on ${dialect}`, () => {
      const prefix = randomPrefix();
      runStorageConformance({
        name: `kysely with readDb on ${dialect}`,
        async setup() {
          const { db, sqliteFile } = opened as TestDatabase;
          const migrated = await migrateToLatest(db, { tablePrefix: prefix });
          if (migrated.error) throw migrated.error;
          const readDb = await createDb(dialect, { sqliteFile });
          return {
            storage: kyselyStorage({ db, readDb, tablePrefix: prefix }),
            inspect: kyselyConformanceInspector({ db: db, tablePrefix: prefix }),
            async teardown() {
              await readDb.destroy();
              await dropTables(db, prefix);
            },
          };
        },
      });
    });
  }

  describe.skipIf(!opened)(`readDb on ${dialect}`, () => {
    const database = opened as TestDatabase;
    let reader: AnyDb;
    let api: PublicApi;
    let key: string;
    let companyId: string;
    /**
     * A statement names the prefixed table, index or routine: `hp_…_job`, `hp_…_job_company_created`,
     * `hp_…_create_application_448fe76e` (routines carry a hash of their body).
     */
    const names = (name: string) => (statement: string) =>
      new RegExp(`(^|[^a-z0-9_])${database.prefix}${name}(?![a-z0-9])`).test(statement);

    async function during(fn: () => Promise<unknown>): Promise<Ran> {
      const [p, r] = [primaryLog.length, readerLog.length];
      await fn();
      return { primary: primaryLog.slice(p), reader: readerLog.slice(r) };
    }

    const call = (method: string, path: string, extra: Record<string, unknown> = {}) =>
      api.handle({
        method,
        path,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        ...extra,
      });

    /** Calls the API and checks its status; the statements each instance ran for it. */
    async function request(status: number, method: string, path: string, extra: Record<string, unknown> = {}) {
      let answer: ApiResponse | undefined;
      const ran = await during(async () => {
        answer = await call(method, path, extra);
      });
      expect(answer?.status, `${method} ${path}`).toBe(status);
      return { ran, answer: answer as ApiResponse };
    }

    const openApi = () =>
      createPublicApi({
        storage: kyselyStorage({ db: database.db, readDb: reader, tablePrefix: database.prefix }),
        publicBaseUrl: "https://careers.example.com",
        fileTokenSecret: SECRET,
        limits: { perMinute: 10_000, perDay: 100_000 },
        logger: { warn: () => undefined, error: (message, details) => console.error(message, details) },
        usageFlushMs: 10,
      });

    beforeAll(async () => {
      await database.migrate();
      reader = await createDb(dialect, {
        sqliteFile: database.sqliteFile,
        onQuery: (event) => readerLog.push(event.query.sql),
      });
      api = openApi();
      companyId = make.id("co");
      await api.companies.upsert({ id: companyId, name: "Replica Ltd" });
      ({ key } = await api.keys.create({ companyId, name: "replica key", scopes: [...SCOPES] }));
    });

    afterAll(async () => {
      await api?.close();
      await reader?.destroy();
      await database?.drop();
    });

    it("runs every write, and admission, idempotency and the usage log, on db alone", async () => {
      const [primaryStart, readerStart] = [primaryLog.length, readerLog.length];
      const job = await request(201, "POST", "/jobs", { body: { title: "Welder", status: "active" } });
      expect(job.ran.primary.some(names("job"))).toBe(true);
      expect(job.ran.primary.some(names("api_key"))).toBe(true);
      const jobId = String(body(job.answer).data.id);
      const patched = await request(200, "PATCH", `/jobs/${jobId}`, { body: { title: "Senior welder" } });
      expect(patched.ran.primary.some(names("job"))).toBe(true);
      const created = await request(201, "POST", "/applications", {
        body: { job_id: jobId, candidate: { name: "Ana", email: "ana@example.com" } },
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          "idempotency-key": `replica-${make.id("idem")}`,
        },
      });
      expect(created.ran.primary.some(names("idempotency"))).toBe(true);
      const applicationId = String(body(created.answer).data.id);
      await request(200, "PATCH", `/applications/${applicationId}`, { body: { stage: "reviewed", note: "Called" } });
      const duplicate = await request(409, "POST", "/applications", {
        body: { job_id: jobId, candidate: { name: "Ana", email: "ANA@example.com" } },
      });
      // The duplicate check: on Postgres the `create_application` routine, elsewhere its statements.
      const createsApplication = (statement: string) =>
        names("application")(statement) || names("create_application")(statement);
      expect(duplicate.ran.primary.some(createsApplication)).toBe(true);
      await request(200, "POST", `/jobs/${jobId}/close`);
      // The usage log's batched inserts, flushed at close at the latest.
      await api.close();
      api = openApi();
      expect(primaryLog.slice(primaryStart).some(names("usage"))).toBe(true);
      expect(readerLog.slice(readerStart)).toEqual([]);
    });

    it("reads the pages of GET /jobs and GET /applications on readDb, and nothing else there", async () => {
      const job = body((await request(201, "POST", "/jobs", { body: { title: "Baker", status: "active" } })).answer);
      const jobId = String(job.data.id);
      await request(201, "POST", "/applications", {
        body: { job_id: jobId, candidate: { name: "Bo", email: "bo@example.com" } },
      });

      const jobs = await request(200, "GET", "/jobs", { query: { limit: "10" } });
      expect(jobs.ran.reader).toHaveLength(1);
      expect(jobs.ran.reader.every(names("job"))).toBe(true);
      expect(jobs.ran.primary.some(names("job"))).toBe(false);
      // Admission (the key and its rate-limit count) ran on the primary.
      expect(jobs.ran.primary.length).toBeGreaterThan(0);

      const applications = await request(200, "GET", "/applications", { query: { limit: "10" } });
      expect(applications.ran.reader).toHaveLength(1);
      expect(applications.ran.reader.every(names("application"))).toBe(true);
      expect(applications.ran.primary.some(names("application"))).toBe(false);

      // The job filter's existence check (a read by id) and the page, on the reader.
      const filtered = await request(200, "GET", "/applications", { query: { job_id: jobId } });
      expect(filtered.ran.reader).toHaveLength(2);
      expect(filtered.ran.reader.some(names("application"))).toBe(true);
      expect(filtered.ran.primary.some(names("job"))).toBe(false);
      expect(body(filtered.answer).data.map((row) => row.job_id)).toEqual([jobId]);

      for (const ran of [jobs.ran, applications.ran, filtered.ran]) {
        for (const table of ["api_key", "rate_limit", "usage", "idempotency", "event"]) {
          expect(ran.reader.some(names(table)), table).toBe(false);
        }
      }
    });

    it("reads by id for GET /jobs/{id} and GET /applications/{id} on readDb", async () => {
      const job = body((await request(201, "POST", "/jobs", { body: { title: "Potter", status: "active" } })).answer);
      const application = body(
        (
          await request(201, "POST", "/applications", {
            body: { job_id: job.data.id, candidate: { name: "Cy", email: "cy@example.com" } },
          })
        ).answer,
      );
      const oneJob = await request(200, "GET", `/jobs/${job.data.id}`);
      expect(oneJob.ran.reader).toHaveLength(1);
      expect(oneJob.ran.reader.every(names("job"))).toBe(true);
      expect(oneJob.ran.primary.some(names("job"))).toBe(false);
      expect(body(oneJob.answer).data.title).toBe("Potter");
      const oneApplication = await request(200, "GET", `/applications/${application.data.id}`);
      expect(oneApplication.ran.reader).toHaveLength(1);
      expect(oneApplication.ran.primary.some(names("application"))).toBe(false);
    });

    it("reads by id on db when a write depends on them, and through the host API unless asked", async () => {
      const job = body((await request(201, "POST", "/jobs", { body: { title: "Smith", status: "active" } })).answer);
      const patched = await request(200, "PATCH", `/jobs/${job.data.id}`, { body: { title: "Blacksmith" } });
      expect(patched.ran.reader).toEqual([]);
      const hostRead = await during(() => api.jobs.get(companyId, String(job.data.id)));
      expect(hostRead.reader).toEqual([]);
      const hostReplicaRead = await during(() => api.jobs.get(companyId, String(job.data.id), { replica: true }));
      expect(hostReplicaRead.reader).toHaveLength(1);
    });

    it("reads again on db what the replica does not have yet: a record just created is never a 404", async () => {
      // A replica that lags behind everything: each of its reads finds no row.
      const lagging = reader.withPlugin({
        transformQuery: (args) => args.node,
        transformResult: async () => ({ rows: [] }),
      });
      const laggingApi = createPublicApi({
        storage: kyselyStorage({ db: database.db, readDb: lagging, tablePrefix: database.prefix }),
        publicBaseUrl: "https://careers.example.com",
        fileTokenSecret: SECRET,
        limits: { perMinute: 10_000, perDay: 100_000 },
        usageFlushMs: 10,
      });
      try {
        const job = await laggingApi.jobs.create(companyId, { title: "Glazier", status: "active" });
        const application = await laggingApi.applications.create(companyId, {
          job_id: job.id,
          candidate: { name: "Di", email: "di@example.com" },
        });
        const read = await during(async () => {
          expect((await laggingApi.jobs.get(companyId, job.id, { replica: true })).title).toBe("Glazier");
          expect((await laggingApi.applications.get(companyId, application.id, { replica: true })).id).toBe(
            application.id,
          );
        });
        // Each read tried the replica, then the primary.
        expect(read.reader).toHaveLength(2);
        expect(read.primary.some(names("job"))).toBe(true);
        expect(read.primary.some(names("application"))).toBe(true);
        await expect(laggingApi.jobs.get(companyId, "job_missing", { replica: true })).rejects.toMatchObject({
          code: "not_found",
        });
      } finally {
        await laggingApi.close();
      }
    });

    it("lists on readDb through the host API and the public listing too, but on db inside a transaction", async () => {
      const host = await during(() => api.jobs.list(companyId, { limit: 5 }));
      expect(host.reader).toHaveLength(1);
      const hostApplications = await during(() => api.applications.list(companyId, { limit: 5 }));
      expect(hostApplications.reader).toHaveLength(1);
      const publicJobs = await during(() => api.publicJobs.list(companyId, { limit: 5 }));
      expect(publicJobs.reader).toHaveLength(1);

      const storage = kyselyStorage({ db: database.db, readDb: reader, tablePrefix: database.prefix });
      const inTransaction = await during(() =>
        storage.transaction(async (tx) => {
          await tx.jobs.list({ companyId, take: 5 });
          await tx.applications.list({ companyId, take: 5 });
        }),
      );
      expect(inTransaction.reader).toEqual([]);
      expect(inTransaction.primary.some(names("job"))).toBe(true);
      expect(inTransaction.primary.some(names("application"))).toBe(true);

      // A storage made on the host's own Kysely transaction reads in that transaction too.
      const hostTransaction = await during(() =>
        database.db.transaction().execute(async (trx) => {
          const onTrx = kyselyStorage({ db: trx, readDb: reader, tablePrefix: database.prefix });
          await onTrx.jobs.list({ companyId, take: 5 });
          await onTrx.applications.list({ companyId, take: 5 });
        }),
      );
      expect(hostTransaction.reader).toEqual([]);
      expect(hostTransaction.primary.some(names("job"))).toBe(true);
    });

    it("runs everything on db without readDb", async () => {
      const storage = kyselyStorage({ db: database.db, tablePrefix: database.prefix });
      const ran = await during(async () => {
        await storage.jobs.list({ companyId, take: 5 });
        await storage.applications.list({ companyId, take: 5 });
      });
      expect(ran.reader).toEqual([]);
      // (The usage log of earlier requests may flush in between: only the two reads are counted.)
      expect(
        ran.primary.filter((statement) => names("job")(statement) || names("application")(statement)),
      ).toHaveLength(2);
    });
  });
}

describe("readDb: what kyselyStorage refuses", () => {
  it("refuses a readDb of another dialect, and a transaction", async () => {
    const sqlite = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(":memory:") }) });
    // No connection is opened: the dialect comes from the adapter.
    const postgres = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ max: 1 }) }) });
    try {
      expect(() => kyselyStorage({ db: postgres, readDb: sqlite })).toThrow(/readDb speaks sqlite and db postgres/);
      await sqlite.transaction().execute(async (trx) => {
        expect(() => kyselyStorage({ db: sqlite, readDb: trx })).toThrow(/not a transaction/);
      });
      // The `dialect` option names the dialect of both: no detection, no error.
      expect(() => kyselyStorage({ db: sqlite, readDb: sqlite, dialect: "sqlite" })).not.toThrow();
    } finally {
      await sqlite.destroy();
      await postgres.destroy();
    }
  });
});

// The conformance run on SQLite and Postgres only, to keep the file short; the routing on all three.
await defineRoutingTests("sqlite", { conformance: true });
await defineRoutingTests("postgres", { conformance: true });
await defineRoutingTests("mysql", { conformance: false });
