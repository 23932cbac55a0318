/** Webhook claims beside outbox writes (no deadlock, no delivery given twice), attempts, resends and purges. */
import { deliveryId } from "@hireport/core/extend";
import { endpointUpdate } from "@hireport/webhooks";
import type { CompiledQuery } from "kysely";
import { describe, expect, it } from "vitest";
import { migrateToLatest } from "../../src/index";
import { kyselyWebhookStorage } from "../../src/webhooks";
import { type AnyDb, dropTables, randomPrefix } from "../helpers/databases";
import * as make from "../helpers/records";
import type { SuiteContext } from "./suite-context";

export function defineWebhookTests(suite: SuiteContext): void {
  const { dialect, queries, storage, database, racer, extra, countQueries } = suite;

  describe("webhook claims beside outbox writes", () => {
    it("claims (at most 2 per endpoint), records attempts, releases, and writes events with their deliveries at once without deadlocks", async () => {
      const co = make.company();
      const endpoints = [make.endpoint(co.id), make.endpoint(co.id)];
      for (const ep of endpoints) await storage.webhooks.insertEndpoint(ep);
      // Due long before every other test's deliveries: this test's claims see only its own.
      const start = new Date("2020-01-01T00:00:00.000Z");
      const written: string[] = [];
      const recorded: string[] = [];
      let released = 0;
      let writing = true;
      const writer = (async () => {
        for (let i = 0; i < 60; i += 1) {
          const at = new Date(start.getTime() + i);
          // Both endpoints take job.created: the append fans out to both.
          const ev = make.event(co.id, { type: "job.created", createdAt: at });
          await racer(i).transaction(async (tx) => {
            await tx.jobs.insert(make.job(co.id, { createdAt: at }));
            await tx.events.append(ev);
          });
          written.push(...endpoints.map((ep) => deliveryId(ev.id, ep.id)));
        }
        writing = false;
      })();
      const dispatcher = async (n: number) => {
        const store = racer(n);
        for (let round = 0; ; round += 1) {
          const done = !writing;
          const now = new Date(start.getTime() + 60_000);
          const batch = await store.webhooks.claimDueDeliveries({
            now,
            limit: 5,
            leaseUntil: new Date(now.getTime() + 30_000),
            leaseToken: `t_${n}_${round}`,
            maxPerEndpoint: 2,
          });
          for (const ep of endpoints) {
            expect(batch.filter((item) => item.endpoint.id === ep.id).length).toBeLessThanOrEqual(2);
          }
          // Every third round gives its last delivery back unsent, as a stopping dispatcher does.
          const giveBack = round % 3 === 2 ? batch.slice(-1) : [];
          if (giveBack.length > 0) {
            const ids = giveBack.map((item) => item.delivery.id);
            expect(await store.webhooks.releaseDeliveries(ids, `t_${n}_${round}`)).toBe(1);
            released += 1;
          }
          for (const { delivery } of batch.slice(0, batch.length - giveBack.length)) {
            recorded.push(delivery.id);
            const outcome = await store.webhooks.recordAttempt(
              delivery.id,
              `t_${n}_${round}`,
              make.succeeded(delivery, now),
            );
            expect(outcome.recorded).toBe(true);
          }
          if (batch.length === 0) {
            if (done) break;
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
        }
      };
      await Promise.all([writer, dispatcher(0), dispatcher(1), dispatcher(2)]);
      expect(new Set(recorded).size).toBe(recorded.length);
      expect(new Set(recorded)).toEqual(new Set(written));
      expect(released).toBeGreaterThan(0);
    }, 60_000);
  });

  describe("webhook claims beside an open outbox transaction", () => {
    // Regression: on MariaDB a claim's `UPDATE … WHERE id IN (…)` walked the whole primary key of
    // a small table and waited on the delivery an uncommitted outbox transaction had inserted;
    // that transaction's next insert waited on the claim, and MariaDB rolled the outbox write back.
    it.skipIf(dialect === "sqlite")(
      "claims and releases without waiting for an outbox transaction that has inserted deliveries and not committed",
      async () => {
        // A small table of its own: MariaDB scans small tables, which is when it happened.
        const own = randomPrefix();
        const migrated = await migrateToLatest(database, { tablePrefix: own });
        expect(migrated.error).toBeUndefined();
        const host = kyselyWebhookStorage({ db: database, tablePrefix: own });
        // Another connection of the same pool, whose statements are logged.
        const claimer = host;
        let claimQueries: CompiledQuery[] = [];
        const within = <T>(work: Promise<T>): Promise<T> =>
          Promise.race([
            work,
            new Promise<never>((_, reject) =>
              setTimeout(() => reject(new Error("the claim waited for the open outbox transaction")), 3_000),
            ),
          ]);
        try {
          const co = make.company();
          const ep = make.endpoint(co.id);
          await host.webhooks.insertEndpoint(ep);
          const at = new Date("2026-03-01T10:00:00.000Z");
          const ev = make.event(co.id, { createdAt: at });
          await host.events.append(ev);
          const ready = Array.from({ length: 12 }, (_, i) =>
            make.delivery(ev, ep.id, {
              nextAttemptAt: new Date(at.getTime() + i),
              createdAt: new Date(at.getTime() + i),
            }),
          );
          await host.webhooks.insertDeliveries(ready);
          const now = new Date(at.getTime() + 60_000);
          const claimed: string[] = [];
          const logged = queries.length;
          await host.transaction(async (tx) => {
            const open = make.event(co.id, { createdAt: now });
            await tx.events.append(open);
            await tx.webhooks.insertDeliveries([make.delivery(open, ep.id, { nextAttemptAt: at, createdAt: now })]);
            for (const [round, maxPerEndpoint] of [undefined, 5].entries()) {
              const token = `open_${round}`;
              const batch = await within(
                claimer.webhooks.claimDueDeliveries({
                  now,
                  limit: 5,
                  leaseUntil: new Date(now.getTime() + 30_000),
                  leaseToken: token,
                  ...(maxPerEndpoint === undefined ? {} : { maxPerEndpoint }),
                }),
              );
              expect(batch).toHaveLength(5);
              claimed.push(...batch.map((item) => item.delivery.id));
              const back = batch.slice(0, 2).map((item) => item.delivery.id);
              expect(await within(claimer.webhooks.releaseDeliveries(back, token))).toBe(2);
            }
            claimQueries = queries.slice(logged);
            // The outbox transaction goes on inserting, and commits.
            await tx.webhooks.insertDeliveries([make.delivery(open, ep.id, { nextAttemptAt: at, createdAt: now })]);
          });
          if (dialect === "mysql") {
            // The locking read and the updates by id reach rows through the primary key alone.
            const byId = claimQueries.filter(
              (query) => /for update skip locked/i.test(query.sql) || /^update .*webhook_delivery/i.test(query.sql),
            );
            expect(byId.length).toBeGreaterThanOrEqual(4);
            for (const query of byId) {
              const plan = await database.executeQuery<{ key: string | null; type: string }>({
                ...query,
                sql: `explain ${query.sql}`,
              });
              for (const row of plan.rows) {
                expect({ sql: query.sql, key: row.key, type: row.type }).toMatchObject({
                  key: "PRIMARY",
                  type: expect.stringMatching(/^(range|const|eq_ref)$/),
                });
              }
            }
          }
          expect(claimed).toHaveLength(10);
          expect(await host.webhooks.listDeliveries({ companyId: co.id, endpointId: ep.id, take: 100 })).toHaveLength(
            14,
          );

          // Then many outbox transactions of two deliveries each, beside three claimers that
          // record and release, on this small table: none may fail.
          const second = make.endpoint(co.id);
          await host.webhooks.insertEndpoint(second);
          const written: string[] = [];
          let writing = true;
          const writer = (async () => {
            try {
              for (let i = 0; i < 120; i += 1) {
                // Both endpoints take job.created: the append fans out to both.
                const event = make.event(co.id, { type: "job.created", createdAt: at });
                const rows = [ep, second].map((e) => ({ id: deliveryId(event.id, e.id) }));
                await host.transaction((tx) => tx.events.append(event));
                written.push(...rows.map((row) => row.id));
              }
            } finally {
              writing = false;
            }
          })();
          const recorded: string[] = [];
          const dispatch = async (n: number) => {
            const store = kyselyWebhookStorage({ db: extra[n % extra.length] as AnyDb, tablePrefix: own });
            for (let round = 0; ; round += 1) {
              const done = !writing;
              const token = `stress_${n}_${round}`;
              const batch = await store.webhooks.claimDueDeliveries({
                now,
                limit: 4,
                leaseUntil: new Date(now.getTime() + 30_000),
                leaseToken: token,
                maxPerEndpoint: 2,
              });
              const giveBack = round % 2 === 1 ? batch.slice(-1) : [];
              if (giveBack.length > 0) {
                await store.webhooks.releaseDeliveries(
                  giveBack.map((item) => item.delivery.id),
                  token,
                );
              }
              for (const { delivery } of batch.slice(0, batch.length - giveBack.length)) {
                const outcome = await store.webhooks.recordAttempt(delivery.id, token, make.succeeded(delivery, now));
                if (outcome.recorded) recorded.push(delivery.id);
              }
              if (batch.length === 0) {
                if (done) break;
                await new Promise((resolve) => setTimeout(resolve, 2));
              }
            }
          };
          await Promise.all([writer, dispatch(0), dispatch(1), dispatch(2)]);
          expect(new Set(recorded).size).toBe(recorded.length);
          expect(written.filter((id) => !recorded.includes(id))).toEqual([]);
        } finally {
          await dropTables(database, own);
        }
      },
      30_000,
    );
  });

  describe("webhook deliveries", () => {
    it("records attempts only under the lease, pauses after the failure threshold, resends and purges", async () => {
      const co = make.company();
      const ep = make.endpoint(co.id);
      await storage.webhooks.insertEndpoint(ep);
      expect(await storage.webhooks.getEndpoint(co.id, ep.id)).toEqual(ep);
      const ev = make.event(co.id);
      await storage.events.append(ev);
      const record = make.delivery(ev, ep.id);
      await storage.webhooks.insertDeliveries([record]);
      const base = new Date("2026-03-01T10:00:00.000Z");
      const attempt = (n: number, token: string, succeeded = false) =>
        storage.webhooks.recordAttempt(record.id, token, {
          attempt: {
            id: make.id("att"),
            deliveryId: record.id,
            endpointId: ep.id,
            attemptedAt: new Date(base.getTime() + n * 1000),
            statusCode: succeeded ? 200 : 500,
            durationMs: 12.5,
            responseBody: "nö",
            error: succeeded ? null : "HTTP 500",
            succeeded,
          },
          status: succeeded ? "succeeded" : "pending",
          nextAttemptAt: succeeded ? null : new Date(base.getTime() + n * 1000),
          endpoint: endpointUpdate({ succeeded, test: false, gone: false, pauseAfter: 3 }),
        });
      const claim = async (n: number) => {
        const now = new Date(base.getTime() + n * 1000 + 1);
        const [claimed] = await storage.webhooks.claimDueDeliveries({
          now,
          limit: 5,
          leaseUntil: new Date(now.getTime() + 30_000),
          leaseToken: `tok_${n}`,
        });
        return claimed;
      };
      expect((await claim(0))?.delivery.leaseToken).toBe("tok_0");
      expect(await attempt(0, "wrong")).toMatchObject({ recorded: false });
      expect(await attempt(0, "tok_0")).toMatchObject({
        recorded: true,
        endpoint: { consecutiveFailures: 1, status: "active" },
      });
      await claim(1);
      await attempt(1, "tok_1");
      await claim(2);
      const third = await attempt(2, "tok_2");
      expect(third.endpoint).toMatchObject({ consecutiveFailures: 3, status: "paused", pausedReason: "failures" });
      expect(await claim(3)).toBeUndefined();
      const attempts = await storage.webhooks.listAttempts(co.id, record.id);
      expect(attempts.map((a) => a.attemptedAt.getTime() - base.getTime())).toEqual([0, 1000, 2000]);
      expect(attempts[0]).toMatchObject({ statusCode: 500, responseBody: "nö", succeeded: false, durationMs: 12.5 });
      await storage.webhooks.updateEndpoint(co.id, ep.id, { status: "active", pausedReason: null, updatedAt: base });
      await claim(3);
      expect(await attempt(3, "tok_3", true)).toMatchObject({ endpoint: { consecutiveFailures: 0 } });
      expect(await storage.webhooks.getDelivery(co.id, record.id)).toMatchObject({
        status: "succeeded",
        attempts: 4,
      });
      expect(await storage.events.purge(new Date("2030-01-01T00:00:00Z"))).toBeGreaterThanOrEqual(0);
      const resent = await storage.webhooks.resendDelivery(co.id, record.id, base);
      expect(resent).toMatchObject({ status: "pending", nextAttemptAt: base, leaseToken: null });
      expect(
        await storage.webhooks.listDeliveries({ companyId: co.id, endpointId: ep.id, status: "pending", take: 10 }),
      ).toHaveLength(1);
      await claim(4);
      await attempt(4, "tok_4", true);
      // Other tests' finished deliveries go too: purges see the whole database.
      expect(await storage.webhooks.purgeDeliveries(new Date("2030-01-01T00:00:00Z"))).toBeGreaterThanOrEqual(1);
      expect(await storage.webhooks.getDelivery(co.id, record.id)).toBeNull();
      expect(await storage.webhooks.listAttempts(co.id, record.id)).toEqual([]);
      expect(await storage.webhooks.deleteEndpoint(co.id, ep.id)).toBe(true);
      expect(await storage.webhooks.deleteEndpoint(co.id, ep.id)).toBe(false);
    });

    it("records a batch of successes in one statement on Postgres: stale tokens left out, failure counts reset", async () => {
      const co = make.company();
      const failing = make.endpoint(co.id, { consecutiveFailures: 2 });
      const healthy = make.endpoint(co.id);
      await storage.webhooks.insertEndpoint(failing);
      await storage.webhooks.insertEndpoint(healthy);
      const ev = make.event(co.id);
      await storage.events.append(ev);
      const records = [make.delivery(ev, failing.id), make.delivery(ev, failing.id), make.delivery(ev, healthy.id)];
      await storage.webhooks.insertDeliveries(records);
      const now = new Date("2026-03-01T10:00:01.000Z");
      const claimed = await storage.webhooks.claimDueDeliveries({
        now,
        limit: 10,
        leaseUntil: new Date(now.getTime() + 30_000),
        leaseToken: "tok_batch",
        maxPerEndpoint: 5,
      });
      expect(claimed.map((c) => c.delivery.id).sort()).toEqual(records.map((r) => r.id).sort());
      const success = (record: (typeof records)[number], n: number, token = "tok_batch") => ({
        deliveryId: record.id,
        leaseToken: token,
        outcome: {
          attempt: {
            id: make.id("att"),
            deliveryId: record.id,
            endpointId: record.endpointId,
            attemptedAt: new Date(now.getTime() + n * 1000),
            statusCode: 200,
            durationMs: 3.5,
            responseBody: `ok ${n}`,
            error: null,
            succeeded: true,
          },
          status: "succeeded" as const,
          nextAttemptAt: null,
          endpoint: endpointUpdate({ succeeded: true, test: false, gone: false, pauseAfter: 3 }),
        },
      });
      const [first, second, third] = records as [(typeof records)[0], (typeof records)[0], (typeof records)[0]];
      let results: Awaited<ReturnType<typeof storage.webhooks.recordAttempts>> = [];
      const used = await countQueries(async () => {
        results = await storage.webhooks.recordAttempts([
          success(second, 2),
          success(first, 1, "tok_stale"),
          success(third, 3),
        ]);
      });
      if (dialect === "postgres") expect(used).toHaveLength(1);
      expect(results.map((r) => r.recorded)).toEqual([true, false, true]);
      expect(results.map((r) => [r.paused, r.disabled])).toEqual([
        [false, false],
        [false, false],
        [false, false],
      ]);
      // The failing endpoint's count went to 0 at its first success; the healthy one was not touched.
      expect(results[0]?.endpoint).toMatchObject({ id: failing.id, consecutiveFailures: 0 });
      expect(results[0]?.endpoint?.updatedAt.toISOString()).toBe("2026-03-01T10:00:03.000Z");
      expect(results[1]?.endpoint).toMatchObject({ id: failing.id, consecutiveFailures: 0 });
      expect(results[2]?.endpoint).toEqual(healthy);
      expect(await storage.webhooks.getEndpoint(co.id, failing.id)).toMatchObject({
        consecutiveFailures: 0,
        updatedAt: new Date("2026-03-01T10:00:03.000Z"),
      });
      expect(await storage.webhooks.getDelivery(co.id, second.id)).toMatchObject({
        status: "succeeded",
        attempts: 1,
        leaseToken: null,
        leaseExpiresAt: null,
        updatedAt: new Date("2026-03-01T10:00:03.000Z"),
      });
      // The stale token changed nothing: still held, no attempt.
      expect(await storage.webhooks.getDelivery(co.id, first.id)).toMatchObject({
        status: "pending",
        attempts: 0,
        leaseToken: "tok_batch",
      });
      expect(await storage.webhooks.listAttempts(co.id, first.id)).toEqual([]);
      const stored = await storage.webhooks.listAttempts(co.id, third.id);
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ statusCode: 200, responseBody: "ok 3", succeeded: true, durationMs: 3.5 });
    });

    it("claims fairly behind one endpoint's backlog: a second round leaves out the endpoint at its share (Postgres: a statement a round)", async () => {
      const co = make.company();
      const busy = make.endpoint(co.id);
      const quiet = make.endpoint(co.id);
      await storage.webhooks.insertEndpoint(busy);
      await storage.webhooks.insertEndpoint(quiet);
      const ev = make.event(co.id);
      await storage.events.append(ev);
      const at = (n: number) => new Date(Date.UTC(2020, 0, 1, 0, 0, n));
      // The oldest 40 are the busy endpoint's: more than a round reads for a claim of 4.
      const backlog = Array.from({ length: 40 }, (_, n) =>
        make.delivery(ev, busy.id, { nextAttemptAt: at(n), createdAt: at(n) }),
      );
      const later = [0, 1].map((n) =>
        make.delivery(ev, quiet.id, { nextAttemptAt: at(100 + n), createdAt: at(100 + n) }),
      );
      await storage.webhooks.insertDeliveries([...backlog, ...later]);
      const now = new Date(Date.UTC(2020, 0, 2));
      // A storage of its own: it has made no claim yet, so it reads the ordered and throttled endpoints.
      const fresh = kyselyWebhookStorage({ db: database, tablePrefix: suite.prefix });
      let claimed: Awaited<ReturnType<typeof storage.webhooks.claimDueDeliveries>> = [];
      const used = await countQueries(async () => {
        claimed = await fresh.webhooks.claimDueDeliveries({
          now,
          limit: 4,
          maxPerEndpoint: 2,
          leaseUntil: new Date(now.getTime() + 30_000),
          leaseToken: "tok_fair",
        });
      });
      expect(claimed.map((c) => c.delivery.id)).toEqual([backlog[0]?.id, backlog[1]?.id, later[0]?.id, later[1]?.id]);
      expect(claimed.map((c) => c.endpoint.id)).toEqual([busy.id, busy.id, quiet.id, quiet.id]);
      expect(claimed.every((c) => c.payload === ev.payload && c.delivery.leaseToken === "tok_fair")).toBe(true);
      // The ordered and throttled endpoints' read, then one statement for each of the two rounds.
      if (dialect === "postgres") expect(used).toHaveLength(3);
    });

    it.runIf(dialect === "postgres")(
      "skips the ordered and throttled endpoints' read while the last claim saw none, and claims an endpoint made ordered meanwhile in the same call",
      async () => {
        const co = make.company();
        const plain = make.endpoint(co.id);
        const later = make.endpoint(co.id);
        await storage.webhooks.insertEndpoint(plain);
        await storage.webhooks.insertEndpoint(later);
        const ev = make.event(co.id);
        await storage.events.append(ev);
        // Due before every other test's deliveries: these claims see only this test's.
        const at = (n: number) => new Date(Date.UTC(2019, 5, 1, 0, 0, n));
        const first = make.delivery(ev, plain.id, { nextAttemptAt: at(0), createdAt: at(0) });
        const second = make.delivery(ev, plain.id, { nextAttemptAt: at(1), createdAt: at(1) });
        const heads = [2, 3].map((n) => make.delivery(ev, later.id, { nextAttemptAt: at(n), createdAt: at(n) }));
        await storage.webhooks.insertDeliveries([first, second, ...heads]);
        const fresh = kyselyWebhookStorage({ db: database, tablePrefix: suite.prefix });
        const now = new Date(Date.UTC(2019, 5, 2));
        const claim = (limit: number, leaseToken: string) =>
          fresh.webhooks.claimDueDeliveries({ now, limit, leaseUntil: new Date(now.getTime() + 30_000), leaseToken });
        let claimed: Awaited<ReturnType<typeof claim>> = [];
        // A fresh storage reads them, then its one statement sees that no active endpoint is ordered or throttled.
        expect(
          await countQueries(async () => {
            claimed = await claim(1, "tok_skip_1");
          }),
        ).toHaveLength(2);
        expect(claimed.map((c) => c.delivery.id)).toEqual([first.id]);
        // So the next claim is the one statement alone.
        expect(
          await countQueries(async () => {
            claimed = await claim(1, "tok_skip_2");
          }),
        ).toHaveLength(1);
        expect(claimed.map((c) => c.delivery.id)).toEqual([second.id]);
        // Made ordered now: the plain statement leaves it out, sees it, and the same claim takes its head.
        expect(await fresh.webhooks.updateEndpoint(co.id, later.id, { ordered: true, updatedAt: now })).not.toBeNull();
        claimed = await claim(4, "tok_skip_3");
        expect(claimed.map((c) => c.delivery.id)).toEqual([heads[0]?.id]);
        expect(claimed[0]?.endpoint.ordered).toBe(true);
        // And the next claim reads the ordered endpoints first again: its head is held, so nothing.
        const next = await countQueries(async () => {
          claimed = await claim(4, "tok_skip_4");
        });
        expect(claimed).toEqual([]);
        expect(next.length).toBeGreaterThanOrEqual(2);
        // Gone with their deliveries: the tests after this one claim no leftover of it.
        for (const endpoint of [plain, later])
          expect(await storage.webhooks.deleteEndpoint(co.id, endpoint.id)).toBe(true);
      },
    );

    it("lists subscribed endpoints, paused ones included", async () => {
      const co = make.company();
      const a = make.endpoint(co.id, { events: ["job.created"] });
      const b = make.endpoint(co.id, { events: ["job.closed"], status: "paused", pausedReason: "manual" });
      const c = make.endpoint(co.id, {
        events: ["job.closed", "job.created"],
        createdAt: new Date("2026-03-02T00:00:00Z"),
      });
      for (const ep of [a, b, c]) await storage.webhooks.insertEndpoint(ep);
      const closed = await storage.webhooks.listSubscribedEndpoints(co.id, "job.closed");
      expect(closed.map((ep) => ep.id).sort()).toEqual([b.id, c.id].sort());
      expect(await storage.webhooks.listSubscribedEndpoints("other", "job.closed")).toEqual([]);
    });
  });
}
