import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const exampleDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const dataDir = mkdtempSync(join(tmpdir(), "hireport-demo-"));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface RunningDemo {
  child: ChildProcess;
  output: () => string;
  key: string;
  base: string;
  waitFor(pattern: RegExp): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the demo as a newcomer would (`tsx src/main.ts`), on a free port and a temporary data folder. */
async function startDemo(): Promise<RunningDemo> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: exampleDir,
    env: { ...process.env, PORT: String(port), HIREPORT_DEMO_DATA: dataDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const waitFor = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const check = () => {
        if (pattern.test(output)) return resolve();
        if (child.exitCode !== null) return reject(new Error(`the demo exited (${child.exitCode}):\n${output}`));
        if (Date.now() - started > 45_000) return reject(new Error(`timed out waiting for ${pattern}:\n${output}`));
        setTimeout(check, 50);
      };
      check();
    });
  // The key is printed after "Listening on"; wait for its whole line, which may come in a later chunk.
  await waitFor(/^API key: svc_live_\S+$/m);
  const key = /^API key: (svc_live_\S+)$/m.exec(output)?.[1];
  if (!key) throw new Error(`no key printed:\n${output}`);
  return {
    child,
    output: () => output,
    key,
    base: `http://localhost:${port}/api/public/v1`,
    waitFor,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("the express-sqlite demo", () => {
  let firstKey = "";

  it("starts, prints a working key, serves the seeded jobs and delivers signed webhooks", async () => {
    const demo = await startDemo();
    try {
      firstKey = demo.key;
      const me = await fetch(`${demo.base}/me`, { headers: { authorization: `Bearer ${demo.key}` } });
      expect(me.status).toBe(200);
      const body = (await me.json()) as { data: { company: { id: string }; key: { scopes: string[] } } };
      expect(body.data.company.id).toBe("demo-company");
      expect(body.data.key.scopes).toEqual(["jobs:read", "jobs:write", "applications:read", "applications:write"]);
      const jobs = await fetch(`${demo.base}/jobs?status=open`, { headers: { authorization: `Bearer ${demo.key}` } });
      const page = (await jobs.json()) as { data: { title: string }[] };
      expect(page.data.map((job) => job.title).sort()).toEqual(["Product Designer", "Senior Backend Engineer"]);
      // Seeding created 3 jobs and 4 applications: each event reaches the local receiver, verified.
      await demo.waitFor(/application\.created[^\n]*Zoë Müller[^\n]*signature ok/);
      expect(demo.output().match(/signature ok/g)?.length).toBeGreaterThanOrEqual(7);
      expect(demo.output()).not.toContain("refused");
    } finally {
      await demo.stop();
    }
  });

  it("a second start reuses the data and prints a new working key", async () => {
    const demo = await startDemo();
    try {
      expect(demo.output()).toContain("reuses its database");
      expect(demo.key).not.toBe(firstKey);
      const me = await fetch(`${demo.base}/me`, { headers: { authorization: `Bearer ${demo.key}` } });
      expect(me.status).toBe(200);
      const old = await fetch(`${demo.base}/me`, { headers: { authorization: `Bearer ${firstKey}` } });
      expect(old.status).toBe(401);
      const jobs = await fetch(`${demo.base}/jobs`, { headers: { authorization: `Bearer ${demo.key}` } });
      expect(((await jobs.json()) as { data: unknown[] }).data).toHaveLength(3);
      // A change now is delivered to this run's receiver, signed with the rotated secret.
      const created = await fetch(`${demo.base}/jobs`, {
        method: "POST",
        headers: { authorization: `Bearer ${demo.key}`, "content-type": "application/json" },
        body: JSON.stringify({ title: "Data Engineer", status: "active" }),
      });
      expect(created.status).toBe(201);
      await demo.waitFor(/job\.created[^\n]*Data Engineer[^\n]*signature ok/);
    } finally {
      await demo.stop();
    }
  });
});
