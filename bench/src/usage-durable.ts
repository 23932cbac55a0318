/**
 * What `usageLog: "durable"` costs: GET /jobs?limit=25 through @hireport/fastify on Postgres with
 * the usage log batched (the default) and durable (each request's entry written before its answer
 * leaves, concurrent requests' entries in one write), interleaved rounds, the same load. `pnpm bench`
 * runs it in its own process after the API benchmarks; alone, after `pnpm build` (it seeds like the
 * API benchmarks, reusing their data):
 *
 *   BENCH_ONLY=usage-durable pnpm --filter @hireport/bench start
 *
 * Knobs: BENCH_ROUNDS (3), BENCH_SECONDS (5), BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (16).
 * Writes the `usage-durable` section of RESULTS.md.
 */
import type { ChildProcess } from "node:child_process";
import { migrateToLatest } from "@hireport/kysely";
import {
  CONNECTIONS,
  createDb,
  fmt,
  log,
  machineInfo,
  median,
  processCpuMs,
  ROUNDS,
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

const KINDS = ["hireport-fastify", "hireport-fastify-durable"] as const;
type Kind = (typeof KINDS)[number];

interface Figures {
  rps: number[];
  p50: number[];
  p99: number[];
  cpu: number[];
}

async function main(): Promise<void> {
  const db = createDb(4);
  const migrated = await migrateToLatest(db, { tablePrefix: TABLE_PREFIX });
  if (migrated.error) throw migrated.error;
  const api = benchApi(db);
  const { listKey } = await seed(api, db).finally(() => api.close());
  const machine = await machineInfo(db);

  const servers = new Map<Kind, { child: ChildProcess; url: string }>();
  for (const kind of KINDS) {
    const child = spawnTsx("server.ts", [kind]);
    const port = await waitForLine(child, "READY ");
    servers.set(kind, { child, url: `http://127.0.0.1:${port}${BASE_PATH}/jobs?limit=25` });
  }
  const figures = new Map<Kind, Figures>(KINDS.map((kind) => [kind, { rps: [], p50: [], p99: [], cpu: [] }]));
  const headers = { authorization: `Bearer ${listKey}` };
  try {
    for (const [, server] of servers) {
      await runLoad({ url: server.url, headers, connections: CONNECTIONS, durationSeconds: WARMUP_SECONDS });
    }
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? KINDS : [...KINDS].reverse();
      for (const kind of order) {
        const server = servers.get(kind);
        const figure = figures.get(kind);
        if (!server || !figure) continue;
        const before = processCpuMs(server.child.pid);
        const result = await runLoad({ url: server.url, headers, connections: CONNECTIONS, durationSeconds: SECONDS });
        if (result.non2xx > 0 || result.errors > 0)
          throw new Error(`${kind}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        figure.rps.push(result.rps);
        figure.p50.push(result.latencyP50);
        figure.p99.push(result.latencyP99);
        figure.cpu.push(((processCpuMs(server.child.pid) - before) * 1000) / result.requests);
        log(
          `round ${round + 1} ${kind}: ${fmt(result.rps)} req/s, p50 ${fmt(result.latencyP50, 1)} ms, p99 ${fmt(result.latencyP99, 1)} ms`,
        );
      }
    }
  } finally {
    for (const [, server] of servers) await stopChild(server.child);
    await db.destroy();
  }

  const row = (kind: Kind, label: string) => {
    const f = figures.get(kind) as Figures;
    return `| ${label} | ${fmt(median(f.rps))} | ${fmt(median(f.p50), 1)} | ${fmt(median(f.p99), 1)} | ${fmt(median(f.cpu))} |`;
  };
  const batched = figures.get("hireport-fastify") as Figures;
  const durable = figures.get("hireport-fastify-durable") as Figures;
  const ratio = median(durable.rps) / median(batched.rps);
  const markdown = [
    "## Usage log: batched against durable",
    "",
    `Run ${new Date().toISOString().slice(0, 16)}Z on ${machine.cpus}; load ${machine.load}. GET /jobs?limit=25 through @hireport/fastify on Postgres, ${CONNECTIONS} connections, ${ROUNDS} interleaved round(s) of ${SECONDS} s after a ${WARMUP_SECONDS} s warm-up; medians.`,
    "",
    "| usage log | req/s | p50 ms | p99 ms | server CPU µs/request |",
    "| --- | --- | --- | --- | --- |",
    row("hireport-fastify", "batched (default)"),
    row("hireport-fastify-durable", 'durable (`usageLog: "durable"`)'),
    "",
    `Durable / batched: ${fmt(ratio, 2)} of the requests per second.`,
  ].join("\n");
  writeResultsSection("usage-durable", markdown);
  log(`durable / batched: ${fmt(ratio, 2)}`);
  process.stdout.write(`${markdown}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
