/**
 * Tenant isolation ("a record of another company answers 404", docs/api-reference.md, Basics), through
 * `api.handle()` on the memory storage, with two companies that both hold full-scope keys and data:
 *
 * - every endpoint, with every job and application id of the other company (in the path, in the
 *   job_id filter, in the job_id of a new application), answers 404 not_found, worded exactly as for
 *   a missing id, never 403, and changes neither company's data;
 * - the host services refuse another company's ids the same way;
 * - no list, with any filter, across all its pages, returns a foreign record, and each returns
 *   exactly the company's own matching records; a cursor of one company is refused for the other;
 * - events and usage-log entries land only in the company that made the request.
 */
import type { ApplicationStage, ApplicationWire, JobWire } from "@hireport/core";
import { APPLICATION_STAGES } from "@hireport/core/schemas";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Answer, answerProblems, createSetup, type Setup, send, snapshot, type Tenant } from "./support";

interface Data {
  tenant: Tenant;
  jobs: { id: string; status: string; updatedAt: string }[];
  applications: { id: string; jobId: string; stage: ApplicationStage; updatedAt: string }[];
}

type CallOptions = { query?: Record<string, string>; body?: unknown; headers?: Record<string, string> };

describe("tenant isolation", () => {
  let s: Setup;
  const data: Record<"acme" | "globex", Data> = {} as Record<"acme" | "globex", Data>;
  /** Requests made with each company's key, to check the usage log. */
  const requestsByKey = new Map<string, number>();

  const call = async (tenant: Tenant, method: string, path: string, options: CallOptions = {}): Promise<Answer> => {
    requestsByKey.set(tenant.keyId, (requestsByKey.get(tenant.keyId) ?? 0) + 1);
    const answer = await send(s.api, {
      method,
      path,
      headers: {
        authorization: `Bearer ${tenant.key}`,
        ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
        ...(options.headers ?? {}),
      },
      ...(options.query ? { query: options.query } : {}),
      ...(options.body !== undefined ? { body: options.body } : {}),
    });
    expect(answerProblems(answer), `${method} ${path}`).toEqual([]);
    return answer;
  };

  /** Jobs in every status and applications in several stages, made over HTTP with the company's key. */
  async function seed(companyId: "acme" | "globex"): Promise<Data> {
    const tenant = await s.tenant(companyId);
    const result: Data = { tenant, jobs: [], applications: [] };
    const statuses = ["active", "draft", "paused", "active", "draft"] as const;
    for (const [index, status] of statuses.entries()) {
      // Every other job in the same millisecond as the one before: ties on time are broken by id.
      if (index % 2 === 0) s.clock.advance(1_000);
      const answer = await call(tenant, "POST", "/jobs", { body: { title: `${companyId} job ${index}`, status } });
      expect(answer.status).toBe(201);
      const job = (answer.json as { data: JobWire }).data;
      result.jobs.push({ id: job.id, status: job.status, updatedAt: job.updated_at });
    }
    // The hidden active job is still the company's (public_url null), and lists show it.
    await s.api.jobs.setHidden(companyId, (result.jobs[0] as Data["jobs"][number]).id, true);
    (result.jobs[0] as Data["jobs"][number]).updatedAt = s.clock.now().toISOString();

    const stages: ApplicationStage[] = ["new", "reviewed", "interview", "hired", "rejected", "on_hold"];
    let n = 0;
    for (const job of result.jobs) {
      for (let i = 0; i < 3; i++) {
        n += 1;
        if (n % 3 !== 0) s.clock.advance(500);
        // The same e-mail addresses in both companies: the duplicate rule is per company and job.
        const created = await call(tenant, "POST", "/applications", {
          body: { job_id: job.id, candidate: { name: `Candidate ${n}`, email: `person${n}@example.com` } },
        });
        expect(created.status).toBe(201);
        const application = (created.json as { data: ApplicationWire }).data;
        const stage = stages[n % stages.length] as ApplicationStage;
        let updatedAt = application.updated_at;
        if (stage !== "new") {
          s.clock.advance(10);
          const moved = await call(tenant, "PATCH", `/applications/${application.id}`, {
            body: { stage, note: `moved by ${companyId}` },
          });
          expect(moved.status).toBe(200);
          updatedAt = (moved.json as { data: ApplicationWire }).data.updated_at;
        }
        result.applications.push({ id: application.id, jobId: job.id, stage, updatedAt });
      }
    }
    // Closed once its applications are in: a closed job takes no new candidates.
    const closed = result.jobs[3] as Data["jobs"][number];
    s.clock.advance(1_000);
    const closing = await call(tenant, "POST", `/jobs/${closed.id}/close`);
    expect(closing.status).toBe(200);
    closed.status = "closed";
    closed.updatedAt = (closing.json as { data: JobWire }).data.updated_at;
    return result;
  }

  beforeAll(async () => {
    s = createSetup();
    data.acme = await seed("acme");
    data.globex = await seed("globex");
  });

  afterAll(async () => {
    expect(s.logger.entries, "no 500 and no failure was logged").toEqual([]);
    await s.api.close();
  });

  const pairs = [
    ["acme", "globex"],
    ["globex", "acme"],
  ] as const;

  describe.each(pairs)("%s's key against %s's records", (callerName, victimName) => {
    it("every endpoint with every foreign id: 404 not_found worded as for a missing id, nothing changes", async () => {
      const caller = data[callerName];
      const victim = data[victimName];
      const before = { caller: await snapshot(s.storage, callerName), victim: await snapshot(s.storage, victimName) };

      /** The answer for the foreign id must be the answer for a missing id, except the request id. */
      const expectLikeMissing = async (
        method: string,
        path: (id: string) => string,
        foreignId: string,
        missingId: string,
        options: (id: string) => CallOptions = () => ({}),
      ) => {
        const foreign = await call(caller.tenant, method, path(foreignId), options(foreignId));
        const missing = await call(caller.tenant, method, path(missingId), options(missingId));
        const label = `${method} ${path(foreignId)} ${JSON.stringify(options(foreignId))}`;
        expect(foreign.status, label).toBe(404);
        expect(foreign.json, label).toEqual(missing.json);
        expect((foreign.json as { error: { code: string } }).error.code).toBe("not_found");
      };

      const candidate = { name: "Intruder", email: "intruder@example.com" };
      for (const job of victim.jobs) {
        const missingJob = `${job.id.slice(0, -4)}zzzz`;
        await expectLikeMissing("GET", (id) => `/jobs/${id}`, job.id, missingJob);
        // Valid bodies only: an invalid one is 422 before any lookup (for a missing id just the same).
        const same = job.status === "closed" ? "draft" : job.status;
        for (const body of [{ title: "Hijacked" }, { status: "active" }, { status: same }, {}]) {
          await expectLikeMissing(
            "PATCH",
            (id) => `/jobs/${id}`,
            job.id,
            missingJob,
            () => ({ body }),
          );
        }
        await expectLikeMissing("POST", (id) => `/jobs/${id}/close`, job.id, missingJob);
        await expectLikeMissing(
          "POST",
          (id) => `/jobs/${id}/close`,
          job.id,
          missingJob,
          (id) => ({
            headers: { "idempotency-key": `close-${id}` },
          }),
        );
        const filters: Record<string, string>[] = [
          {},
          { stage: "new" },
          { limit: "1" },
          { updated_since: "2000-01-01" },
        ];
        for (const query of filters) {
          await expectLikeMissing(
            "GET",
            () => "/applications",
            job.id,
            missingJob,
            (id) => ({
              query: { ...query, job_id: id },
            }),
          );
        }
        // Without and with an Idempotency-Key.
        for (const keyed of [false, true]) {
          await expectLikeMissing(
            "POST",
            () => "/applications",
            job.id,
            missingJob,
            (id) => ({
              body: { job_id: id, candidate },
              ...(keyed ? { headers: { "idempotency-key": `apply-${id}` } } : {}),
            }),
          );
        }
        // A job id where an application id belongs.
        await expectLikeMissing("GET", (id) => `/applications/${id}`, job.id, missingJob);
      }
      for (const application of victim.applications) {
        const missingApplication = `${application.id.slice(0, -4)}zzzz`;
        await expectLikeMissing("GET", (id) => `/applications/${id}`, application.id, missingApplication);
        for (const body of [
          { stage: "hired" },
          { stage: application.stage },
          { note: "read this" },
          { tags: ["stolen"] },
          { starred: true },
          {},
        ]) {
          await expectLikeMissing(
            "PATCH",
            (id) => `/applications/${id}`,
            application.id,
            missingApplication,
            () => ({
              body,
            }),
          );
        }
        // An application id where a job id belongs.
        await expectLikeMissing("GET", (id) => `/jobs/${id}`, application.id, missingApplication);
        await expectLikeMissing(
          "GET",
          () => "/applications",
          application.id,
          missingApplication,
          (id) => ({
            query: { job_id: id },
          }),
        );
      }

      expect(await snapshot(s.storage, callerName)).toBe(before.caller);
      expect(await snapshot(s.storage, victimName)).toBe(before.victim);
    });

    it("the host services refuse the other company's ids with not_found and change nothing", async () => {
      const victim = data[victimName];
      const before = { caller: await snapshot(s.storage, callerName), victim: await snapshot(s.storage, victimName) };
      const refused = async (what: string, run: () => Promise<unknown>) => {
        await expect(run(), what).rejects.toMatchObject({ code: "not_found", status: 404 });
      };
      for (const job of victim.jobs) {
        await refused("jobs.get", () => s.api.jobs.get(callerName, job.id));
        await refused("jobs.update", () => s.api.jobs.update(callerName, job.id, { title: "Hijacked" }));
        await refused("jobs.close", () => s.api.jobs.close(callerName, job.id));
        await refused("jobs.setHidden", () => s.api.jobs.setHidden(callerName, job.id, true));
        await refused("applications.create", () =>
          s.api.applications.create(callerName, {
            job_id: job.id,
            candidate: { name: "Intruder", email: "intruder@example.com" },
          }),
        );
      }
      for (const application of victim.applications) {
        const { id } = application;
        await refused("applications.get", () => s.api.applications.get(callerName, id));
        await refused("applications.update", () => s.api.applications.update(callerName, id, { stage: "hired" }));
        await refused("applications.setOverallScore", () => s.api.applications.setOverallScore(callerName, id, 99));
        await refused("applications.history", () => s.api.applications.history(callerName, id));
        await refused("applications.notes", () => s.api.applications.notes(callerName, id));
      }
      expect(await snapshot(s.storage, callerName)).toBe(before.caller);
      expect(await snapshot(s.storage, victimName)).toBe(before.victim);
    });

    /** Every page of a list: the records in order, every answer checked. */
    const allPages = async <T extends { id: string }>(tenant: Tenant, path: string, query: Record<string, string>) => {
      const seen: T[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 500; page++) {
        const answer: Answer = await call(tenant, "GET", path, { query: cursor ? { ...query, cursor } : query });
        expect(answer.status, `${path} ${JSON.stringify(query)}`).toBe(200);
        const body = answer.json as { data: T[]; has_more: boolean; next_cursor: string | null };
        seen.push(...body.data);
        expect(body.has_more).toBe(body.next_cursor !== null);
        if (!body.has_more) return seen;
        cursor = body.next_cursor;
      }
      throw new Error(`${path} did not end after 500 pages`);
    };

    it("no job list, with any filter and page size, across all pages, returns a foreign job; each returns exactly its own", async () => {
      const own = data[callerName];
      const foreignIds = new Set(data[victimName].jobs.map((job) => job.id));
      const statusOf: Record<string, string[] | undefined> = {
        open: ["active"],
        closed: ["closed"],
        draft: ["draft"],
        all: undefined,
      };
      const times = [...new Set(own.jobs.map((job) => job.updatedAt))].sort();
      for (const status of [undefined, "open", "closed", "draft", "all"]) {
        for (const since of [undefined, "2000-01-01", times[1], times[times.length - 1]]) {
          for (const limit of ["1", "2", "3", "25", "100"]) {
            const query: Record<string, string> = { limit };
            if (status) query.status = status;
            if (since) query.updated_since = since;
            const jobs = await allPages<JobWire>(own.tenant, "/jobs", query);
            expect(jobs.filter((job) => foreignIds.has(job.id))).toEqual([]);
            const allowed = statusOf[status ?? "all"];
            const expected = own.jobs
              .filter((job) => !allowed || allowed.includes(job.status))
              .filter((job) => !since || job.updatedAt >= new Date(since).toISOString())
              .map((job) => job.id);
            expect(jobs.map((job) => job.id).sort(), JSON.stringify(query)).toEqual([...expected].sort());
            expect(new Set(jobs.map((job) => job.id)).size).toBe(jobs.length);
          }
        }
      }
    });

    it("no application list, with any filter and page size, across all pages, returns a foreign application; each returns exactly its own", async () => {
      const own = data[callerName];
      const foreignIds = new Set(data[victimName].applications.map((application) => application.id));
      const ownJobIds = new Set(own.jobs.map((job) => job.id));
      const times = [...new Set(own.applications.map((application) => application.updatedAt))].sort();
      const stages = [undefined, ...new Set(own.applications.map((application) => application.stage)), "offered"];
      for (const jobId of [undefined, ...own.jobs.map((job) => job.id)]) {
        for (const stage of stages) {
          for (const since of [undefined, times[Math.floor(times.length / 2)]]) {
            for (const limit of ["1", "4", "100"]) {
              const query: Record<string, string> = { limit };
              if (jobId) query.job_id = jobId;
              if (stage) query.stage = stage;
              if (since) query.updated_since = since;
              const applications = await allPages<ApplicationWire>(own.tenant, "/applications", query);
              expect(applications.filter((application) => foreignIds.has(application.id))).toEqual([]);
              expect(applications.filter((application) => !ownJobIds.has(application.job_id))).toEqual([]);
              const expected = own.applications
                .filter((application) => !jobId || application.jobId === jobId)
                .filter((application) => !stage || application.stage === stage)
                .filter((application) => !since || application.updatedAt >= since)
                .map((application) => application.id);
              expect(applications.map((application) => application.id).sort(), JSON.stringify(query)).toEqual(
                [...expected].sort(),
              );
            }
          }
        }
      }
      expect(APPLICATION_STAGES).toContain("offered");
    });

    it("a cursor of one company is refused for the other, with 400, never a page of records", async () => {
      const own = data[callerName];
      const other = data[victimName];
      for (const [path, query] of [
        ["/jobs", { limit: "1" }],
        ["/applications", { limit: "1" }],
        ["/applications", { limit: "1", job_id: (own.jobs[1] as Data["jobs"][number]).id }],
      ] as const) {
        const first = await call(own.tenant, "GET", path, { query });
        const cursor = (first.json as { next_cursor: string | null }).next_cursor;
        expect(cursor).toBeTypeOf("string");
        const stolen = await call(other.tenant, "GET", path, { query: { limit: "1", cursor: cursor as string } });
        expect(stolen.status).toBe(400);
        expect((stolen.json as { error: { code: string } }).error.code).toBe("bad_request");
      }
    });
  });

  it("events and usage-log entries land only in the company that made the request", async () => {
    const acme = data.acme;
    const globex = data.globex;
    const eventsBefore = {
      acme: await s.storage.events.list("acme", { take: 100_000 }),
      globex: await s.storage.events.list("globex", { take: 100_000 }),
    };

    // Changes by acme only: each is one event, in acme's outbox.
    s.clock.advance(60_000);
    const job = (await call(acme.tenant, "POST", "/jobs", { body: { title: "Acme only", status: "active" } })).json as {
      data: JobWire;
    };
    await call(acme.tenant, "PATCH", `/jobs/${job.data.id}`, { body: { title: "Acme only, renamed" } });
    const application = (
      await call(acme.tenant, "POST", "/applications", {
        body: { job_id: job.data.id, candidate: { name: "Ada", email: "person1@example.com" } },
      })
    ).json as { data: ApplicationWire };
    await call(acme.tenant, "PATCH", `/applications/${application.data.id}`, { body: { stage: "technical" } });
    await call(acme.tenant, "POST", `/jobs/${job.data.id}/close`);
    // Requests without a company: they must reach neither company's usage log.
    for (const key of ["svc_live_unknown", ""]) {
      await send(s.api, { method: "GET", path: "/jobs", headers: key ? { authorization: `Bearer ${key}` } : {} });
    }

    const acmeEvents = await s.storage.events.list("acme", { take: 100_000 });
    const globexEvents = await s.storage.events.list("globex", { take: 100_000 });
    expect(globexEvents).toEqual(eventsBefore.globex);
    const added = acmeEvents.filter((event) => !eventsBefore.acme.some((old) => old.id === event.id));
    expect(added.map((event) => event.type).sort()).toEqual(
      ["application.created", "application.updated", "job.closed", "job.created", "job.updated"].sort(),
    );
    const acmeJobIds = new Set([...acme.jobs.map((item) => item.id), job.data.id]);
    const acmeApplicationIds = new Set([...acme.applications.map((item) => item.id), application.data.id]);
    for (const [company, events, jobIds, applicationIds] of [
      ["acme", acmeEvents, acmeJobIds, acmeApplicationIds],
      [
        "globex",
        globexEvents,
        new Set(globex.jobs.map((item) => item.id)),
        new Set(globex.applications.map((item) => item.id)),
      ],
    ] as const) {
      for (const event of events) {
        expect(event.companyId).toBe(company);
        const envelope = JSON.parse(event.payload) as { company_id: string; type: string; data: { id: string } };
        expect(envelope.company_id).toBe(company);
        const ids = envelope.type.startsWith("job.") ? jobIds : applicationIds;
        expect(ids.has(envelope.data.id), `${company} event ${envelope.type} about ${envelope.data.id}`).toBe(true);
      }
    }

    for (const tenant of [acme.tenant, globex.tenant]) {
      const entries = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await s.api.usage.list(tenant.companyId, { limit: 100, ...(cursor ? { cursor } : {}) });
        entries.push(...page.data);
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      expect(entries.filter((entry) => entry.companyId !== tenant.companyId)).toEqual([]);
      expect(entries.filter((entry) => entry.keyId !== tenant.keyId)).toEqual([]);
      expect(entries.length, `usage entries of ${tenant.companyId}`).toBe(requestsByKey.get(tenant.keyId));
    }
  });
});
