/**
 * Where a GET's cost goes: `hireport-fastify` and `bare-fastify` (src/server.ts) each run under
 * `node --cpu-prof` and `--heap-prof` at steady state on the same load (GET /applications and GET
 * /jobs, `BENCH_CONNECTIONS` connections, `BENCH_SECONDS` s after a warm-up), and their self time
 * and sampled allocations are set side by side per request: per package, per function, and the
 * difference, largest first. Postgres's side is read from /proc (every `postgres` process) and from
 * `pg_stat_database` (transactions, rows written) per request. `BENCH_ONLY=profile` runs it alone;
 * it writes the `profile` section of RESULTS.md.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { migrateToLatest } from "@hireport/kysely";
import { type Kysely, sql } from "kysely";
import {
  allPostgresCpuMs,
  BENCH_DIR,
  CONNECTIONS,
  createDb,
  fmt,
  frameGroup,
  frameName,
  log,
  machineInfo,
  processCpuMs,
  runLoad,
  SECONDS,
  spawnTsx,
  stopChild,
  TABLE_PREFIX,
  WARMUP_SECONDS,
  waitForLine,
  writeResultsSection,
} from "./common";
import { BASE_PATH, benchApi } from "./hireport";
import { seed } from "./seed";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}

const PATHS = ["/applications?limit=25", "/jobs?limit=25"] as const;

/** Self time (µs) per frame and per package over the profile's samples between `from` and `to` (µs, profile clock). */
function cpuSelfTime(path: string, windowUs: number) {
  const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
  const byNode = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const frames = new Map<string, number>();
  const groups = new Map<string, number>();
  let at = profile.startTime;
  const from = profile.endTime - windowUs;
  for (let i = 0; i < profile.samples.length; i += 1) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < from) continue;
    const frame = byNode.get(profile.samples[i] as number);
    if (!frame || frame.functionName === "(idle)") continue;
    const us = profile.timeDeltas[i + 1] ?? delta;
    frames.set(frameName(frame), (frames.get(frameName(frame)) ?? 0) + us);
    groups.set(frameGroup(frame), (groups.get(frameGroup(frame)) ?? 0) + us);
  }
  return { frames, groups };
}

/** Sampled allocation (bytes) per frame of a `--heap-prof` profile (the whole run, start-up included). */
function heapSelfSize(path: string): Map<string, number> {
  const root = (JSON.parse(readFileSync(path, "utf8")) as { head: HeapNode }).head;
  const sizes = new Map<string, number>();
  const walk = (node: HeapNode) => {
    if (node.selfSize > 0)
      sizes.set(frameName(node.callFrame), (sizes.get(frameName(node.callFrame)) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child);
  };
  walk(root);
  return sizes;
}

async function pgStats(db: Kysely<unknown>) {
  const { rows } = await sql<{ xact: string; ins: string; upd: string; fetched: string }>`
    select xact_commit + xact_rollback as xact, tup_inserted as ins, tup_updated as upd, tup_fetched as fetched
    from pg_stat_database where datname = current_database()`.execute(db);
  const row = rows[0];
  return { xact: Number(row?.xact), ins: Number(row?.ins), upd: Number(row?.upd) };
}

interface Side {
  kind: string;
  requests: number;
  rps: number;
  nodeUs: number;
  pgUs: number;
  xact: number;
  writes: number;
  frames: Map<string, number>;
  groups: Map<string, number>;
  heap: Map<string, number>;
}

async function profileOne(db: Kysely<unknown>, kind: string, path: string, key: string | undefined): Promise<Side> {
  const dir = join(BENCH_DIR, ".profiles", kind);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const heapFile = join(dir, "allocation.heapprofile");
  const child = spawnTsx("server.ts", [kind], { BENCH_HEAP_PROFILE: heapFile }, [
    "--cpu-prof",
    `--cpu-prof-dir=${dir}`,
  ]);
  const port = await waitForLine(child, "READY ");
  const options = {
    url: `http://127.0.0.1:${port}${BASE_PATH}${path}`,
    headers: key ? { authorization: `Bearer ${key}` } : ({} as Record<string, string>),
    connections: CONNECTIONS,
    durationSeconds: SECONDS,
  };
  const warm = (await runLoad({ ...options, durationSeconds: WARMUP_SECONDS })).requests;
  const cpuBefore = processCpuMs(child.pid);
  const pgBefore = allPostgresCpuMs();
  const statsBefore = await pgStats(db);
  const started = Date.now();
  const result = await runLoad(options);
  const measuredMs = Date.now() - started;
  // Let the batched usage entries of the run reach Postgres before reading its side.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const cpuAfter = processCpuMs(child.pid);
  const pgAfter = allPostgresCpuMs();
  const statsAfter = await pgStats(db);
  await stopChild(child);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${kind} ${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const cpuFile = readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
  if (!cpuFile) throw new Error(`${kind}: no profile written`);
  const { frames, groups } = cpuSelfTime(join(dir, cpuFile), measuredMs * 1000);
  const n = result.requests;
  const perRequest = (map: Map<string, number>) => new Map([...map].map(([name, us]) => [name, us / n]));
  return {
    kind,
    requests: n,
    rps: result.rps,
    nodeUs: ((cpuAfter - cpuBefore) * 1000) / n,
    pgUs: ((pgAfter - pgBefore) * 1000) / n,
    xact: (statsAfter.xact - statsBefore.xact) / n,
    writes: (statsAfter.ins - statsBefore.ins + statsAfter.upd - statsBefore.upd) / n,
    frames: perRequest(frames),
    groups: perRequest(groups),
    // Allocation over the whole process life, per request served (warm-up included).
    heap: new Map([...heapSelfSize(heapFile)].map(([name, bytes]) => [name, bytes / (n + warm)])),
  };
}

function difference(a: Map<string, number>, b: Map<string, number>, top: number): [string, number, number][] {
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names]
    .map((name): [string, number, number] => [name, a.get(name) ?? 0, b.get(name) ?? 0])
    .sort((x, y) => y[1] - y[2] - (x[1] - x[2]))
    .slice(0, top);
}

const cell = (name: string) => `\`${name.replace(/\|/g, "\\|")}\``;

export async function runProfileBench(): Promise<void> {
  const db = createDb(4);
  const migrated = await migrateToLatest(db, { tablePrefix: TABLE_PREFIX });
  if (migrated.error) throw migrated.error;
  const api = benchApi(db);
  const seeded = await seed(api, db).finally(() => api.close());
  const machine = await machineInfo(db);
  const sections: string[] = [];
  for (const path of PATHS) {
    log(`profile: GET ${path}`);
    const hireport = await profileOne(db, "hireport-fastify", path, seeded.listKey);
    const bare = await profileOne(db, "bare-fastify", path, undefined);
    for (const side of [hireport, bare]) {
      log(
        `  ${side.kind}: ${fmt(side.rps)} req/s, Node ${fmt(side.nodeUs)} µs/request, Postgres ${fmt(side.pgUs)} µs/request, ${fmt(side.xact, 2)} transactions and ${fmt(side.writes, 2)} rows written per request`,
      );
    }
    const rows = (entries: [string, number, number][], unit: (v: number) => string) =>
      entries.map(([name, a, b]) => `| ${cell(name)} | ${unit(a)} | ${unit(b)} | ${unit(a - b)} |`).join("\n");
    const us = (v: number) => fmt(v, 1);
    const kb = (v: number) => fmt(v / 1024, 2);
    sections.push(
      [
        `### GET ${path}`,
        "",
        "| Per request (under profiling) | hireport | bare | ratio |",
        "| --- | --- | --- | --- |",
        `| req/s | ${fmt(hireport.rps)} | ${fmt(bare.rps)} | ${fmt(hireport.rps / bare.rps, 2)} |`,
        `| Node CPU, µs | ${fmt(hireport.nodeUs)} | ${fmt(bare.nodeUs)} | ${fmt(hireport.nodeUs / bare.nodeUs, 2)} |`,
        `| Postgres CPU (all processes), µs | ${fmt(hireport.pgUs)} | ${fmt(bare.pgUs)} | ${fmt(hireport.pgUs / bare.pgUs, 2)} |`,
        `| transactions | ${fmt(hireport.xact, 2)} | ${fmt(bare.xact, 2)} | |`,
        `| rows inserted or updated | ${fmt(hireport.writes, 2)} | ${fmt(bare.writes, 2)} | |`,
        "",
        "| Self time by package, µs/request | hireport | bare | difference |",
        "| --- | --- | --- | --- |",
        rows(difference(hireport.groups, bare.groups, 12), us),
        "",
        "| Self time by function, µs/request (largest difference first) | hireport | bare | difference |",
        "| --- | --- | --- | --- |",
        rows(difference(hireport.frames, bare.frames, 15), us),
        "",
        "| Sampled allocation by function, KiB/request (largest difference first) | hireport | bare | difference |",
        "| --- | --- | --- | --- |",
        rows(difference(hireport.heap, bare.heap, 12), kb),
      ].join("\n"),
    );
  }
  await db.destroy();
  writeResultsSection(
    "profile",
    [
      "## Where a GET's cost goes (`BENCH_ONLY=profile`)",
      "",
      `Run ${new Date().toISOString().slice(0, 16)}Z. ${machine.cpus}; load average at start ${machine.load}. Each server alone under \`--cpu-prof\` and the sampling heap profiler (which slow both), ${CONNECTIONS} connections, ${SECONDS} s after a ${WARMUP_SECONDS} s warm-up. Self time is the profile's samples of the measured window divided by its requests; allocation is V8's sampling heap profile (every 4 KiB allocated, collected objects included) over the process's life divided by its requests (warm-up included). Postgres CPU is every \`postgres\` process's, from /proc.`,
      "",
      ...sections,
    ].join("\n"),
  );
}
