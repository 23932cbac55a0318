/**
 * The `start` script as a host runs it: an SQLite file in a temporary folder, a free port, then a
 * job read and an application sent through the API, found in the host's own tables.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";

const exampleDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const folder = mkdtempSync(join(tmpdir(), "own-tables-"));
let child: ChildProcess | undefined;

afterAll(() => {
  child?.kill("SIGTERM");
  rmSync(folder, { recursive: true, force: true });
});

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

it("serves the API on the host's tables (a job from openings, an application into candidacies) and announces a change made there with plain SQL", async () => {
  const port = await freePort();
  const file = join(folder, "own-tables.sqlite");
  child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: exampleDir,
    env: { ...process.env, PORT: String(port), OWN_TABLES_DB: file },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr?.on("data", (chunk) => {
    output += String(chunk);
  });
  const key = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no key printed:\n${output}`)), 45_000);
    child?.stdout?.on("data", (chunk) => {
      output += String(chunk);
      const found = /API key: (\S+)/.exec(output);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
  });
  const base = `http://127.0.0.1:${port}/api/public/v1`;
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const jobs = (await (await fetch(`${base}/jobs`, { headers })).json()) as { data: { id: string; title: string }[] };
  expect(jobs.data.map((job) => job.title)).toEqual(["Backend Engineer"]);
  const sent = await fetch(`${base}/applications`, {
    method: "POST",
    headers,
    body: JSON.stringify({ job_id: jobs.data[0]?.id, candidate: { name: "Ada Lovelace", email: "Ada@Example.com" } }),
  });
  expect(sent.status).toBe(201);
  const { data } = (await sent.json()) as { data: { id: string; stage: string } };
  expect(data.stage).toBe("new");

  const db = new Database(file, { readonly: true });
  try {
    expect(db.prepare(`select "pipelineStage", "openingId" from candidacies where id = ?`).get(data.id)).toEqual({
      pipelineStage: "inbox",
      openingId: jobs.data[0]?.id,
    });
    const person = `select "fullName", "emailKey" from candidates where id = (select "candidateId" from candidacies where id = ?)`;
    expect(db.prepare(person).get(data.id)).toEqual({
      fullName: "Ada Lovelace",
      emailKey: "ada@example.com",
    });
    expect(db.prepare(`select "applicantCount" from openings where id = ?`).get(jobs.data[0]?.id)).toEqual({
      applicantCount: 1,
    });
    // hireport made no job or application table of its own (`domainTables: false`).
    expect(
      db
        .prepare(
          "select name from sqlite_master where type = 'table' and name in ('hireport_job', 'hireport_application')",
        )
        .all(),
    ).toEqual([]);
  } finally {
    db.close();
  }

  // The product's own screen renames the opening with plain SQL, forgetting `updatedAt`: the
  // installed trigger moves it, and the running change detector announces the change.
  const product = new Database(file, { timeout: 10_000 });
  try {
    product.prepare(`update openings set headline = 'Backend Engineer (Leeds)' where id = ?`).run(jobs.data[0]?.id);
  } finally {
    product.close();
  }
  const announced = async () => {
    const reader = new Database(file, { readonly: true, timeout: 10_000 });
    try {
      return reader
        .prepare("select type, payload from hireport_event where subject_id = ? order by created_at, id")
        .all(jobs.data[0]?.id) as { type: string; payload: string }[];
    } finally {
      reader.close();
    }
  };
  const deadline = Date.now() + 30_000;
  let events = await announced();
  while (!events.some((event) => event.type === "job.updated") && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    events = await announced();
  }
  const updated = events.find((event) => event.type === "job.updated");
  expect(updated && JSON.parse(updated.payload).data.title).toBe("Backend Engineer (Leeds)");
});
