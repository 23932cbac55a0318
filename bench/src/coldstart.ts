/**
 * Cold start (`BENCH_ONLY=coldstart`): what a serverless host pays for hireport on each new process.
 * Whole processes, run with plain `node` on the packages as built (coldstart/*.mjs): import, build,
 * and the first answered GET /me on Postgres, for hireport and for the bare stack doing the same key
 * lookup (Fastify, Kysely on pg and zod), behind Fastify (a server: spawn to the first answer over
 * HTTP) and as a Next.js route handler (a function: spawn to the handler's first Response). Runs
 * alternate hireport and bare, 10 pairs each (`BENCH_COLD_RUNS`); medians and their spread, and the
 * resident memory after the first answer (VmRSS from /proc).
 */
import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createPublicApi } from "@hireport/core";
import { kyselyStorage, migrateToLatest } from "@hireport/kysely";
import {
  BENCH_DIR,
  createDb,
  FILE_SECRET,
  fmt,
  loadAverage,
  log,
  median,
  PG_URL,
  stopChild,
  waitForLine,
  writeResultsSection,
} from "./common";

const PREFIX = "hireport_cold_";
const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 10);
const COMPANY = "co_cold";

/** Targets of the issue: import + setup + first answer <= 1.15x bare's; RSS <= bare's + 15 MB. */
const TIME_RATIO_TARGET = 1.15;
const RSS_EXTRA_TARGET_MB = 15;

interface Run {
  /** Spawn to the first answer, as the parent saw it. */
  totalMs: number;
  /** The child's clock when its imports were done (since its process started). */
  importMs: number;
  /** Resident memory after the first answer. */
  rssMb: number;
}

type Stack = "hireport" | "bare";
type Shape = "fastify" | "next";

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

async function runOnce(stack: Stack, shape: Shape, key: string): Promise<Run> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [join(BENCH_DIR, "coldstart", `${stack}-${shape}.mjs`)], {
    cwd: BENCH_DIR,
    env: { ...process.env, COLD_PG_URL: PG_URL, COLD_PREFIX: PREFIX, COLD_SECRET: FILE_SECRET, COLD_KEY: key },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    // The child's line: the port (server) or the status (function), then its clock's marks as JSON.
    const line = await waitForLine(child, shape === "fastify" ? "listening " : "answered ");
    const [head, marks] = [line.slice(0, line.indexOf(" ")), line.slice(line.indexOf(" ") + 1)];
    let status = head;
    if (shape === "fastify") {
      const response = await fetch(`http://127.0.0.1:${head}/api/public/v1/me`, {
        headers: { authorization: `Bearer ${key}` },
      });
      await response.text();
      status = String(response.status);
    }
    const totalMs = performance.now() - started;
    if (status !== "200") throw new Error(`${stack}-${shape}: GET /me answered ${status}`);
    return { totalMs, importMs: (JSON.parse(marks) as { imported: number }).imported, rssMb: rssMb(child.pid ?? 0) };
  } finally {
    await stopChild(child, 2_000);
  }
}

function spread(values: readonly number[]): string {
  return `${fmt(Math.min(...values))}–${fmt(Math.max(...values))}`;
}

export async function runColdStartBench(): Promise<void> {
  const db = createDb(2);
  let key: string;
  try {
    const migrated = await migrateToLatest(db, { tablePrefix: PREFIX });
    if (migrated.error) throw migrated.error;
    const api = createPublicApi({
      storage: kyselyStorage({ db, tablePrefix: PREFIX }),
      publicBaseUrl: "http://bench.local",
      fileTokenSecret: FILE_SECRET,
    });
    await api.companies.upsert({ id: COMPANY, name: "Cold start" });
    for (const old of await api.keys.list(COMPANY)) if (old.revokedAt === null) await api.keys.revoke(COMPANY, old.id);
    key = (await api.keys.create({ companyId: COMPANY, name: "cold start", scopes: ["jobs:read"] })).key;
    await api.close();
  } finally {
    await db.destroy();
  }

  const rows: string[] = [];
  const verdicts: string[] = [];
  for (const shape of ["fastify", "next"] as const) {
    const runs: Record<Stack, Run[]> = { hireport: [], bare: [] };
    // One throwaway pair: the first process after a while reads its files from disk.
    await runOnce("hireport", shape, key);
    await runOnce("bare", shape, key);
    for (let i = 0; i < RUNS; i += 1) {
      const order: Stack[] = i % 2 === 0 ? ["hireport", "bare"] : ["bare", "hireport"];
      for (const stack of order) runs[stack].push(await runOnce(stack, shape, key));
    }
    const m = (stack: Stack, pick: (run: Run) => number) => median(runs[stack].map(pick));
    const ratio = m("hireport", (run) => run.totalMs) / m("bare", (run) => run.totalMs);
    const extraRss = m("hireport", (run) => run.rssMb) - m("bare", (run) => run.rssMb);
    for (const stack of ["hireport", "bare"] as const) {
      rows.push(
        `| ${shape} | ${stack} | ${fmt(m(stack, (run) => run.totalMs))} (${spread(runs[stack].map((run) => run.totalMs))}) | ${fmt(m(stack, (run) => run.importMs))} (${spread(runs[stack].map((run) => run.importMs))}) | ${fmt(
          m(stack, (run) => run.rssMb),
          1,
        )} |`,
      );
    }
    verdicts.push(
      `- ${shape}: import + setup + first answer ${fmt(ratio, 2)}x bare's (target <= ${TIME_RATIO_TARGET}x: ${ratio <= TIME_RATIO_TARGET ? "met" : "**missed**"}); RSS after the first answer bare + ${fmt(extraRss, 1)} MB (target <= + ${RSS_EXTRA_TARGET_MB} MB: ${extraRss <= RSS_EXTRA_TARGET_MB ? "met" : "**missed**"})`,
    );
    log(`coldstart ${shape}: ${fmt(ratio, 2)}x, RSS +${fmt(extraRss, 1)} MB`);
  }

  const markdown = [
    "## Cold start (`src/coldstart.ts`, `BENCH_ONLY=coldstart`)",
    "",
    `${new Date().toISOString()}, load average ${loadAverage()}. Whole processes with plain \`node\` on the packages as built, ${RUNS} pairs per shape, hireport and bare alternating; medians, with the lowest and highest run in brackets (ms and MB). "Total": spawn to the first answered GET /me on Postgres (Fastify: over HTTP once listening; Next: the route handler's first Response); "imported": the child's own clock when its imports were done (Node's start included).`,
    "",
    "| Shape | Stack | Total (ms) | Imported (ms) | RSS after the first answer (MB) |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
    ...verdicts,
  ].join("\n");
  writeResultsSection("coldstart", markdown);
  log("coldstart: results written to RESULTS.md (section coldstart)");
}
