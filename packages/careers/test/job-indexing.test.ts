/**
 * Job indexing against local stand-ins of IndexNow and Google's Indexing API (see
 * support/indexing-servers.ts), on the memory storage and on SQLite through `@hireport/kysely`:
 * the careers site serves the key file the IndexNow server fetches; notices follow the jobs' public
 * state; Google's daily quota goes to deletions and new jobs first; nothing pending is lost when a
 * notifier stops and another starts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPublicApi, type PublicApi, type Storage } from "@hireport/core";
import { memoryFileStore, memoryStorage } from "@hireport/core/memory";
import { hireportExpress } from "@hireport/express";
import { kyselyFileStore, kyselyStorage, migrateToLatest } from "@hireport/kysely";
import SQLite from "better-sqlite3";
import express from "express";
import { Kysely, SqliteDialect } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createCareers,
  createJobIndexing,
  type GoogleIndexingOptions,
  type JobIndexing,
  type JobIndexingOptions,
} from "../src/index";
import { SECRET, type TestClock, testClock } from "./support/host";
import {
  type GoogleServers,
  type IndexNowServer,
  startGoogleServers,
  startIndexNowServer,
} from "./support/indexing-servers";

const KEY = "3f9a1c2e-hireport-indexnow-key";
const DAY = 86_400_000;
const ACME = "co_acme";
const GLOBEX = "co_globex";
const FAST_RETRY = { retries: 2, minTimeoutMs: 1, maxTimeoutMs: 5 };

interface IndexingHost {
  origin: string;
  api: PublicApi;
  storage: Storage;
  clock: TestClock;
  close(): Promise<void>;
}

/** The API and the careers site (with the IndexNow key) over HTTP, on the memory storage or SQLite. */
async function startIndexingHost(kind: "memory" | "sqlite"): Promise<IndexingHost> {
  const dir = kind === "sqlite" ? mkdtempSync(join(tmpdir(), "hireport-indexing-")) : null;
  let db: Kysely<unknown> | null = null;
  let storage: Storage;
  let fileStore = memoryFileStore();
  if (dir) {
    db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(join(dir, "test.sqlite")) }) });
    const migration = await migrateToLatest(db);
    if (migration.error) throw migration.error;
    storage = kyselyStorage({ db });
    fileStore = kyselyFileStore({ db });
  } else {
    storage = memoryStorage();
  }
  const clock = testClock();
  let origin = "";
  const api = createPublicApi({
    storage,
    fileStore,
    clock,
    publicBaseUrl: "https://careers.example.com",
    publicSiteUrl: (company) => (company.id === ACME ? origin : `${origin}/c/${company.id.slice(3)}`),
    fileTokenSecret: SECRET,
    logger: { warn: () => undefined, error: (message, details) => console.error(message, details) },
  });
  await api.companies.upsert({ id: ACME, name: "Acme Ltd" });
  await api.companies.upsert({ id: GLOBEX, name: "Globex" });
  const careers = createCareers({
    api,
    resolveCompany: (request) => {
      const segment = /^\/c\/([a-z]+)(?:\/|$)/.exec(request.path);
      return segment?.[1] ? { companyId: `co_${segment[1]}`, pathPrefix: `/c/${segment[1]}` } : ACME;
    },
    secret: SECRET,
    privacyNoticeUrl: "/privacy",
    clock,
    indexNowKey: KEY,
  });
  const app = express();
  app.use(hireportExpress(careers));
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    api,
    storage,
    clock,
    async close() {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await api.close();
      await db?.destroy();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

const baker = { title: "Baker", description: "Bake.", location: "London, UK", status: "active" as const };

for (const kind of ["memory", "sqlite"] as const) {
  describe(`job indexing on ${kind}`, () => {
    let host: IndexingHost;
    let indexNow: IndexNowServer;
    let google: GoogleServers;
    const notifiers: JobIndexing[] = [];

    beforeAll(async () => {
      indexNow = await startIndexNowServer();
    });
    afterAll(async () => {
      await indexNow?.close();
    });
    beforeEach(async () => {
      host = await startIndexingHost(kind);
      google = await startGoogleServers(() => host.clock.now());
      indexNow.submissions.length = 0;
      indexNow.refused.length = 0;
      indexNow.script.length = 0;
      indexNow.status = 202;
    });
    afterEach(async () => {
      for (const notifier of notifiers.splice(0)) await notifier.stop();
      await google?.close();
      await host?.close();
    });

    const notifier = (options: Partial<JobIndexingOptions> = {}): JobIndexing => {
      const made = createJobIndexing({
        api: host.api,
        storage: host.storage,
        clock: host.clock,
        retry: FAST_RETRY,
        logger: { warn: () => undefined, error: () => undefined },
        ...options,
      });
      notifiers.push(made);
      return made;
    };
    const withIndexNow = (options: Partial<JobIndexingOptions> = {}) =>
      notifier({ indexNow: { key: KEY, endpoint: indexNow.endpoint }, ...options });
    const withGoogle = (
      options: Partial<JobIndexingOptions> = {},
      dailyQuota = 200,
      googleOptions: Partial<GoogleIndexingOptions> = {},
    ) =>
      notifier({
        google: {
          serviceAccount: google.serviceAccountJson,
          publishUrl: google.publishUrl,
          batchUrl: google.batchUrl,
          dailyQuota,
          ...googleOptions,
        },
        ...options,
      });
    const pageOf = (jobId: string, company = ACME) =>
      company === ACME ? `${host.origin}/jobs/${jobId}` : `${host.origin}/c/${company.slice(3)}/jobs/${jobId}`;

    it("serves the IndexNow key file from the careers site", async () => {
      const answer = await fetch(`${host.origin}/${KEY}.txt`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(await answer.text()).toBe(KEY);
      expect((await fetch(`${host.origin}/not-the-key-0000.txt`)).status).toBe(404);
    });

    it("tells IndexNow of a job that becomes public, changes and closes, retrying a 429, and records each notice", async () => {
      const indexing = withIndexNow();
      const draft = await host.api.jobs.create(ACME, { ...baker, status: "draft" });
      const job = await host.api.jobs.create(ACME, baker);
      const other = await host.api.jobs.create(GLOBEX, { ...baker, title: "Cook" });

      const first = await indexing.runOnce();
      expect(first.indexnow).toEqual({ sent: 2, failed: 0, waiting: 0, skipped: 1 });
      expect(indexNow.refused).toEqual([]);
      expect(indexNow.submissions).toHaveLength(1);
      const [submission] = indexNow.submissions;
      expect(submission?.host).toBe(new URL(host.origin).host);
      expect(submission?.keyLocation).toBe(`${host.origin}/${KEY}.txt`);
      expect(submission?.urlList.sort()).toEqual([pageOf(job.id), pageOf(other.id, GLOBEX)].sort());
      const notices = await indexing.notices(ACME, [job.id, draft.id]);
      const notice = notices.find((n) => n.jobId === job.id);
      expect(notice).toMatchObject({ service: "indexnow", action: "updated", status: 202, error: null });
      expect(notice?.notifiedAt).toEqual(host.clock.now());
      // The draft was never public: covered, with nothing sent.
      expect(notices.find((n) => n.jobId === draft.id)).toMatchObject({ action: null, notifiedAt: null, status: null });
      // Nothing changed: nothing is sent.
      expect((await indexing.runOnce()).indexnow).toEqual({ sent: 0, failed: 0, waiting: 0, skipped: 0 });

      indexNow.script.push(429);
      await host.api.jobs.update(ACME, job.id, { title: "Head baker" });
      expect((await indexing.runOnce()).indexnow).toMatchObject({ sent: 1, waiting: 0 });
      expect(indexNow.submissions.slice(1).map((s) => [s.status, s.urlList])).toEqual([
        [429, [pageOf(job.id)]],
        [202, [pageOf(job.id)]],
      ]);

      host.clock.advance(60_000);
      await host.api.jobs.close(ACME, job.id);
      indexNow.status = 200;
      expect((await indexing.runOnce()).indexnow).toMatchObject({ sent: 1 });
      expect(indexNow.submissions.at(-1)?.urlList).toEqual([pageOf(job.id)]);
      expect(await indexing.notices(ACME, [job.id])).toEqual([
        expect.objectContaining({ action: "deleted", status: 200, notifiedAt: host.clock.now(), closesAt: null }),
      ]);
    });

    it("records a 4xx other than 429 as a failure and does not send it again", async () => {
      const indexing = withIndexNow();
      const job = await host.api.jobs.create(ACME, baker);
      indexNow.script.push(400);
      expect((await indexing.runOnce()).indexnow).toMatchObject({ sent: 0, failed: 1, waiting: 0 });
      expect(indexNow.submissions.map((s) => s.status)).toEqual([400]);
      expect(await indexing.notices(ACME, [job.id])).toEqual([
        expect.objectContaining({ action: "updated", status: 400, error: expect.stringContaining("400") }),
      ]);
      expect((await indexing.runOnce()).indexnow).toMatchObject({ sent: 0, failed: 0, waiting: 0 });
      expect(indexNow.submissions).toHaveLength(1);
    });

    it("tells Google with a token from a signed JWT assertion: URL_UPDATED, then URL_DELETED, one token for both", async () => {
      const indexing = withGoogle();
      const job = await host.api.jobs.create(ACME, baker);
      expect((await indexing.runOnce()).google).toEqual({ sent: 1, failed: 0, waiting: 0, skipped: 0 });
      await host.api.jobs.setHidden(ACME, job.id, true);
      expect((await indexing.runOnce()).google).toMatchObject({ sent: 1 });
      expect(google.refused).toEqual([]);
      expect(google.notices).toEqual([
        { url: pageOf(job.id), type: "URL_UPDATED", status: 200 },
        { url: pageOf(job.id), type: "URL_DELETED", status: 200 },
      ]);
      expect(google.tokens).toHaveLength(1);
      expect(google.assertions[0]).toMatchObject({ iss: google.clientEmail, aud: google.tokenUrl });
      const [notice] = await indexing.notices(ACME, [job.id]);
      expect(notice).toMatchObject({ service: "google", action: "deleted", status: 200, error: null });
      // The token never reaches what is recorded.
      expect(JSON.stringify(await indexing.notices(ACME, [job.id]))).not.toContain("ya29");
    });

    it("with a daily quota short of the work, sends deletions and new jobs first; the rest wait for the next day", async () => {
      const indexing = withGoogle({}, 2);
      const changed = await host.api.jobs.create(ACME, { ...baker, title: "Changed" });
      const closing = await host.api.jobs.create(ACME, { ...baker, title: "Closing" });
      expect((await indexing.runOnce()).google).toMatchObject({ sent: 2 });
      host.clock.advance(DAY);
      await host.api.jobs.update(ACME, changed.id, { title: "Changed again" });
      host.clock.advance(1000);
      await host.api.jobs.close(ACME, closing.id);
      host.clock.advance(1000);
      const fresh = await host.api.jobs.create(ACME, { ...baker, title: "Fresh" });
      google.notices.length = 0;

      expect((await indexing.runOnce()).google).toEqual({ sent: 2, failed: 0, waiting: 1, skipped: 0 });
      expect(google.notices.map((n) => [n.url, n.type])).toEqual([
        [pageOf(closing.id), "URL_DELETED"],
        [pageOf(fresh.id), "URL_UPDATED"],
      ]);
      // Still that day: nothing more goes.
      expect((await indexing.runOnce()).google).toMatchObject({ sent: 0, waiting: 1 });
      host.clock.advance(DAY);
      expect((await indexing.runOnce()).google).toMatchObject({ sent: 1, waiting: 0 });
      expect(google.notices.at(-1)).toEqual({ url: pageOf(changed.id), type: "URL_UPDATED", status: 200 });
    });

    const createJobs = async (count: number) => {
      const jobs = [];
      for (let n = 1; n <= count; n++) {
        jobs.push(await host.api.jobs.create(ACME, { ...baker, title: `Baker ${n}` }));
        host.clock.advance(1000);
      }
      return jobs;
    };

    it("sends Google's notices in batches: N jobs in ceil(N / batchSize) batch requests", async () => {
      const indexing = withGoogle({}, 200, { batchSize: 2 });
      const jobs = await createJobs(5);
      expect((await indexing.runOnce()).google).toEqual({ sent: 5, failed: 0, waiting: 0, skipped: 0 });
      expect(google.refused).toEqual([]);
      expect(google.batches).toEqual([
        { calls: 2, status: 200 },
        { calls: 2, status: 200 },
        { calls: 1, status: 200 },
      ]);
      expect(google.notices.map((n) => n.url).sort()).toEqual(jobs.map((job) => pageOf(job.id)).sort());
      expect(google.tokens).toHaveLength(1);
      const notices = await indexing.notices(
        ACME,
        jobs.map((job) => job.id),
      );
      expect(notices.map((n) => [n.action, n.status, n.error])).toEqual(jobs.map(() => ["updated", 200, null]));
    });

    it("records each call of a batch by its own answer: 200 sent, 429 pending and sent later, 400 failed", async () => {
      const indexing = withGoogle({}, 200, { batchSize: 3 });
      const [sent, later, refused] = await createJobs(3);
      if (!sent || !later || !refused) throw new Error("three jobs");
      google.script.push(200, 429, 400);
      expect((await indexing.runOnce()).google).toEqual({ sent: 1, failed: 1, waiting: 1, skipped: 0 });
      expect(google.refused).toEqual([]);
      expect(google.batches).toEqual([{ calls: 3, status: 200 }]);
      expect(google.notices.map((n) => [n.url, n.status])).toEqual([
        [pageOf(sent.id), 200],
        [pageOf(later.id), 429],
        [pageOf(refused.id), 400],
      ]);
      const byJob = new Map((await indexing.notices(ACME, [sent.id, later.id, refused.id])).map((n) => [n.jobId, n]));
      expect(byJob.get(sent.id)).toMatchObject({ action: "updated", status: 200, error: null });
      // Still pending: nothing covered yet, the try recorded.
      expect(byJob.get(later.id)).toMatchObject({
        seq: 0,
        action: null,
        status: 429,
        error: expect.stringContaining("429"),
      });
      expect(byJob.get(refused.id)).toMatchObject({
        action: "updated",
        status: 400,
        error: expect.stringContaining("400"),
      });

      expect((await indexing.runOnce()).google).toEqual({ sent: 1, failed: 0, waiting: 0, skipped: 0 });
      expect(google.batches.at(-1)).toEqual({ calls: 1, status: 200 });
      expect(google.notices.at(-1)).toEqual({ url: pageOf(later.id), type: "URL_UPDATED", status: 200 });
      expect((await indexing.notices(ACME, [later.id]))[0]).toMatchObject({ action: "updated", status: 200 });
    });

    it("counts every call of a batch against the daily quota, across batches and days", async () => {
      const indexing = withGoogle({}, 3, { batchSize: 2 });
      const jobs = await createJobs(5);
      expect((await indexing.runOnce()).google).toEqual({ sent: 3, failed: 0, waiting: 2, skipped: 0 });
      expect(google.batches.map((b) => b.calls)).toEqual([2, 1]);
      expect((await indexing.runOnce()).google).toMatchObject({ sent: 0, waiting: 2 });
      expect(google.batches).toHaveLength(2);
      host.clock.advance(DAY);
      expect((await indexing.runOnce()).google).toEqual({ sent: 2, failed: 0, waiting: 0, skipped: 0 });
      expect(google.batches.map((b) => b.calls)).toEqual([2, 1, 2]);
      expect(google.notices.map((n) => n.url).sort()).toEqual(jobs.map((job) => pageOf(job.id)).sort());
    });

    it("renews Google's daily quota at midnight Pacific Time, not at midnight UTC", async () => {
      const indexing = withGoogle({}, 1);
      const jobs = await createJobs(3);
      const sent = () => google.notices.length;
      // 23:59 on March 2nd in Los Angeles (PST, UTC-8), already March 3rd in UTC: the day's call.
      host.clock.set(new Date("2026-03-03T07:59:00.000Z"));
      expect((await indexing.runOnce()).google).toEqual({ sent: 1, failed: 0, waiting: 2, skipped: 0 });
      // Midnight in Los Angeles: a new day there, the same UTC day.
      host.clock.set(new Date("2026-03-03T08:00:00.000Z"));
      expect((await indexing.runOnce()).google).toEqual({ sent: 1, failed: 0, waiting: 1, skipped: 0 });
      // Midnight UTC is 16:00 on March 3rd there: the quota is spent until the next midnight there.
      host.clock.set(new Date("2026-03-04T00:00:00.000Z"));
      expect((await indexing.runOnce()).google).toEqual({ sent: 0, failed: 0, waiting: 1, skipped: 0 });
      host.clock.set(new Date("2026-03-04T07:59:59.000Z"));
      expect((await indexing.runOnce()).google).toMatchObject({ sent: 0, waiting: 1 });
      expect(sent()).toBe(2);
      host.clock.set(new Date("2026-03-04T08:00:00.000Z"));
      expect((await indexing.runOnce()).google).toEqual({ sent: 1, failed: 0, waiting: 0, skipped: 0 });
      expect(google.notices.map((n) => n.url).sort()).toEqual(jobs.map((job) => pageOf(job.id)).sort());
    });

    it("retries a whole batch answered 503; leaves every call pending when the batch keeps getting 429", async () => {
      const indexing = withGoogle({}, 200, { batchSize: 10 });
      const [first, second] = await createJobs(2);
      if (!first || !second) throw new Error("two jobs");
      google.batchScript.push(503);
      expect((await indexing.runOnce()).google).toEqual({ sent: 2, failed: 0, waiting: 0, skipped: 0 });
      expect(google.batches).toEqual([
        { calls: 2, status: 503 },
        { calls: 2, status: 200 },
      ]);

      await host.api.jobs.update(ACME, first.id, { title: "Head baker" });
      await host.api.jobs.update(ACME, second.id, { title: "Second baker" });
      // FAST_RETRY: the first try and two retries.
      google.batchScript.push(429, 429, 429);
      expect((await indexing.runOnce()).google).toEqual({ sent: 0, failed: 0, waiting: 2, skipped: 0 });
      expect(google.batches.slice(2).map((b) => b.status)).toEqual([429, 429, 429]);
      expect(google.notices).toHaveLength(2);
      const notices = await indexing.notices(ACME, [first.id, second.id]);
      expect(notices.map((n) => [n.status, n.seq])).toEqual([
        [429, 1],
        [429, 1],
      ]);
      expect((await indexing.runOnce()).google).toMatchObject({ sent: 2, waiting: 0 });
      expect(google.refused).toEqual([]);
    });

    it("leaves every call pending when a batch's 200 answer is not multipart/mixed, and sends them later", async () => {
      const indexing = withGoogle({}, 200, { batchSize: 10 });
      const jobs = await createJobs(2);
      google.unreadable = 1;
      expect((await indexing.runOnce()).google).toEqual({ sent: 0, failed: 0, waiting: 2, skipped: 0 });
      const notices = await indexing.notices(
        ACME,
        jobs.map((job) => job.id),
      );
      expect(notices.map((n) => [n.action, n.error])).toEqual([
        [null, expect.stringContaining("not multipart/mixed")],
        [null, expect.stringContaining("not multipart/mixed")],
      ]);
      expect((await indexing.runOnce()).google).toEqual({ sent: 2, failed: 0, waiting: 0, skipped: 0 });
      expect(google.batches.map((b) => b.calls)).toEqual([2, 2]);
      expect(google.refused).toEqual([]);
    });

    it("with batchSize 1, sends each notice as a publish call of its own", async () => {
      const indexing = withGoogle({}, 200, { batchSize: 1 });
      await createJobs(2);
      expect((await indexing.runOnce()).google).toEqual({ sent: 2, failed: 0, waiting: 0, skipped: 0 });
      expect(google.batches).toEqual([]);
      expect(google.notices).toHaveLength(2);
      expect(google.refused).toEqual([]);
    });

    it("sends after a restart what was pending when the notifier stopped", async () => {
      const first = withIndexNow({ pollIntervalMs: 60_000 });
      indexNow.status = 503;
      const job = await host.api.jobs.create(ACME, baker);
      first.start();
      await vi.waitFor(() => expect(indexNow.submissions.length).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
      await first.stop();
      expect(await first.notices(ACME, [job.id])).toEqual([
        expect.objectContaining({ seq: 0, status: 503, error: expect.stringContaining("503") }),
      ]);
      // A change while no notifier runs.
      const later = await host.api.jobs.create(ACME, { ...baker, title: "Later" });

      indexNow.status = 202;
      const second = withIndexNow({ pollIntervalMs: 60_000 });
      second.start();
      await vi.waitFor(
        async () => expect((await second.notices(ACME, [job.id, later.id])).map((n) => n.status)).toEqual([202, 202]),
        { timeout: 10_000 },
      );
      await second.stop();
      expect(indexNow.submissions.at(-1)?.urlList.sort()).toEqual([pageOf(job.id), pageOf(later.id)].sort());
    });

    it("sweeps a job whose closing date passed (no event of its own) and tells both services it is gone", async () => {
      const indexing = notifier({
        indexNow: { key: KEY, endpoint: indexNow.endpoint },
        google: { serviceAccount: google.serviceAccountJson, publishUrl: google.publishUrl, batchUrl: google.batchUrl },
      });
      const job = await host.api.jobs.create(ACME, { ...baker, closing_date: "2026-03-02" });
      const result = await indexing.runOnce();
      expect([result.indexnow?.sent, result.google?.sent]).toEqual([1, 1]);
      const notices = await indexing.notices(ACME, [job.id]);
      expect(notices.map((n) => n.closesAt)).toEqual([
        new Date("2026-03-03T00:00:00.000Z"),
        new Date("2026-03-03T00:00:00.000Z"),
      ]);

      expect((await indexing.runOnce()).swept).toBe(0);
      host.clock.set(new Date("2026-03-03T00:00:01.000Z"));
      const swept = await indexing.runOnce();
      expect(swept.swept).toBe(1);
      expect([swept.indexnow?.sent, swept.google?.sent]).toEqual([1, 1]);
      expect(google.notices.at(-1)).toEqual({ url: pageOf(job.id), type: "URL_DELETED", status: 200 });
      expect((await indexing.notices(ACME, [job.id])).map((n) => n.action)).toEqual(["deleted", "deleted"]);
    });
  });
}

describe("job indexing options", () => {
  const api = createPublicApi({
    storage: memoryStorage(),
    fileStore: memoryFileStore(),
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: SECRET,
  });
  const storage = memoryStorage();

  it("refuses an IndexNow key outside the protocol's format, in the notifier and in the site", () => {
    for (const key of ["short", "has space in it", "under_score_key", "x".repeat(129)]) {
      expect(() => createJobIndexing({ api, storage, indexNow: { key } })).toThrow(/8 to 128 characters/);
      expect(() =>
        createCareers({ api, resolveCompany: () => ACME, secret: SECRET, privacyNoticeUrl: "/p", indexNowKey: key }),
      ).toThrow(/indexNowKey/);
    }
    expect(createJobIndexing({ api, storage, indexNow: { key: "a".repeat(128) } }).services).toEqual(["indexnow"]);
  });

  it("refuses a Google batch size outside 1 to 100", () => {
    const serviceAccount = { client_email: "x@y.iam.gserviceaccount.com", private_key: "not used here" };
    for (const batchSize of [0, 101, 2.5]) {
      expect(() => createJobIndexing({ api, storage, google: { serviceAccount, batchSize } })).toThrow(
        /google\.batchSize must be a whole number from 1 to 100/,
      );
    }
    expect(createJobIndexing({ api, storage, google: { serviceAccount, batchSize: 100 } }).services).toEqual([
      "google",
    ]);
  });

  it("refuses a service account without its fields, and never repeats the key's text", () => {
    const secretText = '{"client_email":"x@y.iam.gserviceaccount.com","private_key":42,"note":"SECRET-PART"}';
    let message = "";
    try {
      createJobIndexing({ api, storage, google: { serviceAccount: secretText } });
    } catch (error) {
      message = String(error);
    }
    expect(message).toContain("client_email and private_key");
    expect(message).not.toContain("SECRET-PART");
    expect(() => createJobIndexing({ api, storage, google: { serviceAccount: "{not json SECRET-PART" } })).toThrow(
      /^(?!.*SECRET-PART).*not JSON/,
    );
  });
});
