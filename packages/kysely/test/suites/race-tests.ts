/** Races of the storage contract with several connections, and two OS processes, at once. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createPublicApi } from "@hireport/core";
import { type RateLimitBucket, REDACTED_RESPONSE_BODY } from "@hireport/core/storage";
import type { WebhookStorage } from "@hireport/webhooks";
import { type CompiledQuery, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { routinesOf } from "../../src/dialects/postgres/routines";
import { kyselyStorage } from "../../src/index";
import { createDb } from "../helpers/databases";
import * as make from "../helpers/records";
import type { SuiteContext } from "./suite-context";

const WORKER = fileURLToPath(new URL("../fixtures/rate-limit-worker.ts", import.meta.url));

/** A promise and what settles it (`Promise.withResolvers`, which Node 20 lacks). */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

export function defineRaceTests(suite: SuiteContext): void {
  const { dialect, prefix, sqliteFile, t, storage, database, racer } = suite;

  describe("races with several connections", () => {
    for (const inTransaction of [true, false]) {
      it(`inserts exactly one of several identical applications sent at once (${inTransaction ? "each in a caller's transaction" : "on the storage"})`, async () => {
        const co = await make.addCompany(storage);
        const jobRecord = make.job(co.id);
        await storage.jobs.insert(jobRecord);
        const record = () => make.application(co.id, jobRecord.id, { emailNormalized: "same@example.com" });
        const results = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            inTransaction
              ? racer(i).transaction(async (tx) => {
                  await tx.jobs.get(co.id, jobRecord.id); // a read first, as the service does
                  return make.createApplication(tx, record());
                })
              : make.createApplication(racer(i), record()),
          ),
        );
        expect(results.filter((result) => result.outcome === "created")).toHaveLength(1);
        expect(results.filter((result) => result.outcome === "duplicate")).toHaveLength(11);
        const rows = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(t("application"))}
          where job_id = ${jobRecord.id}`.execute(database);
        expect(Number(rows.rows[0]?.n)).toBe(1);
        expect((await storage.jobs.get(co.id, jobRecord.id))?.applicationsCount).toBe(1);
      });
    }

    it("events feed: no gaps when a transaction that started first commits last, with a reader in between", async () => {
      // SQLite runs one writer at a time: there the second transaction cannot commit first.
      if (dialect === "sqlite") return;
      const co = await make.addCompany(storage);
      const since = new Date("2026-01-01T00:00:00Z");
      const query = { types: ["job.created" as const], createdSince: since, take: 10 };
      const early = make.event(co.id, { type: "job.created", createdAt: new Date("2026-03-01T10:00:00.000Z") });
      const late = make.event(co.id, { type: "job.created", createdAt: new Date("2026-03-01T10:00:05.000Z") });
      const appended = signal();
      const release = signal();
      // The first transaction starts and appends its event (the earlier created_at, the smaller id)…
      const first = racer(0).transaction(async (tx) => {
        await tx.events.append(early);
        appended.resolve();
        await release.promise;
      });
      await appended.promise;
      // …a second one appends and commits while the first is still open…
      await racer(1).transaction((tx) => tx.events.append(late));
      // …a reader following the feed gets the committed one at once (it waits for no transaction)…
      const before = await Promise.race([
        storage.events.feed(co.id, query),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error("the feed waited for a transaction")), 5000),
        ),
      ]);
      expect(before.map((event) => event.id)).toEqual([late.id]);
      const cursor = before[0]?.position;
      // …then the first commits, and following the cursor gets it: nothing was skipped.
      release.resolve();
      await first;
      const after = await storage.events.feed(co.id, { ...query, after: cursor as string });
      expect(after.map((event) => event.id)).toEqual([early.id]);
      expect(Number(after[0]?.position)).toBeGreaterThan(Number(cursor));
      // From the start, both, in the order they committed.
      expect((await storage.events.feed(co.id, query)).map((event) => event.id)).toEqual([late.id, early.id]);
    });

    it("events feed: concurrent writers and readers, every committed event served once", async () => {
      const co = await make.addCompany(storage);
      const query = { types: ["job.created" as const], createdSince: new Date("2026-01-01T00:00:00Z"), take: 7 };
      const written: string[] = [];
      const seen: string[] = [];
      let cursor: string | undefined;
      let writing = true;
      const readAll = async () => {
        for (;;) {
          const page = await storage.events.feed(co.id, { ...query, ...(cursor ? { after: cursor } : {}) });
          for (const event of page) seen.push(event.id);
          cursor = page.at(-1)?.position ?? cursor;
          if (page.length < query.take) return;
        }
      };
      const reader = (async () => {
        while (writing) await readAll();
      })();
      await Promise.all(
        Array.from({ length: 8 }, async (_, worker) => {
          for (let i = 0; i < 5; i++) {
            const event = make.event(co.id, {
              type: "job.created",
              createdAt: new Date(Date.UTC(2026, 2, 1, 10, 0, i)),
            });
            await racer(worker).transaction(async (tx) => {
              await tx.events.append(event);
              // Hold some transactions open a little, so that commits come out of order.
              if ((worker + i) % 3 === 0) await new Promise((resolve) => setTimeout(resolve, 15));
            });
            written.push(event.id);
          }
        }),
      );
      writing = false;
      await reader;
      await readAll();
      expect(seen).toHaveLength(written.length);
      expect(new Set(seen)).toEqual(new Set(written));
    });

    it("keeps applications_count exact after parallel creates", async () => {
      const co = await make.addCompany(storage);
      const jobRecord = make.job(co.id);
      await storage.jobs.insert(jobRecord);
      await Promise.all(
        Array.from({ length: 30 }, (_, i) => make.createApplication(racer(i), make.application(co.id, jobRecord.id))),
      );
      const raw = await sql<{ n: number | string }>`select applications_count as n from ${sql.table(t("job"))}
        where id = ${jobRecord.id}`.execute(database);
      expect(Number(raw.rows[0]?.n)).toBe(30);
    });

    it("admits exactly the limit of parallel rate-limit calls, and a refused call counts nothing", async () => {
      const key = make.id("rl");
      const now = new Date();
      const buckets: RateLimitBucket[] = [
        { key: `${key}:minute`, limit: 10, resetAt: new Date(now.getTime() + 60_000) },
        { key: `${key}:day`, limit: 1000, resetAt: new Date(now.getTime() + 86_400_000) },
      ];
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => racer(i).rateLimits.consume(buckets, now)),
      );
      expect(results.filter((result) => result.allowed)).toHaveLength(10);
      expect(results.filter((result) => !result.allowed).every((result) => result.refusedBucket === 0)).toBe(true);
      const rows = await sql<{ k: string; n: number | string }>`select bucket_key as k, hits as n
        from ${sql.table(t("rate_limit"))} where bucket_key like ${`${key}%`} order by bucket_key`.execute(database);
      expect(rows.rows.map((row) => [row.k, Number(row.n)])).toEqual([
        [`${key}:day`, 10],
        [`${key}:minute`, 10],
      ]);
      const refused = await storage.rateLimits.consume(buckets, now);
      expect(refused).toEqual({ allowed: false, counts: [10, 10], refusedBucket: 0 });
      const allowedOnce = await storage.rateLimits.consume(
        [{ key: `${key}:other`, limit: 3, resetAt: buckets[0]?.resetAt as Date }, buckets[1] as RateLimitBucket],
        now,
      );
      expect(allowedOnce).toEqual({ allowed: true, counts: [1, 11], refusedBucket: null });
      expect(await storage.rateLimits.purgeExpired(new Date(now.getTime() + 61_000))).toBe(2);
    });

    it.runIf(dialect === "postgres")(
      "commits the rate-limit statement with synchronous_commit off without leaking it into the session",
      async () => {
        const single = await createDb("postgres", { sqliteFile, poolSize: 1 });
        try {
          const seen: CompiledQuery[] = [];
          const logged = await createDb("postgres", {
            sqliteFile,
            poolSize: 1,
            onQuery: (e) => seen.push(e.query),
          });
          const bucket = { key: make.id("sc"), limit: 5, resetAt: new Date(Date.now() + 60_000) };
          // The last argument of count_requests: relax this statement's commit.
          const countRequests = routinesOf(prefix).count_requests.name;
          const relaxed = (query: CompiledQuery) => query.sql.includes(countRequests) && query.parameters.at(-1);
          await kyselyStorage({ db: logged, tablePrefix: prefix }).rateLimits.consume([bucket], new Date());
          const before = seen.filter(relaxed).length;
          expect(before).toBeGreaterThan(0);
          await kyselyStorage({ db: logged, tablePrefix: prefix, durableRateLimits: true }).rateLimits.consume(
            [bucket],
            new Date(),
          );
          expect(seen.filter(relaxed)).toHaveLength(before);
          expect(seen.filter((query) => query.sql.includes(countRequests))).toHaveLength(before + 1);
          // What the argument does: synchronous_commit off until the statement's transaction ends.
          for (const relax of [true, false]) {
            const inside = await logged.transaction().execute(async (trx) => {
              await sql`select * from ${sql.id(countRequests)}('x', array[':none'], array[1], array[now()], now(), 1, ${relax})`.execute(
                trx,
              );
              return (await sql<{ s: string }>`select current_setting('synchronous_commit') as s`.execute(trx)).rows[0]
                ?.s;
            });
            expect(inside).toBe(relax ? "off" : "on");
          }
          const setting = await sql<{ s: string }>`select current_setting('synchronous_commit') as s`.execute(logged);
          expect(setting.rows[0]?.s).toBe("on");
          await logged.destroy();
          expect(
            await kyselyStorage({ db: single, tablePrefix: prefix }).rateLimits.consume([bucket], new Date()),
          ).toMatchObject({ allowed: true, counts: [3] });
        } finally {
          await single.destroy();
        }
      },
    );

    it.runIf(dialect === "postgres")(
      "relaxes the commit of counters and numbers only in statements of their own, never inside a caller's transaction",
      async () => {
        const bucket = { key: make.id("sc"), limit: 5, resetAt: new Date(Date.now() + 60_000) };
        const co = await make.addCompany(storage);
        // A storage made on a Kysely transaction of the host's: its writes commit with the host's.
        const setting = await database.transaction().execute(async (trx) => {
          const inHostTx = kyselyStorage({ db: trx, tablePrefix: prefix });
          await inHostTx.rateLimits.consume([bucket], new Date());
          await inHostTx.companies.reserveSequence(co.id, "job", 1);
          const { rows } = await sql<{ s: string }>`select current_setting('synchronous_commit') as s`.execute(trx);
          return rows[0]?.s;
        });
        expect(setting).toBe("on");
        const seen: string[] = [];
        const logged = await createDb("postgres", {
          sqliteFile,
          poolSize: 1,
          onQuery: (e) => seen.push(e.query.sql),
        });
        try {
          const loggedStorage = kyselyStorage({ db: logged, tablePrefix: prefix });
          expect(await loggedStorage.companies.reserveSequence(co.id, "job", 3)).toBe(2);
          expect(seen.at(-1)).toContain("set_config('synchronous_commit', 'off', true)");
          expect(await loggedStorage.transaction((tx) => tx.companies.reserveSequence(co.id, "job", 1))).toBe(5);
          expect(seen.filter((text) => text.includes("set_config"))).toHaveLength(1);
        } finally {
          await logged.destroy();
        }
      },
    );

    /** Runs the worker in its own OS process and returns how many of its calls were admitted. */
    const worker = (args: string[]) =>
      new Promise<number>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", WORKER, dialect, prefix, sqliteFile, ...args], {
          cwd: fileURLToPath(new URL("../..", import.meta.url)),
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        let err = "";
        child.stdout.on("data", (chunk) => {
          out += chunk;
        });
        child.stderr.on("data", (chunk) => {
          err += chunk;
        });
        child.on("exit", (code) => {
          if (code !== 0) reject(new Error(`worker exited with ${code}: ${err}`));
          else resolve(JSON.parse(out.trim().split("\n").at(-1) as string).allowed as number);
        });
      });

    it("admits exactly the limit when two OS processes race on one counter", async () => {
      const key = make.id("rl2p");
      const startAt = String(Date.now() + 2500);
      const [a, b] = await Promise.all([worker([key, "25", "20", startAt]), worker([key, "25", "20", startAt])]);
      expect(a + b).toBe(20);
      const rows = await sql<{ n: number | string }>`select hits as n from ${sql.table(t("rate_limit"))}
        where bucket_key = ${key}`.execute(database);
      expect(Number(rows.rows[0]?.n)).toBe(20);
    }, 30_000);

    it("admits exactly the per-minute limit of one key through the API from two OS processes", async () => {
      const api = createPublicApi({
        storage,
        publicBaseUrl: "https://careers.example.com",
        fileTokenSecret: "rate-limit-worker-secret-0123456789abcdef",
      });
      const co = make.company();
      await api.companies.upsert({ id: co.id, name: co.name });
      const { key } = await api.keys.create({ companyId: co.id, name: "Two processes", scopes: ["jobs:read"] });
      const startAt = String(Date.now() + 2500);
      // Both processes on one stopped clock: one minute window (and its first request, which
      // creates the counter rows, races too).
      const clock = String(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
      const [a, b] = await Promise.all([
        worker([key, "60", "45", startAt, "api", clock]),
        worker([key, "60", "45", startAt, "api", clock]),
      ]);
      expect(a + b).toBe(45);
    }, 30_000);

    it("keeps the active-key limit under parallel inserts", async () => {
      const co = await make.addCompany(storage);
      const now = new Date();
      const results = await Promise.all(
        Array.from({ length: 16 }, (_, i) => racer(i).keys.insert(make.apiKey(co.id), { maxActive: 5, now })),
      );
      expect(results.filter((result) => result === "inserted")).toHaveLength(5);
      expect(await storage.keys.list(co.id)).toHaveLength(5);
    });

    it("never hands out a sequence number twice, in blocks of different sizes from several connections", async () => {
      const co = make.company();
      const sizes = Array.from({ length: 30 }, (_, i) => 1 + (i % 4));
      const firsts = await Promise.all(sizes.map((size, i) => racer(i).companies.reserveSequence(co.id, "job", size)));
      const numbers = firsts.flatMap((first, i) => Array.from({ length: sizes[i] ?? 0 }, (_, k) => first + k));
      const total = sizes.reduce((sum, size) => sum + size, 0);
      expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    });

    it("lets only one of concurrent idempotency claims win", async () => {
      const now = new Date();
      const input = {
        keyId: "key_idem",
        idempotencyKey: make.id("idem"),
        requestHash: "h1",
        now,
        expiresAt: new Date(now.getTime() + 86_400_000),
        lockedUntil: new Date(now.getTime() + 30_000),
      };
      const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => racer(i).idempotency.claim(input)));
      expect(claims.filter((claim) => claim.state === "claimed")).toHaveLength(1);
      expect(claims.filter((claim) => claim.state === "in_progress")).toHaveLength(9);
      await storage.idempotency.complete(input.keyId, input.idempotencyKey, {
        status: 201,
        headers: { "content-type": "application/json" },
        body: '{"ok":"✓"}',
      });
      expect(await storage.idempotency.claim({ ...input, requestHash: "h2" })).toEqual({
        state: "completed",
        requestHash: "h1",
        response: { status: 201, headers: { "content-type": "application/json" }, body: '{"ok":"✓"}' },
      });
      const later = new Date(now.getTime() + 86_400_001);
      expect(await storage.idempotency.claim({ ...input, now: later })).toEqual({ state: "claimed" });
      expect(await storage.idempotency.purgeExpired(new Date(now.getTime() + 3 * 86_400_000))).toBeGreaterThanOrEqual(
        1,
      );
    });

    it("never gives one due delivery to two concurrent claims", async () => {
      const co = make.company();
      const ep = make.endpoint(co.id);
      const paused = make.endpoint(co.id, { status: "paused", pausedReason: "manual" });
      await storage.webhooks.insertEndpoint(ep);
      await storage.webhooks.insertEndpoint(paused);
      const ev = make.event(co.id);
      await storage.events.append(ev);
      const due = new Date("2026-03-01T10:00:00.000Z");
      const deliveries = Array.from({ length: 40 }, (_, i) =>
        make.delivery(ev, ep.id, {
          nextAttemptAt: new Date(due.getTime() + i),
          createdAt: new Date(due.getTime() + i),
        }),
      );
      await storage.webhooks.insertDeliveries(deliveries);
      await storage.webhooks.insertDeliveries([make.delivery(ev, paused.id)]);
      const now = new Date(due.getTime() + 60_000);
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          racer(i).webhooks.claimDueDeliveries({
            now,
            limit: 7,
            leaseUntil: new Date(now.getTime() + 30_000),
            leaseToken: `lease_${i}`,
          }),
        ),
      );
      // Under SKIP LOCKED a claim may come back short while others hold rows; what was not
      // claimed concurrently is claimed by the calls after.
      for (let round = 0; round < 10; round += 1) {
        const more = await storage.webhooks.claimDueDeliveries({
          now,
          limit: 7,
          leaseUntil: new Date(now.getTime() + 30_000),
          leaseToken: `lease_late_${round}`,
        });
        if (more.length === 0) break;
        claims.push(more);
      }
      const ids = claims.flat().map((claimed) => claimed.delivery.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(40);
      expect(claims.slice(0, 8).flat().length).toBeGreaterThanOrEqual(7);
      expect(claims.flat().every((claimed) => claimed.payload === ev.payload && claimed.endpoint.id === ep.id)).toBe(
        true,
      );
      for (const claim of claims) {
        const times = claim.map((claimed) => claimed.delivery.nextAttemptAt?.getTime() ?? 0);
        expect(times).toEqual([...times].sort((a, b) => a - b));
      }
      expect(
        await storage.webhooks.claimDueDeliveries({ now, limit: 10, leaseUntil: now, leaseToken: "late" }),
      ).toEqual([]);
    });

    it("keeps maxPerEndpoint in every one of many concurrent claims, and never gives a delivery twice", async () => {
      const co = make.company();
      const eps = [make.endpoint(co.id), make.endpoint(co.id), make.endpoint(co.id), make.endpoint(co.id)];
      for (const ep of eps) await storage.webhooks.insertEndpoint(ep);
      const ev = make.event(co.id);
      await storage.events.append(ev);
      // Due before every other test's deliveries; the first endpoint's are the oldest, most of them.
      const due = new Date("2019-06-01T10:00:00.000Z");
      const deliveries = Array.from({ length: 48 }, (_, i) =>
        make.delivery(ev, (i < 24 ? eps[0] : eps[i % 4])?.id ?? "", {
          nextAttemptAt: new Date(due.getTime() + i),
          createdAt: new Date(due.getTime() + i),
        }),
      );
      await storage.webhooks.insertDeliveries(deliveries);
      const now = new Date(due.getTime() + 60_000);
      const claimWith = (store: WebhookStorage, token: string) =>
        store.webhooks.claimDueDeliveries({
          now,
          limit: 7,
          // Held for good: the later tests' claims, due after this one, must not take them again.
          leaseUntil: new Date("2037-01-01T00:00:00.000Z"),
          leaseToken: token,
          maxPerEndpoint: 3,
        });
      const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => claimWith(racer(i), `cap_${i}`)));
      for (let round = 0; round < 40; round += 1) {
        const more = await claimWith(storage, `cap_late_${round}`);
        if (more.length === 0) break;
        claims.push(more);
      }
      for (const claim of claims) {
        for (const ep of eps) {
          expect(claim.filter((claimed) => claimed.endpoint.id === ep.id).length).toBeLessThanOrEqual(3);
        }
      }
      const ids = claims.flat().map((claimed) => claimed.delivery.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(48);
      // The first claim of all was not filled with the first endpoint's deliveries alone.
      expect(claims.slice(0, 8).flat().length).toBeGreaterThanOrEqual(7);
    });
  });

  describe.runIf(dialect === "postgres")(
    "a job that changes while create_application waits for its row (Postgres)",
    () => {
      for (const inTransaction of [false, true]) {
        it(`answers job_changed and writes nothing${inTransaction ? ", leaving the caller's transaction as it was" : ""}`, async () => {
          const co = await make.addCompany(storage);
          const jobRecord = make.job(co.id);
          await storage.jobs.insert(jobRecord);
          const record = make.application(co.id, jobRecord.id);
          const write = make.applicationWrite(record, jobRecord);
          // Another connection changes the job and holds its row until told to commit.
          const { promise: committing, resolve: commit } = signal();
          const { promise: isChanged, resolve: changed } = signal();
          const holder = database.connection().execute(async (conn) => {
            await sql`begin`.execute(conn);
            await sql`update ${sql.table(t("job"))} set updated_at = ${new Date(jobRecord.updatedAt.getTime() + 1000)}
            where id = ${jobRecord.id}`.execute(conn);
            changed();
            await committing;
            await sql`commit`.execute(conn);
          });
          await isChanged;
          // The call waits for the job's row, then sees the committed change.
          const other = make.job(co.id); // written by the caller's transaction before the call
          const result = inTransaction
            ? racer(1).transaction(async (tx) => {
                await tx.jobs.insert(other);
                return tx.applications.create(write);
              })
            : racer(1).applications.create(write);
          for (let waited = 0; ; waited += 20) {
            const waiting = await sql<{ n: number | string }>`select count(*) as n from pg_stat_activity
            where wait_event_type = 'Lock' and query like '%create_application%'`.execute(database);
            if (Number(waiting.rows[0]?.n) > 0) break;
            if (waited > 10_000) throw new Error("create_application never waited for the job's row");
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          commit();
          await holder;
          expect(await result).toEqual({ outcome: "job_changed" });
          const rows = await sql<{ n: number | string }>`select
            (select count(*) from ${sql.table(t("application"))} where id = ${record.id})
          + (select count(*) from ${sql.table(t("stage_change"))} where application_id = ${record.id})
          + (select count(*) from ${sql.table(t("event"))} where id = ${write.event.id}) as n`.execute(database);
          expect(Number(rows.rows[0]?.n)).toBe(0);
          expect((await storage.jobs.get(co.id, jobRecord.id))?.applicationsCount).toBe(0);
          // The caller's own write before the call stays.
          if (inTransaction)
            expect(await storage.jobs.get(co.id, other.id)).toEqual(expect.objectContaining({ id: other.id }));
        });
      }
    },
  );

  describe.runIf(dialect === "postgres" || dialect === "mysql")(
    "an attempt recorded while an erasure of its application waits to commit",
    () => {
      it("is stored without the receiver's answer", async () => {
        const co = await make.addCompany(storage);
        const jobRecord = make.job(co.id);
        await storage.jobs.insert(jobRecord);
        const application = make.application(co.id, jobRecord.id);
        expect(await make.createApplication(storage, application)).toMatchObject({ outcome: "created" });
        const endpoint = make.endpoint(co.id);
        await storage.webhooks.insertEndpoint(endpoint);
        const event = make.event(co.id, {
          type: "application.updated",
          subjectId: application.id,
          payload: JSON.stringify({ data: { id: application.id, email: application.candidate.email } }),
        });
        await storage.events.append(event);
        const far = new Date(Date.now() + 3_600_000);
        const leaseToken = make.id("lease");
        const held = make.delivery(event, endpoint.id, { leaseToken, leaseExpiresAt: far, nextAttemptAt: far });
        await storage.webhooks.insertDeliveries([held]);
        const outcome = make.succeeded(held, new Date());
        outcome.attempt.responseBody = `you sent ${event.payload}`;

        // The erasure locks the application's rows and deliveries, then waits to commit until told.
        const { promise: committing, resolve: commit } = signal();
        const { promise: isErased, resolve: erased } = signal();
        const erasure = storage.transaction(async (tx) => {
          const result = await tx.candidates.erase({
            companyId: co.id,
            applicationIds: [application.id],
            erasedAt: new Date(),
          });
          erased();
          await committing;
          return result;
        });
        await isErased;
        const recording = racer(1).webhooks.recordAttempts([{ deliveryId: held.id, leaseToken, outcome }]);
        const deliveries = `%${t("webhook_delivery")}%`;
        for (let waited = 0; ; waited += 20) {
          const waiting =
            dialect === "postgres"
              ? await sql<{ n: number | string }>`select count(*) as n from pg_stat_activity
                where wait_event_type = 'Lock' and query like ${deliveries}`.execute(database)
              : // MariaDB can show this wait as RUNNING in innodb_trx: the statement, still running, is enough.
                await sql<{ n: number | string }>`select count(*) as n from information_schema.processlist
                where command = 'Query' and info like ${`${deliveries} for update`}`.execute(database);
          if (Number(waiting.rows[0]?.n) > 0) break;
          if (waited > 10_000) throw new Error("recordAttempts never waited for the delivery's row");
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        commit();
        expect(await erasure).toMatchObject({ attempts: 0 });
        expect(await recording).toEqual([expect.objectContaining({ recorded: true })]);
        expect(await storage.webhooks.listAttempts(co.id, held.id)).toEqual([
          { ...outcome.attempt, responseBody: REDACTED_RESPONSE_BODY },
        ]);
      });
    },
  );
}
