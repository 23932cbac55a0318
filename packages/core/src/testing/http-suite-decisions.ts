/**
 * The HTTP suite's checks of the rules docs/api-reference.md states beyond the bare endpoint list, as a client sees them through the
 * adapter under test: POST /applications to a closed job, the JobInput fields a Job returns, and the
 * headers of a daily 429. Each test brings its own data (and, for the daily limit, its own API and
 * server), so it does not depend on the order of the suite's other tests.
 */
import { describe, expect, it } from "vitest";
import type { Logger } from "../base/logger";
import { memoryStorage } from "../memory";
import type { Scope } from "../model/domain";
import { createPublicApi } from "../setup/create-public-api";
import type { HttpSuiteTarget } from "./http-suite";

/** What a test sees of an answer. */
interface Answer {
  status: number;
  headers: Headers;
  json: { data?: Record<string, unknown>; error?: Record<string, unknown> };
}

/** The suite's own client, signed in with a key of every scope. */
export type SuiteCall = (method: string, path: string, options?: { json?: unknown }) => Promise<Answer>;

const ALL_SCOPES: Scope[] = ["jobs:read", "jobs:write", "applications:read", "applications:write"];
const quiet: Logger = { warn: () => undefined, error: () => undefined };

export function decisionTests(target: HttpSuiteTarget, call: SuiteCall, secret: string, publicBaseUrl: string): void {
  describe("documented decisions: closed jobs, JobInput fields in a Job, daily 429 headers", () => {
    it("POST /applications to a closed job: 422 invalid naming job_id", async () => {
      const job = await call("POST", "/jobs", { json: { title: "Closed soon", status: "active" } });
      const jobId = String(job.json.data?.id);
      expect((await call("POST", `/jobs/${jobId}/close`)).status).toBe(200);
      const answer = await call("POST", "/applications", {
        json: { job_id: jobId, candidate: { name: "Late Comer", email: "late@example.com" } },
      });
      expect({ status: answer.status, code: answer.json.error?.code }).toEqual({ status: 422, code: "invalid" });
      expect(answer.json.error?.fields).toEqual([
        { field: "job_id", message: expect.stringMatching(/^The job is closed/) },
      ]);
    });

    it("a job returns every JobInput field it was written with", async () => {
      const written = {
        title: "Data Engineer",
        short_description: "Pipelines, briefly.",
        preferred_skills: ["Airflow"],
        qualifications: ["BSc"],
        responsibilities: ["Own the warehouse"],
        benefits: ["Pension"],
        start_date: "2027-01-04",
        positions: 2,
        country: "GB",
        region: "West Yorkshire",
        locality: "Leeds",
        postal_code: "LS1 4DY",
        workplace_type: "hybrid",
      };
      const created = await call("POST", "/jobs", { json: written });
      expect(created.status).toBe(201);
      expect((await call("GET", `/jobs/${created.json.data?.id}`)).json.data).toMatchObject(written);
    });

    it("429 daily_limit: Retry-After and X-RateLimit-Reset describe the UTC day", async () => {
      // 10:00:30 UTC: the minute ends in 30 s, the day in 13 h 59 min 30 s.
      const at = new Date("2026-03-02T10:00:30.000Z");
      const daily = createPublicApi({
        storage: target.storage?.() ?? memoryStorage(),
        publicBaseUrl,
        fileTokenSecret: secret,
        limits: { perMinute: 100, perDay: 2 },
        logger: quiet,
        clock: { now: () => new Date(at) },
      });
      const server = await target.start(daily);
      try {
        const company = await daily.companies.upsert({ id: `co_day_${globalThis.crypto.randomUUID()}`, name: "Daily" });
        const { key } = await daily.keys.create({ companyId: company.id, name: "Day key", scopes: ALL_SCOPES });
        const get = () => fetch(`${server.baseUrl}/me`, { headers: { authorization: `Bearer ${key}` } });
        expect((await get()).status).toBe(200);
        expect((await get()).status).toBe(200);
        const refused = await get();
        expect(refused.status).toBe(429);
        expect(((await refused.json()) as Answer["json"]).error?.code).toBe("daily_limit");
        expect(refused.headers.get("retry-after")).toBe(String(13 * 3600 + 59 * 60 + 30));
        expect(refused.headers.get("x-ratelimit-reset")).toBe(String(Date.parse("2026-03-03T00:00:00.000Z") / 1000));
        expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
      } finally {
        await server.close();
        await daily.close();
      }
    });
  });
}
