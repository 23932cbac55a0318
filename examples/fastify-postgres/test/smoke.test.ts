/**
 * Smoke test of the production shape: `migrate` and `create-key` as scripts, then the launcher
 * (`start-all`) with two app processes and the dispatcher on free ports, a random table prefix
 * (dropped at the end) and a local webhook receiver.
 *
 * Postgres comes from DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test). When it cannot
 * be reached the test is skipped with a loud warning, or fails with CI=true.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { TABLE_NAMES } from "@hireport/kysely";
import { parseEvent, verifySignature } from "@hireport/webhooks/verify";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";

const exampleDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const DATABASE_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const PREFIX = `hx_${randomBytes(3).toString("hex")}_`;
const RATE_LIMIT = 8;

async function reachable(): Promise<unknown> {
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

const unreachable = await reachable();
if (unreachable && process.env.CI !== "true") {
  const bar = "!".repeat(100);
  console.warn(
    `\n${bar}\n!!! [example fastify-postgres] POSTGRES NOT REACHABLE at ${DATABASE_URL}: THE SMOKE TEST IS SKIPPED.\n!!! (${
      unreachable instanceof Error ? unreachable.message : String(unreachable)
    })\n!!! Set DATABASE_URL or start the server; CI=true turns this into a failure.\n${bar}\n`,
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every process this file starts, each in its own process group, so cleanup reaches grandchildren. */
const children = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

interface Started {
  child: ChildProcess;
  output: () => string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  exit: Promise<number | null>;
}

function start(script: string, env: Record<string, string>): Started {
  const child = spawn(process.execPath, ["--import", "tsx", join("src", script)], {
    cwd: exampleDir,
    env: { ...process.env, NODE_ENV: "development", HIREPORT_TABLE_PREFIX: PREFIX, DATABASE_URL, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group: killGroup(-pid) also stops the launcher's children
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
  const waitFor = (pattern: RegExp, timeoutMs = 45_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const started = Date.now();
      const check = () => {
        const match = pattern.exec(output);
        if (match) return resolve(match);
        if (child.exitCode !== null || child.signalCode !== null) {
          return reject(
            new Error(`${script} exited (${child.exitCode ?? child.signalCode}) before ${pattern}:\n${output}`),
          );
        }
        if (Date.now() - started > timeoutMs) return reject(new Error(`timed out waiting for ${pattern}:\n${output}`));
        setTimeout(check, 50);
      };
      check();
    });
  return { child, output: () => output, waitFor, exit };
}

/** Runs a script to its end and returns its output; fails on a non-zero exit. */
async function runScript(script: string, env: Record<string, string> = {}): Promise<string> {
  const run = start(script, env);
  const timer = setTimeout(() => killGroup(run.child, "SIGKILL"), 45_000);
  const code = await run.exit;
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${script} exited with ${code}:\n${run.output()}`);
  return run.output();
}

async function createKey(): Promise<string> {
  const output = await runScript("create-key.ts");
  const key = /^API key: (svc_live_\S+)$/m.exec(output)?.[1];
  if (!key) throw new Error(`create-key printed no key:\n${output}`);
  return key;
}

interface Received {
  body: string;
  signature: string | undefined;
}

async function startReceiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.once("end", () => {
      received.push({
        body: Buffer.concat(chunks).toString("utf8"),
        signature: request.headers["service-signature"] as string | undefined,
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, received, server };
}

async function dropTables(): Promise<void> {
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: DATABASE_URL, max: 1 }) }),
  });
  try {
    for (const name of [...TABLE_NAMES].reverse()) await db.schema.dropTable(`${PREFIX}${name}`).ifExists().execute();
    await db.schema.dropTable(`${PREFIX}migration`).ifExists().execute();
    await db.schema.dropTable(`${PREFIX}migration_lock`).ifExists().execute();
    const left = await sql<{
      n: number;
    }>`select count(*)::int as n from pg_tables where tablename like ${`${PREFIX}%`}`.execute(db);
    if (left.rows[0]?.n !== 0) throw new Error(`tables with prefix ${PREFIX} remain after the cleanup`);
  } finally {
    await db.destroy();
  }
}

const APPLICATION_NAME = `${PREFIX}app`;

/** Ends every Postgres backend of the example's processes (their `application_name`). */
async function terminateBackends(): Promise<number> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1",
      [APPLICATION_NAME],
    );
    return rows.length;
  } finally {
    await client.end();
  }
}

/**
 * Calls the apps from six loops while ending their connections three times: how many backends
 * ended, how many requests the database served, and the answers that failed.
 */
async function underTermination(bases: readonly string[], key: string) {
  const failed: Array<{ status: number; code: string | undefined; requestId: string | null }> = [];
  let served = 0;
  let running = true;
  const loops = Array.from({ length: 6 }, async (_, loop) => {
    for (let index = loop; running; index++) {
      const response = await fetch(`${bases[index % bases.length]}/jobs?limit=5`, {
        headers: { authorization: `Bearer ${key}` },
      });
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
    await sleep(200);
    ended += await terminateBackends();
  }
  await sleep(200);
  running = false;
  await Promise.all(loops);
  return { ended, failed, served };
}

let receiverServer: Server | undefined;

afterAll(async () => {
  for (const child of children) killGroup(child, "SIGKILL");
  await new Promise<void>((resolve) => (receiverServer ? receiverServer.close(() => resolve()) : resolve()));
  if (!unreachable) await dropTables();
});

if (unreachable && process.env.CI === "true") {
  describe("fastify-postgres example (CI)", () => {
    it("needs a reachable Postgres", () => {
      throw new Error(`Postgres is not reachable at ${DATABASE_URL} and CI=true: ${String(unreachable)}`);
    });
  });
}

describe.skipIf(unreachable)("fastify-postgres example", () => {
  it("migrates, serves one database from two app processes and delivers webhooks from the dispatcher", async () => {
    const migrated = await runScript("migrate.ts");
    expect(migrated).toMatch(/Success\s+\S+initial/);
    // Migrations are idempotent: a second run is a no-op.
    expect(await runScript("migrate.ts")).toContain("already up to date");
    const key = await createKey();

    const receiver = await startReceiver();
    receiverServer = receiver.server;
    const [portA, portB] = [await freePort(), await freePort()];
    const all = start("start-all.ts", {
      PORT_A: String(portA),
      PORT_B: String(portB),
      HIREPORT_DEV_WEBHOOK_URL: receiver.url,
      WEBHOOK_POLL_MS: "200",
      HIREPORT_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      // node-postgres names every connection of the apps and the dispatcher after it.
      PGAPPNAME: APPLICATION_NAME,
      // Spans printed to the console (src/telemetry.ts).
      HIREPORT_OTEL: "console",
    });
    try {
      await all.waitFor(/\[app-a\] app-a listening/);
      await all.waitFor(/\[app-b\] app-b listening/);
      await all.waitFor(/\[dispatcher\] dispatcher running/);
      const secret = (await all.waitFor(/\[dispatcher\] Webhook secret: (whsec_\S+)/))[1] as string;
      const a = `http://127.0.0.1:${portA}/api/public/v1`;
      const b = `http://127.0.0.1:${portB}/api/public/v1`;
      const headers = { authorization: `Bearer ${key}` };

      for (const base of [a, b]) {
        const me = await fetch(`${base}/me`, { headers });
        expect(me.status).toBe(200);
        const body = (await me.json()) as { data: { company: { id: string } } };
        expect(body.data.company.id).toBe("example-company");
      }

      // Written through app A, read through app B: one database.
      const created = await fetch(`${a}/jobs`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ title: "Site Reliability Engineer", status: "active" }),
      });
      expect(created.status).toBe(201);
      const job = ((await created.json()) as { data: { id: string; title: string } }).data;
      const read = await fetch(`${b}/jobs/${job.id}`, { headers });
      expect(read.status).toBe(200);
      const publicJob = ((await read.json()) as { data: { title: string; public_url: string } }).data;
      expect(publicJob.title).toBe("Site Reliability Engineer");
      // The careers site of either process shows the job, with its structured data, and lists it in the feed.
      expect(new URL(publicJob.public_url).pathname).toBe(`/jobs/${job.id}`);
      const jobPage = await fetch(`http://127.0.0.1:${portB}/jobs/${job.id}`);
      expect(jobPage.status).toBe(200);
      expect(await jobPage.text()).toContain('"@type":"JobPosting"');
      expect(await (await fetch(`http://127.0.0.1:${portA}/feeds/jobs.xml`)).text()).toContain(job.id);

      // The dispatcher process (not the app that made the change) delivers job.created, signed.
      const deadline = Date.now() + 20_000;
      let delivered: Received | undefined;
      while (!delivered && Date.now() < deadline) {
        delivered = receiver.received.find((entry) => entry.body.includes(job.id));
        if (!delivered) await sleep(100);
      }
      if (!delivered) throw new Error(`job.created was not delivered within 20 s:\n${all.output()}`);
      await verifySignature({ payload: delivered.body, header: delivered.signature, secret });
      const event = parseEvent(delivered.body);
      expect(event.type).toBe("job.created");
      expect((event.data as { id: string }).id).toBe(job.id);
      // OpenTelemetry: the app's server span, the dispatcher's client span; the trace context stored
      // with the event (through Postgres) never reaches the receiver.
      expect(delivered.body).not.toContain("traceparent");
      await all.waitFor(/\[app-a\]\s+name: 'POST \/jobs'/);
      await all.waitFor(/\[dispatcher\]\s+'hireport\.event\.type': 'job\.created'/);

      // Postgres ends every connection of the example's processes, three times, while both apps
      // serve: the requests caught answer the API's 500 error body, the pools reconnect, nothing restarts
      // (were a process to die, start-all would stop the others and exit 1 on SIGTERM below).
      const answers = await underTermination([a, b], key);
      expect(answers.ended).toBeGreaterThan(0);
      for (const answer of answers.failed) {
        expect(answer).toEqual({ status: 500, code: "server_error", requestId: expect.stringMatching(/^req_/) });
      }
      expect(answers.served).toBeGreaterThan(0);
      // Served again on new connections (a fresh key: the first one used up its minute).
      const again = await createKey();
      for (const [base, port] of [
        [a, portA],
        [b, portB],
      ] as const) {
        expect((await fetch(`${base}/jobs?limit=5`, { headers: { authorization: `Bearer ${again}` } })).status).toBe(
          200,
        );
        expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      }

      // The rate limit lives in the database: one key's minute limit holds across both processes.
      const limited = await createKey();
      const me = (base: string) => fetch(`${base}/me`, { headers: { authorization: `Bearer ${limited}` } });
      let first = await me(a);
      expect(first.status).toBe(200);
      const reset = Number(first.headers.get("x-ratelimit-reset"));
      if (reset * 1000 - Date.now() < 5000) {
        // Too close to the end of the window for a stable count: start in the next one.
        await sleep(reset * 1000 - Date.now() + 1000);
        first = await me(a);
        expect(first.status).toBe(200);
      }
      const window = first.headers.get("x-ratelimit-reset");
      for (let used = 1; used < RATE_LIMIT; used++) {
        const response = await me(used % 2 === 1 ? b : a);
        expect(response.status).toBe(200);
        expect(response.headers.get("x-ratelimit-reset")).toBe(window);
        expect(Number(response.headers.get("x-ratelimit-remaining"))).toBe(RATE_LIMIT - used - 1);
      }
      for (const base of [a, b]) {
        const refused = await me(base);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      }
    } finally {
      // Graceful stop: SIGTERM to the launcher, which stops its children and exits 0.
      all.child.kill("SIGTERM");
      const timer = setTimeout(() => killGroup(all.child, "SIGKILL"), 15_000);
      const code = await all.exit;
      clearTimeout(timer);
      expect(code, all.output()).toBe(0);
    }
  });
});
