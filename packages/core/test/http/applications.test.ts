import type { JobRecord } from "@hireport/core";
import { APPLICATION_STAGES } from "@hireport/core/schemas";
import { beforeEach, describe, expect, it } from "vitest";
import {
  type Answer,
  APPLICATION_EXTRAS_UNSET,
  APPLICATION_FIELDS,
  applicationBody,
  applicationOf,
  applicationsOf,
  BASE_URL,
  CANDIDATE_DEFAULTS,
  CANDIDATE_FIELDS,
  createClient,
  createWorld,
  DAY_MS,
  errorOf,
  eventsOf,
  ISO_UTC,
  jobOf,
  keysOf,
  START,
  sorted,
  TRANSPORTS,
  type World,
} from "./harness";

describe.each(TRANSPORTS)("applications via %s", (transport) => {
  let w: World;
  let job: JobRecord;
  const get = (path: string, query?: Record<string, string | number>) =>
    w.client.call("GET", path, { key: w.acmeKey.key, ...(query ? { query } : {}) });
  const post = (body: unknown, headers?: Record<string, string>) =>
    w.client.call("POST", "/applications", { key: w.acmeKey.key, body, ...(headers ? { headers } : {}) });
  const patch = (id: string, body: unknown) =>
    w.client.call("PATCH", `/applications/${id}`, { key: w.acmeKey.key, body });
  const apply = async (email: string, jobId = job.id, extra: Record<string, unknown> = {}) => {
    const answer = await post(applicationBody(jobId, email, extra));
    expect(answer.status, answer.text).toBe(201);
    return applicationOf(answer);
  };
  const jobCount = async (jobId = job.id) =>
    jobOf(await w.client.call("GET", `/jobs/${jobId}`, { key: w.acmeKey.key })).applications_count;

  beforeEach(async () => {
    w = await createWorld(transport);
    // The job is a minute older than everything else, so event order never depends on id order.
    w.clock.set(new Date(START.getTime() - 60_000));
    job = await w.api.jobs.create(w.acme, {
      title: "Backend Engineer",
      status: "active",
      required_skills: ["TypeScript", "SQL", "Go", "AWS"],
      preferred_skills: ["Kafka", "Rust"],
    });
    w.clock.set(START);
  });

  describe("POST /applications", () => {
    it("refuses a closed job with 422 naming job_id, writing nothing; draft and paused jobs take candidates", async () => {
      await w.api.jobs.close(w.acme, job.id);
      const refused = await post(applicationBody(job.id, "late@example.com"));
      expect(refused.status).toBe(422);
      expect(errorOf(refused)).toMatchObject({
        code: "invalid",
        fields: [{ field: "job_id", message: expect.stringMatching(/^The job is closed/) }],
      });
      expect(await jobCount()).toBe(0);
      for (const status of ["draft", "paused", "active"] as const) {
        await w.api.jobs.update(w.acme, job.id, { status });
        await apply(`${status}@example.com`);
      }
      expect(await jobCount()).toBe(3);
    });

    it("creates an application in stage new with source api, the skills match and overall null", async () => {
      const answer = await post({
        job_id: job.id,
        candidate: {
          name: " Grace Hopper ",
          email: "Grace@Example.com",
          phone: "+44 20 7946 0000",
          location: "London",
          linkedin_url: "https://www.linkedin.com/in/grace",
          current_title: "Rear Admiral",
          skills: ["typescript", "SQL ", "Kafka"],
        },
        cover_letter: "Hello.",
        resume_url: "https://files.example.com/cv/grace.pdf",
        consent: true,
      });
      expect(answer.status, answer.text).toBe(201);
      expect(keysOf(answer.json)).toEqual(["data"]);
      const application = applicationOf(answer);
      expect(keysOf(application)).toEqual(sorted(APPLICATION_FIELDS));
      expect(keysOf(application.candidate)).toEqual(sorted(CANDIDATE_FIELDS));
      expect(keysOf(application.scores)).toEqual(["ai_match", "overall"]);
      // required: 2 of 4 (0.5 * 0.7); preferred: 1 of 2 (0.5 * 0.3) -> 50
      expect(application).toEqual({
        id: expect.stringMatching(/^app_[0-9a-z]{26}$/),
        reference: "APP-1001",
        job_id: job.id,
        job_title: "Backend Engineer",
        candidate: {
          ...CANDIDATE_DEFAULTS,
          name: "Grace Hopper",
          email: "Grace@Example.com",
          phone: "+44 20 7946 0000",
          location: "London",
          linkedin_url: "https://www.linkedin.com/in/grace",
          current_title: "Rear Admiral",
          skills: ["typescript", "SQL", "Kafka"],
        },
        cover_letter: "Hello.",
        resume_url: expect.stringMatching(/^https:\/\/careers\.example\.com\/files\/cv\/[\w-]+\.[\w-]+\.[\w-]+$/),
        stage: "new",
        source: "api",
        scores: { ai_match: 50, overall: null },
        tags: [],
        starred: false,
        human_review_requested: false,
        applied_at: START.toISOString(),
        updated_at: START.toISOString(),
        erased_at: null,
        answers: [],
        knocked_out: false,
        ...APPLICATION_EXTRAS_UNSET,
      });
      expect(application.applied_at).toMatch(ISO_UTC);
      const stored = await w.api.applications.get(w.acme, application.id);
      expect(stored.consent).toBe(true);
      expect(stored.consentAt).toEqual(START);
      expect(stored.emailNormalized).toBe("grace@example.com");
      expect(stored.resumeSourceUrl).toBe("https://files.example.com/cv/grace.pdf");
      expect(await jobCount()).toBe(1);
      expect((await apply("b@example.com")).reference).toBe("APP-1002");
    });

    it("keeps a source that is sent, and gives resume_url null without a CV", async () => {
      const application = await apply("c@example.com", job.id, { source: "careers-fair" });
      expect(application.source).toBe("careers-fair");
      expect(application.resume_url).toBeNull();
      expect(application.scores).toEqual({ ai_match: 0, overall: null });
    });

    it("scores with a custom scoring option", async () => {
      const custom = await createWorld(transport, {
        extra: { scoring: ({ job: scored, candidate }) => scored.title.length + candidate.skills.length + 0.123 },
      });
      const customJob = await custom.api.jobs.create(custom.acme, { title: "Tester", status: "active" });
      const answer = await custom.client.call("POST", "/applications", {
        key: custom.acmeKey.key,
        body: applicationBody(customJob.id, "x@example.com", { candidate: { skills: ["a", "b", "c"] } }),
      });
      expect(answer.status, answer.text).toBe(201);
      expect(applicationOf(answer).scores).toEqual({ ai_match: 9.12, overall: null });
      const clamped = await createWorld(transport, { extra: { scoring: async () => 250 } });
      const clampedJob = await clamped.api.jobs.create(clamped.acme, { title: "T" });
      const high = await clamped.client.call("POST", "/applications", {
        key: clamped.acmeKey.key,
        body: applicationBody(clampedJob.id, "y@example.com"),
      });
      expect(applicationOf(high).scores.ai_match).toBe(100);
    });

    it("writes application.created with the envelope of docs/api-reference.md", async () => {
      const application = await apply("d@example.com");
      const events = await eventsOf(w.storage, w.acme);
      expect(events.map((event) => event.envelope.type)).toEqual(["application.created", "job.created"]);
      const envelope = events[0]?.envelope;
      expect(envelope).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: "application.created",
        created_at: START.toISOString(),
        company_id: "acme",
        api_version: "1.0",
        data: { ...application, resume_url: null },
      });
    });

    it("records the initial stage in the history with the key's name", async () => {
      const application = await apply("e@example.com");
      const history = await w.api.applications.history(w.acme, application.id);
      expect(history.map((entry) => [entry.fromStage, entry.toStage, entry.actor.name, entry.actor.type])).toEqual([
        [null, "new", "ATS sync", "api_key"],
      ]);
    });

    it("refuses the same e-mail for the same job within 30 days with 409, whatever case and spaces", async () => {
      const first = await apply("ada@example.com");
      w.clock.advance(29 * DAY_MS);
      for (const email of ["ada@example.com", "ADA@Example.COM"]) {
        const answer = await post(applicationBody(job.id, email));
        expect(answer.status, email).toBe(409);
        expect(errorOf(answer)).toEqual({
          code: "duplicate",
          message: "This candidate already applied to this job in the last 30 days.",
          existing_id: first.id,
        });
      }
      // Also once the first application has moved on (rejected).
      await w.api.applications.update(w.acme, first.id, { stage: "rejected" }, { actor: "recruiter" });
      expect((await post(applicationBody(job.id, "ada@example.com"))).status).toBe(409);
      expect(await jobCount()).toBe(1);
      expect(await w.inspect.countApplications(w.acme)).toBe(1);
      // Exactly 30 days later the window has passed.
      w.clock.set(new Date(START.getTime() + 30 * DAY_MS + 1));
      const again = await apply("Ada@example.com");
      expect(again.id).not.toBe(first.id);
      expect(await jobCount()).toBe(2);
    });

    it("accepts an e-mail with surrounding spaces and compares it trimmed", async () => {
      const first = await apply("  ada@example.com  ");
      expect(first.candidate.email).toBe("ada@example.com");
      const answer = await post(applicationBody(job.id, " ADA@example.com"));
      expect(answer.status).toBe(409);
      expect(errorOf(answer).existing_id).toBe(first.id);
    });

    it("allows the same e-mail for another job", async () => {
      const other = await w.api.jobs.create(w.acme, { title: "Other", status: "active" });
      await apply("ada@example.com");
      const second = await apply("ada@example.com", other.id);
      expect(second.job_id).toBe(other.id);
      expect(second.job_title).toBe("Other");
      expect(await jobCount()).toBe(1);
      expect(await jobCount(other.id)).toBe(1);
    });

    it("answers 404 for a job of another company or an unknown job, and stores nothing", async () => {
      const foreign = await w.api.jobs.create(w.globex, { title: "Globex job", status: "active" });
      for (const jobId of [foreign.id, "job_unknown"]) {
        const answer = await post(applicationBody(jobId, "f@example.com"));
        expect(answer.status).toBe(404);
        expect(errorOf(answer)).toEqual({ code: "not_found", message: "No job with this id in your company." });
      }
      expect(await w.inspect.countApplications(w.globex)).toBe(0);
      expect(await w.inspect.countApplications(w.acme)).toBe(0);
      expect(await w.inspect.jobApplicationsCount(w.globex, foreign.id)).toBe(0);
    });

    it.each([
      ["missing candidate.email", { candidate: { name: "A" } }, ["candidate.email"]],
      ["bad candidate.email", { candidate: { name: "A", email: "not-an-email" } }, ["candidate.email"]],
      ["missing candidate.name", { candidate: { email: "a@example.com" } }, ["candidate.name"]],
      ["missing candidate", { candidate: undefined }, ["candidate"]],
      ["missing job_id", { job_id: undefined }, ["job_id"]],
      ["http resume_url", { resume_url: "http://files.example.com/cv.pdf" }, ["resume_url"]],
      ["ftp resume_url", { resume_url: "ftp://files.example.com/cv.pdf" }, ["resume_url"]],
      ["relative resume_url", { resume_url: "/cv.pdf" }, ["resume_url"]],
      ["cover_letter of 20,001", { cover_letter: "x".repeat(20_001) }, ["cover_letter"]],
      ["source of 101", { source: "x".repeat(101) }, ["source"]],
      ["consent not boolean", { consent: "yes" }, ["consent"]],
      ["unknown field", { stage: "hired" }, ["stage"]],
      ["unknown candidate field", { candidate: { name: "A", email: "a@example.com", age: 30 } }, ["candidate.age"]],
      ["skills not strings", { candidate: { name: "A", email: "a@example.com", skills: [1] } }, ["candidate.skills.0"]],
      // Text Postgres cannot store as sent: refused on every storage alike, never a 500.
      [
        "a NUL character in candidate.name",
        { candidate: { name: "A\u0000da", email: "a@example.com" } },
        ["candidate.name"],
      ],
      ["an unpaired surrogate in cover_letter", { cover_letter: "half \ud83d pair" }, ["cover_letter"]],
      [
        "a NUL character in a skill",
        { candidate: { name: "A", email: "a@example.com", skills: ["ok", "b\u0000"] } },
        ["candidate.skills.1"],
      ],
      ["a NUL character in job_id", { job_id: "job_\u0000" }, ["job_id"]],
    ])("answers 422 for %s, and stores nothing", async (_name, change, fields) => {
      const body: Record<string, unknown> = {
        job_id: job.id,
        candidate: { name: "Ada", email: "ada@example.com" },
        ...change,
      };
      for (const [name, value] of Object.entries(body)) if (value === undefined) delete body[name];
      const answer = await post(body);
      expect(answer.status, answer.text).toBe(422);
      expect(errorOf(answer).code).toBe("invalid");
      expect(errorOf(answer).fields?.map((entry) => entry.field)).toEqual(fields);
      expect(await w.inspect.countApplications(w.acme)).toBe(0);
      expect(await w.inspect.countEvents(w.acme)).toBe(1);
      expect(await jobCount()).toBe(0);
    });

    it("names candidate.email with a message when it is missing", async () => {
      const answer = await post({ job_id: job.id, candidate: { name: "Ada" } });
      expect(errorOf(answer).fields).toEqual([{ field: "candidate.email", message: "This field is required." }]);
    });

    it("races: two identical requests at once give exactly one 201 and one 409", async () => {
      const body = applicationBody(job.id, "race@example.com");
      const answers = await Promise.all([post(body), post(body)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      const conflict = answers.find((answer) => answer.status === 409) as Answer;
      const created = answers.find((answer) => answer.status === 201) as Answer;
      expect(errorOf(conflict).existing_id).toBe(applicationOf(created).id);
      expect(await w.inspect.countApplications(w.acme)).toBe(1);
      expect(await jobCount()).toBe(1);
      expect((await eventsOf(w.storage, w.acme)).filter((e) => e.envelope.type === "application.created")).toHaveLength(
        1,
      );
    });

    it("races: 20 different applications at once leave applications_count at exactly 20", async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => post(applicationBody(job.id, `person${i}@example.com`))),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 201));
      expect(await jobCount()).toBe(20);
      expect(await w.inspect.jobApplicationsCount(w.acme, job.id)).toBe(20);
      const references = answers.map((answer) => applicationOf(answer).reference).sort();
      expect(new Set(references).size).toBe(20);
    });

    it("emits application.created from host code with the host actor", async () => {
      const created = await w.api.applications.create(w.acme, applicationBody(job.id, "host@example.com"), {
        actor: "Careers page",
      });
      expect(created.source).toBe("host");
      const events = await eventsOf(w.storage, w.acme);
      expect(events[0]?.envelope).toMatchObject({
        type: "application.created",
        company_id: "acme",
        api_version: "1.0",
        data: { id: created.id, stage: "new", job_id: job.id },
      });
      const history = await w.api.applications.history(w.acme, created.id);
      expect(history.map((entry) => [entry.toStage, entry.actor.name, entry.actor.type])).toEqual([
        ["new", "Careers page", "host"],
      ]);
      // A host-created application counts for duplicates over HTTP too.
      expect((await post(applicationBody(job.id, "HOST@example.com"))).status).toBe(409);
    });
  });

  describe("GET /applications", () => {
    it("lists newest first with the exact fields of the Application in docs/api-reference.md, and filters by job_id, stage and updated_since", async () => {
      const other = await w.api.jobs.create(w.acme, { title: "Other", status: "active" });
      const a = await apply("a@example.com");
      w.clock.advance(DAY_MS);
      const b = await apply("b@example.com", other.id);
      w.clock.advance(DAY_MS);
      const c = await apply("c@example.com");
      w.clock.advance(1000);
      await patch(a.id, { stage: "interview" });
      const all = await get("/applications");
      expect(all.status).toBe(200);
      expect(keysOf(all.json)).toEqual(["data", "has_more", "next_cursor"]);
      expect(applicationsOf(all).map((item) => item.id)).toEqual([c.id, b.id, a.id]);
      for (const item of applicationsOf(all)) {
        expect(keysOf(item)).toEqual(sorted(APPLICATION_FIELDS));
        expect(keysOf(item.candidate)).toEqual(sorted(CANDIDATE_FIELDS));
      }
      const ids = async (query: Record<string, string | number>) => {
        const answer = await get("/applications", query);
        expect(answer.status, answer.text).toBe(200);
        return applicationsOf(answer).map((item) => item.id);
      };
      expect(await ids({ job_id: job.id })).toEqual([c.id, a.id]);
      expect(await ids({ job_id: other.id })).toEqual([b.id]);
      expect(await ids({ stage: "interview" })).toEqual([a.id]);
      expect(await ids({ stage: "new" })).toEqual([c.id, b.id]);
      expect(await ids({ stage: "new", job_id: job.id })).toEqual([c.id]);
      expect(await ids({ stage: "hired" })).toEqual([]);
      // a was updated last (the stage move): updated_since by date-time, inclusive.
      const since = new Date(START.getTime() + 2 * DAY_MS).toISOString();
      expect(await ids({ updated_since: since })).toEqual([c.id, a.id]);
      expect(await ids({ updated_since: "2026-03-03" })).toEqual([c.id, b.id, a.id]);
      expect(await ids({ updated_since: "2026-03-05" })).toEqual([]);
    });

    it("pages with cursors and refuses a cursor of another filter", async () => {
      for (let i = 0; i < 7; i++) {
        if (i % 2 === 0) w.clock.advance(1000);
        await apply(`p${i}@example.com`);
      }
      const expected = applicationsOf(await get("/applications", { limit: 100 })).map((item) => item.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const answer: Answer = await get("/applications", { limit: 3, ...(cursor ? { cursor } : {}) });
        expect(answer.status).toBe(200);
        seen.push(...applicationsOf(answer).map((item) => item.id));
        cursor = answer.json.next_cursor ?? null;
      } while (cursor !== null);
      expect(seen).toEqual(expected);
      expect(seen).toHaveLength(7);
      const next = (await get("/applications", { limit: 3 })).json.next_cursor as string;
      const filtered = await get("/applications", { limit: 3, cursor: next, stage: "new" });
      expect(filtered.status).toBe(400);
      expect(errorOf(filtered).code).toBe("bad_request");
      const fromJobs = await get("/jobs", { cursor: next });
      expect(fromJobs.status).toBe(400);
    });

    it("answers 404 for a job_id of another company and 400 for bad parameters", async () => {
      const foreign = await w.api.jobs.create(w.globex, { title: "Globex job" });
      const answer = await get("/applications", { job_id: foreign.id });
      expect(answer.status).toBe(404);
      expect(errorOf(answer).code).toBe("not_found");
      for (const [query, name] of [
        [{ stage: "archived" }, "stage"],
        [{ limit: 0 }, "limit"],
        [{ limit: 101 }, "limit"],
        [{ updated_since: "soon" }, "updated_since"],
        [{ job: job.id }, "job"],
        [{ cursor: "nope" }, "cursor"],
        [{ job_id: "job_\u0000" }, "job_id"],
      ] as const) {
        const bad = await get("/applications", query);
        expect(bad.status, JSON.stringify(query)).toBe(400);
        expect(errorOf(bad).code).toBe("bad_request");
        if (name !== "cursor") expect(errorOf(bad).message).toContain(`'${name}'`);
      }
    });

    it("accepts every application stage (docs/api-reference.md, Application stages) as a filter", async () => {
      for (const stage of APPLICATION_STAGES) {
        const answer = await get("/applications", { stage });
        expect(answer.status, stage).toBe(200);
      }
    });
  });

  describe("GET /applications/{id} and the CV link", () => {
    it("returns the application with a signed resume_url that redirects to the stored address", async () => {
      const created = await apply("cv@example.com", job.id, { resume_url: "https://files.example.com/cv/ada.pdf" });
      const answer = await get(`/applications/${created.id}`);
      expect(answer.status).toBe(200);
      const application = applicationOf(answer);
      expect({ ...application, resume_url: null }).toEqual({ ...created, resume_url: null });
      const link = application.resume_url as string;
      expect(link.startsWith(`${BASE_URL}/files/cv/`)).toBe(true);
      expect(link).not.toContain("ada.pdf");
      const path = new URL(link).pathname;
      const viaHandle = await w.api.handleFile({ method: "GET", path, headers: {} });
      expect(viaHandle.status).toBe(302);
      expect(viaHandle.headers.location).toBe("https://files.example.com/cv/ada.pdf");
      expect(viaHandle.headers["cache-control"]).toBe("private, no-store");
      expect(viaHandle.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
      expect(viaHandle.headers["x-content-type-options"]).toBe("nosniff");
      const viaFetch = await w.api.fetch(new Request(link, { redirect: "manual" }));
      expect(viaFetch.status).toBe(302);
      expect(viaFetch.headers.get("location")).toBe("https://files.example.com/cv/ada.pdf");
    });

    it("refuses an expired, tampered or foreign CV link with 404", async () => {
      const created = await apply("cv2@example.com", job.id, { resume_url: "https://files.example.com/cv/b.pdf" });
      const link = created.resume_url as string;
      const fetchFile = async (url: string) => {
        if (transport === "fetch") {
          const response = await w.api.fetch(new Request(url, { redirect: "manual" }));
          return { status: response.status, json: (await response.json()) as { error: { code: string } } };
        }
        const response = await w.api.handleFile({ method: "GET", path: new URL(url).pathname, headers: {} });
        return { status: response.status, json: JSON.parse(response.body as string) as { error: { code: string } } };
      };
      const token = link.split("/").pop() as string;
      const [header, payload, signature] = token.split(".") as [string, string, string];
      const tampered = `${BASE_URL}/files/cv/${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`;
      const bad = await fetchFile(tampered);
      expect(bad.status).toBe(404);
      expect(bad.json.error.code).toBe("not_found");
      const garbage = await fetchFile(`${BASE_URL}/files/cv/not-a-token`);
      expect(garbage.status).toBe(404);
      // Another application's id in the payload, signature unchanged.
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
      const swapped = Buffer.from(JSON.stringify({ ...claims, sub: "app_other" })).toString("base64url");
      expect((await fetchFile(`${BASE_URL}/files/cv/${header}.${swapped}.${signature}`)).status).toBe(404);
      // 15 minutes later the link has expired; a fresh read gives a working one.
      w.clock.advance(15 * 60_000 + 1000);
      const expired = await fetchFile(link);
      expect(expired.status).toBe(404);
      expect(expired.json.error.code).toBe("not_found");
      const fresh = applicationOf(await get(`/applications/${created.id}`)).resume_url as string;
      expect(fresh).not.toBe(link);
      const response = await w.api.handleFile({ method: "GET", path: new URL(fresh).pathname, headers: {} });
      expect(response.status).toBe(302);
      // A link keeps working for its company only: a link of acme cannot be turned into globex's.
      const wrongMethod = await w.api.handleFile({ method: "POST", path: new URL(fresh).pathname, headers: {} });
      expect(wrongMethod.status).toBe(405);
      // Its refusals carry the route's safety headers too (a JSON 404 is never sniffed into a page).
      const refused = await w.api.handleFile({ method: "GET", path: "/files/cv/not-a-token", headers: {} });
      for (const answer of [refused, wrongMethod]) {
        expect(answer.headers["x-content-type-options"]).toBe("nosniff");
        expect(answer.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
      }
    });

    it("answers 404 for an unknown id", async () => {
      const answer = await get("/applications/app_nope");
      expect(answer.status).toBe(404);
      expect(errorOf(answer)).toEqual({ code: "not_found", message: "No application with this id in your company." });
      // An id with a NUL character names nothing on any storage (Postgres cannot even compare it).
      const nul = await get("/applications/app%00nope");
      expect(nul.status).toBe(404);
      expect(errorOf(nul).code).toBe("not_found");
    });
  });

  describe("PATCH /applications/{id}", () => {
    it("moves the stage, records it with the key's name, and writes application.updated", async () => {
      const created = await apply("m@example.com");
      w.clock.advance(60_000);
      const answer = await patch(created.id, { stage: "shortlisted" });
      expect(answer.status, answer.text).toBe(200);
      const moved = applicationOf(answer);
      expect(moved).toEqual({
        ...created,
        stage: "shortlisted",
        updated_at: new Date(START.getTime() + 60_000).toISOString(),
      });
      const history = await w.api.applications.history(w.acme, created.id);
      expect(history.map((entry) => [entry.fromStage, entry.toStage, entry.actor])).toEqual([
        [null, "new", { type: "api_key", id: w.acmeKey.id, name: "ATS sync" }],
        ["new", "shortlisted", { type: "api_key", id: w.acmeKey.id, name: "ATS sync" }],
      ]);
      const [latest] = await eventsOf(w.storage, w.acme);
      expect(latest?.envelope).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: "application.updated",
        created_at: moved.updated_at,
        company_id: "acme",
        api_version: "1.0",
        data: moved,
      });
    });

    it("allows every one of the 14 stages", async () => {
      const created = await apply("all@example.com");
      for (const stage of [...APPLICATION_STAGES].reverse()) {
        const answer = await patch(created.id, { stage });
        expect(answer.status, stage).toBe(200);
        expect(applicationOf(answer).stage).toBe(stage);
      }
      const history = await w.api.applications.history(w.acme, created.id);
      expect(history.map((entry) => entry.toStage)).toEqual(["new", ...[...APPLICATION_STAGES].reverse()]);
    });

    it("stores a note, sets tags and starred", async () => {
      const created = await apply("n@example.com");
      w.clock.advance(1000);
      const answer = await patch(created.id, {
        note: "Strong SQL.",
        tags: ["senior", " remote ", "senior"],
        starred: true,
      });
      expect(answer.status, answer.text).toBe(200);
      expect(applicationOf(answer)).toMatchObject({ tags: ["senior", "remote"], starred: true, stage: "new" });
      const notes = await w.api.applications.notes(w.acme, created.id);
      expect(notes.map((note) => [note.body, note.actor.name])).toEqual([["Strong SQL.", "ATS sync"]]);
      expect(applicationOf(await get(`/applications/${created.id}`))).toMatchObject({
        tags: ["senior", "remote"],
        starred: true,
      });
      w.clock.advance(1000);
      const cleared = await patch(created.id, { tags: [], starred: false });
      expect(applicationOf(cleared)).toMatchObject({ tags: [], starred: false });
      expect((await eventsOf(w.storage, w.acme)).map((event) => event.envelope.type)).toEqual([
        "application.updated",
        "application.updated",
        "application.created",
        "job.created",
      ]);
    });

    it("changes nothing and emits nothing for the current stage", async () => {
      const created = await apply("same@example.com");
      w.clock.advance(1000);
      const answer = await patch(created.id, { stage: "new" });
      expect(answer.status).toBe(200);
      expect(applicationOf(answer)).toEqual(created);
      const empty = await patch(created.id, {});
      expect(applicationOf(empty)).toEqual(created);
      expect(await w.inspect.countEvents(w.acme)).toBe(2);
      expect(await w.api.applications.history(w.acme, created.id)).toHaveLength(1);
    });

    it("answers 422 for an invalid stage or field and changes nothing", async () => {
      const created = await apply("inv@example.com");
      for (const [body, field] of [
        [{ stage: "archived" }, "stage"],
        [{ stage: "New" }, "stage"],
        [{ starred: "yes" }, "starred"],
        [{ tags: "a" }, "tags"],
        [{ note: "x".repeat(10_001) }, "note"],
        [{ candidate: { name: "X" } }, "candidate"],
      ] as const) {
        const answer = await patch(created.id, body);
        expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(422);
        expect(errorOf(answer).code).toBe("invalid");
        expect(errorOf(answer).fields?.map((entry) => entry.field)).toEqual([field]);
      }
      expect(applicationOf(await get(`/applications/${created.id}`))).toEqual(created);
      expect(await w.api.applications.notes(w.acme, created.id)).toEqual([]);
      expect(await w.inspect.countEvents(w.acme)).toBe(2);
    });

    it("adds a note alone without changing the application or emitting an event", async () => {
      const created = await apply("note@example.com");
      w.clock.advance(1000);
      const answer = await patch(created.id, { note: "Called, no answer." });
      expect(answer.status).toBe(200);
      expect(applicationOf(answer)).toEqual(created);
      w.clock.advance(1000);
      await patch(created.id, { note: "Called again." });
      const notes = await w.api.applications.notes(w.acme, created.id);
      expect(notes.map((note) => [note.body, note.actor.name, note.createdAt.toISOString()])).toEqual([
        ["Called, no answer.", "ATS sync", new Date(START.getTime() + 1000).toISOString()],
        ["Called again.", "ATS sync", new Date(START.getTime() + 2000).toISOString()],
      ]);
      expect(await w.inspect.countEvents(w.acme)).toBe(2);
    });

    it("answers 404 for an unknown id", async () => {
      const answer = await patch("app_nope", { stage: "hired" });
      expect(answer.status).toBe(404);
      expect(errorOf(answer).code).toBe("not_found");
    });
  });

  it("shows the job's current title and a score the host sets", async () => {
    const created = await apply("title@example.com");
    w.clock.advance(1000);
    await w.client.call("PATCH", `/jobs/${job.id}`, { key: w.acmeKey.key, body: { title: "Staff Engineer" } });
    expect(applicationOf(await get(`/applications/${created.id}`)).job_title).toBe("Staff Engineer");
    w.clock.advance(1000);
    await w.api.applications.setOverallScore(w.acme, created.id, 80);
    const scored = applicationOf(await get(`/applications/${created.id}`));
    expect(scored.scores).toEqual({ ai_match: 0, overall: 80 });
    const [latest] = await eventsOf(w.storage, w.acme);
    expect(latest?.envelope.type).toBe("application.updated");
    expect(latest?.envelope.data.scores).toEqual({ ai_match: 0, overall: 80 });
  });

  it("takes raw JSON bodies through handle as well", async () => {
    const raw = createClient(w.api, transport, { rawBodies: true });
    const answer = await raw.call("POST", "/applications", {
      key: w.acmeKey.key,
      body: applicationBody(job.id, "raw@example.com"),
    });
    expect(answer.status, answer.text).toBe(201);
    const moved = await raw.call("PATCH", `/applications/${applicationOf(answer).id}`, {
      key: w.acmeKey.key,
      body: { stage: "reviewed" },
    });
    expect(applicationOf(moved).stage).toBe("reviewed");
  });
});
