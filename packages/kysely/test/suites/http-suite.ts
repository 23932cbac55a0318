/**
 * The v1 API of @hireport/core through `api.handle()` on this storage: the same request pipeline a
 * host runs (auth, rate limit, service transaction with its outbox event, usage log), on a real
 * database, with two app instances (two Kysely pools) where races matter.
 */
import { type ApiResponse, createPublicApi, type PublicApi, type Storage } from "@hireport/core";
import { SCOPES } from "@hireport/core/schemas";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kyselyStorage } from "../../src/index";
import type { AnyDb } from "../helpers/databases";
import * as make from "../helpers/records";

const SECRET = "kysely-http-secret-0123456789-abcdefghij";

interface Json {
  data?: Record<string, unknown> & Record<string, unknown>[];
  has_more?: boolean;
  next_cursor?: string | null;
  error?: { code: string };
}

function json(answer: ApiResponse): Json {
  const { body } = answer;
  if (typeof body !== "string" && !(body instanceof Uint8Array)) throw new Error("The API answered with a stream.");
  return JSON.parse(typeof body === "string" ? body : new TextDecoder().decode(body)) as Json;
}

export function defineHttpTests(options: { db: () => AnyDb; others: () => AnyDb[]; prefix: string }): void {
  describe("the v1 API through api.handle()", () => {
    const apis: PublicApi[] = [];
    let storage: Storage;
    const open = (db: AnyDb, limits?: { perMinute?: number }) => {
      const api = createPublicApi({
        storage: kyselyStorage({ db, tablePrefix: options.prefix }),
        publicBaseUrl: "https://careers.example.com",
        fileTokenSecret: SECRET,
        limits: { perMinute: 10_000, perDay: 100_000, ...limits },
        logger: { warn: () => undefined, error: (message, details) => console.error(message, details) },
        usageFlushMs: 10,
      });
      apis.push(api);
      return api;
    };
    const call = (api: PublicApi, key: string, method: string, path: string, extra: Record<string, unknown> = {}) =>
      api.handle({
        method,
        path,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        ...extra,
      });

    beforeAll(() => {
      storage = kyselyStorage({ db: options.db(), tablePrefix: options.prefix });
    });

    afterAll(async () => {
      for (const api of apis) await api.close();
    });

    async function companyWithKey(api: PublicApi) {
      const companyId = make.id("co");
      await api.companies.upsert({ id: companyId, name: "Hïreport HTTP Ltd" });
      const { key } = await api.keys.create({ companyId, name: "http key", scopes: [...SCOPES] });
      return { companyId, key };
    }

    it("creates, pages, reads and closes jobs, each change with its event", async () => {
      const api = open(options.db());
      const { companyId, key } = await companyWithKey(api);
      const ids: string[] = [];
      const createdAt = new Map<string, string>();
      for (let i = 0; i < 5; i += 1) {
        const created = await call(api, key, "POST", "/jobs", {
          body: { title: `Ingénieur ${i}`, status: "active", required_skills: ["Zürich", "日本語", "Zürich"] },
        });
        expect(created.status).toBe(201);
        const job = json(created).data as Record<string, unknown>;
        ids.push(String(job.id));
        createdAt.set(String(job.id), String(job.created_at));
      }
      // Newest first by `created_at`, then by id (binary order): jobs made in the same millisecond
      // come in id order, not necessarily in the order they were made.
      const newestFirst = [...ids].sort(
        (a, b) => String(createdAt.get(b)).localeCompare(String(createdAt.get(a))) || (a < b ? 1 : a > b ? -1 : 0),
      );
      const seen: string[] = [];
      let cursor: string | null | undefined;
      do {
        const page = await call(api, key, "GET", "/jobs", { query: { limit: "2", ...(cursor ? { cursor } : {}) } });
        expect(page.status).toBe(200);
        const body = json(page);
        seen.push(...(body.data as Record<string, unknown>[]).map((job) => String(job.id)));
        cursor = body.has_more ? body.next_cursor : null;
      } while (cursor);
      expect(seen).toEqual(newestFirst);
      const one = json(await call(api, key, "GET", `/jobs/${ids[0]}`)).data as Record<string, unknown>;
      expect(one.required_skills).toEqual(["Zürich", "日本語", "Zürich"]);
      expect(String(one.created_at)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const closed = await call(api, key, "POST", `/jobs/${ids[0]}/close`);
      expect(closed.status).toBe(200);
      const events = await storage.events.list(companyId, { take: 100 });
      expect(events.map((event) => event.type).sort()).toEqual([
        "job.closed",
        "job.created",
        "job.created",
        "job.created",
        "job.created",
        "job.created",
      ]);
    });

    it("answers one 201 and one 409 to two identical applications sent at once to two app instances", async () => {
      const [a, b] = [open(options.db()), open(options.others()[0] ?? options.db())] as [PublicApi, PublicApi];
      const { companyId, key } = await companyWithKey(a);
      const job = json(await call(a, key, "POST", "/jobs", { body: { title: "Chef", status: "active" } })).data;
      const body = { job_id: job?.id, candidate: { name: "Zoë", email: "  Zoe@Example.COM " } };
      const answers = await Promise.all([
        call(a, key, "POST", "/applications", { body }),
        call(b, key, "POST", "/applications", {
          body: { ...body, candidate: { ...body.candidate, email: "zoe@example.com" } },
        }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      const list = json(await call(a, key, "GET", "/applications", { query: { job_id: String(job?.id) } }));
      expect(list.data).toHaveLength(1);
      expect((list.data as Record<string, unknown>[])[0]?.job_title).toBe("Chef");
      const app = (list.data as Record<string, unknown>[])[0] as Record<string, unknown>;
      const patched = await call(b, key, "PATCH", `/applications/${app.id}`, {
        body: { stage: "interview", note: "Strong" },
      });
      expect(patched.status).toBe(200);
      expect((await storage.jobs.get(companyId, String(job?.id)))?.applicationsCount).toBe(1);
      expect((await storage.applications.listStageChanges(companyId, String(app.id))).map((c) => c.toStage)).toEqual([
        "new",
        "interview",
      ]);
    });

    it("admits exactly the per-minute limit across two app instances and logs every request", async () => {
      const [a, b] = [
        open(options.db(), { perMinute: 5 }),
        open(options.others()[1] ?? options.db(), { perMinute: 5 }),
      ] as [PublicApi, PublicApi];
      const { companyId, key } = await companyWithKey(a);
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => call(i % 2 ? a : b, key, "GET", "/me")));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(7);
      expect(answers.find((answer) => answer.status === 429)?.headers["retry-after"]).toBeDefined();
      await a.close();
      await b.close();
      const rows = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(`${options.prefix}usage`)}
        where company_id = ${companyId}`.execute(options.db());
      expect(Number(rows.rows[0]?.n)).toBe(12);
    });
  });
}
