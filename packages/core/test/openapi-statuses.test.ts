/**
 * The error statuses the OpenAPI document publishes per operation (`RouteSpec.errorStatuses`) are
 * the statuses the API really answers there. Every route is sent every way we know to provoke an
 * error (an unknown query parameter, no key, a key without the permission, an unknown id, another
 * method, an Idempotency-Key still running or reused, a body too large or invalid, the rate limit,
 * a storage fault, a closing API), and the error statuses that come back must be exactly the
 * documented ones: nothing answered is undocumented, nothing documented is unreachable (except
 * the documented statuses hireport cannot answer, named below).
 */
import { type ApiRequest, createPublicApi, type PublicApi, type Storage } from "@hireport/core";
import { ROUTES, type RouteSpec } from "@hireport/core/http";
import { memoryStorage } from "@hireport/core/memory";
import { beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../src/docs/openapi";
import { OPENAPI_PATH, REFERENCE_PATH } from "../src/http/routes";
import { CursorCodec, cursorScope } from "../src/model/cursor";

const SECRET = "statuses-secret-0123456789-abcdefghijk";
const quiet = { warn: () => undefined, error: () => undefined };

/** Statuses docs/api-reference.md lists for a route that hireport never answers there (the key's company always exists). */
const SPEC_ONLY: Record<string, number[]> = { listJobs: [404], createJob: [404] };

/**
 * A storage whose `idempotency.complete` waits while held (a request stays "running" for as long as
 * the test wants) and whose `keys.admit` fails once `failing` is set (a storage fault).
 */
function holdableStorage(inner: Storage) {
  const state = { failing: false };
  let gate: Promise<void> | null = null;
  let open: () => void = () => {};
  const bind = <T extends object>(target: T, override: Record<string, unknown> = {}): T =>
    new Proxy(target, {
      get(object, name) {
        if (typeof name === "string" && name in override) return override[name];
        const value = Reflect.get(object, name, object);
        return typeof value === "function" ? value.bind(object) : value;
      },
    });
  const idempotency = bind(inner.idempotency, {
    complete: async (...args: Parameters<Storage["idempotency"]["complete"]>) => {
      if (gate) await gate;
      return inner.idempotency.complete(...args);
    },
  });
  const keys = bind(inner.keys, {
    admit: async (...args: Parameters<Storage["keys"]["admit"]>) => {
      if (state.failing) throw new Error("storage is down");
      return inner.keys.admit(...args);
    },
  });
  const storage = bind(inner, { idempotency, keys });
  return {
    storage,
    state,
    hold() {
      gate = new Promise<void>((resolve) => {
        open = resolve;
      });
    },
    release() {
      open();
      gate = null;
    },
  };
}

interface World {
  api: PublicApi;
  held: ReturnType<typeof holdableStorage>;
  full: string;
  jobsOnly: string;
  applicationsOnly: string;
  jobIds: string[];
  applicationId: string;
}

async function world(options: { perMinute?: number; failAdmit?: boolean } = {}): Promise<World> {
  const inner = memoryStorage();
  const held = holdableStorage(inner);
  const api = createPublicApi({
    storage: held.storage,
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: SECRET,
    limits: { perMinute: options.perMinute ?? 100_000 },
    logger: quiet,
  });
  const company = await api.companies.upsert({ id: "co_statuses", name: "Acme" });
  const key = async (scopes: ("jobs:write" | "applications:write" | "jobs:read" | "applications:read")[]) =>
    (await api.keys.create({ companyId: company.id, name: scopes.join(" "), scopes })).key;
  const full = await key(["jobs:write", "applications:write"]);
  const jobsOnly = await key(["jobs:write"]);
  const applicationsOnly = await key(["applications:write"]);
  const jobIds: string[] = [];
  for (const title of ["One", "Two", "Three"]) {
    jobIds.push((await api.jobs.create(company.id, { title, status: "active" })).id);
  }
  const application = await api.applications.create(company.id, {
    job_id: jobIds[0] as string,
    candidate: { name: "Ada", email: "ada@example.com" },
  });
  // The data is in place; from now on every request's admission fails.
  held.state.failing = options.failAdmit ?? false;
  return { api, held, full, jobsOnly, applicationsOnly, jobIds, applicationId: application.id };
}

let counter = 0;
const unique = () => `${Date.now()}-${++counter}`;

/** A body the route accepts (a new e-mail each time, so POST /applications is never a duplicate). */
function validBody(route: RouteSpec, w: World): unknown {
  switch (route.operationId) {
    case "createJob":
      return { title: "Engineer" };
    case "updateJob":
      return { title: "Senior Engineer" };
    case "createApplication":
      return { job_id: w.jobIds[1], candidate: { name: "Grace", email: `grace-${unique()}@example.com` } };
    case "updateApplication":
      return { stage: "reviewed" };
    default:
      return undefined;
  }
}

function pathOf(route: RouteSpec, w: World, id?: string): string {
  const fallback = route.path.startsWith("/jobs") ? w.jobIds[2] : w.applicationId;
  return route.path.replace("{id}", id ?? (fallback as string));
}

interface Send {
  method?: string;
  path?: string;
  key?: string | null;
  query?: Record<string, string>;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

async function send(route: RouteSpec, w: World, options: Send = {}) {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? w.full : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const request: ApiRequest = {
    method: options.method ?? route.method,
    path: options.path ?? pathOf(route, w),
    query: options.query ?? {},
    headers,
  };
  const body = "body" in options ? options.body : validBody(route, w);
  if (options.raw !== undefined) {
    request.rawBody = options.raw;
    headers["content-type"] = "application/json";
  } else if (body !== undefined) {
    request.body = body;
    headers["content-type"] = "application/json";
  }
  return w.api.handle(request);
}

type Technique = (route: RouteSpec) => Promise<{ status: number; headers: Record<string, string> }[]>;

describe("documented error statuses are the statuses the API answers", () => {
  const observed = new Map<string, Map<number, string[]>>();
  let w: World;
  let limited: World;
  let broken: World;
  let closed: World;

  const techniques: Record<string, Technique> = {
    "an unknown query parameter": async (route) => [await send(route, w, { query: { surprise: "1" } })],
    "no key": async (route) => [await send(route, w, { key: null })],
    "a key without the permission": async (route) =>
      route.operationId === "listEvents"
        ? // Every key reads one kind of event or the other: a type it cannot read.
          [await send(route, w, { key: w.jobsOnly, query: { type: "application.created" } })]
        : [await send(route, w, { key: route.path.startsWith("/jobs") ? w.applicationsOnly : w.jobsOnly })],
    "a cursor older than the events feed's window": async (route) => {
      if (route.operationId !== "listEvents") return [];
      const scope = cursorScope("events", "co_statuses", { type: undefined, created_since: undefined });
      const cursor = await new CursorCodec(SECRET).encode(scope, { at: new Date("2020-01-01T00:00:00Z"), id: "1" });
      return [await send(route, w, { query: { cursor } })];
    },
    "an unknown id": async (route) =>
      route.path.includes("{id}")
        ? [await send(route, w, { path: pathOf(route, w, `${route.path.split("/")[1]}_nope`) })]
        : [],
    "an unknown job_id": async (route) => [
      await send(route, w, { query: route.method === "GET" ? { job_id: "job_nope" } : {} }),
      ...(route.operationId === "createApplication"
        ? [await send(route, w, { body: { job_id: "job_nope", candidate: { name: "A", email: "a@example.com" } } })]
        : []),
    ],
    "another method on the path": async (route) => [await send(route, w, { method: "PUT" })],
    "the same candidate twice": async (route) => {
      const body = validBody(route, w);
      return [await send(route, w, { body }), await send(route, w, { body })];
    },
    "an Idempotency-Key still running": async (route) => {
      const headers = { "idempotency-key": `running-${unique()}` };
      w.held.hold();
      const first = send(route, w, { headers });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const second = await send(route, w, { headers });
      w.held.release();
      return [await first, second];
    },
    "an Idempotency-Key reused for another request": async (route) => {
      const headers = { "idempotency-key": `reused-${unique()}` };
      const first = await send(route, w, { headers });
      const other = route.path.includes("{id}")
        ? await send(route, w, { headers, path: pathOf(route, w, w.jobIds[1]) })
        : await send(route, w, { headers, body: validBody(route, w) ?? { other: true } });
      return [first, other];
    },
    "a malformed Idempotency-Key": async (route) => [await send(route, w, { headers: { "idempotency-key": "" } })],
    "a body over 1 MiB": async (route) => [await send(route, w, { raw: `{"title":"${"x".repeat(1_100_000)}"}` })],
    "a body that is not JSON": async (route) => [await send(route, w, { raw: "{nope" })],
    "a body that breaks the schema": async (route) => [await send(route, w, { body: { surprise: 1 } })],
    "too many requests": async (route) => [await send(route, limited), await send(route, limited)],
    "a storage fault": async (route) => [await send(route, broken)],
    "a closing API": async (route) => [await send(route, closed)],
  };

  beforeAll(async () => {
    w = await world();
    limited = await world({ perMinute: 1 });
    broken = await world({ failAdmit: true });
    closed = await world();
    await closed.api.close();
    for (const route of ROUTES) {
      const statuses = new Map<number, string[]>();
      for (const [name, technique] of Object.entries(techniques)) {
        for (const answer of await technique(route)) {
          if (answer.status < 400) continue;
          statuses.set(answer.status, [...(statuses.get(answer.status) ?? []), name]);
          if (answer.status === 405) expect(answer.headers.allow, route.operationId).toMatch(/GET|POST|PATCH/);
        }
      }
      observed.set(route.operationId, statuses);
    }
  }, 60_000);

  it.each(ROUTES.map((route) => [route.operationId, route] as const))("%s", (operationId, route) => {
    const statuses = observed.get(operationId) ?? new Map();
    const reached = [...statuses.keys()].sort((a, b) => a - b);
    const specOnly = SPEC_ONLY[operationId] ?? [];
    // Every answered status is documented, and every documented one was answered (or is only documented).
    expect(reached, JSON.stringify(Object.fromEntries(statuses))).toEqual(
      route.errorStatuses.filter((status) => !specOnly.includes(status)),
    );
    for (const status of specOnly) {
      expect(route.errorStatuses).toContain(status);
      expect(reached).not.toContain(status);
    }
    // The document publishes exactly these statuses for the operation.
    const operation = (buildOpenApiDocument().paths as Record<string, Record<string, { responses: object }>>)[
      route.path
    ]?.[route.method.toLowerCase()];
    expect(
      Object.keys(operation?.responses ?? {})
        .map(Number)
        .filter((status) => status >= 400),
    ).toEqual(route.errorStatuses);
  });

  it("the statuses every route shares are reached on each: 400, 401, 405, 429, 500, 503", () => {
    for (const route of ROUTES) {
      const statuses = observed.get(route.operationId) ?? new Map();
      for (const status of [400, 401, 405, 429, 500, 503])
        expect(statuses.has(status), `${route.operationId} ${status}`).toBe(true);
    }
  });

  it("the pages served without a key answer 405 with Allow: GET for another method, and 503 while closing", async () => {
    for (const path of [OPENAPI_PATH, REFERENCE_PATH]) {
      const post = await w.api.handle({ method: "POST", path, headers: {} });
      expect(post.status, path).toBe(405);
      expect(post.headers.allow).toBe("GET");
      expect((await closed.api.handle({ method: "GET", path, headers: {} })).status).toBe(503);
      const documented = (buildOpenApiDocument().paths as Record<string, Record<string, { responses: object }>>)[path]
        ?.get?.responses;
      expect(Object.keys(documented ?? {})).toEqual(["200", "405", "503"]);
    }
  });
});
