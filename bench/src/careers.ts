/**
 * The careers site against its performance target: the job page and `/jobs.json` through
 * @hireport/careers on @hireport/fastify against a bare Fastify route rendering the same page from
 * the same query (target >= 0.8), and the 304 answer to a repeat with `If-None-Match`.
 *
 *   BENCH_ONLY=careers pnpm --filter @hireport/bench start
 *
 * Tables `hireport_bench_careers_*` on the local Postgres, company `bench-careers` with 40 public jobs
 * (and a closed, a paused and an expired one), made through `api.jobs.create` once and reused. Each
 * server is its own process (`src/careers-server.ts`), the load another (`src/load.ts`); rounds are
 * interleaved, the order alternating, figures are medians.
 */
import type { ChildProcess } from "node:child_process";
import { createPublicApi } from "@hireport/core";
import { kyselyStorage, migrateToLatest } from "@hireport/kysely";
import { CAREERS_COMPANY, CAREERS_PREFIX, CAREERS_SITE } from "./careers-common";
import {
  CONNECTIONS,
  createDb,
  FILE_SECRET,
  fmt,
  type LoadResult,
  loadAverage,
  log,
  median,
  processCpuMs,
  ROUNDS,
  runLoad,
  SECONDS,
  spawnTsx,
  stopChild,
  WARMUP_SECONDS,
  waitForLine,
  writeResultsSection,
} from "./common";

const PUBLIC_JOBS = 40;

type Kind = "careers-hireport" | "careers-bare";

interface Server {
  kind: Kind;
  child: ChildProcess;
  origin: string;
}

const children = new Set<ChildProcess>();

async function start(kind: Kind): Promise<Server> {
  const child = spawnTsx("careers-server.ts", [kind]);
  children.add(child);
  child.once("exit", () => children.delete(child));
  const port = await waitForLine(child, "READY ");
  return { kind, child, origin: `http://127.0.0.1:${port}` };
}

/** The company and its jobs, made through the host services once. Returns the id of a public job. */
async function seed(): Promise<string> {
  const db = createDb(4);
  try {
    const migration = await migrateToLatest(db, { tablePrefix: CAREERS_PREFIX });
    if (migration.error) throw migration.error;
    const api = createPublicApi({
      storage: kyselyStorage({ db, tablePrefix: CAREERS_PREFIX }),
      publicBaseUrl: CAREERS_SITE,
      fileTokenSecret: FILE_SECRET,
    });
    await api.companies.upsert({ id: CAREERS_COMPANY, name: "Careers Bench Ltd" });
    let page = await api.publicJobs.list(CAREERS_COMPANY, { limit: 100 });
    if (page.data.length < PUBLIC_JOBS) {
      log(`seeding ${PUBLIC_JOBS} public jobs and 3 that are not (once)`);
      for (let i = 0; i < PUBLIC_JOBS; i++) {
        await api.jobs.create(CAREERS_COMPANY, {
          title: `Engineer ${i}`,
          description: "Build the platform.\n\nWork with people who care about <quality> & speed.",
          short_description: "Build the platform.",
          department: "Engineering",
          location: i % 3 === 0 ? "Remote (UK)" : "London, UK",
          employment_type: "full_time",
          salary_min: 50_000 + i * 100,
          salary_max: 70_000 + i * 100,
          required_skills: ["TypeScript", "SQL", "Kubernetes"],
          responsibilities: ["Ship features", "Review code"],
          benefits: ["Pension", "25 days of holiday"],
          status: "active",
        });
      }
      const closed = await api.jobs.create(CAREERS_COMPANY, { title: "Closed", status: "active" });
      await api.jobs.close(CAREERS_COMPANY, closed.id);
      await api.jobs.create(CAREERS_COMPANY, { title: "Paused", status: "paused" });
      await api.jobs.create(CAREERS_COMPANY, { title: "Expired", status: "active", closing_date: "2020-01-01" });
      page = await api.publicJobs.list(CAREERS_COMPANY, { limit: 100 });
    }
    await api.close();
    const job = page.data[Math.floor(page.data.length / 2)];
    if (!job) throw new Error("no public job to measure");
    return job.id;
  } finally {
    await db.destroy();
  }
}

const withoutToken = (html: string) => html.replace(/name="form_token" value="[^"]+"/, 'name="form_token" value=""');

/** The baseline must answer the same page and the same JSON, or the ratio means nothing. */
async function checkSame(hireport: Server, bare: Server, jobId: string): Promise<string> {
  const [a, b] = await Promise.all([fetch(`${hireport.origin}/jobs/${jobId}`), fetch(`${bare.origin}/jobs/${jobId}`)]);
  const etag = a.headers.get("etag");
  if (a.status !== 200 || b.status !== 200 || !etag) throw new Error(`job page: status ${a.status} / ${b.status}`);
  if (withoutToken(await a.text()) !== withoutToken(await b.text())) {
    throw new Error("the job page of @hireport/careers and of the bare route differ");
  }
  const [x, y] = await Promise.all([fetch(`${hireport.origin}/jobs.json`), fetch(`${bare.origin}/jobs.json`)]);
  if ((await x.text()) !== (await y.text()))
    throw new Error("/jobs.json of @hireport/careers and of the bare route differ");
  const jsonTag = x.headers.get("etag");
  const jsonRepeat = await fetch(`${hireport.origin}/jobs.json`, { headers: { "if-none-match": jsonTag ?? "" } });
  if (!jsonTag || jsonRepeat.status !== 304 || (await jsonRepeat.text()) !== "") {
    throw new Error(`a repeat of /jobs.json with If-None-Match answered ${jsonRepeat.status}, not 304 with no body`);
  }
  const repeat = await fetch(`${hireport.origin}/jobs/${jobId}`, { headers: { "if-none-match": etag } });
  if (repeat.status !== 304) throw new Error(`a repeat with If-None-Match answered ${repeat.status}, not 304`);
  return etag;
}

interface Scenario {
  name: string;
  url: string;
  headers: Record<string, string>;
  pid: number | undefined;
  /** The status every answer must have. */
  status: 200 | 304;
  results: LoadResult[];
  cpu: number[];
}

async function measure(scenario: Scenario, seconds = SECONDS, record = true): Promise<void> {
  const before = processCpuMs(scenario.pid);
  const result = await runLoad({
    url: scenario.url,
    headers: scenario.headers,
    connections: CONNECTIONS,
    durationSeconds: seconds,
  });
  // autocannon counts every answer outside 2xx as non-2xx: for the 304 scenario that is every one.
  const wrong = scenario.status === 200 ? result.non2xx : result.requests - result.non2xx;
  if (wrong > 0 || result.errors > 0)
    throw new Error(`${scenario.name}: ${wrong} answers not ${scenario.status}, ${result.errors} errors`);
  if (!record) return;
  scenario.results.push(result);
  scenario.cpu.push(((processCpuMs(scenario.pid) - before) * 1000) / result.requests);
  log(
    `  ${scenario.name}: ${fmt(result.rps)} req/s, p50 ${fmt(result.latencyP50, 1)} ms, server CPU ${fmt(scenario.cpu.at(-1) ?? Number.NaN)} µs/request`,
  );
}

const rps = (s: Scenario) => median(s.results.map((r) => r.rps));
const p50 = (s: Scenario) => median(s.results.map((r) => r.latencyP50));
const cpu = (s: Scenario) => median(s.cpu);

export async function runCareersBench(): Promise<void> {
  const jobId = await seed();
  const hireport = await start("careers-hireport");
  const bare = await start("careers-bare");
  const started = new Date();
  const load = loadAverage();
  try {
    const etag = await checkSame(hireport, bare, jobId);
    const scenario = (name: string, server: Server, path: string, status: 200 | 304 = 200, headers = {}): Scenario => ({
      name,
      url: `${server.origin}${path}`,
      headers,
      pid: server.child.pid,
      status,
      results: [],
      cpu: [],
    });
    const pairs: [Scenario, Scenario][] = [
      [
        scenario("job page, @hireport/careers", hireport, `/jobs/${jobId}`),
        scenario("job page, bare Fastify", bare, `/jobs/${jobId}`),
      ],
      [
        scenario("/jobs.json, @hireport/careers", hireport, "/jobs.json"),
        scenario("/jobs.json, bare Fastify", bare, "/jobs.json"),
      ],
    ];
    const notModified = scenario("job page repeat with If-None-Match (304)", hireport, `/jobs/${jobId}`, 304, {
      "if-none-match": etag,
    });
    log("careers: warm-up");
    for (const [a, b] of pairs) {
      await measure(a, WARMUP_SECONDS, false);
      await measure(b, WARMUP_SECONDS, false);
    }
    await measure(notModified, WARMUP_SECONDS, false);
    for (let round = 0; round < ROUNDS; round++) {
      log(`careers: round ${round + 1} of ${ROUNDS}`);
      for (const [a, b] of pairs) {
        const order = round % 2 === 0 ? [a, b] : [b, a];
        for (const s of order) await measure(s);
      }
      await measure(notModified);
    }
    const rows = pairs.map(([a, b]) => {
      const ratio = rps(a) / rps(b);
      return `| ${a.name.split(",")[0]} | ${fmt(rps(a))} | ${fmt(rps(b))} | **${fmt(ratio, 2)}** (${ratio >= 0.8 ? "met" : "**missed**"}) | ${fmt(cpu(a))} / ${fmt(cpu(b))} | ${fmt(p50(a), 1)} / ${fmt(p50(b), 1)} |`;
    });
    const markdown = [
      "## Careers site",
      "",
      `Run ${started.toISOString()} with \`BENCH_ONLY=careers\` (${ROUNDS} interleaved rounds of ${SECONDS} s after a ${WARMUP_SECONDS} s warm-up, ${CONNECTIONS} connections from autocannon in its own process, each server in its own process, Postgres on this machine; load average at start ${load}). Indicative: the machine is shared.`,
      "",
      `- Data: company \`${CAREERS_COMPANY}\` with ${PUBLIC_JOBS} public jobs and three that are not; the job page is one of them, \`/jobs.json\` the first page (25).`,
      "- Baseline: a bare Fastify route running the same queries through Kysely and rendering the same page with the same parts (`defaultRenderers`, `jobView`, `jobPosting`, a jose form token) and the same JSON; checked to answer the same bytes (the form token aside) before measuring.",
      "",
      "| What | @hireport/careers req/s | bare req/s | ratio (target >= 0.8) | server CPU µs/request (careers / bare) | p50 ms (careers / bare) |",
      "| --- | ---: | ---: | ---: | ---: | ---: |",
      ...rows,
      "",
      `A repeat of the job page with \`If-None-Match\` answers 304: ${fmt(rps(notModified))} req/s, p50 ${fmt(p50(notModified), 1)} ms, server CPU ${fmt(cpu(notModified))} µs/request (the page is rendered to compute its tag; the form token is not signed and no body is sent).`,
    ].join("\n");
    writeResultsSection("careers", markdown);
    log("careers: results written to RESULTS.md (section careers)");
  } finally {
    await Promise.all([...children].map((child) => stopChild(child)));
  }
}

export async function stopCareersServers(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child)));
}
