/**
 * The usage log across a real crash: an app process answers requests, then dies by SIGKILL (no
 * `api.close()`, no flush). With `usageLog: "durable"` every answered request is in the log
 * afterwards; batched (at its loosest: a batch of 1,000, a minute) the same answers are all lost,
 * the bound the core README states. SQLite, Postgres and MySQL/MariaDB.
 */
import type { ChildProcess } from "node:child_process";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { keyFor, startAppProcess } from "./helpers/app-process";
import { openTestDatabase, type TestDialect } from "./helpers/databases";

const REQUESTS = 60;

for (const dialect of ["sqlite", "postgres", "mysql"] as TestDialect[]) {
  const opened = await openTestDatabase(dialect);
  if (!opened) continue;
  const { db: database, prefix, sqliteFile } = opened;
  const children: ChildProcess[] = [];

  describe(`usage log across SIGKILL on ${dialect}`, () => {
    afterAll(async () => {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await opened.drop();
    });

    /** Answers REQUESTS requests (GET /me and POST /jobs, at once), kills the process, returns the answered request ids. */
    async function answerThenKill(mode: string, company: string): Promise<string[]> {
      const key = await keyFor(database, prefix, company);
      const { child, origin } = await startAppProcess([dialect, prefix, sqliteFile, mode]);
      children.push(child);
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const answers = await Promise.all(
        Array.from({ length: REQUESTS }, (_, index) =>
          index % 3 === 0
            ? fetch(`${origin}/api/public/v1/jobs`, {
                method: "POST",
                headers,
                body: JSON.stringify({ title: `Job ${index}` }),
              })
            : fetch(`${origin}/api/public/v1/me`, { headers }),
        ),
      );
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
      expect(answers.map((answer) => answer.status).sort()).toEqual(
        [...Array(REQUESTS / 3).fill(201), ...Array((2 * REQUESTS) / 3).fill(200)].sort(),
      );
      return answers.map((answer) => answer.headers.get("x-request-id") ?? "");
    }

    async function loggedIds(company: string): Promise<Set<string>> {
      const { rows } = await sql<{ request_id: string }>`select request_id from ${sql.table(`${prefix}usage`)}
        where company_id = ${company}`.execute(database);
      return new Set(rows.map((row) => row.request_id));
    }

    it('usageLog "durable": every answered request is in the log after the process is killed', async () => {
      const answered = await answerThenKill("durable", "co_durable");
      const logged = await loggedIds("co_durable");
      expect(answered.filter((id) => !logged.has(id))).toEqual([]);
      expect(logged.size).toBe(REQUESTS);
    }, 60_000);

    it('usageLog "batched": the entries still in memory when the process is killed are lost', async () => {
      const answered = await answerThenKill("batched", "co_batched");
      const logged = await loggedIds("co_batched");
      expect(answered.filter((id) => logged.has(id))).toEqual([]);
    }, 60_000);
  });
}
