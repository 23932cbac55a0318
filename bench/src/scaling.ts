/**
 * The scaling benchmark: two `hireport-fastify` app processes (src/server.ts) and one webhook
 * dispatcher process (src/scaling-dispatcher.ts) on one Postgres, the dispatcher delivering to a
 * local receiver (src/dispatcher-receiver.ts). It measures what one app process alone and two
 * together take from the machine and from Postgres, as the inputs of the "Scaling" estimate of
 * docs/production-guide.md. It seeds as the API benchmarks do and reuses their data.
 *
 * Load: one autocannon per app process (src/load.ts), BENCH_CONNECTIONS (16) connections each,
 * every connection sending in turn 9 GET /jobs?limit=25 (key of `bench-list`) then 1 POST
 * /applications (key of `bench-post`, a fresh candidate each time, to one of 4 jobs per process):
 * one request in ten is a write, and each POST's `application.created` event gives the
 * dispatcher one delivery to its one endpoint. The app processes wake the dispatcher process after
 * each write with `postgresWakeUps` (src/wake.ts), as the production guide shows a host doing.
 *
 * Figures per phase (1 app process alone, 2 together; interleaved rounds, medians): requests/s
 * in total and per process, each app process's CPU time per request (/proc), the deliveries/s the
 * receiver saw, the event-to-first-attempt latency while the API is under this load (the event's
 * `created_at` to the receiver's first arrival, p50 and p99 over the rounds), and Postgres's CPU
 * per request, read from /proc in two ways: the backends of this
 * benchmark's connections (found in `pg_stat_activity` by `application_name`), and every
 * `postgres` process of the server (children that ended included), which also counts the
 * server's own writers and anything else the server did meanwhile.
 *
 *   BENCH_ONLY=scaling pnpm --filter @hireport/bench start
 *
 * Knobs: BENCH_ROUNDS (3), BENCH_SECONDS (5), BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (16).
 * Writes the `scaling` section of RESULTS.md.
 */
import { type ChildProcess, fork } from "node:child_process";
import { cpus } from "node:os";
import { join } from "node:path";
import { migrateToLatest } from "@hireport/kysely";
import { kyselyWebhookStorage } from "@hireport/kysely/webhooks";
import { createWebhookDispatcher } from "@hireport/webhooks";
import { type Kysely, sql } from "kysely";
import {
  allPostgresCpuMs,
  CONNECTIONS,
  createDb,
  fmt,
  type LoadOptions,
  type LoadResult,
  log,
  machineInfo,
  median,
  percentile,
  processCpuMs,
  ROUNDS,
  runLoad,
  SECONDS,
  SRC_DIR,
  sleep,
  spawnTsx,
  stopChild,
  TABLE_PREFIX,
  WARMUP_SECONDS,
  waitForLine,
  writeResultsSection,
} from "./common";
import type { ReceiverCommand, ReceiverMessage, ReceiverReport } from "./dispatcher-protocol";
import { BASE_PATH, benchApi } from "./hireport";
import { POST_COMPANY, type Seeded, seed } from "./seed";

const GETS_PER_POST = 9;
const APP_NAME = "hireport-bench-scaling-app";
const DISPATCHER_NAME = "hireport-bench-scaling-dispatcher";
/**
 * The NOTIFY channel on which the app processes wake the dispatcher process (this run's own);
 * `BENCH_SCALING_WAKE=0`: none, the dispatcher finds deliveries by its poll alone (for comparison).
 */
const WAKE_CHANNEL = process.env.BENCH_SCALING_WAKE === "0" ? "" : `hireport_bench_scaling_${process.pid}`;

interface App {
  child: ChildProcess;
  origin: string;
}

interface Phase {
  label: string;
  apps: App[];
  total: number[];
  perProcess: number[][];
  cpuPerRequest: number[][];
  posts: number[];
  deliveries: number[];
  dispatcherCpuPerDelivery: number[];
  pgAppPerRequest: number[];
  pgBenchPerRequest: number[];
  pgAllPerRequest: number[];
  /** Event `created_at` to first arrival at the receiver, ms, every delivery of the phase's rounds. */
  latencies: number[];
}

/** CPU time (ms) of the Postgres backends of connections named `name`, by backend pid. */
async function backendsCpu(db: Kysely<unknown>, name: string): Promise<Map<number, number>> {
  const { rows } = await sql<{ pid: number }>`
    select pid from pg_stat_activity where application_name = ${name}`.execute(db);
  return new Map(rows.map((row) => [row.pid, processCpuMs(row.pid)]));
}

/** CPU used in between by the backends of `after` (a backend new since `before` counts from 0). */
function backendsDelta(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, ms] of after) if (Number.isFinite(ms)) sum += ms - (before.get(pid) ?? 0);
  return sum;
}

async function applicationsOfPostCompany(db: Kysely<unknown>): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    select count(*) as n from ${sql.table(`${TABLE_PREFIX}application`)} where company_id = ${POST_COMPANY}`.execute(
    db,
  );
  return Number(rows[0]?.n ?? 0);
}

/** Each connection's turn: GETS_PER_POST list reads, then one application, to 4 jobs per process. */
function mix(app: App, index: number, seeded: Seeded, seconds: number): LoadOptions {
  const requests: NonNullable<LoadOptions["requests"]> = [];
  for (let turn = 0; turn < 4; turn++) {
    for (let i = 0; i < GETS_PER_POST; i++) {
      requests.push({
        method: "GET",
        path: `${BASE_PATH}/jobs?limit=25`,
        headers: { authorization: `Bearer ${seeded.listKey}` },
      });
    }
    const jobId = seeded.postJobIds[(index * 4 + turn) % seeded.postJobIds.length];
    requests.push({
      method: "POST",
      path: `${BASE_PATH}/applications`,
      headers: { authorization: `Bearer ${seeded.postKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        job_id: jobId,
        candidate: { name: "Scaling Candidate", email: "s-[<id>]@example.com", skills: ["typescript"] },
        source: "bench",
        consent: true,
      }),
    });
  }
  return { url: app.origin, requests, connections: CONNECTIONS, durationSeconds: seconds };
}

function startReceiver(): Promise<{
  child: ChildProcess;
  port: number;
  send: (command: ReceiverCommand) => void;
  delivered: () => Promise<number>;
  report: () => Promise<ReceiverReport>;
}> {
  const child = fork(join(SRC_DIR, "dispatcher-receiver.ts"), {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = <T extends ReceiverMessage["type"]>(type: T) =>
    new Promise<Extract<ReceiverMessage, { type: T }>>((resolve) => {
      const listener = (message: ReceiverMessage) => {
        if (message.type !== type) return;
        child.off("message", listener);
        resolve(message as Extract<ReceiverMessage, { type: T }>);
      };
      child.on("message", listener);
    });
  const send = (command: ReceiverCommand) => child.send(command);
  const delivered = async () => {
    const reply = next("count");
    send({ type: "count" });
    return (await reply).unique;
  };
  const report = async () => {
    const reply = next("report");
    send({ type: "report" });
    return (await reply).report;
  };
  return next("listening").then(({ port }) => ({ child, port, send, delivered, report }));
}

async function main(): Promise<void> {
  const started = Date.now();
  const db = createDb(4);
  const migrated = await migrateToLatest(db, { tablePrefix: TABLE_PREFIX });
  if (migrated.error) throw migrated.error;
  const api = benchApi(db);
  const seeded = await seed(api, db).finally(() => api.close());
  const machine = await machineInfo(db);

  const children: ChildProcess[] = [];
  const receiver = await startReceiver();
  children.push(receiver.child);
  // Endpoints are made through the dispatcher's own manager (not started here); any left by an
  // earlier run that ended early go first, with their deliveries.
  const manager = createWebhookDispatcher({
    storage: kyselyWebhookStorage({ db, tablePrefix: TABLE_PREFIX }),
    allowPrivateAddresses: true,
  });
  for (const endpoint of await manager.endpoints.list(POST_COMPANY)) {
    await manager.endpoints.delete(POST_COMPANY, endpoint.id);
  }
  const endpoint = await manager.endpoints.create({
    companyId: POST_COMPANY,
    url: `http://127.0.0.1:${receiver.port}/e/0`,
    events: ["application.created"],
  });
  receiver.send({ type: "config", secrets: [endpoint.secret] });
  receiver.send({ type: "phase", name: "warm-up" });

  try {
    /** Two app processes of one kind: admission on the database, or on Redis. */
    const startApps = async (kind: "hireport-fastify" | "hireport-fastify-redis"): Promise<App[]> => {
      const started: App[] = [];
      for (let i = 0; i < 2; i++) {
        const child = spawnTsx("server.ts", [kind], {
          BENCH_PG_APPLICATION_NAME: APP_NAME,
          BENCH_WAKE_CHANNEL: WAKE_CHANNEL,
        });
        children.push(child);
        started.push({ child, origin: `http://127.0.0.1:${await waitForLine(child, "READY ")}` });
      }
      return started;
    };
    const apps = await startApps("hireport-fastify");
    const redisApps = await startApps("hireport-fastify-redis");
    const dispatcher = spawnTsx("scaling-dispatcher.ts", [], {
      BENCH_PG_APPLICATION_NAME: DISPATCHER_NAME,
      BENCH_WAKE_CHANNEL: WAKE_CHANNEL,
    });
    children.push(dispatcher);
    await waitForLine(dispatcher, "READY");

    const phase = (label: string, active: App[]): Phase => ({
      label,
      apps: active,
      total: [],
      perProcess: active.map(() => []),
      cpuPerRequest: active.map(() => []),
      posts: [],
      deliveries: [],
      dispatcherCpuPerDelivery: [],
      pgAppPerRequest: [],
      pgBenchPerRequest: [],
      pgAllPerRequest: [],
      latencies: [],
    });
    const phases = [
      phase("1 app process", apps.slice(0, 1)),
      phase("2 app processes", apps),
      phase("1 app process, Redis admission", redisApps.slice(0, 1)),
      phase("2 app processes, Redis admission", redisApps),
    ];

    const measure = async (p: Phase, round: number): Promise<void> => {
      // The receiver files each delivery's latency under the phase it arrives in: this round's.
      const phaseName = `${p.label}, round ${round}`;
      receiver.send({ type: "phase", name: phaseName });
      const cpuBefore = p.apps.map((app) => processCpuMs(app.child.pid));
      const dispatcherBefore = processCpuMs(dispatcher.pid);
      const appBackends = await backendsCpu(db, APP_NAME);
      const dispatcherBackends = await backendsCpu(db, DISPATCHER_NAME);
      const pgBefore = allPostgresCpuMs();
      const postsBefore = await applicationsOfPostCompany(db);
      // The receiver's count every 200 ms, to read the deliveries of the load's own window.
      const counts: [number, number][] = [[Date.now(), await receiver.delivered()]];
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          await sleep(200);
          counts.push([Date.now(), await receiver.delivered()]);
        }
      })();
      const results: LoadResult[] = await Promise.all(
        p.apps.map((app, index) => runLoad(mix(app, index, seeded, SECONDS))),
      );
      const from = Math.min(...results.map((r) => r.startedAt));
      const to = Math.max(...results.map((r) => r.endedAt));
      const ms = to - from;
      // The last POSTs' deliveries arrive within milliseconds when woken, within a poll (1 s) if a
      // wake-up was lost: give them that long before the next phase begins.
      await sleep(1_200);
      sampling = false;
      await sampler;
      receiver.send({ type: "phase", name: "between" });
      const pgAll = allPostgresCpuMs() - pgBefore;
      const pgApps = backendsDelta(appBackends, await backendsCpu(db, APP_NAME));
      const pgDispatcher = backendsDelta(dispatcherBackends, await backendsCpu(db, DISPATCHER_NAME));
      const countAt = (t: number) => counts.filter(([at]) => at <= t).at(-1)?.[1] ?? 0;
      // Deliveries arrive shortly after their POST (woken): those that arrived in the window.
      const delivered = countAt(to) - countAt(from);
      const posts = (await applicationsOfPostCompany(db)) - postsBefore;
      for (const [index, result] of results.entries()) {
        if (result.non2xx > 0 || result.errors > 0) {
          throw new Error(`${p.label}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
        }
        p.perProcess[index]?.push(result.rps);
        p.cpuPerRequest[index]?.push(
          ((processCpuMs(p.apps[index]?.child.pid) - (cpuBefore[index] ?? 0)) * 1000) / result.requests,
        );
      }
      const requests = results.reduce((sum, r) => sum + r.requests, 0);
      const total = results.reduce((sum, r) => sum + r.rps, 0);
      p.total.push(total);
      p.posts.push((posts * 1000) / ms);
      p.deliveries.push((delivered * 1000) / ms);
      p.dispatcherCpuPerDelivery.push(
        delivered > 0 ? ((processCpuMs(dispatcher.pid) - dispatcherBefore) * 1000) / delivered : Number.NaN,
      );
      p.pgAppPerRequest.push((pgApps * 1000) / requests);
      p.pgBenchPerRequest.push(((pgApps + pgDispatcher) * 1000) / requests);
      p.pgAllPerRequest.push((pgAll * 1000) / requests);
      log(
        `  ${p.label}: ${fmt(total)} req/s (${results.map((r) => fmt(r.rps)).join(" + ")}), ${fmt((delivered * 1000) / ms)} deliveries/s, Postgres ${fmt((pgApps * 1000) / requests)} µs/request in the apps' backends (${fmt((pgDispatcher * 1000) / Math.max(delivered, 1))} µs/delivery in the dispatcher's), ${fmt((pgAll * 1000) / requests)} µs/request in all postgres processes`,
      );
    };

    log(`warm-up (${WARMUP_SECONDS} s)`);
    await Promise.all(apps.map((app, index) => runLoad(mix(app, index, seeded, WARMUP_SECONDS))));
    for (let round = 0; round < ROUNDS; round++) {
      log(`round ${round + 1} of ${ROUNDS}`);
      for (const p of round % 2 === 0 ? phases : [...phases].reverse()) await measure(p, round + 1);
    }
    // Let the dispatcher finish the last POSTs' deliveries before the endpoint goes.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const { latencies } = await receiver.report();
    for (const p of phases) {
      for (let round = 1; round <= ROUNDS; round++)
        p.latencies.push(...(latencies[`${p.label}, round ${round}`] ?? []));
      p.latencies.sort((a, b) => a - b);
    }
    writeResults(phases, machine, Math.round((Date.now() - started) / 1000));
  } finally {
    for (const child of children.reverse()) {
      if (child === receiver.child) receiver.send({ type: "exit" });
      else await stopChild(child);
    }
    await manager.endpoints.delete(POST_COMPANY, endpoint.endpoint.id).catch(() => undefined);
    await db.destroy();
  }
}

function writeResults(phases: Phase[], machine: Awaited<ReturnType<typeof machineInfo>>, elapsed: number): void {
  const row = (p: Phase) =>
    [
      p.label,
      fmt(median(p.total)),
      p.perProcess.map((runs) => fmt(median(runs))).join(" + "),
      p.cpuPerRequest.map((runs) => fmt(median(runs))).join(" / "),
      fmt(median(p.posts)),
      fmt(median(p.deliveries)),
      `${fmt(percentile(p.latencies, 50))} / ${fmt(percentile(p.latencies, 99))} (${fmt(p.latencies.length)})`,
      fmt(median(p.dispatcherCpuPerDelivery.filter(Number.isFinite))),
      fmt(median(p.pgAppPerRequest)),
      fmt(median(p.pgBenchPerRequest)),
      fmt(median(p.pgAllPerRequest)),
    ].join(" | ");
  // App CPU per request of a phase: the mean of its processes' medians.
  const appCpu = (p: Phase) => p.cpuPerRequest.reduce((sum, runs) => sum + median(runs), 0) / p.apps.length;
  /** App-process cores one Postgres core keeps up with, over the phases of one admission. */
  const carried = (redis: boolean) => {
    const values = phases
      .filter((p) => p.label.includes("Redis") === redis)
      .flatMap((p) => [appCpu(p) / median(p.pgBenchPerRequest), appCpu(p) / median(p.pgAllPerRequest)]);
    return `${fmt(Math.min(...values), 1)} to ${fmt(Math.max(...values), 1)}`;
  };
  const estimate = phases
    .map(
      (p) =>
        `${p.label}: ${fmt(appCpu(p))} µs in the app process${p.apps.length > 1 ? "es (mean)" : ""} for ${fmt(median(p.pgBenchPerRequest))} µs in the benchmark's backends (${fmt(median(p.pgAllPerRequest))} µs in all postgres processes)`,
    )
    .join("; ");
  const markdown = [
    "## Scaling: app processes on one Postgres",
    "",
    `Run ${new Date().toISOString().slice(0, 16)}Z with \`BENCH_ONLY=scaling pnpm --filter @hireport/bench start\` (${elapsed} s; ${ROUNDS} interleaved round(s) of ${SECONDS} s per phase after a ${WARMUP_SECONDS} s warm-up; medians). ${machine.cpus}; ${machine.memory}; load average at start ${machine.load}; ${machine.postgres}.`,
    "",
    `Two \`hireport-fastify\` processes (src/server.ts, full pipeline, pg pool 10 each; and, for the phases marked "Redis admission", two \`hireport-fastify-redis\` processes, the same with key admission on the local Redis through @hireport/redis) and one webhook dispatcher process on one Postgres, which the app processes wake after each write through Postgres (\`postgresWakeUps\`: \`onEvent\` sends a NOTIFY, the dispatcher listens and calls \`notify()\`); one autocannon per app process, ${CONNECTIONS} connections each, every connection sending in turn ${GETS_PER_POST} GET /jobs?limit=25 and 1 POST /applications (one write in ten; each POST gives the dispatcher one delivery to a local receiver). "1 app process" loads the first process alone; "2 app processes" loads both at once. Everything (apps, dispatcher, receiver, load generators, Postgres) shares the machine's ${cpus().length} cores, so the 2-process row measures sharing, not added capacity: the CPU per request is the figure to scale from.`,
    "",
    "| Phase | total req/s | req/s per app process | app CPU µs/request (each process) | POST /applications per s | deliveries/s | event to first attempt, ms: p50 / p99 (deliveries) | dispatcher CPU µs/delivery | Postgres CPU µs/request: the apps' backends | the apps' and the dispatcher's backends | all postgres processes |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...phases.map((p) => `| ${row(p)} |`),
    "",
    "How Postgres's CPU is read: `/proc/<pid>/stat` user + system time, before and after each run. *The apps' backends*: the backends whose `application_name` is the app processes' (from `pg_stat_activity`), divided by the requests of the run; *and the dispatcher's*: the same plus the backends of the dispatcher's connections. *All postgres processes*: every process named `postgres` (backends of every connection, the dispatcher's included, the WAL writer, checkpointer and background writer, and ended backends through the postmaster's children's time), divided by the same requests; it also counts anything else the server did meanwhile. Rates are per second of the load's own window (autocannon's start to its end; with two, the first start to the last end). Deliveries/s counts the receiver's arrivals in that window; it is what the POSTs gave the dispatcher, not its ceiling (see the dispatcher section). Event to first attempt: from the event's `created_at` (set in the app process before its transaction commits) to the receiver's first arrival of its delivery, for every delivery of the phase's rounds (those arriving up to 1.2 s after the load's end included), while the API is under the load above.",
    "",
    `Inputs of the estimate in docs/production-guide.md ("Scaling"), CPU per request of this mix: ${estimate}. One Postgres core keeps up with ${carried(false)} fully busy app-process cores with admission on the database, and ${carried(true)} with admission on Redis (app CPU over Postgres CPU per request, over both phases of each admission and both Postgres figures).`,
  ].join("\n");
  writeResultsSection("scaling", markdown);
  process.stdout.write(`${markdown}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
