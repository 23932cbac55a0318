import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import type * as z from "zod";
import { buildOpenApiDocument } from "../src/docs/openapi";
import { OPENAPI_PATH, ROUTES } from "../src/http/routes";
import { APPLICATION_STAGES, JOB_INPUT_STATUSES, JOB_LIST_FILTERS, JOB_STATUSES } from "../src/model/domain";
import {
  applicationCreateBodySchema,
  applicationPatchBodySchema,
  candidateInputSchema,
} from "../src/schemas/application";
import { jobCreateBodySchema, jobPatchBodySchema } from "../src/schemas/job";
import { parseApplicationListQuery, parseJobListQuery } from "../src/schemas/query";

type Json = Record<string, unknown>;

const doc = buildOpenApiDocument();
const components = doc.components as Json;
const schemas = components.schemas as Record<string, Json>;
const paths = doc.paths as Record<string, Record<string, Json>>;

const requestBodies = components.requestBodies as Record<string, Json>;

/** The schema of a request body component (`JobInput`) or the nested candidate (`CandidateInput`). */
function inputSchema(name: string): Json | undefined {
  if (name === "CandidateInput")
    return (inputSchema("ApplicationInput")?.properties as Json | undefined)?.candidate as Json;
  const content = requestBodies[name]?.content as Record<string, Json> | undefined;
  return content?.["application/json"]?.schema as Json | undefined;
}

/** A returned schema under components.schemas, or a request body schema under components.requestBodies. */
function schemaNamed(name: string): Json | undefined {
  return schemas[name] ?? inputSchema(name);
}

/** The properties of a component schema (fails the test when it has none). */
function props(name: string): Record<string, Json> {
  const properties = schemaNamed(name)?.properties;
  expect(properties, name).toBeDefined();
  return (properties ?? {}) as Record<string, Json>;
}

/** Follows a local `$ref` ("#/components/…") to its target. */
function resolve(node: unknown): Json {
  let current = node as Json;
  for (let i = 0; i < 10 && typeof current?.$ref === "string"; i++) {
    const pointer = (current.$ref as string).replace(/^#\//, "").split("/");
    let target: unknown = doc;
    for (const part of pointer) target = (target as Json)[part];
    current = target as Json;
  }
  return current;
}

function walk(node: unknown, visit: (value: Json, path: string) => void, path = "#"): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => {
      walk(item, visit, `${path}/${i}`);
    });
  } else if (node && typeof node === "object") {
    visit(node as Json, path);
    for (const [key, value] of Object.entries(node)) walk(value, visit, `${path}/${key}`);
  }
}

describe("OpenAPI document: structure", () => {
  it("is a valid OpenAPI 3.1 document (checked by @readme/openapi-parser)", async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? [] : compileErrors(result)).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it("the validator does catch a broken document", async () => {
    const broken = structuredClone(doc) as Json;
    (broken.paths as Json)["/jobs"] = { get: { responses: "nope" } };
    const result = await validate(broken as never);
    expect(result.valid).toBe(false);
  });

  it("has the header fields of the brief", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: "hireport public API", version: "1.0" });
    expect(doc.servers).toEqual([{ url: "/api/public/v1" }]);
    expect(buildOpenApiDocument({ serverUrl: "https://hr.example.com/api/public/v1" }).servers).toEqual([
      { url: "https://hr.example.com/api/public/v1" },
    ]);
  });

  it("is plain JSON, the same on every call, and a new object each time", () => {
    const again = buildOpenApiDocument();
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
    expect(again).toEqual(doc);
    (again.info as Json).title = "changed";
    expect((buildOpenApiDocument().info as Json).title).toBe("hireport public API");
  });

  it("every $ref resolves and no JSON Schema dialect leftovers remain", () => {
    const refs: string[] = [];
    walk(doc, (node, path) => {
      if (typeof node.$ref === "string") refs.push(node.$ref);
      expect(node.$schema, path).toBeUndefined();
      if (path.startsWith("#/components/schemas")) expect(node.$id, path).toBeUndefined();
    });
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/(schemas|responses|parameters|headers|requestBodies)\/[\w-]+$/);
      expect(resolve({ $ref: ref }), ref).toBeTruthy();
    }
    expect(schemas.__shared).toBeUndefined();
  });

  it("offers a bearer key and the X-Service-Key header, either accepted", () => {
    expect(components.securitySchemes).toMatchObject({
      bearerAuth: { type: "http", scheme: "bearer" },
      serviceKey: { type: "apiKey", in: "header", name: "X-Service-Key" },
    });
    expect(doc.security).toEqual([{ bearerAuth: [] }, { serviceKey: [] }]);
  });

  it("documents /openapi.json itself, with no security", () => {
    const get = paths[OPENAPI_PATH]?.get;
    expect(get?.security).toEqual([]);
    expect(get?.responses).toHaveProperty("200");
  });

  it("puts the returned schemas under components.schemas and the request bodies under components.requestBodies", () => {
    for (const name of ["JobInput", "JobPatchInput", "ApplicationInput", "ApplicationPatchInput"]) {
      expect(requestBodies[name]?.required, name).toBe(true);
      expect(inputSchema(name)?.type, name).toBe("object");
      expect(schemas[name], `${name} is not a components.schemas entry`).toBeUndefined();
    }
    expect(inputSchema("CandidateInput")?.type).toBe("object");
    for (const name of [
      "Job",
      "Application",
      "Error",
      "ValidationError",
      "MissingScopeError",
      "JobPage",
      "ApplicationPage",
      "Me",
      "EventEnvelope",
    ]) {
      expect(schemas[name], name).toBeDefined();
    }
  });

  it("documents the webhook events", () => {
    const webhooks = doc.webhooks as Record<string, Json>;
    expect(Object.keys(webhooks)).toEqual([
      "application.created",
      "application.updated",
      "job.created",
      "job.updated",
      "job.closed",
    ]);
  });
});

describe("OpenAPI document: routes", () => {
  it("ROUTES are the eleven documented endpoints, in order, with their documented permissions", () => {
    expect(ROUTES.map((r) => [r.method, r.path, r.scope, r.successStatus])).toEqual([
      ["GET", "/me", null, 200],
      ["GET", "/jobs", "jobs:read", 200],
      ["POST", "/jobs", "jobs:write", 201],
      ["GET", "/jobs/{id}", "jobs:read", 200],
      ["PATCH", "/jobs/{id}", "jobs:write", 200],
      ["POST", "/jobs/{id}/close", "jobs:write", 200],
      ["GET", "/applications", "applications:read", 200],
      ["POST", "/applications", "applications:write", 201],
      ["GET", "/applications/{id}", "applications:read", 200],
      ["PATCH", "/applications/{id}", "applications:write", 200],
      ["GET", "/events", null, 200],
    ]);
    expect(ROUTES.map((r) => r.anyOfScopes ?? null)).toEqual([
      ...Array.from({ length: 10 }, () => null),
      ["jobs:read", "applications:read"],
    ]);
    expect(new Set(ROUTES.map((r) => r.operationId)).size).toBe(11);
  });

  it("every route keeps at least its documented error statuses", () => {
    const spec: Record<string, number[]> = {
      getMe: [401],
      listJobs: [400, 401, 403, 404, 429],
      createJob: [401, 403, 404, 422, 429],
      getJob: [401, 403, 404, 429],
      updateJob: [401, 403, 404, 422, 429],
      closeJob: [401, 403, 404, 429],
      listApplications: [400, 401, 403, 404, 429],
      createApplication: [401, 403, 404, 409, 422, 429],
      getApplication: [401, 403, 404, 429],
      updateApplication: [401, 403, 404, 422, 429],
      listEvents: [400, 401, 403, 410, 429],
    };
    for (const route of ROUTES) {
      for (const status of spec[route.operationId] ?? [])
        expect(route.errorStatuses, route.operationId).toContain(status);
      expect([...route.errorStatuses].sort((a, b) => a - b)).toEqual(route.errorStatuses);
      // Every route: 400 (an unknown query parameter), 401, 405 (another method), 429, 500 and 503 (closing).
      for (const status of [400, 401, 405, 429, 500, 503]) expect(route.errorStatuses).toContain(status);
      // 403 only where a permission is needed; 413 exactly where there is a body; 409 and 422 where
      // there is a body or an Idempotency-Key (POST). test/openapi-statuses.test.ts provokes each one.
      expect(route.errorStatuses.includes(403)).toBe(route.scope !== null || route.anyOfScopes !== undefined);
      expect(route.errorStatuses.includes(413)).toBe(route.body !== null);
      expect(route.errorStatuses.includes(422)).toBe(route.body !== null || route.method === "POST");
      expect(route.errorStatuses.includes(409)).toBe(route.method === "POST");
    }
  });

  it.each(ROUTES.map((r) => [r.operationId, r] as const))("%s is documented from its RouteSpec", (_, route) => {
    const operation = paths[route.path]?.[route.method.toLowerCase()];
    expect(operation).toBeDefined();
    if (!operation) return;
    expect(operation.operationId).toBe(route.operationId);
    expect(operation.summary).toBe(route.summary);
    expect(operation["x-required-scope"]).toBe(route.scope);
    expect(operation.description).toContain(
      route.scope ?? (route.anyOfScopes ? `at least one of ${route.anyOfScopes.join(", ")}` : "any valid key"),
    );
    expect(operation.security).toBeUndefined(); // the document's security applies

    const parameters = ((operation.parameters as Json[] | undefined) ?? []).map(resolve);
    const pathParameter = parameters.find((p) => p.in === "path");
    if (route.path.includes("{id}")) expect(pathParameter).toMatchObject({ name: "id", required: true });
    else expect(pathParameter).toBeUndefined();
    const idempotency = parameters.find((p) => p.name === "Idempotency-Key");
    if (route.method === "POST") expect(idempotency).toMatchObject({ in: "header", required: false });
    else expect(idempotency).toBeUndefined();
    const queryNames = parameters.filter((p) => p.in === "query").map((p) => p.name);
    const shape = (route.query.schema as unknown as { shape?: Json }).shape;
    expect(queryNames).toEqual(shape ? Object.keys(shape) : []);

    if (route.body) {
      const body = resolve(operation.requestBody);
      expect(body.required).toBe(true);
      const schema = resolve(
        (body.content as Json)["application/json"] && ((body.content as Json)["application/json"] as Json).schema,
      );
      expect(schema.type).toBe("object");
    } else {
      expect(operation.requestBody).toBeUndefined();
    }

    const responses = operation.responses as Record<string, Json>;
    expect(Object.keys(responses).map(Number).sort()).toEqual([route.successStatus, ...route.errorStatuses].sort());
    const success = responses[String(route.successStatus)] as Json;
    const successSchema = ((success.content as Json)["application/json"] as Json).schema as Json;
    expect(successSchema.$ref).toMatch(/^#\/components\/schemas\//);
    expect(Object.keys(success.headers as Json)).toEqual(
      expect.arrayContaining(["X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]),
    );
    for (const status of route.errorStatuses) {
      const response = resolve(responses[String(status)]);
      const schema = resolve(((response.content as Json)["application/json"] as Json).schema);
      expect((schema.properties as Json).error, `${route.operationId} ${status}`).toBeDefined();
      expect(Object.keys(response.headers as Json)).toContain("X-Request-Id");
    }
  });

  it("error bodies: 422 has fields of {field, message}, 403 has required_scope, 429 has Retry-After", () => {
    const errorOf = (name: string) => resolve(props(name).error);
    const validation = errorOf("ValidationError");
    expect(validation.required).toEqual(expect.arrayContaining(["code", "message", "fields"]));
    const fields = (validation.properties as Json).fields as Json;
    expect(fields.type).toBe("array");
    const item = resolve(fields.items);
    expect(item.required).toEqual(["field", "message"]);
    expect(Object.keys(item.properties as Json)).toEqual(["field", "message"]);

    const scope = errorOf("MissingScopeError");
    expect(scope.required).toEqual(expect.arrayContaining(["code", "message", "required_scope"]));

    const responses = components.responses as Record<string, Json>;
    const rateLimited = responses.RateLimited as Json;
    expect(rateLimited.headers).toHaveProperty("Retry-After");
    expect(rateLimited.description).toContain("rate_limited");
    expect(rateLimited.description).toContain("daily_limit");
    expect(
      resolve(
        (rateLimited.content as Json)["application/json"] &&
          ((rateLimited.content as Json)["application/json"] as Json).schema,
      ),
    ).toBe(schemas.Error);
    expect((responses.PayloadTooLarge as Json).description).toContain("payload_too_large");
    expect((responses.Forbidden as Json).description).toContain("missing_scope");
    const headers = components.headers as Record<string, Json>;
    for (const name of [
      "X-RateLimit-Limit",
      "X-RateLimit-Remaining",
      "X-RateLimit-Reset",
      "X-Request-Id",
      "Retry-After",
    ]) {
      expect(headers[name]?.schema, name).toBeDefined();
    }
  });

  it("says what a developer must know: ai_match advice, the 30-day rule, newest-first paging with opaque cursors", () => {
    const text = JSON.stringify(doc);
    expect(text).toMatch(/ai_match[^"]*advice for a person[^"]*never a decision/);
    expect(text).toContain("once every 30 days");
    expect(JSON.stringify(paths["/applications"]?.post)).toContain("30 days");
    expect(String(paths["/jobs"]?.get?.description)).toMatch(/Newest first.*opaque/s);
    expect(String(paths["/applications"]?.get?.description)).toMatch(/Newest first.*opaque/s);
    expect(JSON.stringify(props("Scores").ai_match)).toContain("never a decision");
  });

  it("states the API's decisions on a closed job, the fields read back, the daily 429", () => {
    // POST /applications to a closed job: 422 naming job_id.
    const create = paths["/applications"]?.post as Json;
    expect(String(create.description)).toMatch(
      /closed job takes no candidates: 422 invalid, with error\.fields naming job_id/,
    );
    expect(Object.keys(create.responses as Json)).toContain("422");
    // Every JobInput field a caller writes is returned.
    const job = props("Job");
    for (const field of Object.keys(props("JobInput"))) {
      const returned = field.startsWith("salary_") ? "salary" : field;
      expect(job, `Job returns ${field}`).toHaveProperty(returned);
    }
    expect(String(schemas.Job?.description)).toMatch(/what a caller writes it can read back/);
    // On a daily 429, Retry-After and X-RateLimit-Reset describe the day.
    const headers = components.headers as Record<string, Json>;
    expect(String(headers["X-RateLimit-Reset"]?.description)).toMatch(/daily_limit.*end of the UTC day/);
    expect(String(headers["Retry-After"]?.description)).toMatch(/UTC day ends \(daily_limit\)/);
    const rateLimited = (components.responses as Record<string, Json>).RateLimited as Json;
    expect(String(rateLimited.description)).toMatch(
      /describe the window that refused \(for daily_limit, the UTC day\)/,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The limits the document publishes are the limits the schemas enforce.

/** The non-null branch of a nullable property, or the property itself. */
function mainBranch(property: Json): Json {
  const options = property.anyOf as Json[] | undefined;
  if (!options) return property;
  const branches = options.filter((o) => o.type !== "null" && o.const !== "");
  expect(branches).toHaveLength(1);
  return branches[0] as Json;
}

/** A string of exactly `n` characters that satisfies the property's format. */
function stringOfLength(property: Json, n: number): string {
  if (property.format === "email") return `${"a".repeat(n - "@example.com".length)}@example.com`;
  if (property.format === "uri") return `https://example.com/${"a".repeat(n - "https://example.com/".length)}`;
  return "x".repeat(n);
}

interface LimitCase {
  component: string;
  schema: z.ZodType;
  base: Json;
  /** Where the property sits in the body. */
  wrap?: (value: Json) => Json;
}

const limitCases: LimitCase[] = [
  { component: "JobInput", schema: jobCreateBodySchema, base: { title: "T" } },
  { component: "JobPatchInput", schema: jobPatchBodySchema, base: {} },
  {
    component: "ApplicationInput",
    schema: applicationCreateBodySchema,
    base: { job_id: "job_1", candidate: { name: "Ada", email: "ada@example.com" } },
  },
  { component: "CandidateInput", schema: candidateInputSchema, base: { name: "Ada", email: "ada@example.com" } },
  { component: "ApplicationPatchInput", schema: applicationPatchBodySchema, base: {} },
];

/** A valid item of each list of objects (the others are lists of strings), the `i`-th of a list. */
const OBJECT_ITEMS: Record<string, (i: number) => Json> = {
  questions: (i) => ({ id: `q${i}`, label: `Question ${i}`, type: "short_text" }),
  answers: (i) => ({ question_id: `q${i}`, value: "yes" }),
};

describe("OpenAPI document: published limits equal enforced limits", () => {
  it.each(limitCases)("$component", ({ component, schema, base }) => {
    const properties = props(component);
    expect(properties).toBeDefined();
    const accepts = (name: string, value: unknown) => schema.safeParse({ ...base, [name]: value }).success;
    let checked = 0;
    for (const [name, raw] of Object.entries(properties)) {
      const property = mainBranch(resolve(raw));
      if (property.type === "string" && typeof property.maxLength === "number") {
        const max = property.maxLength;
        expect(accepts(name, stringOfLength(property, max)), `${component}.${name} at ${max}`).toBe(true);
        expect(accepts(name, stringOfLength(property, max + 1)), `${component}.${name} at ${max + 1}`).toBe(false);
        if (property.minLength === 1) expect(accepts(name, ""), `${component}.${name} empty`).toBe(false);
        checked++;
      }
      if (property.type === "array") {
        const items = resolve(property.items);
        const max = property.maxItems as number;
        const item = OBJECT_ITEMS[name] ?? (() => "s");
        expect(typeof max).toBe("number");
        expect(
          accepts(
            name,
            Array.from({ length: max }, (_, i) => item(i)),
          ),
          `${component}.${name} ${max} items`,
        ).toBe(true);
        expect(
          accepts(
            name,
            Array.from({ length: max + 1 }, (_, i) => item(i)),
          ),
        ).toBe(false);
        if (items.type === "string") {
          const itemMax = items.maxLength as number;
          expect(accepts(name, ["x".repeat(itemMax)])).toBe(true);
          expect(accepts(name, ["x".repeat(itemMax + 1)])).toBe(false);
        }
        checked++;
      }
      if (property.type === "number" || property.type === "integer") {
        const min = property.minimum as number;
        const max = property.maximum as number;
        expect(accepts(name, min)).toBe(true);
        expect(accepts(name, min - 1)).toBe(false);
        expect(accepts(name, max)).toBe(true);
        expect(accepts(name, max + 1)).toBe(false);
        if (property.type === "integer") expect(accepts(name, min + 0.5)).toBe(false);
        checked++;
      }
      if (Array.isArray(property.enum)) {
        for (const value of property.enum) expect(accepts(name, value), `${component}.${name}=${value}`).toBe(true);
        expect(accepts(name, "not-a-value")).toBe(false);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
    // Unknown fields are refused, as the document says.
    expect(schemaNamed(component)?.additionalProperties).toBe(false);
    expect(schema.safeParse({ ...base, surprise: 1 }).success).toBe(false);
  });

  it("documents required fields as the schemas require them", () => {
    expect(schemaNamed("JobInput")?.required).toEqual(["title"]);
    expect(schemaNamed("JobPatchInput")?.required).toBeUndefined();
    expect(schemaNamed("ApplicationInput")?.required).toEqual(["job_id", "candidate"]);
    expect(schemaNamed("CandidateInput")?.required).toEqual(["name", "email"]);
    expect(schemaNamed("ApplicationPatchInput")?.required).toBeUndefined();
  });

  it("documents salary_currency as a three-letter code and salary_period as a closed list", () => {
    for (const name of ["JobInput", "JobPatchInput"]) {
      const job = props(name);
      expect(job.salary_currency?.pattern).toBe("^[A-Z]{3}$");
      expect(job.salary_period?.enum).toEqual(["hour", "day", "week", "month", "year"]);
    }
  });

  it("documents country as a two-letter code and workplace_type as a closed list, both nullable", () => {
    for (const name of ["JobInput", "JobPatchInput"]) {
      const job = props(name);
      expect(mainBranch(job.country as Json).pattern).toBe("^[A-Z]{2}$");
      expect(mainBranch(job.workplace_type as Json).enum).toEqual(["on_site", "hybrid", "remote"]);
      expect(mainBranch(job.postal_code as Json).maxLength).toBe(20);
      for (const field of ["country", "region", "locality", "postal_code", "workplace_type"]) {
        expect(JSON.stringify(job[field]), `${name}.${field}`).toContain('"type":"null"');
      }
    }
    expect(mainBranch(props("Job").workplace_type as Json).enum).toEqual(["on_site", "hybrid", "remote"]);
  });

  it("documents the defaults that create applies", () => {
    const job = props("JobInput");
    expect(job.status?.default).toBe("draft");
    expect(job.salary_currency?.default).toBe("GBP");
    expect(job.salary_period?.default).toBe("year");
    expect((props("ApplicationInput").source as Json).default).toBeUndefined();
  });

  it("documents enums and formats", () => {
    const job = props("JobInput");
    expect(job.status?.enum).toEqual([...JOB_INPUT_STATUSES]);
    expect(mainBranch(job.closing_date as Json).format).toBe("date");
    expect((props("Job").status as Json).enum).toEqual([...JOB_STATUSES]);
    const patch = props("ApplicationPatchInput");
    expect(patch.stage?.enum).toEqual([...APPLICATION_STAGES]);
    const candidate = props("CandidateInput");
    expect(candidate.email?.format).toBe("email");
    expect(candidate.email?.maxLength).toBe(254);
    const resume = mainBranch(props("ApplicationInput").resume_url as Json);
    expect(resume).toMatchObject({ format: "uri", maxLength: 2048, pattern: "^https:\\/\\/" });
    const jobOut = props("Job");
    expect(mainBranch(jobOut.created_at as Json).format).toBe("date-time");
    expect(jobOut.public_url?.anyOf).toBeDefined();
  });

  it("query parameters publish the limits parseJobListQuery and parseApplicationListQuery enforce", () => {
    const jobParams = Object.fromEntries(
      ((paths["/jobs"]?.get?.parameters as Json[]) ?? []).map(resolve).map((p) => [p.name, p]),
    ) as Record<string, Json>;
    const limit = jobParams.limit?.schema as Json;
    expect(limit).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 25 });
    expect(parseJobListQuery({}).limit).toBe(limit.default);
    expect(parseJobListQuery({ limit: String(limit.maximum) }).limit).toBe(100);
    expect(() => parseJobListQuery({ limit: String((limit.maximum as number) + 1) })).toThrow();
    expect(() => parseJobListQuery({ limit: String((limit.minimum as number) - 1) })).toThrow();
    const status = jobParams.status?.schema as Json;
    expect(status.enum).toEqual([...JOB_LIST_FILTERS]);
    expect(status.default).toBe("all");
    const cursor = jobParams.cursor?.schema as Json;
    expect(cursor.maxLength).toBe(512);
    expect(() => parseJobListQuery({ cursor: "c".repeat(cursor.maxLength as number) })).not.toThrow();
    expect(() => parseJobListQuery({ cursor: "c".repeat((cursor.maxLength as number) + 1) })).toThrow();
    const since = jobParams.updated_since?.schema as Json;
    expect((since.anyOf as Json[]).map((o) => o.format)).toEqual(["date", "date-time"]);
    for (const param of Object.values(jobParams)) expect(param.required).toBe(false);

    const appParams = Object.fromEntries(
      ((paths["/applications"]?.get?.parameters as Json[]) ?? []).map(resolve).map((p) => [p.name, p]),
    ) as Record<string, Json>;
    expect(Object.keys(appParams)).toEqual(["job_id", "stage", "limit", "cursor", "updated_since"]);
    expect((appParams.stage?.schema as Json | undefined)?.enum).toEqual([...APPLICATION_STAGES]);
    const jobId = appParams.job_id?.schema as Json;
    expect(() => parseApplicationListQuery({ job_id: "j".repeat(jobId.maxLength as number) })).not.toThrow();
    expect(() => parseApplicationListQuery({ job_id: "j".repeat((jobId.maxLength as number) + 1) })).toThrow();
  });
});
