/**
 * Postgres ends the connections under an app process while it serves requests
 * (`pg_terminate_backend` of its backends, found by `application_name`). With the pool given to
 * `hardenPgPool`, as the README's setup does, the process lives on: the requests caught on a lost
 * connection answer the API's 500 error body, and the next ones are served on new connections. A pool without
 * the listeners ends the process: the failure the helper exists for.
 */
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { type AppProcess, keyFor, startAppProcess } from "./helpers/app-process";
import { type AnyDb, connectOrSkip, dropTables, randomPrefix, sqliteFileFor } from "./helpers/databases";

const prefix = randomPrefix();
const db = await connectOrSkip("postgres", { sqliteFile: sqliteFileFor(prefix) });

interface Answer {
  status: number;
  code: string | null;
  requestId: string | null;
}

describe.skipIf(!db)("Postgres ends the app's connections under load", () => {
  const database = db as AnyDb;
  const apps: AppProcess[] = [];
  afterAll(async () => {
    for (const app of apps) if (app.child.exitCode === null && app.child.signalCode === null) app.child.kill("SIGKILL");
    await dropTables(database, prefix);
    await database.destroy();
  });

  /** Ends every backend of the app's connections; returns how many there were. */
  async function terminate(applicationName: string): Promise<number> {
    const { rows } = await sql<{ ended: boolean }>`select pg_terminate_backend(pid) as ended from pg_stat_activity
      where application_name = ${applicationName} and pid <> pg_backend_pid()`.execute(database);
    return rows.length;
  }

  /** Starts the app, calls it from 8 loops at once while ending its connections 5 times, then stops. */
  async function underTermination(pool: "hardened" | "bare") {
    const applicationName = `hp_term_${randomBytes(4).toString("hex")}`;
    const key = await keyFor(database, prefix, `co_${applicationName}`);
    const app = await startAppProcess(["postgres", prefix, "", "batched", pool, applicationName]);
    apps.push(app);
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const answers: Answer[] = [];
    let running = true;
    const call = async (index: number): Promise<void> => {
      const response =
        index % 4 === 0
          ? await fetch(`${app.origin}/api/public/v1/jobs`, {
              method: "POST",
              headers,
              body: JSON.stringify({ title: `Job ${index}` }),
            })
          : await fetch(`${app.origin}/api/public/v1/jobs?limit=5`, { headers });
      const body = (await response.json()) as { error?: { code: string } };
      answers.push({
        status: response.status,
        code: body.error?.code ?? null,
        requestId: response.headers.get("x-request-id"),
      });
    };
    const loops = Array.from({ length: 8 }, async (_, loop) => {
      for (let index = loop; running; index += 8) {
        try {
          await call(index);
        } catch {
          return; // the process is gone
        }
      }
    });
    let ended = 0;
    for (let round = 0; round < 5; round++) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      ended += await terminate(applicationName);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
    running = false;
    await Promise.all(loops);
    return { app, answers, ended, headers };
  }

  it("with hardenPgPool: 500 error bodies while connections are lost, then served again, no restart", async () => {
    const { app, answers, ended, headers } = await underTermination("hardened");
    expect(ended).toBeGreaterThan(0);
    expect(app.child.exitCode).toBeNull();
    expect(app.child.signalCode).toBeNull();
    // Every answer is one the API documents: served, or 500 server_error with a request id.
    const failed = answers.filter((answer) => answer.status !== 200 && answer.status !== 201);
    for (const answer of failed) {
      expect(answer).toEqual({ status: 500, code: "server_error", requestId: expect.stringMatching(/^req_/) });
    }
    expect(failed.length).toBeGreaterThan(0);
    expect(answers.length).toBeGreaterThan(failed.length);
    // Recovered: the pool opened new connections, every request is served again.
    const after = await Promise.all(
      Array.from({ length: 8 }, () => fetch(`${app.origin}/api/public/v1/jobs?limit=5`, { headers })),
    );
    expect(after.map((response) => response.status)).toEqual(Array(8).fill(200));
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(`${prefix}job`)}`.execute(
      database,
    );
    expect(rows[0]?.n).toBeGreaterThan(0);
  }, 60_000);

  it("without the listeners, the first lost connection ends the process", async () => {
    const { app } = await underTermination("bare");
    expect(await app.exited).not.toBeNull();
    // An 'error' event of node-postgres that nobody listened to ended it. How the lost connection
    // reads depends on when the socket closes: Postgres's own message ("terminating connection due
    // to administrator command"), a reset (ECONNRESET) or "Connection terminated unexpectedly".
    expect(app.stderr()).toMatch(/Unhandled 'error' event/);
    expect(app.stderr()).toMatch(/node_modules[\\/](?:\.pnpm[\\/])?pg[@\\/]/);
  }, 60_000);
});
