/**
 * The API benchmarks: GET /jobs and GET /applications through @hireport/fastify and
 * @hireport/express against hand-written Fastify/Express + Kysely and (Fastify) against the peer
 * stack a host would assemble by hand (src/peer.ts), POST
 * /applications against GET, and a page 1,000,000 applications deep against the first page.
 * Servers and the load generator are separate processes; every figure is a median of several runs
 * and every comparison a ratio of runs taken in the same process of this script, interleaved.
 */
import type { ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { migrateToLatest } from "@hireport/kysely";
import { sql } from "kysely";
import {
  allPostgresCpuMs,
  BENCH_DIR,
  CONNECTIONS,
  createDb,
  fmt,
  type LoadOptions,
  type LoadResult,
  loadAverage,
  log,
  machineInfo,
  median,
  PRIME_SECONDS,
  processCpuMs,
  ROUNDS,
  runLoad,
  SECONDS,
  spawnTsx,
  stopChild,
  summarizeCpuProfile,
  TABLE_PREFIX,
  WARMUP_SECONDS,
  waitForLine,
  writeResultsSection,
} from "./common";
import { applicationsCursor, BASE_PATH, benchApi, type Skippable } from "./hireport";
import { preparePeer, revokedPeerKey } from "./peer";
import { LIST_COMPANY, type Seeded, seed } from "./seed";

const DEEP_ROWS = 1_000_000;

type ServerKind =
  | "hireport-fastify"
  | "hireport-fastify-redis"
  | "hireport-express"
  | "bare-fastify"
  | "bare-express"
  | "peer-fastify";

interface RunningServer {
  kind: ServerKind;
  child: ChildProcess;
  base: string;
}

const children = new Set<ChildProcess>();

async function startServer(
  kind: ServerKind,
  nodeOptions: readonly string[] = [],
  without: readonly Skippable[] = [],
): Promise<RunningServer> {
  const child = spawnTsx("server.ts", [kind], { BENCH_WITHOUT: without.join(",") }, nodeOptions);
  children.add(child);
  child.once("exit", () => children.delete(child));
  const port = await waitForLine(child, "READY ");
  return { kind, child, base: `http://127.0.0.1:${port}${BASE_PATH}` };
}

export async function stopAllServers(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child)));
}

async function getJson(url: string, key?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, key ? { headers: { authorization: `Bearer ${key}` } } : {});
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The baseline must answer the same rows in the same shape, or the ratio means nothing. */
async function checkSameAnswers(
  hireport: RunningServer,
  bare: RunningServer,
  key: string,
  bareKey?: string,
): Promise<void> {
  for (const path of ["/jobs?limit=25", "/applications?limit=25"]) {
    const a = await getJson(hireport.base + path, key);
    const b = await getJson(bare.base + path, bareKey);
    if (a.status !== 200 || b.status !== 200) throw new Error(`${path}: status ${a.status} / ${b.status}`);
    const same = JSON.stringify(a.body.data) === JSON.stringify(b.body.data) && a.body.has_more === b.body.has_more;
    if (!same) throw new Error(`${path}: ${hireport.kind} and ${bare.kind} answer different data`);
  }
}

/** The peer stack must refuse what hireport refuses: no key, an unknown key, a revoked key. */
async function checkPeerRefuses(peer: RunningServer, key: string): Promise<void> {
  for (const token of [undefined, `${key}-unknown`, revokedPeerKey(key)]) {
    const { status } = await getJson(`${peer.base}/jobs?limit=25`, token);
    if (status !== 401)
      throw new Error(`peer-fastify answered ${status}, not 401, to a missing, unknown or revoked key`);
  }
}

function load(url: string, key: string | undefined, extra: Partial<LoadOptions> = {}): LoadOptions {
  return {
    url,
    headers: key ? { authorization: `Bearer ${key}` } : {},
    connections: CONNECTIONS,
    durationSeconds: SECONDS,
    ...extra,
  };
}

interface Scenario {
  name: string;
  options: LoadOptions;
  results: LoadResult[];
  /** The server process, to read the CPU time it spends per request. */
  pid: number | undefined;
  cpuPerRequest: number[];
  /** CPU time of every `postgres` process per request (µs), over the run and its usage log's last write. */
  pgPerRequest: number[];
}

/** Longer than the usage log's longest wait (250 ms): the run's last entries are written before Postgres is read. */
const SETTLE_MS = 600;

async function measure(scenario: Scenario): Promise<void> {
  let cpuBefore = processCpuMs(scenario.pid);
  let pgBefore = allPostgresCpuMs();
  // Primed first: the server has sat idle while the others were measured (see `primeSeconds`).
  const result = await runLoad({ ...scenario.options, primeSeconds: PRIME_SECONDS }, () => {
    cpuBefore = processCpuMs(scenario.pid);
    pgBefore = allPostgresCpuMs();
  });
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  scenario.cpuPerRequest.push(((processCpuMs(scenario.pid) - cpuBefore) * 1000) / result.requests);
  scenario.pgPerRequest.push(((allPostgresCpuMs() - pgBefore) * 1000) / result.requests);
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${scenario.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  scenario.results.push(result);
  log(
    `  ${scenario.name}: ${fmt(result.rps)} req/s, p50 ${fmt(result.latencyP50, 1)} ms, p99 ${fmt(result.latencyP99, 1)} ms, server CPU ${fmt(scenario.cpuPerRequest.at(-1) ?? Number.NaN)} µs/request, Postgres CPU ${fmt(scenario.pgPerRequest.at(-1) ?? Number.NaN)} µs/request`,
  );
}

const rps = (scenario: Scenario) => median(scenario.results.map((r) => r.rps));
const p50 = (scenario: Scenario) => median(scenario.results.map((r) => r.latencyP50));
const mean = (scenario: Scenario) => median(scenario.results.map((r) => r.latencyMean));
const cpu = (scenario: Scenario) => median(scenario.cpuPerRequest);
const pgCpu = (scenario: Scenario) => median(scenario.pgPerRequest);
const runs = (scenario: Scenario) => scenario.results.map((r) => fmt(r.rps)).join(", ");
const roundRps = (scenario: Scenario) => scenario.results.map((r) => r.rps);
const roundMean = (scenario: Scenario) => scenario.results.map((r) => r.latencyMean);
/**
 * A ratio in each round: the two runs of one round were measured minutes apart at most, so these
 * show how far the machine's drift and each round's noise move a figure whose target is read from
 * the medians.
 */
const perRound = (a: readonly number[], b: readonly number[]) => a.map((value, i) => value / (b[i] ?? Number.NaN));

interface Ratio {
  what: string;
  /** The median of `a`'s rounds over the median of `b`'s: what the target is judged on. */
  value: number;
  rounds: number[];
  target: string;
  ok: boolean;
}

/** A figure against its target, from the rounds of its two sides (each a value per round). */
function judge(what: string, a: readonly number[], b: readonly number[], op: ">=" | "<=", bound: number): Ratio {
  const value = median(a) / median(b);
  return {
    what,
    value,
    rounds: perRound(a, b),
    target: `${op} ${bound.toFixed(2)}`,
    ok: op === ">=" ? value >= bound : value <= bound,
  };
}

/** Finds the keyset position after exactly `DEEP_ROWS` rows and builds its cursor, checked against the API's own. */
async function deepCursor(db: ReturnType<typeof createDb>, hireport: RunningServer, key: string) {
  const first = await getJson(`${hireport.base}/applications?limit=25`, key);
  const data = first.body.data as { id: string; applied_at: string }[];
  const last = data[data.length - 1];
  if (!last) throw new Error("no applications to page through");
  const ours = applicationsCursor(LIST_COMPANY, new Date(last.applied_at), last.id);
  if (ours !== first.body.next_cursor) throw new Error("the bench's cursor differs from the API's next_cursor");
  log(`deep paging: locating row ${DEEP_ROWS.toLocaleString("en-US")} by SQL`);
  const { rows } = await sql<{ id: string; applied_at: Date }>`
    select id, applied_at from ${sql.table(`${TABLE_PREFIX}application`)}
    where company_id = ${LIST_COMPANY}
    order by applied_at desc, id desc offset ${DEEP_ROWS - 1} limit 2`.execute(db);
  const [boundary, expectedFirst] = rows;
  if (!boundary || !expectedFirst) throw new Error(`fewer than ${DEEP_ROWS + 1} applications`);
  const cursor = applicationsCursor(LIST_COMPANY, boundary.applied_at, boundary.id);
  const deep = await getJson(`${hireport.base}/applications?limit=25&cursor=${cursor}`, key);
  const deepData = deep.body.data as { id: string }[];
  if (deep.status !== 200 || deepData[0]?.id !== expectedFirst.id || deepData.length !== 25) {
    throw new Error(`the deep page is not the 1,000,001st row onwards (status ${deep.status})`);
  }
  return cursor;
}

async function profileServer(kind: ServerKind, options: (base: string) => LoadOptions): Promise<string> {
  const dir = join(BENCH_DIR, ".profiles");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const server = await startServer(kind, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
  await runLoad({ ...options(server.base), durationSeconds: WARMUP_SECONDS });
  const started = Date.now();
  await runLoad(options(server.base));
  const measuredMs = Date.now() - started;
  await stopChild(server.child);
  const file = readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
  if (!file) return "(no profile written)";
  return summarizeCpuProfile(join(dir, file), measuredMs);
}

const verdict = (ok: boolean) => (ok ? "met" : "**missed**");

export async function runApiBench(): Promise<void> {
  const started = Date.now();
  const db = createDb(4);
  const migrated = await migrateToLatest(db, { tablePrefix: TABLE_PREFIX });
  if (migrated.error) throw migrated.error;
  const api = benchApi(db);
  let seeded: Seeded;
  try {
    seeded = await seed(api, db);
  } finally {
    await api.close();
  }
  await preparePeer(db, seeded.listKey);
  const machine = await machineInfo(db);
  log(`machine: ${machine.cpus}; load ${machine.load}`);

  const servers = {
    hf: await startServer("hireport-fastify"),
    bf: await startServer("bare-fastify"),
    he: await startServer("hireport-express"),
    be: await startServer("bare-express"),
    pf: await startServer("peer-fastify"),
    rf: await startServer("hireport-fastify-redis"),
  };
  const diagnostics: { label: string; server: RunningServer }[] = [];
  for (const without of [["rate-limit"], ["key-lookup"], ["rate-limit", "key-lookup", "usage-log"]] as Skippable[][]) {
    diagnostics.push({ label: without.join(" + "), server: await startServer("hireport-fastify", [], without) });
  }
  const key = seeded.listKey;
  await checkSameAnswers(servers.hf, servers.bf, key);
  await checkSameAnswers(servers.he, servers.be, key);
  await checkSameAnswers(servers.hf, servers.pf, key, key);
  await checkSameAnswers(servers.hf, servers.rf, key, key);
  await checkPeerRefuses(servers.pf, key);
  const cursor = await deepCursor(db, servers.hf, key);

  const pids = new Map<string, number | undefined>(
    [...Object.values(servers), ...diagnostics.map((d) => d.server)].map((s) => [s.base, s.child.pid]),
  );
  const scenario = (name: string, options: LoadOptions): Scenario => ({
    name,
    options,
    results: [],
    pid: pids.get(options.url.replace(/\/(jobs|applications).*$/, "")),
    cpuPerRequest: [],
    pgPerRequest: [],
  });
  /**
   * hireport, bare and (Fastify only) the peer stack and hireport with admission on Redis, on the
   * same path, measured interleaved.
   */
  const groups: { h: Scenario; b: Scenario; p?: Scenario; r?: Scenario }[] = [];
  for (const [fw, h, b, peer, redis] of [
    ["Fastify", servers.hf, servers.bf, servers.pf, servers.rf],
    ["Express", servers.he, servers.be, undefined, undefined],
  ] as const) {
    for (const path of ["/jobs?limit=25", "/applications?limit=25"]) {
      groups.push({
        h: scenario(`hireport ${fw} GET ${path}`, load(h.base + path, key)),
        b: scenario(`bare ${fw} GET ${path}`, load(b.base + path, undefined)),
        ...(peer ? { p: scenario(`peer stack ${fw} GET ${path}`, load(peer.base + path, key)) } : {}),
        ...(redis ? { r: scenario(`hireport ${fw} (Redis admission) GET ${path}`, load(redis.base + path, key)) } : {}),
      });
    }
  }
  const members = (g: (typeof groups)[number]) => [g.h, g.b, ...(g.p ? [g.p] : []), ...(g.r ? [g.r] : [])];
  const postBodies = seeded.postJobIds.map((jobId) =>
    JSON.stringify({
      job_id: jobId,
      candidate: { name: "Bench Candidate", email: "c-[<id>]@example.com", skills: ["typescript"] },
      source: "bench",
      consent: true,
    }),
  );
  const posts = [
    scenario(
      "hireport Fastify POST /applications",
      load(`${servers.hf.base}/applications`, seeded.postKey, {
        method: "POST",
        headers: { authorization: `Bearer ${seeded.postKey}`, "content-type": "application/json" },
        bodies: postBodies,
      }),
    ),
  ];
  const firstPage = scenario(
    "first page (1 connection)",
    load(`${servers.hf.base}/applications?limit=25`, key, { connections: 1 }),
  );
  const deepPage = scenario(
    "page 1,000,000 deep (1 connection)",
    load(`${servers.hf.base}/applications?limit=25&cursor=${cursor}`, key, { connections: 1 }),
  );

  const breakdown = diagnostics.map((d) =>
    scenario(`hireport Fastify GET /jobs?limit=25 without ${d.label}`, load(`${d.server.base}/jobs?limit=25`, key)),
  );

  log(`warm-up (${WARMUP_SECONDS} s each)`);
  for (const s of [...groups.flatMap(members), ...breakdown, ...posts, firstPage, deepPage]) {
    await runLoad({ ...s.options, durationSeconds: WARMUP_SECONDS });
  }
  /** The Fastify GET /applications group, which POST /applications is compared with. */
  const getAppsGroup = groups[1];
  const loads: string[] = [loadAverage()];
  for (let round = 0; round < ROUNDS; round++) {
    log(`round ${round + 1} of ${ROUNDS} (load ${loadAverage()})`);
    for (const group of groups) {
      // Alternate the order, so a drift in the machine's load does not favour one side.
      const order = members(group);
      for (const s of round % 2 === 0 ? order : order.reverse()) await measure(s);
      // POST right after the GET /applications it is compared with, on the same server, so that
      // the ratio compares neighbouring runs, as every other ratio here does.
      if (group === getAppsGroup) for (const s of posts) await measure(s);
    }
    for (const s of breakdown) await measure(s);
    for (const s of round % 2 === 0 ? [firstPage, deepPage] : [deepPage, firstPage]) await measure(s);
    loads.push(loadAverage());
  }

  const getApps = getAppsGroup?.h as Scenario;
  const getJobs = groups[0]?.h as Scenario;
  const post = posts[0] as Scenario;
  const rows: string[] = [];
  const ratios: Ratio[] = [];
  for (const group of groups) {
    const { h, b, p, r } = group;
    ratios.push(judge(`${h.name} / bare, req/s`, roundRps(h), roundRps(b), ">=", 0.75));
    if (h.name.includes("Fastify")) {
      ratios.push(judge(`${h.name} / bare, server CPU per request`, h.cpuPerRequest, b.cpuPerRequest, "<=", 1.2));
      ratios.push(judge(`${h.name} / bare, Postgres CPU per request`, h.pgPerRequest, b.pgPerRequest, "<=", 1.5));
    }
    if (p) ratios.push(judge(`${h.name} / peer stack, req/s`, roundRps(h), roundRps(p), ">=", 1.3));
    if (r) {
      ratios.push(judge(`${r.name} / bare, req/s`, roundRps(r), roundRps(b), ">=", 0.8));
      ratios.push(judge(`${r.name} / bare, Postgres CPU per request`, r.pgPerRequest, b.pgPerRequest, "<=", 1.15));
      if (p) ratios.push(judge(`${r.name} / peer stack, req/s`, roundRps(r), roundRps(p), ">=", 1.3));
    }
    for (const s of members(group)) {
      rows.push(`| ${s.name} | ${fmt(rps(s))} | ${fmt(p50(s), 1)} | ${fmt(cpu(s))} | ${fmt(pgCpu(s))} | ${runs(s)} |`);
    }
  }
  rows.push(
    `| ${post.name} | ${fmt(rps(post))} | ${fmt(p50(post), 1)} | ${fmt(cpu(post))} | ${fmt(pgCpu(post))} | ${runs(post)} |`,
  );
  const fullJobs = rps(getJobs);
  const bareJobs = rps(groups[0]?.b as Scenario);
  const breakdownRows = [
    `| full pipeline | ${fmt(fullJobs)} | ${(fullJobs / bareJobs).toFixed(2)} | ${fmt(cpu(getJobs))} |`,
    ...breakdown.map(
      (s) =>
        `| ${s.name.replace(/^.*without /, "without ")} | ${fmt(rps(s))} | ${(rps(s) / bareJobs).toFixed(2)} | ${fmt(cpu(s))} |`,
    ),
    `| bare Fastify + Kysely | ${fmt(bareJobs)} | 1.00 | ${fmt(cpu(groups[0]?.b as Scenario))} |`,
  ];
  ratios.push(judge("POST /applications / GET /applications (Fastify)", roundRps(post), roundRps(getApps), ">=", 0.7));
  const postJobsRatio = rps(post) / rps(getJobs);
  ratios.push(judge("deep page / first page latency (mean)", roundMean(deepPage), roundMean(firstPage), "<=", 1.2));

  log("profiling the hireport Fastify server under GET /applications, then under POST /applications");
  const profile = await profileServer("hireport-fastify", (base) => load(`${base}/applications?limit=25`, key));
  const postProfile = await profileServer("hireport-fastify", (base) => ({
    ...(post as Scenario).options,
    url: `${base}/applications`,
  }));
  await stopAllServers();
  await db.destroy();

  const elapsed = Math.round((Date.now() - started) / 1000);
  const lines = [
    "## API benchmarks",
    "",
    `Run ${new Date().toISOString()} with \`pnpm bench\` (${elapsed} s; ${ROUNDS} measured rounds of ${SECONDS} s per figure after a ${WARMUP_SECONDS} s warm-up, each run right after ${PRIME_SECONDS} s of the same load unmeasured, ${CONNECTIONS} connections unless said, autocannon in its own process, each server in its own process with a pool of 10; figures are medians of the rounds).`,
    "",
    `- Machine: ${machine.cpus}; ${machine.memory}.`,
    `- Load average (1 / 5 / 15 min) at start ${machine.load}; after each round ${loads.slice(1).join("; ")}. The 2 cores are shared with the servers, the load generator, Postgres and other engineers' runs: expect ±15 % between runs; the ratios, taken from interleaved runs, are steadier than the absolute figures.`,
    `- Versions: Node ${machine.node}; ${machine.postgres}; ${Object.entries(machine.packages)
      .map(([name, version]) => `${name} ${version}`)
      .join(", ")}.`,
    `- Data: company \`${LIST_COMPANY}\` with ${seeded.listJobCount} jobs and ${seeded.applications.toLocaleString("en-US")} applications (bulk-loaded once, reused); tables \`${TABLE_PREFIX}*\`.`,
    "- Peer stack (`peer-fastify`, src/peer.ts): Fastify + `@fastify/rate-limit` with its counters in Redis keyed by the bearer token (a limit too high to refuse), a per-request key lookup by SHA-256 in an indexed Postgres table (401 on unknown or revoked keys, checked before measuring), the bare route's query and JSON (checked equal to hireport's), and one awaited usage INSERT per request in `onResponse`.",
    "",
    "### Against the targets",
    "",
    "| Figure | Ratio | in each round | Target | |",
    "| --- | --- | --- | --- | --- |",
    ...ratios.map(
      (r) =>
        `| ${r.what} | ${r.value.toFixed(2)} | ${r.rounds.map((v) => v.toFixed(2)).join(", ")} | ${r.target} | ${verdict(r.ok)} |`,
    ),
    "",
    `POST /applications is ${postJobsRatio.toFixed(2)}× the GET /jobs throughput of the same server. Server CPU is the server process's user + system time from /proc; Postgres CPU is that of every \`postgres\` process (backends, WAL writer, checkpointer; ended backends through the postmaster's children), read before each run and ${SETTLE_MS} ms after it (so the run's last usage-log write counts), divided by the run's requests.`,
    "",
    "### Throughput",
    "",
    "| Run | req/s (median) | p50 ms | server CPU µs/request | Postgres CPU µs/request | req/s of each round |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
    "### Where the time goes: GET /jobs?limit=25 through @hireport/fastify with stages left out",
    "",
    "Diagnostic servers only (a key remembered forever would break revocation; no rate limit breaks the API's contract): they show what each stage of the pipeline costs on this machine.",
    "",
    "| Server | req/s (median) | ratio to bare | server CPU µs/request |",
    "| --- | --- | --- | --- |",
    ...breakdownRows,
    "",
    "### Deep paging (GET /applications?limit=25, one connection, through @hireport/fastify)",
    "",
    "| Page | mean ms | p50 ms | req/s |",
    "| --- | --- | --- | --- |",
    ...[firstPage, deepPage].map((s) => `| ${s.name} | ${fmt(mean(s), 2)} | ${fmt(p50(s), 1)} | ${fmt(rps(s))} |`),
    "",
    "The deep cursor is the keyset position of row 1,000,000 (found by SQL), encoded exactly as the API encodes it: the bench first checks that its encoding of the first page's last row equals the API's own `next_cursor`, and that the deep page starts at row 1,000,001. The request is a real `GET /applications?cursor=…` through the full pipeline.",
    "",
    "### Profile: hireport Fastify server under GET /applications?limit=25",
    "",
    `\`node --cpu-prof\` on the server process, one ${SECONDS} s run at ${CONNECTIONS} connections (self time; idle is time spent waiting on Postgres).`,
    "",
    profile,
    "",
    "### Profile: hireport Fastify server under POST /applications",
    "",
    `The same, one ${SECONDS} s run of POST /applications at ${CONNECTIONS} connections.`,
    "",
    postProfile,
  ];
  writeResultsSection("api", lines.join("\n"));
  log(`API benchmarks written to RESULTS.md (${elapsed} s)`);
  for (const r of ratios) log(`  ${r.what}: ${r.value.toFixed(2)} (target ${r.target}) ${r.ok ? "met" : "MISSED"}`);
}
