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

it("serves the API on the host's tables: a job from openings, an application into candidacies", async () => {
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
    expect(db.prepare("select count(*) as n from hireport_application").get()).toEqual({ n: 0 });
  } finally {
    db.close();
  }
});
