/**
 * Smoke test of the Next.js example as it runs in production: `next build --webpack`, then `next
 * start` on a free port with an SQLite file in a temporary folder, a key from the `create-key` script
 * on that same file, and calls to the API and the cron route. Then the same build on Postgres
 * (`DATABASE_URL`, a random table prefix, dropped at the end), whose connections Postgres ends
 * under load: the server answers the API's 500 error bodies, reconnects and lives on.
 *
 * The build bundles `@hireport/kysely` and `kysely` into the server (neither is in
 * `serverExternalPackages`), and the migrations run from that bundle on both Kysely versions CI
 * installs: 0.28 and 0.29, whose `Migrator` lives at `kysely/migration`. It is webpack's build, the
 * one that failed: it follows only a literal `import("…")`, where Turbopack also follows a constant
 * and so ran the computed import `@hireport/kysely` once had.
 *
 * Postgres comes from DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test). When it cannot
 * be reached that part is skipped with a loud warning, or fails with CI=true.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { hireportMigrations, TABLE_NAMES } from "@hireport/kysely";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const exampleDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const nextBin = join(exampleDir, "node_modules", "next", "dist", "bin", "next");
const dataDir = mkdtempSync(join(tmpdir(), "hireport-next-"));
const CRON_SECRET = randomBytes(24).toString("base64url");
const BUILD_TIMEOUT_MS = 300_000;

const DATABASE_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
/** The Postgres run's tables and the `application_name` of its connections. */
const PG_PREFIX = `hxn_${randomBytes(3).toString("hex")}_`;
const PG_APP_NAME = `${PG_PREFIX}next`;

/** The environment of every child: SQLite in the temporary folder, no telemetry, production mode. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production", // vitest sets "test"; Next wants production for build and start
    NEXT_TELEMETRY_DISABLED: "1",
    HIREPORT_SQLITE_FILE: join(dataDir, "hireport.sqlite"),
    HIREPORT_FILE_SECRET: randomBytes(32).toString("base64url"),
    CRON_SECRET,
    ...extra,
  };
  delete env.DATABASE_URL; // the SQLite default, unless the Postgres run sets it in `extra`
  delete env.HIREPORT_TABLE_PREFIX;
  return { ...env, ...extra };
}

/** The environment of the Postgres run: DATABASE_URL, its own prefix, its connections named. */
const pgEnv = (extra: Record<string, string> = {}) =>
  childEnv({ DATABASE_URL, HIREPORT_TABLE_PREFIX: PG_PREFIX, PGAPPNAME: PG_APP_NAME, ...extra });

const children = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal); // the child leads its own group: Next's workers go too
  } catch {
    // already gone
  }
}

interface Run {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
}

function run(args: string[], env: NodeJS.ProcessEnv): Run {
  const child = spawn(process.execPath, args, {
    cwd: exampleDir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  children.add(child);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exit = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return { child, output: () => output, exit };
}

/** Runs a command to its end within `timeoutMs`; fails on a non-zero exit or a timeout. */
async function runToEnd(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  const process_ = run(args, env);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(process_.child, "SIGKILL");
  }, timeoutMs);
  const code = await process_.exit;
  clearTimeout(timer);
  if (timedOut) throw new Error(`${args.join(" ")} took more than ${timeoutMs} ms:\n${process_.output()}`);
  if (code !== 0) throw new Error(`${args.join(" ")} exited with ${code}:\n${process_.output()}`);
  return process_.output();
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** `next start` on a free port with `env`; resolves once the API answers. */
async function startServer(env: (extra: Record<string, string>) => NodeJS.ProcessEnv) {
  const port = await freePort();
  const started = run(
    [nextBin, "start", "--port", String(port), "--hostname", "127.0.0.1"],
    env({ PORT: String(port) }),
  );
  const base = `http://127.0.0.1:${port}`;
  // Ready once the app answers; the migrations run in instrumentation.ts before requests are served.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (started.child.exitCode !== null) throw new Error(`next start exited:\n${started.output()}`);
    // A failed start (the migrations, in instrumentation.ts) is logged, and the server lives on.
    if (started.output().includes("error occurred while loading instrumentation hook")) {
      throw new Error(`next start could not run instrumentation.ts:\n${started.output()}`);
    }
    if (Date.now() > deadline) throw new Error(`next start did not answer within 60 s:\n${started.output()}`);
    const response = await fetch(`${base}/api/public/v1/openapi.json`).catch(() => null);
    if (response?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { server: started, origin: base };
}

/** A key from the create-key script, on the database `env` names. */
async function createKey(env: NodeJS.ProcessEnv): Promise<string> {
  const output = await runToEnd(["--import", "tsx", "scripts/create-key.ts"], env, 60_000);
  const created = /^API key: (svc_live_\S+)$/m.exec(output)?.[1] ?? "";
  if (!created) throw new Error(`create-key printed no key:\n${output}`);
  return created;
}

/** The JavaScript files of the built server (`.next/server`), by path. */
function serverFiles(): Array<{ path: string; text: string }> {
  const root = join(exampleDir, ".next", "server");
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".js"))
    .map((name) => ({ path: name, text: readFileSync(join(root, name), "utf8") }));
}

/** The names in the migration table of the SQLite file (default prefix), sorted. */
function appliedMigrations(): string[] {
  const database = new SQLite(join(dataDir, "hireport.sqlite"), { fileMustExist: true, timeout: 5000 });
  try {
    const rows = database.prepare("select name from hireport_migration").all() as Array<{ name: string }>;
    return rows.map((row) => row.name).sort();
  } finally {
    database.close();
  }
}

async function stopServer(started: Run | undefined): Promise<void> {
  if (!started || started.child.exitCode !== null) return;
  started.child.kill("SIGTERM");
  killGroup(started.child, "SIGTERM");
  const timer = setTimeout(() => killGroup(started.child, "SIGKILL"), 10_000);
  await started.exit;
  clearTimeout(timer);
}

let server: Run | undefined;
let origin = "";
let key = "";
/** What `next build` printed, its warnings included. */
let buildOutput = "";
/** The migrations applied once the server answered, before anything else opened the file. */
let appliedByServer: string[] = [];

beforeAll(async () => {
  const started = Date.now();
  buildOutput = await runToEnd([nextBin, "build", "--webpack"], childEnv(), BUILD_TIMEOUT_MS);
  console.log(`[example-next-app] next build took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  ({ server, origin } = await startServer(childEnv));
  appliedByServer = appliedMigrations();
  // The key comes from the create-key script, on the same SQLite file as the running server.
  key = await createKey(childEnv());
});

afterAll(async () => {
  await stopServer(server);
  for (const child of children) killGroup(child, "SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the next-app example (next build + next start)", () => {
  // Regression: the migrations loaded Kysely's Migrator with an import webpack could not follow,
  // and failed in the bundle with Kysely 0.29 ("the installed Kysely exports no Migrator").
  it("bundles @hireport/kysely and kysely into the server, and webpack warns of nothing in hireport's code", () => {
    const files = serverFiles();
    const [first] = Object.keys(hireportMigrations());
    expect(files.some((file) => file.text.includes(first ?? "?"))).toBe(true);
    // Neither is loaded from node_modules at run time (how webpack writes an external).
    const external = /\b(?:require|import)\(\s*["'](?:@hireport\/kysely|kysely)(?:\/[^"']*)?["']\s*\)/;
    expect(files.filter((file) => external.test(file.text)).map((file) => file.path)).toEqual([]);
    // What webpack prints for an import it cannot follow, or cannot find, under the module's path.
    expect(buildOutput).not.toMatch(/packages\/[\w-]+\/dist\/[^\n]*\n(?:Critical dependency|Module not found)/);
  });

  it("ran every migration from the bundled server, on a fresh SQLite file", () => {
    expect(appliedByServer).toEqual(Object.keys(hireportMigrations()).sort());
  });

  it("serves GET /me and the jobs with a key from create-key", async () => {
    const headers = { authorization: `Bearer ${key}` };
    const me = await fetch(`${origin}/api/public/v1/me`, { headers });
    expect(me.status).toBe(200);
    const body = (await me.json()) as { data: { company: { id: string }; key: { scopes: string[] } } };
    expect(body.data.company.id).toBe("example-company");
    expect(body.data.key.scopes).toContain("jobs:write");

    const created = await fetch(`${origin}/api/public/v1/jobs`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ title: "Frontend Engineer", status: "active" }),
    });
    expect(created.status).toBe(201);
    const jobs = await fetch(`${origin}/api/public/v1/jobs`, { headers });
    expect(jobs.status).toBe(200);
    const page = (await jobs.json()) as { data: { title: string; public_url: string }[] };
    expect(page.data.map((job) => job.title)).toContain("Frontend Engineer");

    // The careers site under /careers: the job's public_url is its page there, with its structured data.
    const job = page.data.find((item) => item.title === "Frontend Engineer");
    expect(job?.public_url).toMatch(/\/careers\/jobs\/job_/);
    const jobPage = await fetch(`${origin}${new URL(job?.public_url ?? "").pathname}`);
    expect(jobPage.status).toBe(200);
    expect(await jobPage.text()).toContain('"@type":"JobPosting"');
    const list = await (await fetch(`${origin}/careers/jobs`)).text();
    expect(list).toContain("Frontend Engineer");
    expect(list).toContain('href="/careers/jobs/job_');

    expect((await fetch(`${origin}/api/public/v1/me`)).status).toBe(401);
  });

  it("guards the cron route with CRON_SECRET and runs a dispatcher pass", async () => {
    const url = `${origin}/api/cron/webhooks`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: "Bearer not-the-secret-at-all" } })).status).toBe(401);
    const pass = await fetch(url, { headers: { authorization: `Bearer ${CRON_SECRET}` } });
    expect(pass.status).toBe(200);
    const result = (await pass.json()) as { data: { claimed: number } };
    expect(result.data.claimed).toBeTypeOf("number");
  });

  it("answers a bad CV link with the API's 404 and serves the page", async () => {
    const file = await fetch(`${origin}/files/cv/not-a-token`, { redirect: "manual" });
    expect(file.status).toBe(404);
    expect(((await file.json()) as { error: { code: string } }).error.code).toBe("not_found");
    const home = await fetch(origin);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("hireport on Next.js");
  });
});

async function postgresReachable(): Promise<unknown> {
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("select 1");
    return null;
  } catch (error) {
    return error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const unreachable = await postgresReachable();
if (unreachable && process.env.CI !== "true") {
  const bar = "!".repeat(100);
  console.warn(
    `\n${bar}\n!!! [example next-app] POSTGRES NOT REACHABLE at ${DATABASE_URL}: THE POSTGRES PART IS SKIPPED.\n!!! (${
      unreachable instanceof Error ? unreachable.message : String(unreachable)
    })\n!!! Set DATABASE_URL or start the server; CI=true turns this into a failure.\n${bar}\n`,
  );
}

/** Ends every Postgres backend of the server's connections (its `application_name`); returns how many. */
async function terminateBackends(): Promise<number> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1",
      [PG_APP_NAME],
    );
    return rows.length;
  } finally {
    await client.end();
  }
}

async function dropPostgresTables(): Promise<void> {
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: DATABASE_URL, max: 1 }) }),
  });
  try {
    for (const name of [...TABLE_NAMES].reverse())
      await db.schema.dropTable(`${PG_PREFIX}${name}`).ifExists().execute();
    await db.schema.dropTable(`${PG_PREFIX}migration`).ifExists().execute();
    await db.schema.dropTable(`${PG_PREFIX}migration_lock`).ifExists().execute();
  } finally {
    await db.destroy();
  }
}

if (unreachable && process.env.CI === "true") {
  describe("the next-app example on Postgres (CI)", () => {
    it("needs a reachable Postgres", () => {
      throw new Error(`Postgres is not reachable at ${DATABASE_URL} and CI=true: ${String(unreachable)}`);
    });
  });
}

describe.skipIf(unreachable)("the next-app example on Postgres (DATABASE_URL)", () => {
  let pgServer: Run | undefined;
  afterAll(async () => {
    await stopServer(pgServer);
    await dropPostgresTables();
  });

  it("lives on when Postgres ends its connections under load: 500 error bodies, then served again", async () => {
    const started = await startServer(pgEnv);
    pgServer = started.server;
    const pgKey = await createKey(pgEnv());
    const headers = { authorization: `Bearer ${pgKey}` };
    expect((await fetch(`${started.origin}/api/public/v1/me`, { headers })).status).toBe(200);

    // Six loops call the API while Postgres ends the server's connections three times.
    const failed: Array<{ status: number; code: string | undefined; requestId: string | null }> = [];
    let served = 0;
    let running = true;
    const loops = Array.from({ length: 6 }, async () => {
      while (running) {
        const response = await fetch(`${started.origin}/api/public/v1/jobs?limit=5`, { headers });
        const body = (await response.json()) as { error?: { code: string } };
        // 200, or 429 once the key's minute is used up: both answered from the database.
        if (response.status === 200 || response.status === 429) served++;
        else
          failed.push({
            status: response.status,
            code: body.error?.code,
            requestId: response.headers.get("x-request-id"),
          });
      }
    });
    let ended = 0;
    for (let round = 0; round < 3; round++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      ended += await terminateBackends();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    running = false;
    await Promise.all(loops);

    expect(ended).toBeGreaterThan(0);
    expect(served).toBeGreaterThan(0);
    // Next.js keeps its process alive through an uncaught exception (it prints the error), so a
    // bare pool does not end `next start`: there the difference is in the log. hardenPgPool
    // reports every lost connection itself, and no Postgres error reaches Next's handler (printed
    // whole, with its `code` '57P01' or 'ECONNRESET').
    expect(pgServer.output()).toContain("hireport: a Postgres connection");
    expect(pgServer.output()).not.toMatch(/code: '(?:57P01|ECONNRESET)'/);
    for (const answer of failed) {
      expect(answer).toEqual({ status: 500, code: "server_error", requestId: expect.stringMatching(/^req_/) });
    }
    // The same server, never restarted, serves again on new connections (a fresh key: the first
    // one may have used up its minute).
    expect(pgServer.child.exitCode).toBeNull();
    const again = await createKey(pgEnv());
    const after = await fetch(`${started.origin}/api/public/v1/jobs?limit=5`, {
      headers: { authorization: `Bearer ${again}` },
    });
    expect(after.status).toBe(200);
  }, 180_000);
});
