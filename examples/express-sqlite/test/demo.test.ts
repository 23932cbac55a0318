import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const exampleDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const rootDir = join(exampleDir, "..", "..");
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
  stderr: () => string;
  key: string;
  base: string;
  waitFor(pattern: RegExp): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the demo as a newcomer would, on a free port and a temporary data folder: `tsx src/main.ts`,
 * or (`throughPnpm`) the command `pnpm demo` ends with, in a process group of its own as a terminal
 * runs it, so that a Ctrl+C can be sent to the whole group.
 */
async function startDemo(options: { throughPnpm?: boolean } = {}): Promise<RunningDemo> {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HIREPORT_DEMO_DATA: dataDir };
  const child = options.throughPnpm
    ? spawn("pnpm", ["--filter", "@hireport-examples/express-sqlite", "start"], {
        cwd: rootDir,
        env,
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      })
    : spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
        cwd: exampleDir,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
  let output = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    stderr += chunk.toString();
  });
  const waitFor = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const check = () => {
        if (pattern.test(output)) return resolve();
        if (child.exitCode !== null || child.signalCode !== null) {
          return reject(new Error(`the demo exited (${child.exitCode ?? child.signalCode}):\n${output}`));
        }
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
    stderr: () => stderr,
    key,
    base: `http://localhost:${port}/api/public/v1`,
    waitFor,
    stop: () =>
      new Promise((resolve) => {
        const exited = child.exitCode !== null || child.signalCode !== null;
        if (!exited) child.once("exit", () => resolve());
        if (options.throughPnpm && child.pid) {
          try {
            process.kill(-child.pid, "SIGKILL"); // whatever is left of its process group
          } catch {
            // the group is gone
          }
        } else if (!exited) {
          child.kill("SIGTERM");
        }
        if (exited) resolve();
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
      expect(body.data.key.scopes).toEqual([
        "jobs:read",
        "jobs:write",
        "applications:read",
        "applications:write",
        "webhooks:read",
        "webhooks:write",
      ]);
      // The webhook endpoints are in the API: the demo's receiver is one of them.
      const hooks = await fetch(`${demo.base}/webhook-endpoints`, { headers: { authorization: `Bearer ${demo.key}` } });
      expect(hooks.status).toBe(200);
      expect(((await hooks.json()) as { data: unknown[] }).data).toHaveLength(1);
      // The events feed it prints: the seeded jobs' events, oldest first.
      expect(demo.output()).toContain(`curl -s "${demo.base}/events?limit=5"`);
      const feed = await fetch(`${demo.base}/events?limit=5`, { headers: { authorization: `Bearer ${demo.key}` } });
      expect(feed.status).toBe(200);
      const events = ((await feed.json()) as { data: { type: string }[] }).data;
      expect(events.length).toBeGreaterThan(0);
      expect(events[0]?.type).toBe("job.created");
      const jobs = await fetch(`${demo.base}/jobs?status=open`, { headers: { authorization: `Bearer ${demo.key}` } });
      const page = (await jobs.json()) as { data: { title: string; public_url: string }[] };
      expect(page.data.map((job) => job.title).sort()).toEqual(["Product Designer", "Senior Backend Engineer"]);
      // The careers site at the root: the address it prints lists the open jobs, and every job's
      // public_url is its page there.
      const site = demo.base.replace("/api/public/v1", "");
      expect(demo.output()).toContain(`Careers site (jobs, apply with a CV, feeds): ${site}/jobs`);
      const careers = await (await fetch(`${site}/jobs`)).text();
      for (const job of page.data) {
        expect(careers).toContain(job.title);
        const jobPage = await fetch(job.public_url);
        expect(jobPage.status).toBe(200);
        expect(await jobPage.text()).toContain('"@type":"JobPosting"');
      }
      expect((await fetch(`${site}/feeds/jobs.xml`)).status).toBe(200);
      // Seeding created 3 jobs and 4 applications: each event reaches the local receiver, verified.
      await demo.waitFor(/application\.created[^\n]*Zoë Müller[^\n]*signature ok/);
      expect(demo.output().match(/signature ok/g)?.length).toBeGreaterThanOrEqual(7);
      // The console, with the demo's sign-in (an owner of the demo company), lists the printed key.
      expect(demo.output()).toContain("DEMO ONLY");
      const consoleUrl = demo.base.replace("/api/public/v1", "/settings/api");
      const keys = await fetch(`${consoleUrl}/keys`);
      expect(keys.status).toBe(200);
      expect(await keys.text()).toContain(`${demo.key.slice(0, 15)}…${demo.key.slice(-4)}`);
      expect(demo.output()).not.toContain("refused");
      // The MCP endpoint for AI assistants: printed, and answering the printed key (401 without it).
      const mcpUrl = demo.base.replace("/api/public/v1", "/mcp");
      expect(demo.output()).toContain(`MCP endpoint for AI assistants: ${mcpUrl}`);
      const initialize = (authorization?: string) =>
        fetch(mcpUrl, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...(authorization ? { authorization } : {}),
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: {
              protocolVersion: "2025-06-18",
              capabilities: {},
              clientInfo: { name: "demo-test", version: "1" },
            },
          }),
        });
      expect((await initialize()).status).toBe(401);
      const opened = await initialize(`Bearer ${demo.key}`);
      expect(opened.status).toBe(200);
      expect(opened.headers.get("mcp-session-id")).toBeTruthy();
      expect(await opened.text()).toContain('"name":"hireport"');
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

  it("Ctrl+C through pnpm stops it quietly: everything closed, exit code 0, no pnpm error", async () => {
    // `pnpm demo` is `pnpm run build && exec pnpm --filter … start`, and start is
    // `exec node --import tsx …`: no shell stays between pnpm and the demo. A shell waiting on a
    // command when Ctrl+C comes (dash, the sh of Debian) dies of the SIGINT whatever its command
    // does, and pnpm then prints "Command failed with signal "SIGINT"". Nor does the tsx CLI: it
    // relays a signal to its child and, when the child has not confirmed it within 30 ms (a loaded
    // machine), kills it with SIGKILL and exits 130. The build is left out here: the test runs the
    // command it ends with.
    const scripts = (path: string) =>
      (JSON.parse(readFileSync(path, "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts(join(rootDir, "package.json")).demo).toMatch(
      /&& exec pnpm --filter @hireport-examples\/express-sqlite start$/,
    );
    expect(scripts(join(exampleDir, "package.json")).start).toMatch(/^exec node --import tsx /);

    const demo = await startDemo({ throughPnpm: true });
    try {
      await demo.waitFor(/Ctrl\+C stops\./);
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
        demo.child.once("exit", (code, signal) => resolve({ code, signal }));
      });
      // A terminal's Ctrl+C: SIGINT to every process of the foreground group (pnpm, tsx, the demo).
      if (demo.child.pid) process.kill(-demo.child.pid, "SIGINT");
      const { code, signal } = await exited;
      expect(demo.output()).toContain("Stopping…");
      expect({ code, signal }, demo.output()).toEqual({ code: 0, signal: null });
      expect(demo.stderr()).not.toMatch(/Command failed|ELIFECYCLE|ERR_PNPM|SIGINT/);
    } finally {
      await demo.stop();
    }
  });
});
