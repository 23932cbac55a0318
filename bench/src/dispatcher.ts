/**
 * Dispatcher benchmark: throughput to a local receiver on Postgres,
 * event-to-first-attempt latency, and the dispatcher process's memory over 100,000 deliveries.
 *
 * Phases, in one run:
 * 1. backlog: BACKLOG_EVENTS events (with one pending delivery per endpoint each) are written in
 *    bulk first, as `appendEvent` writes them; then the dispatcher starts and drains them.
 * 2. live: LIVE_EVENTS jobs are created through core (`api.jobs.create`, the outbox path, with
 *    `onEvent` waking the dispatcher) at LIVE_RATE per second while the dispatcher runs; latency is
 *    the event's `created_at` to the receiver's arrival time of the first attempt.
 *
 * Env: HIREPORT_PG_URL, BENCH_ENDPOINTS (8), BENCH_BACKLOG_EVENTS (10,000), BENCH_LIVE_EVENTS
 * (2,500), BENCH_LIVE_RATE (60 events/s: 480 deliveries/s; the rates tried: RESULTS.md, "Claims"),
 * BENCH_CONCURRENCY (32), BENCH_PER_ENDPOINT (4), BENCH_PREFETCH (the dispatcher's default), BENCH_POOL (20), BENCH_OUT (a JSON file for the figures), BENCH_RESULTS=0 (do not write RESULTS.md),
 * BENCH_TRACE=1 (count and time every statement). Stops by itself (BENCH_DEADLINE_S, 300).
 */
import { fork } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { createPublicApi } from "@hireport/core";
import { eventPayload } from "@hireport/core/extend";
import { newId } from "@hireport/core/storage";
import { hardenPgPool, migrateToLatest } from "@hireport/kysely";
import { kyselyWebhookStorage } from "@hireport/kysely/webhooks";
import { createWebhookDispatcher } from "@hireport/webhooks";
import { Kysely, type LogEvent, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { percentile, processCpuMs, writeResultsSection } from "./common";
import { bareSend } from "./dispatcher-bare";
import { durableFloor } from "./dispatcher-floor";
import type { ReceiverCommand, ReceiverMessage, ReceiverReport } from "./dispatcher-protocol";
import { type DispatcherFigures, resultsMarkdown } from "./dispatcher-report";

const env = (name: string, fallback: number): number => {
  const value = process.env[name];
  return value === undefined || value === "" ? fallback : Number(value);
};

const PG_URL = process.env.HIREPORT_PG_URL ?? "postgres://postgres:postgres@127.0.0.1:5432/test";
/** Tables of this run alone (another run may be going on): dropped at the end. */
const PREFIX = `bench_dsp_${process.pid}_`;
const ENDPOINTS = env("BENCH_ENDPOINTS", 8);
const BACKLOG_EVENTS = env("BENCH_BACKLOG_EVENTS", 10_000);
const LIVE_EVENTS = env("BENCH_LIVE_EVENTS", 2_500);
const LIVE_RATE = env("BENCH_LIVE_RATE", 60);
const CONCURRENCY = env("BENCH_CONCURRENCY", 32);
const PER_ENDPOINT = env("BENCH_PER_ENDPOINT", 4);
const POOL = env("BENCH_POOL", 20);
const DEADLINE_MS = env("BENCH_DEADLINE_S", 300) * 1000;
const SEED_CHUNK = 1_000;
/**
 * The backlog's event type: `job.updated`, or `application.updated`, whose attempts Postgres
 * records with a call of the `application_erased` routine each (whether the application is erased).
 */
const EVENT_TYPE = eventType(process.env.BENCH_EVENT_TYPE ?? "job.updated");
function eventType(value: string): "job.updated" | "application.updated" {
  if (value === "job.updated" || value === "application.updated") return value;
  throw new Error(`BENCH_EVENT_TYPE must be job.updated or application.updated, got ${value}.`);
}
/** Names this run's connections in `pg_stat_activity`, to read their backends' CPU. */
const APPLICATION_NAME = `hireport-bench-dispatcher-${process.pid}`;

interface MemorySample {
  t: number;
  delivered: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

const mb = (bytes: number): number => Math.round((bytes / 1048576) * 10) / 10;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** Least-squares slope of y over x. */
function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  let sx = 0;
  let sy = 0;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sx += x;
    sy += y;
    sxy += x * y;
    sxx += x * x;
  }
  const denominator = n * sxx - sx * sx;
  return denominator === 0 ? 0 : (n * sxy - sx * sy) / denominator;
}

/** Statements sent to Postgres through the dispatcher's pool, by kind: the drain reads their change. */
interface StatementCounts {
  claims: number;
  records: number;
  other: number;
}
const sent: StatementCounts = { claims: 0, records: 0, other: 0 };
function countStatement(event: LogEvent): void {
  const text = event.query.sql;
  if (text.includes("with due as")) sent.claims += 1;
  else if (text.includes("with input as")) sent.records += 1;
  else sent.other += 1;
}

/** BENCH_TRACE=1: count and time every statement, by its shape (printed at the end). */
const statements = new Map<string, { count: number; ms: number }>();
function traceStatement(event: LogEvent): void {
  const shape = event.query.sql
    .replace(/\$\d+(, \$\d+)*/g, "$…")
    .replace(/\(\$…\)(, \(\$…\))+/g, "($…), …")
    .replace(new RegExp(PREFIX, "g"), "")
    .slice(0, 110);
  const entry = statements.get(shape) ?? { count: 0, ms: 0 };
  entry.count += 1;
  entry.ms += event.queryDurationMillis;
  statements.set(shape, entry);
}

function printStatements(): void {
  if (statements.size === 0) return;
  const rows = [...statements].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25);
  console.error("statements by total time (count, total ms, mean ms):");
  for (const [shape, { count, ms }] of rows) {
    console.error(
      `${String(count).padStart(8)} ${ms.toFixed(0).padStart(8)} ${(ms / count).toFixed(2).padStart(7)}  ${shape}`,
    );
  }
}

/** CPU time (ms) of the Postgres backends of this run's connections, by backend pid. */
async function backendsCpu(db: Kysely<Record<string, Record<string, unknown>>>): Promise<Map<number, number>> {
  const { rows } = await sql<{ pid: number }>`
    select pid from pg_stat_activity where application_name = ${APPLICATION_NAME}`.execute(db);
  return new Map(rows.map((row) => [row.pid, processCpuMs(row.pid)]));
}

/** CPU (ms) of a phase: this process, the receiver, and this run's Postgres backends. */
interface CpuMark {
  self: NodeJS.CpuUsage;
  receiver: number;
  backends: Map<number, number>;
}

async function cpuMark(db: Kysely<Record<string, Record<string, unknown>>>, receiverPid: number | undefined) {
  return { self: process.cpuUsage(), receiver: processCpuMs(receiverPid), backends: await backendsCpu(db) };
}

/** CPU per delivery (µs) between two marks; a backend new since `before` counts from 0. */
function cpuPerDelivery(before: CpuMark, after: CpuMark, deliveries: number) {
  const used = process.cpuUsage(before.self);
  let backends = 0;
  for (const [pid, ms] of after.backends) backends += ms - (before.backends.get(pid) ?? 0);
  const us = (ms: number) => Math.round((ms * 1000) / deliveries);
  return {
    processUs: us((used.user + used.system) / 1000),
    receiverUs: us(after.receiver - before.receiver),
    postgresUs: us(backends),
  };
}

async function main(): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  // As the production guide tells hosts: hireport's compiled statements (the claim, the record)
  // then run as named prepared statements, and timestamps are read without pg's general parser.
  const pool = hardenPgPool(new pg.Pool({ connectionString: PG_URL, max: POOL, application_name: APPLICATION_NAME }));
  const db = new Kysely<Record<string, Record<string, unknown>>>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      countStatement(event);
      if (process.env.BENCH_TRACE === "1") traceStatement(event);
    },
  });

  const dropTables = async (): Promise<void> => {
    const tables = await sql<{ tablename: string }>`
      select tablename from pg_tables where schemaname = current_schema() and tablename like ${`${PREFIX}%`}`.execute(
      db,
    );
    for (const { tablename } of tables.rows)
      await sql`drop table if exists ${sql.table(tablename)} cascade`.execute(db);
  };
  await dropTables();
  try {
    await run(db, deadline);
  } finally {
    await dropTables().catch(() => undefined);
    await db.destroy();
  }
}

async function run(db: Kysely<Record<string, Record<string, unknown>>>, deadline: number): Promise<void> {
  const migrated = await migrateToLatest(db, { tablePrefix: PREFIX });
  if (migrated.error) throw migrated.error;
  const storage = kyselyWebhookStorage({ db, tablePrefix: PREFIX });
  const now = new Date();
  const company = await storage.companies.upsert({ id: newId("co", now), name: "Bench", createdAt: now });

  // The receiver, in a second process.
  const receiver = fork(fileURLToPath(new URL("./dispatcher-receiver.ts", import.meta.url)), {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const command = (message: ReceiverCommand): void => {
    receiver.send(message);
  };
  const waitFor = <T extends ReceiverMessage["type"]>(type: T): Promise<Extract<ReceiverMessage, { type: T }>> =>
    new Promise((resolve) => {
      const listener = (message: ReceiverMessage) => {
        if (message.type !== type) return;
        receiver.off("message", listener);
        resolve(message as Extract<ReceiverMessage, { type: T }>);
      };
      receiver.on("message", listener);
    });
  const { port } = await waitFor("listening");
  const count = async (): Promise<number> => {
    const reply = waitFor("count");
    command({ type: "count" });
    return (await reply).unique;
  };

  const dispatcher = createWebhookDispatcher({
    storage,
    allowPrivateAddresses: true,
    concurrency: CONCURRENCY,
    perEndpointConcurrency: PER_ENDPOINT,
    ...(process.env.BENCH_PREFETCH ? { prefetch: Number(process.env.BENCH_PREFETCH) } : {}),
    purgeIntervalMs: 0,
  });
  const secrets: string[] = [];
  for (let index = 0; index < ENDPOINTS; index += 1) {
    const { secret } = await dispatcher.endpoints.create({
      companyId: company.id,
      url: `http://127.0.0.1:${port}/e/${index}`,
      events: ["job.created", "job.updated", "job.closed", "application.created", "application.updated"],
    });
    secrets.push(secret);
  }
  const endpointIds = (await storage.webhooks.listEndpoints(company.id)).map((endpoint) => endpoint.id);
  command({ type: "config", secrets });

  // The bare sender first: the same backlog sent by a loop with no storage, the ceiling of the drain.
  command({ type: "phase", name: "bare" });
  const bareCpuBefore = await cpuMark(db, receiver.pid);
  const bare = await bareSend({
    port,
    secrets,
    companyId: company.id,
    events: BACKLOG_EVENTS,
    perEndpoint: Math.max(1, Math.min(PER_ENDPOINT, Math.floor(CONCURRENCY / ENDPOINTS))),
  });
  const bareCpu = cpuPerDelivery(bareCpuBefore, await cpuMark(db, receiver.pid), BACKLOG_EVENTS * ENDPOINTS);
  const bareReportReply = waitFor("report");
  command({ type: "report" });
  const bareReport = (await bareReportReply).report;
  command({ type: "reset" });

  // Phase 1 seeding: what appendEvent writes (the event, one pending delivery per endpoint), in bulk.
  const seedStarted = Date.now();
  for (let start = 0; start < BACKLOG_EVENTS; start += SEED_CHUNK) {
    const at = new Date();
    const events: Record<string, unknown>[] = [];
    const deliveries: Record<string, unknown>[] = [];
    for (let index = start; index < Math.min(BACKLOG_EVENTS, start + SEED_CHUNK); index += 1) {
      const id = newId("evt", at);
      const data =
        EVENT_TYPE === "job.updated"
          ? { id: `job_${index}`, title: `Job ${index}`, status: "open" }
          : { id: `app_${index}`, job_id: "job_0", stage: "screening" };
      events.push({
        id,
        company_id: company.id,
        type: EVENT_TYPE,
        payload: eventPayload({ id, type: EVENT_TYPE, createdAt: at, companyId: company.id, data }),
        subject_id: EVENT_TYPE === "job.updated" ? null : data.id,
        created_at: at,
      });
      for (const endpointId of endpointIds) {
        deliveries.push({
          id: newId("dlv", at),
          endpoint_id: endpointId,
          company_id: company.id,
          event_id: id,
          event_type: EVENT_TYPE,
          status: "pending",
          attempts: 0,
          next_attempt_at: at,
          lease_expires_at: null,
          lease_token: null,
          created_at: at,
          updated_at: at,
        });
      }
    }
    await db.transaction().execute(async (trx) => {
      await trx.insertInto(`${PREFIX}event`).values(events).execute();
      for (let from = 0; from < deliveries.length; from += 4_000) {
        await trx
          .insertInto(`${PREFIX}webhook_delivery`)
          .values(deliveries.slice(from, from + 4_000))
          .execute();
      }
    });
  }
  await sql`analyze ${sql.table(`${PREFIX}webhook_delivery`)}`.execute(db);
  const seedMs = Date.now() - seedStarted;
  const backlogDeliveries = BACKLOG_EVENTS * ENDPOINTS;
  const liveDeliveries = LIVE_EVENTS * ENDPOINTS;

  const pending = async (): Promise<number> => {
    const row = await db
      .selectFrom(`${PREFIX}webhook_delivery`)
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("status", "=", "pending")
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  // Memory of this (the dispatcher's) process, every second, from the dispatcher's start.
  const samples: MemorySample[] = [];
  let delivered = 0;
  const sampleStart = Date.now();
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    samples.push({
      t: (Date.now() - sampleStart) / 1000,
      delivered,
      rss: usage.rss,
      heapUsed: usage.heapUsed,
      heapTotal: usage.heapTotal,
      external: usage.external,
    });
    count()
      .then((value) => {
        delivered = value;
      })
      .catch(() => undefined);
  }, 1000);

  // Phase 1: drain the backlog.
  command({ type: "phase", name: "backlog" });
  const drainCpuBefore = await cpuMark(db, receiver.pid);
  const sentBefore = { ...sent };
  const backlogStarted = Date.now();
  dispatcher.start();
  const backlogSeconds: number[] = [];
  let last = 0;
  let lastAt = Date.now();
  // The receiver's count first (no database read while the drain runs), then the storage's.
  let value = 0;
  while ((value < backlogDeliveries || (await pending()) > 0) && Date.now() < deadline) {
    await sleep(value < backlogDeliveries ? 500 : 20);
    value = await count();
    const at = Date.now();
    if (at - lastAt >= 2_000) {
      backlogSeconds.push(((value - last) * 1000) / (at - lastAt));
      last = value;
      lastAt = at;
    }
  }
  const backlogMs = Date.now() - backlogStarted;
  // Taken before the CPU mark's own read; the benchmark's reads of what is pending are in `other`.
  const drainStatements = {
    claims: sent.claims - sentBefore.claims,
    records: sent.records - sentBefore.records,
    other: sent.other - sentBefore.other,
  };
  const drainCpu = cpuPerDelivery(drainCpuBefore, await cpuMark(db, receiver.pid), backlogDeliveries);

  // Phase 2: live events through core at a steady rate.
  command({ type: "phase", name: "live" });
  // The writers stand for the app's requests: their own pool, as in an app process beside the
  // dispatcher (all jobs of one company queue on its job-number row, which would otherwise hold
  // the dispatcher's connections); `onEvent` wakes the dispatcher as in one process.
  /** When each live event's transaction committed (`onEvent` runs after the commit). */
  const committedAt = new Map<string, number>();
  const writerDb = new Kysely<Record<string, Record<string, unknown>>>({
    dialect: new PostgresDialect({ pool: hardenPgPool(new pg.Pool({ connectionString: PG_URL, max: 10 })) }),
  });
  const api = createPublicApi({
    storage: kyselyWebhookStorage({ db: writerDb, tablePrefix: PREFIX }),
    publicBaseUrl: "https://bench.example.com",
    fileTokenSecret: "bench-file-token-secret-0123456789abcdef",
    onEvent: (event) => {
      committedAt.set(event.id, Date.now());
      dispatcher.notify();
    },
  });
  const liveStarted = Date.now();
  let written = 0;
  let writeErrors = 0;
  const writes = new Set<Promise<unknown>>();
  while (written < LIVE_EVENTS && Date.now() < deadline) {
    const due = Math.min(LIVE_EVENTS, Math.floor(((Date.now() - liveStarted) * LIVE_RATE) / 1000));
    while (written < due) {
      written += 1;
      const write = api.jobs
        .create(company.id, { title: `Live job ${written}` })
        .catch(() => {
          writeErrors += 1;
        })
        .finally(() => writes.delete(write));
      writes.add(write);
    }
    await sleep(5);
  }
  await Promise.all(writes);
  const writeMs = Date.now() - liveStarted;
  await api.close();
  await writerDb.destroy();
  while (((await pending()) > 0 || (await count()) < backlogDeliveries + liveDeliveries) && Date.now() < deadline) {
    await sleep(200);
  }
  const liveMs = Date.now() - liveStarted;

  await dispatcher.stop();
  clearInterval(sampler);
  delivered = await count();
  const usage = process.memoryUsage();
  samples.push({
    t: (Date.now() - sampleStart) / 1000,
    delivered,
    rss: usage.rss,
    heapUsed: usage.heapUsed,
    heapTotal: usage.heapTotal,
    external: usage.external,
  });

  const reportReply = waitFor("report");
  command({ type: "report" });
  const report: ReceiverReport = (await reportReply).report;
  command({ type: "exit" });

  const statuses = await db
    .selectFrom(`${PREFIX}webhook_delivery`)
    .select(["status", (eb) => eb.fn.countAll<string>().as("n")])
    .groupBy("status")
    .execute();
  const attempts = await db
    .selectFrom(`${PREFIX}webhook_attempt`)
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  const eventsWithoutFanOut = await sql<{ n: string }>`
    select count(*) as n from ${sql.table(`${PREFIX}event`)} e
    where (select count(*) from ${sql.table(`${PREFIX}webhook_delivery`)} d where d.event_id = e.id) <> ${ENDPOINTS}`.execute(
    db,
  );

  // The storage floor last, on a quiet database: the least a log costs, in the largest batches
  // this dispatcher could ever write (everything it may hold at once).
  const floorAt = new Date();
  const floorEventId = newId("evt", floorAt);
  const floor = await durableFloor({
    connectionString: PG_URL,
    prefix: PREFIX,
    deliveries: backlogDeliveries,
    batch: 2 * CONCURRENCY + dispatcher.options.prefetch,
    streams: 2,
    payload: eventPayload({
      id: floorEventId,
      type: "job.updated",
      createdAt: floorAt,
      companyId: company.id,
      data: { id: "job_0", title: "Job 0", status: "open" },
    }),
  });

  const live = [...(report.latencies.live ?? [])].sort((a, b) => a - b);
  // From the commit of the event's transaction (when the dispatcher can first see it) to arrival.
  const fromCommit = report.liveArrivals
    .map(([eventId, arrival]) => arrival - (committedAt.get(eventId) ?? Number.NaN))
    .filter((value) => Number.isFinite(value))
    .sort((a, b) => a - b);
  const backlogLatency = [...(report.latencies.backlog ?? [])].sort((a, b) => a - b);
  // The trend of the floor (the lowest sample of each 10,000 deliveries, after the garbage
  // collector's sawtooth), from the second 10,000 on (the first holds the warm-up).
  const floors = new Map<number, { heap: number; rss: number }>();
  for (const sample of samples) {
    const bucket = Math.floor(sample.delivered / 10_000);
    const floor = floors.get(bucket) ?? { heap: Number.POSITIVE_INFINITY, rss: Number.POSITIVE_INFINITY };
    floors.set(bucket, { heap: Math.min(floor.heap, sample.heapUsed), rss: Math.min(floor.rss, sample.rss) });
  }
  const trend = [...floors].filter(([bucket]) => bucket >= 1 && bucket < 10);
  const heapSlope = slope(trend.map(([bucket, floor]) => [bucket, floor.heap / 1048576] as const));
  const rssSlope = slope(trend.map(([bucket, floor]) => [bucket, floor.rss / 1048576] as const));
  const peak = (key: "rss" | "heapUsed") => Math.max(...samples.map((sample) => sample[key]));
  const first = samples[0];
  const end = samples[samples.length - 1];
  const drainRate = (backlogDeliveries * 1000) / backlogMs;
  const sustained = median(backlogSeconds.slice(1, -1).length > 0 ? backlogSeconds.slice(1, -1) : backlogSeconds);

  const figures: DispatcherFigures = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? "",
    loadavg: loadavg().map((value) => Math.round(value * 100) / 100),
    config: {
      endpoints: ENDPOINTS,
      backlogEvents: BACKLOG_EVENTS,
      liveEvents: LIVE_EVENTS,
      liveRate: LIVE_RATE,
      concurrency: CONCURRENCY,
      perEndpoint: PER_ENDPOINT,
      prefetch: dispatcher.options.prefetch,
      pool: POOL,
      eventType: EVENT_TYPE,
    },
    seed: { deliveries: backlogDeliveries, ms: seedMs },
    backlog: {
      deliveries: backlogDeliveries,
      ms: backlogMs,
      deliveriesPerSecond: Math.round(drainRate),
      sustainedMedianPerSecond: Math.round(sustained),
      ratioToTarget: Math.round((drainRate / 4000) * 100) / 100,
      cpu: drainCpu,
      statements: drainStatements,
    },
    live: {
      events: written,
      writeErrors,
      offeredDeliveriesPerSecond: Math.round((written * ENDPOINTS * 1000) / writeMs),
      deliveries: live.length,
      ms: liveMs,
      deliveriesPerSecond: Math.round((live.length * 1000) / liveMs),
      p50Ms: percentile(live, 50),
      p90Ms: percentile(live, 90),
      p99Ms: percentile(live, 99),
      maxMs: live[live.length - 1] ?? Number.NaN,
      p50RatioToTarget: Math.round((percentile(live, 50) / 50) * 1000) / 1000,
      fromCommitP50Ms: percentile(fromCommit, 50),
      fromCommitP99Ms: percentile(fromCommit, 99),
    },
    bare: {
      ...bare,
      arrived: bareReport.unique,
      signaturesBad: bareReport.signaturesBad,
      drainRatio: Math.round((drainRate / bare.deliveriesPerSecond) * 100) / 100,
      cpu: bareCpu,
    },
    floor,
    backlogQueueLatencyP50Ms: percentile(backlogLatency, 50),
    receiver: {
      requests: report.requests,
      unique: report.unique,
      duplicates: report.duplicates,
      signaturesChecked: report.signaturesChecked,
      signaturesBad: report.signaturesBad,
    },
    storage: {
      statuses: Object.fromEntries(statuses.map((row) => [String(row.status), Number(row.n)])),
      attempts: Number(attempts.n),
      eventsWithoutFullFanOut: Number(eventsWithoutFanOut.rows[0]?.n ?? 0),
    },
    memory: {
      samples: samples.length,
      startRssMb: mb(first?.rss ?? 0),
      peakRssMb: mb(peak("rss")),
      endRssMb: mb(end?.rss ?? 0),
      startHeapMb: mb(first?.heapUsed ?? 0),
      peakHeapMb: mb(peak("heapUsed")),
      endHeapMb: mb(end?.heapUsed ?? 0),
      heapSlopeMbPer10k: Math.round(heapSlope * 100) / 100,
      rssSlopeMbPer10k: Math.round(rssSlope * 100) / 100,
      heapFloorsMb: trend.map(([, floor]) => mb(floor.heap)),
    },
    complete: report.unique >= backlogDeliveries + liveDeliveries,
  };
  console.log(JSON.stringify(figures, null, 2));
  printStatements();
  if (process.env.BENCH_RESULTS !== "0") writeResultsSection("dispatcher", resultsMarkdown(figures));
  if (process.env.BENCH_OUT) {
    writeFileSync(process.env.BENCH_OUT, JSON.stringify({ ...figures, samples }, null, 2));
  }
  process.exitCode =
    figures.complete && report.signaturesBad === 0 && bare.failures === 0 && bareReport.signaturesBad === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
