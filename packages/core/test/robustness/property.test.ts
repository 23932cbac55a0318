/**
 * Property-based robustness of every endpoint of the route table (docs/api-reference.md, Endpoints) through
 * `api.handle()` on the memory storage:
 *
 * - hostile input (random query parameters and values, arbitrary JSON bodies, valid bodies with one
 *   field broken, unknown and prototype-polluting keys, deep nesting, raw text and bytes under any
 *   content type, odd paths, methods and keys) always gets a 4xx with the error body of docs/api-reference.md whose code
 *   goes with its status (the table of its Errors section), `fields` on 422, never a 5xx;
 * - a 4xx writes nothing: jobs, applications, notes, stage history and outbox, read through the
 *   storage before and after, are the same;
 * - a success matches the route's response schema;
 * - any valid JobInput creates a job that returns and stores what was sent, any valid candidate an
 *   application that does.
 *
 * Each property is bounded (numRuns) so the file runs in seconds; on failure fast-check prints the
 * seed and the shrunk counterexample (rerun with `{ seed, path }` in the property's parameters).
 */
import type { ApiRequest, ApplicationWire, JobWire } from "@hireport/core";
import { ROUTES, type RouteSpec } from "@hireport/core/http";
import {
  applicationCreateBodySchema,
  applicationPatchBodySchema,
  candidateInputSchema,
  isStorableText,
  jobPatchBodySchema,
} from "@hireport/core/schemas";
import * as fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  contentType,
  dateLike,
  idempotencyKey,
  nested,
  nestedText,
  PROTO_KEYS,
  queryArb,
  rawBytes,
  rawText,
  validCandidate,
  validJobInput,
  weirdString,
  weirdValue,
} from "./arbitraries";
import { type Answer, answerProblems, BASE_URL, createSetup, type Setup, send, snapshot, type Tenant } from "./support";

const RUNS = 50;

function shapeKeys(schema: unknown): string[] {
  return Object.keys((schema as { shape: Record<string, unknown> }).shape);
}

/** Whether a route takes no query parameters at all (any one it is sent is refused by name). */
function takesNoQuery(route: RouteSpec): boolean {
  return shapeKeys(route.query.schema).length === 0;
}

/** Field names each body endpoint knows, read from its schema (so a new field is fuzzed too). */
const BODY_FIELDS: Partial<Record<RouteSpec["operationId"], string[]>> = {
  createJob: shapeKeys(jobPatchBodySchema),
  updateJob: shapeKeys(jobPatchBodySchema),
  createApplication: [
    ...shapeKeys(applicationCreateBodySchema),
    ...shapeKeys(candidateInputSchema).map((name) => `candidate.${name}`),
  ],
  updateApplication: shapeKeys(applicationPatchBodySchema),
};

/** The route's path with the id in it, percent-encoded (a lone surrogate, which has no UTF-8 form, is sent raw). */
function pathOf(route: RouteSpec, id: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(id);
  } catch {
    encoded = id.replaceAll("%", "%25").replaceAll("/", "%2F");
  }
  return route.path.replace("{id}", () => encoded);
}

/** Whether the router takes the id as the path parameter (1 to 200 characters). */
/** Whether the router matches an id: 1 to 200 characters a storage can hold (no NUL, no unpaired surrogate). */
function routable(id: string): boolean {
  return id.length >= 1 && id.length <= 200 && isStorableText(id);
}

function describeRequest(request: ApiRequest): string {
  const replacer = (_key: string, value: unknown) => {
    if (typeof value === "string" && value.length > 300) return `${value.slice(0, 300)}…(${value.length})`;
    if (value instanceof Uint8Array) return `bytes[${[...value].join(",")}]`;
    if (typeof value === "bigint") return `${value}n`;
    return value;
  };
  try {
    const text = JSON.stringify(request, replacer);
    return text.length > 1_500 ? `${text.slice(0, 1_500)}…(${text.length} characters)` : text;
  } catch {
    return `${request.method} ${request.path} (body too deep to print)`;
  }
}

/** Sets a dotted field of a body (a copy), creating the `candidate` object when needed. */
function withField(body: Record<string, unknown>, field: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...body };
  const [head, tail] = field.split(".") as [string, string | undefined];
  if (tail === undefined) {
    Object.defineProperty(copy, head, { value, enumerable: true, writable: true, configurable: true });
    return copy;
  }
  const inner = { ...((copy[head] as Record<string, unknown> | undefined) ?? {}) };
  Object.defineProperty(inner, tail, { value, enumerable: true, writable: true, configurable: true });
  copy[head] = inner;
  return copy;
}

function withoutField(body: Record<string, unknown>, field: string): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...body };
  const [head, tail] = field.split(".") as [string, string | undefined];
  if (tail === undefined) delete copy[head];
  else if (typeof copy[head] === "object" && copy[head] !== null) {
    const inner = { ...(copy[head] as Record<string, unknown>) };
    delete inner[tail];
    copy[head] = inner;
  }
  return copy;
}

describe("hostile input through api.handle()", () => {
  let s: Setup;
  let acme: Tenant;
  let other: Tenant;
  const ids = { jobs: [] as string[], applications: [] as string[], foreign: [] as string[] };
  let emails = 0;
  /** The snapshots of both companies as the last check left them. */
  let known: { own: string; foreign: string } | null = null;

  beforeAll(async () => {
    s = createSetup();
    acme = await s.tenant("acme");
    other = await s.tenant("other");
    for (const status of ["active", "draft", "paused"] as const) {
      const job = await s.api.jobs.create(acme.companyId, { title: `Seed ${status}`, status, required_skills: ["ts"] });
      ids.jobs.push(job.id);
    }
    const closed = await s.api.jobs.create(acme.companyId, { title: "Seed closed" });
    ids.jobs.push(closed.id);
    for (const [index, jobId] of ids.jobs.entries()) {
      const application = await s.api.applications.create(acme.companyId, {
        job_id: jobId,
        candidate: { name: `Seed ${index}`, email: `seed${index}@example.com`, skills: ["ts"] },
        resume_url: "https://files.example.com/cv.pdf",
      });
      await s.api.applications.update(acme.companyId, application.id, { stage: "reviewed", note: "seed note" });
      ids.applications.push(application.id);
    }
    // Closed once its application is in: a closed job takes no new candidates.
    await s.api.jobs.close(acme.companyId, closed.id);
    const foreignJob = await s.api.jobs.create(other.companyId, { title: "Other's job", status: "active" });
    const foreignApplication = await s.api.applications.create(other.companyId, {
      job_id: foreignJob.id,
      candidate: { name: "Other", email: "other@example.com" },
    });
    ids.foreign.push(foreignJob.id, foreignApplication.id);
  });

  afterAll(async () => {
    expect(({} as Record<string, unknown>).polluted, "Object.prototype was polluted").toBeUndefined();
    expect(s.logger.entries, "nothing was logged: no 500, no failure").toEqual([]);
    await s.api.close();
  });

  /** Any id: one of acme's, another company's, a missing one, or a random string. */
  const anyId = () =>
    fc.oneof(
      fc.constantFrom(...ids.jobs, ...ids.applications),
      fc.constantFrom(...ids.foreign),
      fc.constantFrom("job_missing", "app_missing", ".", "..", "%", "a/b", "%2F", "a".repeat(200), "a".repeat(201)),
      // An empty id makes another path (/jobs/ is /jobs): that is the random-path property's business.
      weirdString.filter((id) => id.length > 0),
    );

  /** A valid body of the route: hostile changes start from it, so they reach the deeper checks. */
  function validBody(route: RouteSpec): Record<string, unknown> {
    switch (route.operationId) {
      case "createJob":
        return { title: "Fuzzed job", status: "active", salary_min: 10, salary_max: 20 };
      case "updateJob":
        return { title: "Renamed", salary_max: 50 };
      case "createApplication":
        emails += 1;
        return {
          job_id: ids.jobs[emails % ids.jobs.length],
          candidate: { name: "Fuzz", email: `fuzz${emails}@example.com` },
        };
      case "updateApplication":
        return { stage: "interview", note: "fuzz", tags: ["a"], starred: true };
      default:
        return {};
    }
  }

  /**
   * Sends the request and checks the invariants: no 5xx, the documented error body with a code of its
   * status, `fields` on 422, a success of the route's response schema, and nothing written on 4xx.
   */
  async function check(request: ApiRequest, route?: RouteSpec): Promise<Answer> {
    // Requests run one at a time, so the state after one check is the state before the next.
    const before = known ?? {
      own: await snapshot(s.storage, acme.companyId),
      foreign: await snapshot(s.storage, other.companyId),
    };
    known = null;
    const answer = await send(s.api, request);
    const problems = answerProblems(answer);
    const after = {
      own: await snapshot(s.storage, acme.companyId),
      foreign: await snapshot(s.storage, other.companyId),
    };
    if (answer.status >= 400 && answer.status < 500 && after.own !== before.own) {
      problems.push(`a ${answer.status} wrote data`);
    }
    if (after.foreign !== before.foreign) problems.push("another company's data changed");
    known = after;
    if (route && answer.status < 300 && answer.status === route.successStatus) {
      const parsed = route.response.safeParse(answer.json);
      if (!parsed.success) problems.push(`success body breaks the response schema: ${parsed.error.message}`);
    } else if (route && answer.status < 300) {
      problems.push(`success status ${answer.status}, expected ${route.successStatus}`);
    }
    if (({} as Record<string, unknown>).polluted !== undefined) problems.push("Object.prototype was polluted");
    if (s.logger.entries.length > 0) problems.push(`logged: ${JSON.stringify(s.logger.entries.splice(0))}`);
    if (problems.length > 0) {
      throw new Error(
        `${problems.join("; ")}\n  request: ${describeRequest(request)}\n  answer: ${answer.status} ${answer.text.slice(0, 400)}`,
      );
    }
    return answer;
  }

  const request = (route: RouteSpec, id: string, extra: Partial<ApiRequest> = {}): ApiRequest => ({
    method: route.method,
    path: pathOf(route, id),
    headers: { authorization: `Bearer ${acme.key}`, "content-type": "application/json" },
    ...extra,
  });

  describe.each(ROUTES.map((route) => [route.operationId, route] as const))("%s", (_name, route) => {
    it("random query parameters: 400 (or the usual answer), never 5xx, nothing written", async () => {
      await fc.assert(
        fc.asyncProperty(queryArb, anyId(), fc.boolean(), async (query, id, asSearchParams) => {
          let bag: ApiRequest["query"] = query;
          if (asSearchParams) {
            const params = new URLSearchParams();
            for (const [name, value] of Object.entries(query)) {
              for (const item of Array.isArray(value) ? value : [value]) params.append(name, item);
            }
            bag = params;
          }
          const body = route.body ? validBody(route) : undefined;
          const answer = await check(request(route, id, { query: bag, ...(body ? { body } : {}) }), route);
          if (!route.path.includes("{id}") || routable(id)) {
            // A parameter sent with no value ([]) is no parameter, for every endpoint alike.
            const sent = Object.entries(query)
              .filter(([, value]) => !Array.isArray(value) || value.length > 0)
              .map(([name]) => name);
            const allowed = shapeKeys(route.query.schema);
            if (sent.some((name) => !allowed.includes(name))) expect(answer.status).toBe(400);
          }
        }),
        { numRuns: RUNS },
      );
    });

    if (!takesNoQuery(route)) {
      it("every known parameter with odd values: 200 or 400 (404 for a job filter), never 5xx", async () => {
        const names = shapeKeys(route.query.schema);
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom(...names),
            fc.oneof(weirdString, dateLike, fc.constantFrom(...ids.jobs, ...ids.foreign)),
            async (name, value) => {
              const answer = await check(request(route, "", { query: { [name]: value } }), route);
              expect([200, 400, 404]).toContain(answer.status);
              if (answer.status === 404) expect(name).toBe("job_id");
            },
          ),
          { numRuns: RUNS },
        );
      });
    }

    it("arbitrary JSON bodies, parsed or raw: 4xx or a success, never 5xx; a 4xx writes nothing", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(fc.jsonValue({ maxDepth: 4 }), weirdValue),
          anyId(),
          fc.constantFrom("body", "rawBody"),
          fc.option(idempotencyKey, { nil: undefined }),
          async (body, id, slot, key) => {
            let text: string | undefined;
            if (slot === "rawBody") {
              try {
                text = JSON.stringify(body);
              } catch {
                text = undefined; // too deep for JSON.stringify: send it parsed
              }
            }
            const headers: Record<string, string> = {
              authorization: `Bearer ${acme.key}`,
              "content-type": "application/json",
            };
            if (key !== undefined) headers["idempotency-key"] = key;
            const extra: Partial<ApiRequest> = text !== undefined ? { rawBody: text } : { body };
            await check({ ...request(route, id), headers, ...extra }, route);
          },
        ),
        { numRuns: RUNS },
      );
    });

    const fields = BODY_FIELDS[route.operationId];
    if (fields) {
      it("a valid body with fields broken, removed, unknown or prototype keys: 4xx or success, never 5xx", async () => {
        const change = fc.oneof(
          fc.tuple(fc.constant("set" as const), fc.constantFrom(...fields), weirdValue),
          fc.tuple(fc.constant("drop" as const), fc.constantFrom(...fields), fc.constant(undefined)),
          fc.tuple(
            fc.constant("set" as const),
            fc.oneof(
              fc.constantFrom(...PROTO_KEYS, ...PROTO_KEYS.map((key) => `candidate.${key}`)),
              fc.string({ minLength: 1, maxLength: 12 }).filter((name) => !name.includes(".")),
            ),
            weirdValue,
          ),
        );
        await fc.assert(
          fc.asyncProperty(
            fc.array(change, { minLength: 1, maxLength: 3 }),
            anyId(),
            fc.boolean(),
            async (changes, id, raw) => {
              let body = validBody(route);
              for (const [kind, field, value] of changes) {
                body = kind === "set" ? withField(body, field, value) : withoutField(body, field);
              }
              let extra: Partial<ApiRequest> = { body };
              if (raw) {
                try {
                  extra = { rawBody: JSON.stringify(body) };
                } catch {
                  extra = { body };
                }
              }
              const answer = await check(request(route, id, extra), route);
              const unknown = changes.some(
                ([kind, field]) => kind === "set" && !fields.includes(field) && !field.startsWith("candidate."),
              );
              // An unknown top-level key is refused whatever else the body holds (404 may come first for
              // the application's job, which is looked up after validation: never).
              if (unknown && answer.status !== 404) expect(answer.status).toBe(422);
            },
          ),
          { numRuns: RUNS },
        );
      });
    }

    it("raw bodies (text or bytes) under any content type: 4xx or success, never 5xx", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(rawText, rawBytes),
          fc.option(contentType, { nil: undefined }),
          anyId(),
          async (raw, type, id) => {
            const headers: Record<string, string> = { authorization: `Bearer ${acme.key}` };
            if (type !== undefined) headers["content-type"] = type;
            await check({ ...request(route, id), headers, rawBody: raw }, route);
          },
        ),
        { numRuns: RUNS },
      );
    });
  });

  it("deeply nested bodies, parsed or raw, with and without Idempotency-Key: 4xx, never 5xx", async () => {
    const bodyRoutes = ROUTES.filter((route) => route.body).map((route) => route.operationId);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...bodyRoutes),
        fc.oneof(fc.integer({ min: 1_000, max: 20_000 }), fc.integer({ min: 100_000, max: 150_000 })),
        fc.constantFrom("whole", "field"),
        fc.boolean(),
        fc.boolean(),
        async (operationId, depth, where, raw, withKey) => {
          const route = ROUTES.find((item) => item.operationId === operationId) as RouteSpec;
          const headers: Record<string, string> = {
            authorization: `Bearer ${acme.key}`,
            "content-type": "application/json",
          };
          if (withKey) headers["idempotency-key"] = `deep-${depth}-${where}-${raw}`;
          const id = route.path.includes("/jobs") ? (ids.jobs[0] as string) : (ids.applications[0] as string);
          const extra: Partial<ApiRequest> = raw
            ? {
                rawBody: where === "whole" ? nestedText(depth) : `{"title":"Deep","benefits":${nestedText(depth)}}`,
              }
            : { body: where === "whole" ? nested(depth) : { title: "Deep", benefits: nested(depth) } };
          const answer = await check({ ...request(route, id), headers, ...extra }, route);
          expect(answer.status).toBeGreaterThanOrEqual(400);
        },
      ),
      { numRuns: 10 },
    );
  });

  it("bodies over the size limit: 413 payload_too_large, nothing written", async () => {
    const route = ROUTES.find((item) => item.operationId === "createJob") as RouteSpec;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4096 }), fc.boolean(), async (extraBytes, bytes) => {
        const text = `{"title":"${"é".repeat(Math.ceil((1_048_576 + extraBytes) / 2))}"}`;
        const rawBody = bytes ? new TextEncoder().encode(text) : text;
        const answer = await check(request(route, "", { rawBody }), route);
        expect(answer.status).toBe(413);
      }),
      { numRuns: 8 },
    );
  });

  it("random paths, methods and base paths: 404 or 405, never 5xx", async () => {
    const segment = fc.oneof(
      fc.constantFrom("jobs", "applications", "me", "close", "openapi.json", "api", "public", "v1", "%", "%2F", ".."),
      fc.constantFrom(...ids.jobs, ...ids.applications),
      fc.string({ maxLength: 12 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom("GET", "POST", "PATCH", "PUT", "DELETE", "HEAD", "OPTIONS", "get", "TRACE"),
          fc.string({ maxLength: 8 }),
        ),
        fc.array(segment, { maxLength: 5 }),
        fc.constantFrom("", "/api/public/v1", "/api/public/v2"),
        fc.constantFrom("", "/", "?x=1", "#frag"),
        async (method, segments, prefix, suffix) => {
          const path = `${prefix}/${segments.join("/")}${suffix}`;
          const answer = await check({
            method,
            path,
            headers: { authorization: `Bearer ${acme.key}`, "content-type": "application/json" },
            body: { title: "Path fuzz" },
          });
          expect(answer.status, path).not.toBeGreaterThanOrEqual(500);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("random API keys and key headers: 401 with missing_key or invalid_key, nothing written", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES.map((route) => route.operationId)),
        fc.oneof(
          fc.string({ maxLength: 80 }),
          fc.string({ maxLength: 40 }).map((tail) => `svc_live_${tail}`),
          fc.constant(`${acme.key}x`),
          fc.constant(acme.key.slice(0, -1)),
          fc.constant(acme.key.toUpperCase()),
        ),
        fc.constantFrom("authorization-bearer", "authorization-raw", "authorization-basic", "x-service-key", "none"),
        async (operationId, key, how) => {
          const spec = ROUTES.find((item) => item.operationId === operationId) as RouteSpec;
          const headers: Record<string, string> = { "content-type": "application/json" };
          if (how === "authorization-bearer") headers.authorization = `Bearer ${key}`;
          if (how === "authorization-raw") headers.authorization = key;
          if (how === "authorization-basic") headers.authorization = `Basic ${key}`;
          if (how === "x-service-key") headers["x-service-key"] = key;
          const answer = await check({
            method: spec.method,
            path: pathOf(spec, ids.jobs[0] as string),
            headers,
            body: validBody(spec),
          });
          expect(answer.status).toBe(401);
          expect(["missing_key", "invalid_key"]).toContain((answer.json as { error: { code: string } }).error.code);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("tampered, truncated and foreign cursors: 400 bad_request, never a page", async () => {
    const first = async (path: string, query: Record<string, string>, tenant: Tenant) => {
      const answer = await send(s.api, {
        method: "GET",
        path,
        query: { ...query, limit: "1" },
        headers: { authorization: `Bearer ${tenant.key}` },
      });
      expect(answer.status).toBe(200);
      const cursor = (answer.json as { next_cursor: string | null }).next_cursor;
      expect(cursor).toBeTypeOf("string");
      return cursor as string;
    };
    const jobsCursor = await first("/jobs", {}, acme);
    const applicationsCursor = await first("/applications", {}, acme);
    const openCursor = await first("/jobs", { status: "all", updated_since: "2000-01-01" }, acme);
    const lists = [
      { path: "/jobs", cursor: jobsCursor },
      { path: "/applications", cursor: applicationsCursor },
    ];
    const mutate = fc.oneof(
      fc.tuple(fc.nat(), fc.constantFrom(..."ABCxyz019-_.=")).map(([at, char]) => (cursor: string) => {
        const index = at % cursor.length;
        return cursor[index] === char ? cursor : `${cursor.slice(0, index)}${char}${cursor.slice(index + 1)}`;
      }),
      fc.nat().map((cut) => (cursor: string) => cursor.slice(0, cut % cursor.length)),
      weirdString.map((tail) => (cursor: string) => `${cursor}${tail || "x"}`),
      fc.constant(() => openCursor),
      fc.constant((cursor: string) => (cursor === jobsCursor ? applicationsCursor : jobsCursor)),
      weirdString.map((text) => () => text),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...lists), mutate, async (list, change) => {
        const cursor = change(list.cursor);
        fc.pre(cursor !== list.cursor);
        const answer = await check({
          method: "GET",
          path: list.path,
          query: { cursor, limit: "1" },
          headers: { authorization: `Bearer ${acme.key}` },
        });
        expect(answer.status).toBe(400);
      }),
      { numRuns: 150 },
    );
    // Another company's key with a valid cursor of acme's: the cursor names acme, so it is refused.
    for (const list of lists) {
      const answer = await check({
        method: "GET",
        path: list.path,
        query: { cursor: list.cursor },
        headers: { authorization: `Bearer ${other.key}` },
      });
      expect(answer.status).toBe(400);
    }
  });
});

describe("valid input round-trips", () => {
  let s: Setup;
  let acme: Tenant;
  let jobId: string;

  beforeAll(async () => {
    s = createSetup();
    acme = await s.tenant("acme");
    jobId = (
      await s.api.jobs.create(acme.companyId, {
        title: "Engineer",
        required_skills: ["TypeScript", "SQL"],
        preferred_skills: ["Go"],
        status: "active",
      })
    ).id;
  });

  afterAll(async () => {
    expect(s.logger.entries).toEqual([]);
    await s.api.close();
  });

  const trimmed = (list: readonly string[] | undefined) => (list ?? []).map((item) => item.trim());
  /** What JSON makes of a value (as the answer is parsed from JSON text). */
  const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

  it("any valid JobInput creates a job whose answer, GET, event and stored record hold what was sent", async () => {
    await fc.assert(
      fc.asyncProperty(validJobInput, fc.boolean(), async (input, raw) => {
        const eventsBefore = await s.storage.raw.countEvents(acme.companyId);
        const answer = await send(s.api, {
          method: "POST",
          path: "/jobs",
          headers: { authorization: `Bearer ${acme.key}`, "content-type": "application/json" },
          ...(raw ? { rawBody: JSON.stringify(input) } : { body: input }),
        });
        expect(answer.status, answer.text).toBe(201);
        const job = (answer.json as { data: JobWire }).data;
        const status = input.status ?? "draft";
        const now = s.clock.now().toISOString();
        expect(job).toEqual(
          asJson({
            id: job.id,
            reference: job.reference,
            title: input.title.trim(),
            status,
            open: status === "active",
            description: input.description ?? "",
            department: (input.department ?? "").trim(),
            location: (input.location ?? "").trim(),
            employment_type: (input.employment_type ?? "").trim(),
            experience_level: (input.experience_level ?? "").trim(),
            salary: {
              min: input.salary_min ?? null,
              max: input.salary_max ?? null,
              currency: input.salary_currency ?? "GBP",
              period: input.salary_period ?? "year",
            },
            required_skills: trimmed(input.required_skills),
            closing_date: input.closing_date ?? null,
            applications_count: 0,
            // Public while active and not past its closing date (that day included, UTC by default).
            public_url:
              status === "active" && (input.closing_date ?? "9999-12-31") >= now.slice(0, 10)
                ? `${BASE_URL}/jobs/${encodeURIComponent(job.id)}`
                : null,
            created_at: now,
            updated_at: now,
            short_description: input.short_description ?? "",
            preferred_skills: trimmed(input.preferred_skills),
            qualifications: trimmed(input.qualifications),
            responsibilities: trimmed(input.responsibilities),
            benefits: trimmed(input.benefits),
            start_date: input.start_date ?? null,
            positions: input.positions ?? null,
            country: input.country ?? null,
            region: input.region?.trim() ?? null,
            locality: input.locality?.trim() ?? null,
            postal_code: input.postal_code?.trim() ?? null,
            workplace_type: input.workplace_type ?? null,
            // The arbitrary sends no questions (their own checks: test/questions.test.ts, test/http/questions.test.ts).
            questions: [],
          }),
        );
        expect(job.reference).toMatch(/^JOB-\d+$/);

        const read = await send(s.api, {
          method: "GET",
          path: `/jobs/${encodeURIComponent(job.id)}`,
          headers: { authorization: `Bearer ${acme.key}` },
        });
        expect(read.status).toBe(200);
        expect((read.json as { data: JobWire }).data).toEqual(job);

        const stored = await s.api.jobs.get(acme.companyId, job.id);
        expect(asJson(stored)).toMatchObject(
          asJson({
            shortDescription: input.short_description ?? "",
            preferredSkills: trimmed(input.preferred_skills),
            qualifications: trimmed(input.qualifications),
            responsibilities: trimmed(input.responsibilities),
            benefits: trimmed(input.benefits),
            startDate: input.start_date ?? null,
            positions: input.positions ?? null,
            hidden: false,
          }),
        );

        expect(await s.storage.raw.countEvents(acme.companyId)).toBe(eventsBefore + 1);
        const mine = (await s.storage.events.list(acme.companyId, { take: 1_000_000 }))
          .map((event) => JSON.parse(event.payload) as { type: string; data: { id: string } })
          .filter((envelope) => envelope.data.id === job.id);
        expect(mine).toEqual([{ ...mine[0], type: "job.created", data: job }]);
      }),
      { numRuns: 100 },
    );
  });

  it("any valid JobInput as a PATCH changes exactly the fields sent", async () => {
    await fc.assert(
      fc.asyncProperty(validJobInput, async (input) => {
        const created = await s.api.jobs.create(acme.companyId, {
          title: "Before",
          description: "old",
          department: "Old dept",
          required_skills: ["old"],
          salary_min: 0,
          salary_max: 1e12,
          closing_date: "2030-01-01",
        });
        const answer = await send(s.api, {
          method: "PATCH",
          path: `/jobs/${created.id}`,
          headers: { authorization: `Bearer ${acme.key}`, "content-type": "application/json" },
          body: input,
        });
        expect(answer.status, answer.text).toBe(200);
        const job = (answer.json as { data: JobWire }).data;
        const pick = <T>(sent: T | undefined, before: T): T => (sent === undefined ? before : sent);
        expect(job.title).toBe(input.title.trim());
        expect(job.description).toBe(pick(input.description, "old"));
        expect(job.department).toBe(pick(input.department?.trim(), "Old dept"));
        expect(job.required_skills).toEqual(input.required_skills ? trimmed(input.required_skills) : ["old"]);
        expect(job.salary.min).toBe(asJson(pick(input.salary_min, 0)));
        expect(job.salary.max).toBe(asJson(pick(input.salary_max, 1e12)));
        expect(job.closing_date).toBe(pick(input.closing_date, "2030-01-01"));
        expect(job.status).toBe(input.status ?? "draft");
      }),
      { numRuns: 50 },
    );
  });

  it("any valid candidate creates an application that returns what was sent; the same e-mail again is 409", async () => {
    let seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(validCandidate, fc.option(someCoverLetter(), { nil: undefined }), async (candidate, cover) => {
        const body = { job_id: jobId, candidate, ...(cover !== undefined ? { cover_letter: cover } : {}) };
        const before = await s.storage.raw.countApplications(acme.companyId);
        const answer = await send(s.api, {
          method: "POST",
          path: "/applications",
          headers: { authorization: `Bearer ${acme.key}`, "content-type": "application/json" },
          body,
        });
        const normalized = candidate.email.trim().toLowerCase();
        if (seen.has(normalized)) {
          expect(answer.status).toBe(409);
          expect(await s.storage.raw.countApplications(acme.companyId)).toBe(before);
          return;
        }
        seen.add(normalized);
        expect(answer.status, answer.text).toBe(201);
        const application = (answer.json as { data: ApplicationWire }).data;
        expect(application.candidate).toEqual({
          name: candidate.name.trim(),
          email: candidate.email.trim(),
          phone: (candidate.phone ?? "").trim(),
          location: (candidate.location ?? "").trim(),
          linkedin_url: candidate.linkedin_url ?? "",
          current_title: (candidate.current_title ?? "").trim(),
          skills: trimmed(candidate.skills),
        });
        expect(application.cover_letter).toBe(cover ?? "");
        expect(application.job_id).toBe(jobId);
        expect(application.stage).toBe("new");
        expect(application.source).toBe("api");
        expect(await s.storage.raw.countApplications(acme.companyId)).toBe(before + 1);

        const again = await send(s.api, {
          method: "POST",
          path: "/applications",
          headers: { authorization: `Bearer ${acme.key}`, "content-type": "application/json" },
          body: { ...body, candidate: { ...candidate, email: ` ${candidate.email.toUpperCase()} ` } },
        });
        expect(again.status).toBe(409);
        expect((again.json as { error: { existing_id: string } }).error.existing_id).toBe(application.id);
      }),
      { numRuns: 60 },
    );
    seen = new Set();
  });
});

function someCoverLetter() {
  return fc.string({ unit: "grapheme", maxLength: 200 });
}
