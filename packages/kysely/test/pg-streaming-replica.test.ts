/**
 * `readDb` on a real Postgres streaming replica (a primary and a replica of the test's own, see
 * helpers/pg-replica-pair.ts): a job written through the API on the primary is missing from
 * `GET /jobs` while the replica has not replayed it, and listed once it has; `GET /jobs/{id}`
 * answers from the primary all along; the migrations cannot run on the replica; the lag is seen
 * where the README says to watch it.
 */
import { type ApiResponse, createPublicApi, type PublicApi } from "@hireport/core";
import { SCOPES } from "@hireport/core/schemas";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kyselyStorage, migrateToLatest } from "../src/index";
import type { AnyDb } from "./helpers/databases";
import { findPgBin, type PgReplicaPair, startPgReplicaPair } from "./helpers/pg-replica-pair";
import * as make from "./helpers/records";

const PREFIX = "hireport_";
const bin = findPgBin();
if (!bin) {
  console.warn(
    "[@hireport/kysely] no Postgres server binaries (initdb, pg_ctl, pg_basebackup) found: the streaming replica test is skipped. Set HIREPORT_PG_BIN to their directory.",
  );
}

function kysely(url: string): AnyDb {
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 3000 });
  pool.on("error", () => undefined);
  return new Kysely({ dialect: new PostgresDialect({ pool }) });
}

function data(answer: ApiResponse): unknown {
  if (typeof answer.body !== "string") throw new Error("Expected a JSON text body.");
  return (JSON.parse(answer.body) as { data: unknown }).data;
}

/** The ids of a list page. */
const ids = (answer: ApiResponse) => (data(answer) as { id: string }[]).map((row) => row.id);
/** The id of what a POST created. */
const createdId = (answer: ApiResponse) => (data(answer) as { id: string }).id;

describe.skipIf(!bin)("readDb on a Postgres streaming replica", () => {
  let pair: PgReplicaPair;
  let primary: AnyDb;
  let replica: AnyDb;
  let api: PublicApi;
  let key: string;

  const call = (method: string, path: string, body?: unknown) =>
    api.handle({
      method,
      path,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body }),
    });

  /** Waits until the replica has replayed everything the primary had written when called. */
  async function caughtUp(): Promise<void> {
    const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(primary);
    const target = rows[0]?.lsn as string;
    for (let i = 0; i < 200; i += 1) {
      const replayed = await sql<{
        done: boolean;
      }>`select pg_last_wal_replay_lsn() >= ${target}::pg_lsn as done`.execute(replica);
      if (replayed.rows[0]?.done) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`The replica did not replay up to ${target} in 5 s.`);
  }

  beforeAll(async () => {
    pair = await startPgReplicaPair(bin as string);
    primary = kysely(pair.primaryUrl);
    replica = kysely(pair.replicaUrl);
    const migrated = await migrateToLatest(primary, { tablePrefix: PREFIX });
    if (migrated.error) throw migrated.error;
    api = createPublicApi({
      storage: kyselyStorage({ db: primary, readDb: replica, tablePrefix: PREFIX }),
      publicBaseUrl: "https://careers.example.com",
      fileTokenSecret: "kysely-streaming-replica-secret-0123456789",
      limits: { perMinute: 10_000, perDay: 100_000 },
      logger: { warn: () => undefined, error: (message, details) => console.error(message, details) },
      usageFlushMs: 10,
    });
    const companyId = make.id("co");
    await api.companies.upsert({ id: companyId, name: "Streaming Ltd" });
    ({ key } = await api.keys.create({ companyId, name: "replica key", scopes: [...SCOPES] }));
  });

  afterAll(async () => {
    await api?.close();
    await primary?.destroy();
    await replica?.destroy();
    await pair?.stop();
  });

  it("lists a job written on the primary once the replica has replayed it, and not before", async () => {
    const first = await call("POST", "/jobs", { title: "Cooper", status: "active" });
    expect(first.status).toBe(201);
    const firstId = createdId(first);
    await caughtUp();
    expect(ids(await call("GET", "/jobs"))).toEqual([firstId]);

    // Replay paused: the replica stands still, as a lagging one does.
    await sql`select pg_wal_replay_pause()`.execute(replica);
    try {
      const second = await call("POST", "/jobs", { title: "Glazier", status: "active" });
      expect(second.status).toBe(201);
      const secondId = createdId(second);
      // The list comes from the replica: the new job is not there yet...
      expect(ids(await call("GET", "/jobs"))).toEqual([firstId]);
      // ...while a read by id, missing on the replica, is read again on the primary: never a 404.
      expect((await call("GET", `/jobs/${secondId}`)).status).toBe(200);
      // A job the replica has, changed since: read by id, it shows its version before the change.
      expect((await call("PATCH", `/jobs/${firstId}`, { title: "Master cooper" })).status).toBe(200);
      const title = async () => JSON.parse(String((await call("GET", `/jobs/${firstId}`)).body)).data.title;
      expect(await title()).toBe("Cooper");
      // The lag, where the README says to watch it: replay stopped behind what was received.
      const lag = await sql<{
        behind: boolean;
      }>`select pg_last_wal_replay_lsn() < pg_last_wal_receive_lsn() as behind`.execute(replica);
      expect(lag.rows[0]?.behind).toBe(true);
      await sql`select pg_wal_replay_resume()`.execute(replica);
      await caughtUp();
      expect(ids(await call("GET", "/jobs"))).toEqual([secondId, firstId]);
      expect(await title()).toBe("Master cooper");
    } finally {
      await sql`select pg_wal_replay_resume()`.execute(replica).catch(() => undefined);
    }

    const senders = await sql<{ state: string }>`select state from pg_stat_replication`.execute(primary);
    expect(senders.rows.map((row) => row.state)).toEqual(["streaming"]);
  });

  it("refuses the migrations on the replica: they run on the primary only", async () => {
    const result = await migrateToLatest(replica, { tablePrefix: "hireport_other_" });
    expect(String(result.error)).toMatch(/read-only transaction/);
  });
});
