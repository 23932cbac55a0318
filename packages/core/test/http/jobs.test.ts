import { beforeEach, describe, expect, it } from "vitest";
import {
  type Answer,
  BASE_URL,
  createWorld,
  DAY_MS,
  errorOf,
  eventsOf,
  ISO_UTC,
  JOB_EXTRAS_UNSET,
  JOB_FIELDS,
  jobOf,
  jobsOf,
  keysOf,
  START,
  sorted,
  storedJobs,
  TRANSPORTS,
  type World,
} from "./harness";

describe.each(TRANSPORTS)("jobs via %s", (transport) => {
  let w: World;
  const get = (path: string, query?: Record<string, string | number | readonly string[]>) =>
    w.client.call("GET", path, { key: w.acmeKey.key, ...(query ? { query } : {}) });
  const post = (path: string, body?: unknown) =>
    w.client.call("POST", path, { key: w.acmeKey.key, ...(body !== undefined ? { body } : {}) });
  const patch = (path: string, body: unknown) => w.client.call("PATCH", path, { key: w.acmeKey.key, body });
  const createJob = async (body: Record<string, unknown>) => {
    const answer = await post("/jobs", body);
    expect(answer.status, answer.text).toBe(201);
    return jobOf(answer);
  };
  /** Jobs made through the host service (fast; no rate limit involved). */
  const hostJob = (title: string, status: "active" | "draft" | "paused" = "active") =>
    w.api.jobs.create(w.acme, { title, status });

  beforeEach(async () => {
    w = await createWorld(transport);
  });

  describe("GET /jobs", () => {
    it("returns exactly the documented Job fields with ISO UTC times", async () => {
      const created = await createJob({
        title: "Backend Engineer",
        status: "active",
        description: "Build the API.",
        department: "Engineering",
        location: "London",
        employment_type: "full_time",
        experience_level: "senior",
        salary_min: 60000,
        salary_max: 80000,
        required_skills: ["TypeScript", "SQL"],
        closing_date: "2026-04-30",
      });
      const answer = await get("/jobs");
      expect(answer.status).toBe(200);
      expect(keysOf(answer.json)).toEqual(["data", "has_more", "next_cursor"]);
      const [job] = jobsOf(answer);
      expect(keysOf(job)).toEqual(sorted(JOB_FIELDS));
      expect(keysOf(job?.salary)).toEqual(["currency", "max", "min", "period"]);
      expect(job).toEqual({
        id: created.id,
        reference: "JOB-1001",
        title: "Backend Engineer",
        status: "active",
        open: true,
        description: "Build the API.",
        department: "Engineering",
        location: "London",
        employment_type: "full_time",
        experience_level: "senior",
        salary: { min: 60000, max: 80000, currency: "GBP", period: "year" },
        required_skills: ["TypeScript", "SQL"],
        closing_date: "2026-04-30",
        applications_count: 0,
        public_url: `${BASE_URL}/jobs/${created.id}`,
        created_at: "2026-03-02T10:00:30.000Z",
        updated_at: "2026-03-02T10:00:30.000Z",
        ...JOB_EXTRAS_UNSET,
      });
      expect(job?.created_at).toMatch(ISO_UTC);
      expect(answer.json.has_more).toBe(false);
      expect(answer.json.next_cursor).toBeNull();
      expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    });

    it("lists newest first, ties broken by id descending", async () => {
      const a = await hostJob("A");
      w.clock.advance(1000);
      const tied = [await hostJob("B1"), await hostJob("B2"), await hostJob("B3"), await hostJob("B4")];
      w.clock.advance(1000);
      const c = await hostJob("C");
      const ids = jobsOf(await get("/jobs")).map((job) => job.id);
      const tiedIds = tied
        .map((job) => job.id)
        .sort()
        .reverse();
      expect(ids).toEqual([c.id, ...tiedIds, a.id]);
    });

    it("filters by status: open, closed, draft, all (paused only under all), default all", async () => {
      const active = await hostJob("Active", "active");
      w.clock.advance(1000);
      const draft = await hostJob("Draft", "draft");
      w.clock.advance(1000);
      const paused = await hostJob("Paused", "paused");
      w.clock.advance(1000);
      const closed = await hostJob("Closed", "active");
      await w.api.jobs.close(w.acme, closed.id);
      const ids = async (status?: string) => {
        const answer = await get("/jobs", status ? { status } : {});
        expect(answer.status).toBe(200);
        return jobsOf(answer).map((job) => `${job.title}:${job.status}:${job.open}`);
      };
      expect(await ids("open")).toEqual(["Active:active:true"]);
      expect(await ids("closed")).toEqual(["Closed:closed:false"]);
      expect(await ids("draft")).toEqual(["Draft:draft:false"]);
      const all = ["Closed:closed:false", "Paused:paused:false", "Draft:draft:false", "Active:active:true"];
      expect(await ids("all")).toEqual(all);
      expect(await ids()).toEqual(all);
      expect([active.id, draft.id, paused.id, closed.id]).toHaveLength(4);
    });

    it("pages 25 by default and takes limit 1 to 100", async () => {
      for (let i = 0; i < 30; i++) await hostJob(`Job ${i}`);
      const first = await get("/jobs");
      expect(jobsOf(first)).toHaveLength(25);
      expect(first.json.has_more).toBe(true);
      expect(typeof first.json.next_cursor).toBe("string");
      const one = await get("/jobs", { limit: 1 });
      expect(jobsOf(one)).toHaveLength(1);
      expect(one.json.has_more).toBe(true);
      const hundred = await get("/jobs", { limit: 100 });
      expect(jobsOf(hundred)).toHaveLength(30);
      expect(hundred.json.has_more).toBe(false);
      expect(hundred.json.next_cursor).toBeNull();
      const thirty = await get("/jobs", { limit: 30 });
      expect(jobsOf(thirty)).toHaveLength(30);
      expect(thirty.json.has_more).toBe(false);
      expect(thirty.json.next_cursor).toBeNull();
    });

    it.each(["0", "101", "-1", "abc", "1.5", "", "1e2", " 5"])("refuses limit=%j with 400 naming it", async (limit) => {
      const answer = await get("/jobs", { limit });
      expect(answer.status).toBe(400);
      expect(errorOf(answer).code).toBe("bad_request");
      expect(errorOf(answer).message).toContain("'limit'");
    });

    it("refuses a bad status value with 400 naming it", async () => {
      for (const status of ["paused", "active", "OPEN", ""]) {
        const answer = await get("/jobs", { status });
        expect(answer.status, status).toBe(400);
        expect(errorOf(answer).code).toBe("bad_request");
        expect(errorOf(answer).message).toContain("'status'");
      }
    });

    it("refuses an unknown query parameter with 400 naming it", async () => {
      const answer = await get("/jobs", { status: "open", colour: "red" });
      expect(answer.status).toBe(400);
      expect(errorOf(answer)).toEqual({ code: "bad_request", message: expect.stringContaining("'colour'") });
    });

    it("refuses a repeated parameter with 400 naming it", async () => {
      const answer = await get("/jobs", { status: ["open", "draft"] });
      expect(answer.status).toBe(400);
      expect(errorOf(answer).code).toBe("bad_request");
      expect(errorOf(answer).message).toContain("'status' was sent 2 times");
    });

    it("filters by updated_since as a date (midnight UTC) or a date-time, inclusive", async () => {
      w.clock.set("2026-03-01T23:59:59.999Z");
      const before = await hostJob("Before midnight");
      w.clock.set("2026-03-02T00:00:00.000Z");
      const atMidnight = await hostJob("At midnight");
      w.clock.set("2026-03-02T09:30:00.250Z");
      const morning = await hostJob("Morning");
      const titles = async (updatedSince: string) => {
        const answer = await get("/jobs", { updated_since: updatedSince });
        expect(answer.status, answer.text).toBe(200);
        return jobsOf(answer).map((job) => job.title);
      };
      expect(await titles("2026-03-02")).toEqual(["Morning", "At midnight"]);
      expect(await titles("2026-03-01")).toEqual(["Morning", "At midnight", "Before midnight"]);
      expect(await titles("2026-03-02T09:30:00.250Z")).toEqual(["Morning"]);
      expect(await titles("2026-03-02T09:30:00.251Z")).toEqual([]);
      expect(await titles("2026-03-02T10:30:00.250+01:00")).toEqual(["Morning"]);
      expect(await titles("2026-03-01T23:59:59.999Z")).toEqual(["Morning", "At midnight", "Before midnight"]);
      // A change moves an older job into the window.
      w.clock.set("2026-03-03T08:00:00.000Z");
      await w.api.jobs.update(w.acme, before.id, { title: "Before midnight, renamed" });
      expect(await titles("2026-03-03")).toEqual(["Before midnight, renamed"]);
      expect([atMidnight.id, morning.id]).toHaveLength(2);
    });

    it.each(["yesterday", "2026-02-30", "2026-03-02T10:00:00", "1700000000", "2026-3-2"])(
      "refuses updated_since=%j with 400 naming it",
      async (value) => {
        const answer = await get("/jobs", { updated_since: value });
        expect(answer.status).toBe(400);
        expect(errorOf(answer).code).toBe("bad_request");
        expect(errorOf(answer).message).toContain("'updated_since'");
      },
    );

    it("pages with cursors without gaps or repeats, also across ties and new jobs", async () => {
      const created: string[] = [];
      for (let i = 0; i < 23; i++) {
        if (i % 3 === 0) w.clock.advance(1000);
        created.push((await hostJob(`Job ${i}`, i % 2 === 0 ? "active" : "draft")).id);
      }
      const expected = jobsOf(await get("/jobs", { limit: 100 })).map((job) => job.id);
      expect(sorted(expected)).toEqual(sorted(created));
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const answer: Answer = await get("/jobs", { limit: 5, ...(cursor ? { cursor } : {}) });
        expect(answer.status, answer.text).toBe(200);
        seen.push(...jobsOf(answer).map((job) => job.id));
        cursor = answer.json.next_cursor ?? null;
        expect(answer.json.has_more).toBe(cursor !== null);
        pages += 1;
        // A job created while paging is newer than every cursor position: it never shows up later.
        if (pages === 1) await hostJob("Created while paging");
      } while (cursor !== null);
      expect(pages).toBe(5);
      expect(seen).toEqual(expected);
      expect(new Set(seen).size).toBe(23);
    });

    it("pages through a status filter with cursors", async () => {
      for (let i = 0; i < 7; i++) await hostJob(`Open ${i}`, "active");
      for (let i = 0; i < 4; i++) await hostJob(`Draft ${i}`, "draft");
      const first = await get("/jobs", { status: "open", limit: 4 });
      expect(jobsOf(first).every((job) => job.status === "active")).toBe(true);
      const second = await get("/jobs", { status: "open", limit: 4, cursor: first.json.next_cursor as string });
      expect(second.status).toBe(200);
      expect(jobsOf(second)).toHaveLength(3);
      expect(second.json.has_more).toBe(false);
      const ids = [...jobsOf(first), ...jobsOf(second)].map((job) => job.id);
      expect(new Set(ids).size).toBe(7);
    });

    it("refuses a tampered or made-up cursor with 400", async () => {
      for (let i = 0; i < 3; i++) await hostJob(`Job ${i}`);
      const first = await get("/jobs", { limit: 1 });
      const cursor = first.json.next_cursor as string;
      const flipped = `${cursor.slice(0, 5)}${cursor[5] === "A" ? "B" : "A"}${cursor.slice(6)}`;
      const [text] = cursor.split(".");
      const forgedBody = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(text as string, "base64url").toString()), i: "job_zzzz" }),
      ).toString("base64url");
      const forged = `${forgedBody}.${cursor.split(".")[1]}`;
      for (const bad of [flipped, forged, "garbage", `${cursor}.x`, `${cursor}x`]) {
        const answer = await get("/jobs", { limit: 1, cursor: bad });
        expect(answer.status, bad).toBe(400);
        expect(errorOf(answer).code).toBe("bad_request");
      }
    });

    it("refuses a cursor of another filter, list or company with 400", async () => {
      for (let i = 0; i < 3; i++) await hostJob(`Job ${i}`);
      await w.api.jobs.create(w.globex, { title: "Globex job", status: "active" });
      await w.api.jobs.create(w.globex, { title: "Globex job 2", status: "active" });
      const cursor = (await get("/jobs", { limit: 1 })).json.next_cursor as string;
      expect((await get("/jobs", { limit: 1, cursor })).status).toBe(200);
      const otherFilter = await get("/jobs", { limit: 1, cursor, status: "open" });
      expect(otherFilter.status).toBe(400);
      expect(errorOf(otherFilter).code).toBe("bad_request");
      const otherSince = await get("/jobs", { limit: 1, cursor, updated_since: "2026-01-01" });
      expect(otherSince.status).toBe(400);
      const otherList = await get("/applications", { cursor });
      expect(otherList.status).toBe(400);
      expect(errorOf(otherList).code).toBe("bad_request");
      const otherCompany = await w.client.call("GET", "/jobs", { key: w.globexKey.key, query: { limit: 1, cursor } });
      expect(otherCompany.status).toBe(400);
      expect(errorOf(otherCompany).code).toBe("bad_request");
    });
  });

  describe("POST /jobs", () => {
    it("creates a draft by default with the documented defaults", async () => {
      const answer = await post("/jobs", { title: "  Designer  " });
      expect(answer.status).toBe(201);
      expect(keysOf(answer.json)).toEqual(["data"]);
      const job = jobOf(answer);
      expect(job.id).toMatch(/^job_[0-9a-z]{26}$/);
      expect(job).toEqual({
        id: job.id,
        reference: "JOB-1001",
        title: "Designer",
        status: "draft",
        open: false,
        description: "",
        department: "",
        location: "",
        employment_type: "",
        experience_level: "",
        salary: { min: null, max: null, currency: "GBP", period: "year" },
        required_skills: [],
        closing_date: null,
        applications_count: 0,
        public_url: null,
        created_at: START.toISOString(),
        updated_at: START.toISOString(),
        ...JOB_EXTRAS_UNSET,
      });
      const second = jobOf(await post("/jobs", { title: "Second" }));
      expect(second.reference).toBe("JOB-1002");
      // References count per company.
      const globex = await w.client.call("POST", "/jobs", { key: w.globexKey.key, body: { title: "Globex" } });
      expect(jobOf(globex).reference).toBe("JOB-1001");
    });

    it("stores every JobInput field; salary is an object with GBP and year defaults", async () => {
      const answer = await post("/jobs", {
        title: "Data Engineer",
        description: "Pipelines.",
        short_description: "Pipelines, briefly.",
        department: "Data",
        location: "Leeds",
        employment_type: "contract",
        experience_level: "mid",
        salary_min: 400,
        salary_max: 500,
        required_skills: ["Python"],
        preferred_skills: ["Airflow"],
        qualifications: ["BSc"],
        responsibilities: ["Own the ETL"],
        benefits: ["Pension"],
        closing_date: "2026-05-01",
        start_date: "2026-06-01",
        positions: 2,
        status: "paused",
      });
      expect(answer.status, answer.text).toBe(201);
      const job = jobOf(answer);
      expect(job.salary).toEqual({ min: 400, max: 500, currency: "GBP", period: "year" });
      expect(job.status).toBe("paused");
      expect(job.open).toBe(false);
      expect(job.public_url).toBeNull();
      expect(keysOf(job)).toEqual(sorted(JOB_FIELDS));
      // What was written reads back over the API, beyond the fields of the 2.1 table.
      expect(job).toMatchObject({
        short_description: "Pipelines, briefly.",
        preferred_skills: ["Airflow"],
        qualifications: ["BSc"],
        responsibilities: ["Own the ETL"],
        benefits: ["Pension"],
        start_date: "2026-06-01",
        positions: 2,
      });
      const stored = await w.api.jobs.get(w.acme, job.id);
      expect(stored).toMatchObject({
        shortDescription: "Pipelines, briefly.",
        preferredSkills: ["Airflow"],
        qualifications: ["BSc"],
        responsibilities: ["Own the ETL"],
        benefits: ["Pension"],
        startDate: "2026-06-01",
        positions: 2,
        salaryCurrency: "GBP",
        salaryPeriod: "year",
      });
      const euro = jobOf(
        await post("/jobs", { title: "Contractor", salary_min: 300, salary_currency: "EUR", salary_period: "day" }),
      );
      expect(euro.salary).toEqual({ min: 300, max: null, currency: "EUR", period: "day" });
    });

    it("stores the place of a job in parts, returns them, and clears them with null (location stays free text)", async () => {
      const place = {
        country: "GB",
        region: "West Yorkshire",
        locality: "Leeds",
        postal_code: "LS1 4DY",
        workplace_type: "hybrid",
      };
      const created = jobOf(await post("/jobs", { title: "Analyst", location: "Leeds office", ...place }));
      expect(created).toMatchObject({ location: "Leeds office", ...place });
      expect(jobOf(await get(`/jobs/${created.id}`))).toMatchObject(place);
      expect(await w.api.jobs.get(w.acme, created.id)).toMatchObject({
        location: "Leeds office",
        country: "GB",
        region: "West Yorkshire",
        locality: "Leeds",
        postalCode: "LS1 4DY",
        workplaceType: "hybrid",
      });
      w.clock.advance(1000);
      const moved = jobOf(
        await patch(`/jobs/${created.id}`, { country: "IE", workplace_type: "remote", postal_code: null }),
      );
      expect(moved).toMatchObject({ ...place, country: "IE", workplace_type: "remote", postal_code: null });
      const cleared = jobOf(
        await patch(`/jobs/${created.id}`, {
          country: null,
          region: null,
          locality: null,
          postal_code: null,
          workplace_type: null,
        }),
      );
      expect(cleared).toMatchObject({
        location: "Leeds office",
        country: null,
        region: null,
        locality: null,
        postal_code: null,
        workplace_type: null,
      });
    });

    it("gives public_url only while the job is active", async () => {
      const job = await createJob({ title: "Nurse", status: "active" });
      expect(job.open).toBe(true);
      expect(job.public_url).toBe(`${BASE_URL}/jobs/${job.id}`);
      const paused = jobOf(await patch(`/jobs/${job.id}`, { status: "paused" }));
      expect(paused.public_url).toBeNull();
      const active = jobOf(await patch(`/jobs/${job.id}`, { status: "active" }));
      expect(active.public_url).toBe(`${BASE_URL}/jobs/${job.id}`);
      const closed = jobOf(await post(`/jobs/${job.id}/close`));
      expect(closed.public_url).toBeNull();
    });

    it("gives public_url null while the host hides an active job", async () => {
      const job = await createJob({ title: "Hidden", status: "active" });
      w.clock.advance(1000);
      await w.api.jobs.setHidden(w.acme, job.id, true);
      const hidden = jobOf(await get(`/jobs/${job.id}`));
      expect(hidden).toMatchObject({ status: "active", open: true, public_url: null });
      w.clock.advance(1000);
      await w.api.jobs.setHidden(w.acme, job.id, false);
      expect(jobOf(await get(`/jobs/${job.id}`)).public_url).toBe(`${BASE_URL}/jobs/${job.id}`);
      const types = (await eventsOf(w.storage, w.acme)).map((event) => event.envelope.type);
      expect(types).toEqual(["job.updated", "job.updated", "job.created"]);
    });

    it("writes job.created with the documented envelope", async () => {
      const job = await createJob({ title: "Chef", status: "active" });
      const events = await eventsOf(w.storage, w.acme);
      expect(events).toHaveLength(1);
      const [event] = events;
      expect(event?.record.type).toBe("job.created");
      expect(event?.record.id).toBe(event?.envelope.id);
      expect(keysOf(event?.envelope)).toEqual(["api_version", "company_id", "created_at", "data", "id", "type"]);
      expect(event?.envelope).toEqual({
        id: expect.stringMatching(/^evt_[0-9a-z]{26}$/),
        type: "job.created",
        created_at: START.toISOString(),
        company_id: "acme",
        api_version: "1.0",
        data: job,
      });
      expect(await eventsOf(w.storage, w.globex)).toEqual([]);
    });

    it("answers 422 with error.fields when title is missing, and stores nothing", async () => {
      const answer = await post("/jobs", { description: "No title" });
      expect(answer.status).toBe(422);
      expect(errorOf(answer)).toEqual({
        code: "invalid",
        message: expect.stringContaining("title"),
        fields: [{ field: "title", message: "This field is required." }],
      });
      expect(await storedJobs(w.storage, w.acme)).toEqual([]);
      expect(await eventsOf(w.storage, w.acme)).toEqual([]);
    });

    it.each([
      ["empty title", { title: "" }, "title"],
      ["blank title", { title: "   " }, "title"],
      ["title of 201 characters", { title: "x".repeat(201) }, "title"],
      ["title not a string", { title: 42 }, "title"],
      ["short_description of 501", { title: "T", short_description: "x".repeat(501) }, "short_description"],
      ["description of 50,001", { title: "T", description: "x".repeat(50_001) }, "description"],
      ["department of 201", { title: "T", department: "x".repeat(201) }, "department"],
      [
        "101 skills",
        { title: "T", required_skills: Array.from({ length: 101 }, (_, i) => `s${i}`) },
        "required_skills",
      ],
      ["skill of 201", { title: "T", required_skills: ["ok", "x".repeat(201)] }, "required_skills.1"],
      ["unknown field", { title: "T", colour: "red" }, "colour"],
      ["status closed", { title: "T", status: "closed" }, "status"],
      ["status unknown", { title: "T", status: "open" }, "status"],
      ["negative salary", { title: "T", salary_min: -1 }, "salary_min"],
      ["salary as text", { title: "T", salary_max: "100" }, "salary_max"],
      ["impossible date", { title: "T", closing_date: "2026-02-30" }, "closing_date"],
      ["date-time as date", { title: "T", start_date: "2026-03-01T00:00:00Z" }, "start_date"],
      ["fractional positions", { title: "T", positions: 1.5 }, "positions"],
      ["currency in lower case", { title: "T", salary_currency: "gbp" }, "salary_currency"],
      ["currency by name", { title: "T", salary_currency: "pounds" }, "salary_currency"],
      ["currency no Intl knows", { title: "T", salary_currency: "XYZ" }, "salary_currency"],
      ["period not in the list", { title: "T", salary_period: "annually" }, "salary_period"],
      ["country by name", { title: "T", country: "United Kingdom" }, "country"],
      ["country UK (reserved, not assigned)", { title: "T", country: "UK" }, "country"],
      ["country in lower case", { title: "T", country: "de" }, "country"],
      ["country alpha-3", { title: "T", country: "DEU" }, "country"],
      ["postal_code of 21", { title: "T", postal_code: "x".repeat(21) }, "postal_code"],
      ["blank locality", { title: "T", locality: " " }, "locality"],
      ["workplace_type unknown", { title: "T", workplace_type: "onsite" }, "workplace_type"],
    ])("answers 422 for %s, naming %s, and stores nothing", async (_name, body, field) => {
      const answer = await post("/jobs", body);
      expect(answer.status, answer.text).toBe(422);
      const error = errorOf(answer);
      expect(error.code).toBe("invalid");
      expect(error.fields?.map((entry) => entry.field)).toEqual([field]);
      expect(typeof error.fields?.[0]?.message).toBe("string");
      expect(await storedJobs(w.storage, w.acme)).toEqual([]);
      expect(await w.inspect.countEvents(w.acme)).toBe(0);
    });

    it("answers 422 when salary_min is above salary_max", async () => {
      const answer = await post("/jobs", { title: "T", salary_min: 10, salary_max: 5 });
      expect(answer.status).toBe(422);
      expect(errorOf(answer).code).toBe("invalid");
      expect(errorOf(answer).fields?.length).toBe(1);
      expect(await storedJobs(w.storage, w.acme)).toEqual([]);
    });

    it("accepts the longest allowed values", async () => {
      const answer = await post("/jobs", {
        title: "x".repeat(200),
        description: "d".repeat(50_000),
        short_description: "s".repeat(500),
        required_skills: Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(200, "k")),
      });
      expect(answer.status, answer.text.slice(0, 300)).toBe(201);
      expect(jobOf(answer).title).toHaveLength(200);
      expect(jobOf(answer).required_skills).toHaveLength(100);
    });
  });

  describe("GET /jobs/{id}", () => {
    it("returns the job as created", async () => {
      const job = await createJob({ title: "Porter", status: "active", required_skills: ["Lifting"] });
      const answer = await get(`/jobs/${job.id}`);
      expect(answer.status).toBe(200);
      expect(keysOf(answer.json)).toEqual(["data"]);
      expect(jobOf(answer)).toEqual(job);
    });

    it("answers 404 not_found for an unknown id", async () => {
      const answer = await get("/jobs/job_doesnotexist");
      expect(answer.status).toBe(404);
      expect(errorOf(answer)).toEqual({ code: "not_found", message: "No job with this id in your company." });
    });

    it("decodes an encoded path id", async () => {
      const answer = await get("/jobs/job%20x");
      expect(answer.status).toBe(404);
      expect(errorOf(answer).code).toBe("not_found");
    });
  });

  describe("PATCH /jobs/{id}", () => {
    it("changes the fields sent, keeps the others, and writes job.updated", async () => {
      const job = await createJob({ title: "Cook", location: "York", salary_min: 100 });
      w.clock.advance(60_000);
      const answer = await patch(`/jobs/${job.id}`, { title: "Head Cook", status: "active", salary_min: null });
      expect(answer.status, answer.text).toBe(200);
      const changed = jobOf(answer);
      expect(changed).toEqual({
        ...job,
        title: "Head Cook",
        status: "active",
        open: true,
        salary: { ...job.salary, min: null },
        public_url: `${BASE_URL}/jobs/${job.id}`,
        updated_at: new Date(START.getTime() + 60_000).toISOString(),
      });
      expect(jobOf(await get(`/jobs/${job.id}`))).toEqual(changed);
      const [latest, first] = await eventsOf(w.storage, w.acme);
      expect(first?.envelope.type).toBe("job.created");
      expect(latest?.envelope).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: "job.updated",
        created_at: changed.updated_at,
        company_id: "acme",
        api_version: "1.0",
        data: changed,
      });
    });

    it("changes nothing and emits nothing when nothing differs", async () => {
      const job = await createJob({ title: "Cook", required_skills: ["Knife"] });
      w.clock.advance(60_000);
      for (const body of [
        {},
        { title: "Cook" },
        { title: "  Cook " },
        { required_skills: ["Knife"] },
        { status: "draft" },
      ]) {
        const answer = await patch(`/jobs/${job.id}`, body);
        expect(answer.status).toBe(200);
        expect(jobOf(answer)).toEqual(job);
      }
      expect(await w.inspect.countEvents(w.acme)).toBe(1);
    });

    it("reopens a closed job with status active", async () => {
      const job = await createJob({ title: "Cleaner", status: "active" });
      w.clock.advance(1000);
      expect((await post(`/jobs/${job.id}/close`)).status).toBe(200);
      w.clock.advance(1000);
      const answer = await patch(`/jobs/${job.id}`, { status: "active" });
      expect(answer.status).toBe(200);
      expect(jobOf(answer)).toMatchObject({ status: "active", open: true, public_url: `${BASE_URL}/jobs/${job.id}` });
      expect((await w.api.jobs.get(w.acme, job.id)).closedAt).toBeNull();
      const types = (await eventsOf(w.storage, w.acme)).map((event) => event.envelope.type);
      expect(types).toEqual(["job.updated", "job.closed", "job.created"]);
      expect(jobsOf(await get("/jobs", { status: "open" })).map((j) => j.id)).toEqual([job.id]);
      expect(jobsOf(await get("/jobs", { status: "closed" }))).toEqual([]);
    });

    it("answers 422 for invalid changes and changes nothing", async () => {
      const job = await createJob({ title: "Cook", salary_max: 50 });
      for (const [body, field] of [
        [{ status: "closed" }, "status"],
        [{ title: "" }, "title"],
        [{ title: null }, "title"],
        [{ unknown: 1 }, "unknown"],
        [{ closing_date: "31/03/2026" }, "closing_date"],
        [{ salary_currency: "Euro" }, "salary_currency"],
        [{ salary_currency: "ZZZ" }, "salary_currency"],
        [{ salary_period: "fortnight" }, "salary_period"],
        [{ country: "gb" }, "country"],
        [{ country: "XK" }, "country"],
        [{ workplace_type: "Remote" }, "workplace_type"],
        [{ region: "r".repeat(201) }, "region"],
      ] as const) {
        const answer = await patch(`/jobs/${job.id}`, body);
        expect(answer.status, JSON.stringify(body)).toBe(422);
        expect(errorOf(answer).code).toBe("invalid");
        expect(errorOf(answer).fields?.map((entry) => entry.field)).toEqual([field]);
      }
      // Checked against the stored job: min above the stored max.
      const crossed = await patch(`/jobs/${job.id}`, { salary_min: 60 });
      expect(crossed.status).toBe(422);
      expect(errorOf(crossed).code).toBe("invalid");
      expect(jobOf(await get(`/jobs/${job.id}`))).toEqual(job);
      expect(await w.inspect.countEvents(w.acme)).toBe(1);
    });

    it("answers 404 for an unknown id", async () => {
      const answer = await patch("/jobs/job_nope", { title: "X" });
      expect(answer.status).toBe(404);
      expect(errorOf(answer).code).toBe("not_found");
    });
  });

  describe("POST /jobs/{id}/close", () => {
    it("closes once: 200 closed, public_url null, one job.closed; again 200 unchanged, no second event", async () => {
      const job = await createJob({ title: "Driver", status: "active" });
      w.clock.advance(5000);
      const answer = await post(`/jobs/${job.id}/close`);
      expect(answer.status).toBe(200);
      const closed = jobOf(answer);
      expect(closed).toEqual({
        ...job,
        status: "closed",
        open: false,
        public_url: null,
        updated_at: new Date(START.getTime() + 5000).toISOString(),
      });
      w.clock.advance(5000);
      const again = await post(`/jobs/${job.id}/close`);
      expect(again.status).toBe(200);
      expect(jobOf(again)).toEqual(closed);
      const events = await eventsOf(w.storage, w.acme);
      expect(events.map((event) => event.envelope.type)).toEqual(["job.closed", "job.created"]);
      expect(events[0]?.envelope.data).toEqual(closed);
    });

    it("closes a draft and a paused job too", async () => {
      for (const status of ["draft", "paused"] as const) {
        const job = await createJob({ title: status, status });
        const answer = await post(`/jobs/${job.id}/close`);
        expect(answer.status).toBe(200);
        expect(jobOf(answer).status).toBe("closed");
      }
    });

    it("answers 404 for an unknown id and 400 for a query parameter", async () => {
      const missing = await post("/jobs/job_nope/close");
      expect(missing.status).toBe(404);
      expect(errorOf(missing).code).toBe("not_found");
      const job = await createJob({ title: "T" });
      const withQuery = await w.client.call("POST", `/jobs/${job.id}/close`, {
        key: w.acmeKey.key,
        query: { now: "1" },
      });
      expect(withQuery.status).toBe(400);
      expect(errorOf(withQuery).code).toBe("bad_request");
      expect(errorOf(withQuery).message).toContain("'now'");
      expect(jobOf(await get(`/jobs/${job.id}`)).status).toBe("draft");
    });
  });

  it("keeps a day-old job's times in UTC", async () => {
    w.clock.set(new Date(START.getTime() + DAY_MS));
    const job = await createJob({ title: "Tomorrow" });
    expect(job.created_at).toBe("2026-03-03T10:00:30.000Z");
  });
});
