/**
 * `postgresWakeUps` on a real Postgres: app processes publish after a change, the dispatcher
 * process listens on a connection of its own. Each side has its own `pg` pool here, as two
 * processes would.
 */
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { hardenPgPool, postgresWakeUps } from "../src/index";
import { type AnyDb, connectOrSkip, PG_URL, randomPrefix, sqliteFileFor } from "./helpers/databases";

const db = await connectOrSkip("postgres", { sqliteFile: sqliteFileFor(randomPrefix()) });

const quiet = { warn: () => {} };

/** Resolves once `check` holds, polling every 10 ms; rejects after `ms`. */
async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!db)("postgresWakeUps", () => {
  const pools: pg.Pool[] = [];
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    for (const pool of pools.splice(0)) await pool.end();
  });
  afterAll(async () => {
    await (db as AnyDb).destroy();
  });

  /** A pool as a process of its own would have, named so that its backends can be found. */
  function newPool(applicationName = `hp_wake_${randomBytes(4).toString("hex")}`): pg.Pool {
    const pool = hardenPgPool(
      new pg.Pool({ connectionString: PG_URL, max: 3, application_name: applicationName }),
      quiet,
    );
    pools.push(pool);
    return pool;
  }

  /** A channel of this test alone. */
  const newChannel = () => `hireport_test_${randomBytes(4).toString("hex")}`;

  /** A listener on its own pool: how many times it was woken, and what it warned. */
  async function listener(channel: string, pool = newPool()) {
    const warnings: string[] = [];
    const wakeUps = postgresWakeUps(pool, { channel, reconnectMs: 50, logger: { warn: (m) => warnings.push(m) } });
    closers.push(() => wakeUps.close());
    let woken = 0;
    await wakeUps.listen(() => {
      woken += 1;
    });
    return { pool, wakeUps, warnings, woken: () => woken };
  }

  function publisher(channel: string) {
    const pool = newPool();
    let notifies = 0;
    const query = pool.query.bind(pool) as (text: string, values: unknown[]) => Promise<unknown>;
    const counted = {
      query: (text: string, values: unknown[]) => {
        if (text.includes("pg_notify")) notifies += 1;
        return query(text, values);
      },
      connect: () => pool.connect(),
    };
    const wakeUps = postgresWakeUps(counted, { channel, logger: quiet });
    closers.push(() => wakeUps.close());
    return { wakeUps, notifies: () => notifies };
  }

  it("a publish in one pool wakes the listener of another; another channel's publish does not", async () => {
    const channel = newChannel();
    const listening = await listener(channel);
    // Listening started with one wake-up of its own (for whatever came before it listened).
    expect(listening.woken()).toBe(1);
    publisher(newChannel()).wakeUps.publish();
    await pause(300);
    expect(listening.woken()).toBe(1);
    publisher(channel).wakeUps.publish();
    await until(() => listening.woken() === 2);
  });

  it("changes made while a NOTIFY is on its way send one more after it, not one each", async () => {
    const channel = newChannel();
    const listening = await listener(channel);
    const { wakeUps, notifies } = publisher(channel);
    for (let i = 0; i < 50; i++) wakeUps.publish();
    await until(() => listening.woken() >= 2);
    await pause(300);
    expect(notifies()).toBe(2);
    expect(listening.woken()).toBeGreaterThanOrEqual(2);
    expect(listening.woken()).toBeLessThanOrEqual(3);
  });

  it("a lost listening connection is replaced: warned, woken once on listening again, then by publishes", async () => {
    const channel = newChannel();
    const name = `hp_wake_${randomBytes(4).toString("hex")}`;
    const listening = await listener(channel, newPool(name));
    const { rows } = await sql<{ ended: boolean }>`select pg_terminate_backend(pid) as ended from pg_stat_activity
      where application_name = ${name}`.execute(db as AnyDb);
    expect(rows).toEqual([{ ended: true }]);
    await until(() => listening.woken() === 2);
    expect(listening.warnings).toEqual([expect.stringMatching(/LISTEN connection was lost/)]);
    publisher(channel).wakeUps.publish();
    await until(() => listening.woken() === 3);
  });

  it("a wake-up callback that throws is logged and does not stop the next notifications", async () => {
    const channel = newChannel();
    const warnings: string[] = [];
    const wakeUps = postgresWakeUps(newPool(), { channel, logger: { warn: (message) => warnings.push(message) } });
    closers.push(() => wakeUps.close());
    let calls = 0;
    await wakeUps.listen(() => {
      calls += 1;
      throw new Error("boom");
    });
    const { wakeUps: sender } = publisher(channel);
    sender.publish();
    await until(() => calls === 2);
    sender.publish();
    await until(() => calls === 3);
    expect(warnings).toEqual(Array(3).fill("hireport: the wake-up callback threw"));
  });

  it("close() gives the listening connection back closed and stops publishing", async () => {
    const channel = newChannel();
    const listening = await listener(channel);
    expect(listening.pool.totalCount).toBe(1);
    await listening.wakeUps.close();
    expect(listening.pool.totalCount).toBe(0);
    const other = publisher(channel);
    other.wakeUps.publish();
    await pause(300);
    expect(listening.woken()).toBe(1);
    const closed = publisher(channel);
    await closed.wakeUps.close();
    closed.wakeUps.publish();
    expect(closed.notifies()).toBe(0);
    await expect(closed.wakeUps.listen(() => {})).rejects.toThrow(/closed/);
  });

  it("refuses a channel that is not a lower-case identifier, and a second listen", async () => {
    const pool = newPool();
    for (const channel of ["", "Events", "a-b", "x; drop table y", "a".repeat(64)]) {
      expect(() => postgresWakeUps(pool, { channel })).toThrow(TypeError);
    }
    expect(() => postgresWakeUps(pool, { reconnectMs: 0 })).toThrow(/reconnectMs/);
    const { wakeUps } = await listener(newChannel(), pool);
    await expect(wakeUps.listen(() => {})).rejects.toThrow(/called already/);
  });

  it("listen() rejects when it cannot connect, and can be called again", async () => {
    const pool = new pg.Pool({
      connectionString: "postgres://postgres@127.0.0.1:1/test",
      connectionTimeoutMillis: 500,
    });
    pools.push(pool);
    const wakeUps = postgresWakeUps(pool, { channel: newChannel(), logger: quiet });
    await expect(wakeUps.listen(() => {})).rejects.toThrow();
    await expect(wakeUps.listen(() => {})).rejects.toThrow(/ECONNREFUSED|connect/);
    await wakeUps.close();
  });
});
