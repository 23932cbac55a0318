/**
 * Smoke test of the Next.js example as it runs in production: `next build`, then `next start` on a
 * free port with an SQLite file in a temporary folder, a key from the `create-key` script on that
 * same file, and calls to the API and the cron route.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const exampleDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const nextBin = join(exampleDir, "node_modules", "next", "dist", "bin", "next");
const dataDir = mkdtempSync(join(tmpdir(), "hireport-next-"));
const CRON_SECRET = randomBytes(24).toString("base64url");
const BUILD_TIMEOUT_MS = 300_000;

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
  delete env.DATABASE_URL; // this test is about the SQLite default
  delete env.HIREPORT_TABLE_PREFIX;
  return env;
}

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

let server: Run | undefined;
let origin = "";
let key = "";

beforeAll(async () => {
  const started = Date.now();
  await runToEnd([nextBin, "build"], childEnv(), BUILD_TIMEOUT_MS);
  console.log(`[example-next-app] next build took ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  server = run([nextBin, "start", "--port", String(port), "--hostname", "127.0.0.1"], childEnv({ PORT: String(port) }));
  // Ready once the app answers; the migrations run in instrumentation.ts before requests are served.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`next start exited:\n${server.output()}`);
    if (Date.now() > deadline) throw new Error(`next start did not answer within 60 s:\n${server.output()}`);
    const response = await fetch(`${origin}/api/public/v1/openapi.json`).catch(() => null);
    if (response?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  // The key comes from the create-key script, on the same SQLite file as the running server.
  const output = await runToEnd(["--import", "tsx", "scripts/create-key.ts"], childEnv(), 60_000);
  key = /^API key: (svc_live_\S+)$/m.exec(output)?.[1] ?? "";
  if (!key) throw new Error(`create-key printed no key:\n${output}`);
});

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill("SIGTERM");
    killGroup(server.child, "SIGTERM");
    const timer = setTimeout(() => server && killGroup(server.child, "SIGKILL"), 10_000);
    await server.exit;
    clearTimeout(timer);
  }
  for (const child of children) killGroup(child, "SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the next-app example (next build + next start)", () => {
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
