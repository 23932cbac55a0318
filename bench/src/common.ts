/**
 * Helpers shared by every benchmark of this package (the API benchmarks and the dispatcher one):
 * configuration, the database, child processes, load runs, statistics and RESULTS.md sections.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, freemem, loadavg, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { hardenPgPool } from "@hireport/kysely";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";

export const BENCH_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");
export const SRC_DIR = join(BENCH_DIR, "src");
export const RESULTS_PATH = join(BENCH_DIR, "RESULTS.md");

export const PG_URL = process.env.HIREPORT_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
/** hireport's tables of the API benchmarks (never the tests' `hireport_` nor the examples'). */
export const TABLE_PREFIX = "hireport_bench_";
/** Signs cursors and CV links; every server process of a run shares it. */
export const FILE_SECRET = "hireport-bench-file-token-secret-0123456789";

/**
 * A Kysely on a pg pool of `poolSize` connections to PG_URL. `BENCH_PG_APPLICATION_NAME` names the
 * connections in `pg_stat_activity` (the scaling benchmark finds its backends by it).
 */
/** Measured rounds per figure (`BENCH_ROUNDS`), their length in seconds (`BENCH_SECONDS`), the warm-up
 * before each figure (`BENCH_WARMUP_SECONDS`) and autocannon's connections (`BENCH_CONNECTIONS`). */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
/** Unmeasured load right before each measured run of the API benchmarks (`LoadOptions.primeSeconds`). */
export const PRIME_SECONDS = Number(process.env.BENCH_PRIME_SECONDS ?? 5);

export function createDb(poolSize = 10): Kysely<unknown> {
  const pool = new pg.Pool({
    connectionString: PG_URL,
    max: poolSize,
    connectionTimeoutMillis: 10_000,
    ...(process.env.BENCH_PG_APPLICATION_NAME ? { application_name: process.env.BENCH_PG_APPLICATION_NAME } : {}),
  });
  // As the README tells hosts (it also prepares hireport's hot statements; a baseline's own
  // queries carry no mark and run as before).
  hardenPgPool(pool);
  return new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
}

export function log(message: string): void {
  process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The nearest-rank `p`th percentile of values sorted ascending. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

export function fmt(value: number, digits = 0): string {
  return Number.isFinite(value)
    ? value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : "n/a";
}

/** Runs `tsx <file>` of this package as a child process (its own event loop, its own core). */
export function spawnTsx(
  file: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  nodeOptions: readonly string[] = [],
): ChildProcess {
  return spawn(process.execPath, [...nodeOptions, "--import", "tsx", join(SRC_DIR, file), ...args], {
    cwd: BENCH_DIR,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
}

/** Resolves with the first stdout line that starts with `prefix` (the rest of it), rejects when the child exits first. */
export function waitForLine(child: ChildProcess, prefix: string, timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    const timer = setTimeout(() => reject(new Error(`no "${prefix}" line within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      let newline = buffer.indexOf("\n");
      while (newline !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line.startsWith(prefix)) {
          clearTimeout(timer);
          child.stdout?.off("data", onData);
          resolve(line.slice(prefix.length).trim());
          return;
        }
        if (line.trim()) process.stdout.write(`  | ${line}\n`);
        newline = buffer.indexOf("\n");
      }
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`child exited (${code}) before "${prefix}"`));
    });
  });
}

/** Stops a child we started (SIGTERM, then SIGKILL after `graceMs`) and waits for it. */
export async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

export interface LoadOptions {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** `[<id>]` in the body is replaced by a fresh id on every request (autocannon `idReplacement`). */
  body?: string;
  /** Several bodies, sent in turn by each connection (autocannon `requests`); `[<id>]` replaced too. */
  bodies?: string[];
  connections: number;
  durationSeconds: number;
  /**
   * A mix of requests sent in turn by each connection (autocannon `requests`): each with its own
   * method, path (on `url`'s origin), headers and body (`[<id>]` replaced). Overrides `bodies`.
   */
  requests?: { method: "GET" | "POST"; path: string; headers?: Record<string, string>; body?: string }[];
  /** Stop after this many requests instead (autocannon `amount`). */
  amount?: number;
  /**
   * Unmeasured load first, for this many seconds, from the same load process (default 0: none).
   * A server that sat idle while the others were measured starts its run dearer per request for
   * several seconds, hireport for longer than bare (RESULTS.md, "Claims"). Priming makes the
   * measured run read the steady state. `runLoad` calls `onPrimed` when the measured run starts.
   */
  primeSeconds?: number;
}

export interface LoadResult {
  requests: number;
  rps: number;
  latencyP50: number;
  latencyP99: number;
  latencyMean: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** When autocannon started and ended, in ms since the epoch (the load's own window, start-up left out). */
  startedAt: number;
  endedAt: number;
}

/**
 * One autocannon run from a separate process (src/load.ts), so the load never shares the server's
 * core. With `primeSeconds`, `onPrimed` runs when the priming ends and the measured run starts.
 */
export async function runLoad(options: LoadOptions, onPrimed?: () => void): Promise<LoadResult> {
  const child = spawnTsx("load.ts", [JSON.stringify(options)]);
  if (options.primeSeconds) {
    await waitForLine(child, "PRIMED", (options.primeSeconds + 60) * 1000);
    onPrimed?.();
  }
  const line = await waitForLine(child, "RESULT ", (options.durationSeconds + 60) * 1000);
  await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())));
  return JSON.parse(line) as LoadResult;
}

export interface MachineInfo {
  cpus: string;
  memory: string;
  load: string;
  node: string;
  postgres: string;
  packages: Record<string, string>;
}

function packageVersion(name: string): string {
  try {
    const path = join(BENCH_DIR, "node_modules", ...name.split("/"), "package.json");
    return (JSON.parse(readFileSync(path, "utf8")) as { version: string }).version;
  } catch {
    return "?";
  }
}

export function loadAverage(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(" / ");
}

export async function machineInfo(db: Kysely<unknown>): Promise<MachineInfo> {
  const first = cpus()[0];
  const { rows } = await sql<{ version: string }>`select version() as version`.execute(db);
  let kernel = "";
  try {
    kernel = execFileSync("uname", ["-sr"], { encoding: "utf8" }).trim();
  } catch {
    kernel = process.platform;
  }
  return {
    cpus: `${cpus().length} × ${first?.model.trim() ?? "?"} (${kernel})`,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB total, ${(freemem() / 2 ** 30).toFixed(1)} GiB free at start`,
    load: loadAverage(),
    node: process.version,
    postgres: rows[0]?.version.split(" on ")[0] ?? "?",
    packages: Object.fromEntries(
      [
        "@hireport/core",
        "@hireport/kysely",
        "@hireport/fastify",
        "@hireport/express",
        "fastify",
        "@fastify/rate-limit",
        "ioredis",
        "express",
        "kysely",
        "pg",
        "autocannon",
      ].map((name) => [name, packageVersion(name)]),
    ),
  };
}

/**
 * Replaces one section of RESULTS.md, between `<!-- name:begin -->` and `<!-- name:end -->`, and
 * leaves every other section as it is (the API and the dispatcher benchmarks write their own).
 * A section not there yet is appended.
 */
export function writeResultsSection(name: string, markdown: string): void {
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  let text = "";
  try {
    text = readFileSync(RESULTS_PATH, "utf8");
  } catch {
    text = "# hireport benchmark results\n";
  }
  const block = `${begin}\n${markdown.trim()}\n${end}`;
  const start = text.indexOf(begin);
  const stop = text.indexOf(end);
  if (start !== -1 && stop > start) {
    text = text.slice(0, start) + block + text.slice(stop + end.length);
  } else {
    text = `${text.trimEnd()}\n\n${block}\n`;
  }
  writeFileSync(RESULTS_PATH, text);
}

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A frame as the profiles name it: the function, then its file (below node_modules or packages) and line. */
export function frameName(frame: CpuProfileNode["callFrame"]): string {
  const file = frame.url.replace(/^.*\/(node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?|packages\/)/, "");
  return `${frame.functionName || "(anonymous)"} ${file ? `${file}:${frame.lineNumber + 1}` : ""}`.trim();
}

/** Which code a frame belongs to: a hireport package, a dependency, Node itself, or idle/GC. */
export function frameGroup(frame: CpuProfileNode["callFrame"]): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  const own = /\/packages\/([^/]+)\//.exec(url);
  if (own && !url.includes("node_modules")) return `@hireport/${own[1]}`;
  const dep = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dep) return dep[1] as string;
  if (url.startsWith("node:")) return "node internals";
  if (url.includes("/bench/")) return "bench";
  return url;
}

/**
 * The self time of a `--cpu-prof` profile: the top frames and the share of each package, as
 * Markdown. Samples of the last `lastMs` milliseconds only (the measured run, not the start-up).
 */
export function summarizeCpuProfile(path: string, lastMs: number, top = 12): string {
  const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
  const hitsOf = new Map<number, number>();
  let at = profile.startTime;
  const from = profile.endTime - lastMs * 1000;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= from) hitsOf.set(id, (hitsOf.get(id) ?? 0) + 1);
  });
  const total = [...hitsOf.values()].reduce((sum, hits) => sum + hits, 0) || 1;
  const byFrame = new Map<string, number>();
  const byGroup = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = hitsOf.get(node.id) ?? 0;
    if (hits === 0) continue;
    const name = frameName(node.callFrame);
    byFrame.set(name, (byFrame.get(name) ?? 0) + hits);
    const group = frameGroup(node.callFrame);
    byGroup.set(group, (byGroup.get(group) ?? 0) + hits);
  }
  const pct = (hits: number) => `${((100 * hits) / total).toFixed(1)} %`;
  const rows = (map: Map<string, number>, n: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, hits]) => `| \`${name.replace(/\|/g, "\\|")}\` | ${pct(hits)} |`)
      .join("\n");
  return [
    "| Self time by package | share |",
    "| --- | --- |",
    rows(byGroup, 10),
    "",
    "| Top frames (self time) | share |",
    "| --- | --- |",
    rows(byFrame, top),
  ].join("\n");
}

/** CPU time (user + system) a process has used so far, in milliseconds, from /proc (Linux); NaN elsewhere. */
export function processCpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of stat(5) (utime, stime), counted from the state field (3).
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU time (ms) of every `postgres` process: user + system, plus the same of its children that
 * ended (stat(5) cutime, cstime: the postmaster collects its ended backends').
 */
export function allPostgresCpuMs(): number {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(join("/proc", entry, "stat"), "utf8");
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) !== "postgres") continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // The process ended while we read.
    }
  }
  return (ticks * 1000) / 100;
}
