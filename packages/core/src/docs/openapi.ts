/**
 * The OpenAPI 3.1 document of the public API, generated from `ROUTES` and the zod schemas with
 * `z.toJSONSchema`: the limits a client reads in the document are the limits the API enforces.
 */
import * as z from "zod";
import { formatNumber } from "../base/format-number";
import { LIMITS } from "../fields/value-schemas";
import type { ApiExtension } from "../http/extension";
import { OPENAPI_PATH, REFERENCE_PATH, ROUTES, type RouteSpec } from "../http/routes";
import { EVENT_TYPES } from "../model/domain";
import {
  applicationCreateBodySchema,
  applicationPatchBodySchema,
  applicationSchema,
  candidateSchema,
  scoresSchema,
} from "../schemas/application";
import {
  applicationPageSchema,
  applicationResponseSchema,
  codesForStatus,
  errorBodySchema,
  eventEnvelopeSchema,
  fieldErrorSchema,
  idempotencyKeySchema,
  idParamSchema,
  jobPageSchema,
  jobResponseSchema,
  meSchema,
  missingScopeErrorBodySchema,
  testEventEnvelopeSchema,
  validationErrorBodySchema,
} from "../schemas/common";
import { jobCreateBodySchema, jobPatchBodySchema, jobSchema, salarySchema } from "../schemas/job";
import { EVENT_DESCRIPTIONS } from "./event-catalog";

/** A JSON Schema or OpenAPI object, as plain JSON. */
type Json = Record<string, unknown>;

/** Options of `buildOpenApiDocument`. */
export interface OpenApiDocumentOptions {
  /**
   * The `servers[0].url` of the document: the API root as clients reach it.
   * @default "/api/public/v1"
   */
  serverUrl?: string;
  /**
   * The extensions the API was created with (`createPublicApi({ extensions })`): their routes,
   * tags and components join the document.
   * @default none
   */
  extensions?: readonly ApiExtension[];
}

/** Largest request body in bytes (docs/api-reference.md#limits-at-a-glance); more answers 413. */
const MAX_BODY_BYTES = 1_048_576;

/** Returned schemas (converted as output) under their component names. */
const OUTPUT_COMPONENTS: readonly (readonly [string, z.ZodType])[] = [
  ["Job", jobSchema],
  ["Salary", salarySchema],
  ["Application", applicationSchema],
  ["Candidate", candidateSchema],
  ["Scores", scoresSchema],
  ["JobPage", jobPageSchema],
  ["ApplicationPage", applicationPageSchema],
  ["JobResponse", jobResponseSchema],
  ["ApplicationResponse", applicationResponseSchema],
  ["Me", meSchema],
  ["Error", errorBodySchema],
  ["ValidationError", validationErrorBodySchema],
  ["MissingScopeError", missingScopeErrorBodySchema],
  ["FieldError", fieldErrorSchema],
  ["EventEnvelope", eventEnvelopeSchema],
  ["TestEventEnvelope", testEventEnvelopeSchema],
];

/**
 * Request bodies (converted as input: defaults shown, fields with defaults not required), published
 * under `components.requestBodies` with their schemas inline. A field with a `default` is optional
 * to send; generators that read `default` as "always present" (openapi-typescript's
 * `defaultNonNullable`, on by default) make that exception for schemas inside request bodies only,
 * so a body schema under `components.schemas` would make every defaulted field required there.
 * The candidate of ApplicationInput is inlined for the same reason.
 */
const INPUT_COMPONENTS: readonly (readonly [string, z.ZodType])[] = [
  ["JobInput", jobCreateBodySchema],
  ["JobPatchInput", jobPatchBodySchema],
  ["ApplicationInput", applicationCreateBodySchema],
  ["ApplicationPatchInput", applicationPatchBodySchema],
];

const ERROR_MEANINGS: Record<number, string> = {
  400: "A query parameter is wrong or unknown (the message names it; every endpoint refuses parameters it does not take), a cursor is not valid for the list, the body is not JSON or not application/json, or the Idempotency-Key header is not 1 to 255 visible ASCII characters.",
  401: "No key was sent (missing_key), the key is unknown or revoked (invalid_key), or it is past its expiry (expired_key).",
  403: "The key lacks the permission named in error.required_scope.",
  404: "No such record in the key's company (a record of another company answers 404 too).",
  405: "The path exists, but not with this method; the Allow header lists the methods it takes.",
  410: "cursor_expired: the cursor of GET /events is from a page read longer ago than the feed's window, so events after it may be gone. The message says how to resync: read jobs and applications again with updated_since, then list events from created_since of now minus the window.",
  409: "duplicate: the candidate already applied to this job in the last 30 days (error.existing_id names the earlier application). idempotency_in_progress: a request with the same Idempotency-Key is still running; retry after the seconds in Retry-After. endpoint_limit: the company has as many webhook endpoints as it may (POST /webhook-endpoints, where mounted).",
  413: `The request body is larger than ${formatNumber(MAX_BODY_BYTES)} bytes (1 MiB).`,
  422: "The body is JSON but breaks the schema; error.fields lists each field to fix with a dotted path (candidate.email, tags.3). Also answered when an Idempotency-Key is reused with a different request (another body or another path).",
  429: "Too many requests: per-minute (rate_limited) or per-day (daily_limit) limit of the key. Wait the seconds in Retry-After; Retry-After and X-RateLimit-Reset describe the window that refused (for daily_limit, the UTC day). A refused request does not count.",
  500: "A fault of the service; retry later. Details are logged, never sent.",
  503: "The service is shutting down (a restart or a deploy); retry shortly.",
};

/** Codes of `ERROR_STATUS` that only host-facing services raise, never an HTTP answer of the API. */
const HOST_ONLY_CODES: ReadonlySet<string> = new Set(["key_limit"]);

const ERROR_RESPONSE_NAMES: Record<number, string> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  405: "MethodNotAllowed",
  410: "Gone",
  409: "Conflict",
  413: "PayloadTooLarge",
  422: "ValidationFailed",
  429: "RateLimited",
  500: "ServerError",
  503: "ServiceUnavailable",
};

function ref(kind: "schemas" | "responses" | "parameters" | "headers" | "requestBodies", name: string): Json {
  return { $ref: `#/components/${kind}/${name}` };
}

/** Converts named zod schemas into components; a schema that uses another one refers to it by `$ref`. */
function convertComponents(entries: readonly (readonly [string, z.ZodType])[], io: "input" | "output"): Json {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of entries) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: "draft-2020-12",
    unrepresentable: "throw",
    cycles: "throw",
    reused: "inline",
    uri: (id) => `#/components/schemas/${id}`,
  });
  const out: Json = {};
  for (const [id, schema] of Object.entries(schemas)) {
    if (id === "__shared") throw new Error("OpenAPI: a shared sub-schema was extracted; register it as a component.");
    const { $schema: _schema, $id: _id, ...rest } = schema as Json;
    out[id] = rest;
  }
  return out;
}

/** A zod schema of one parameter as JSON Schema, without the dialect keys. */
function parameterSchema(schema: z.ZodType, io: "input" | "output" = "output"): Json {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, { io, target: "draft-2020-12" }) as Json;
  return rest;
}

/** A parameter object: the schema's description becomes the parameter's. */
function parameter(name: string, location: "path" | "header", required: boolean, schema: z.ZodType): Json {
  const { description, ...json } = parameterSchema(schema);
  return { name, in: location, required, description, schema: json };
}

/** Query parameters of a route, from its strict query schema: typed (output) schemas, optional when the input may omit them. */
function queryParameters(query: z.ZodType): Json[] {
  const output = parameterSchema(query, "output");
  const input = parameterSchema(query, "input");
  const required = new Set((input.required as string[] | undefined) ?? []);
  const properties = (output.properties ?? {}) as Record<string, Json>;
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...schema } = property;
    const parameter: Json = { name, in: "query", required: required.has(name), schema };
    if (typeof description === "string") parameter.description = description;
    return parameter;
  });
}

function componentName(route: RouteSpec, part: "body" | "response", names: Map<z.ZodType, string>): string {
  const schema = part === "body" ? route.body : route.response;
  const known = schema ? names.get(schema) : undefined;
  if (known) return known;
  const base = route.operationId.charAt(0).toUpperCase() + route.operationId.slice(1);
  return `${base}${part === "body" ? "Body" : "Response"}`;
}

/** A path parameter other than `id` (`delivery_id`, `type`): 1 to 200 characters, as the router takes them. */
function pathParameter(name: string): Json {
  return { name, in: "path", required: true, schema: { type: "string", minLength: 1, maxLength: 200 } };
}

const COMMON_HEADERS = ["X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"] as const;

function responseHeaders(extra: readonly string[] = []): Json {
  const headers: Json = {};
  for (const name of [...COMMON_HEADERS, ...extra]) headers[name] = ref("headers", name);
  return headers;
}

function operationFor(route: RouteSpec, names: Map<z.ZodType, string>): Json {
  const parameters: Json[] = [];
  for (const [, name] of route.path.matchAll(/\{(\w+)\}/g)) {
    parameters.push(name === "id" ? ref("parameters", "Id") : pathParameter(name as string));
  }
  parameters.push(...queryParameters(route.query.schema));
  if (route.method === "POST") parameters.push(ref("parameters", "IdempotencyKey"));

  const permission =
    route.scope !== null
      ? `Permission: ${route.scope} (or the matching write scope).`
      : route.anyOfScopes
        ? `Permission: at least one of ${route.anyOfScopes.join(", ")} (or the matching write scopes).`
        : "Permission: any valid key.";
  const operation: Json = {
    operationId: route.operationId,
    summary: route.summary,
    description: [route.description, permission].filter(Boolean).join("\n\n"),
    tags: [
      route.tag ??
        (route.path === "/me"
          ? "Key"
          : route.path.startsWith("/jobs")
            ? "Jobs"
            : route.path.startsWith("/events")
              ? "Events"
              : "Applications"),
    ],
    "x-required-scope": route.scope,
  };
  if (parameters.length > 0) operation.parameters = parameters;
  if (route.body) {
    operation.requestBody = ref("requestBodies", componentName(route, "body", names));
  }
  const responses: Json = {
    [String(route.successStatus)]: {
      description: route.successStatus === 201 ? "Created." : "OK.",
      headers: responseHeaders(),
      content: { "application/json": { schema: ref("schemas", componentName(route, "response", names)) } },
    },
  };
  for (const status of route.errorStatuses) {
    const name = ERROR_RESPONSE_NAMES[status];
    if (!name) throw new Error(`OpenAPI: no error response is defined for status ${status}.`);
    responses[String(status)] = ref("responses", name);
  }
  operation.responses = responses;
  return operation;
}

/** The headers of an error answer: the common ones, Retry-After on 429 (and on 409 idempotency_in_progress), Allow on 405. */
function errorHeaders(status: number): Json {
  if (status === 429) return responseHeaders(["Retry-After"]);
  if (status === 405) return responseHeaders(["Allow"]);
  const headers = responseHeaders();
  if (status === 409) {
    headers["Retry-After"] = {
      description: "idempotency_in_progress only: seconds to wait before sending the request again.",
      required: false,
      schema: { type: "integer", minimum: 0 },
    };
  }
  return headers;
}

function errorResponses(): Json {
  const responses: Json = {};
  for (const [statusText, name] of Object.entries(ERROR_RESPONSE_NAMES)) {
    const status = Number(statusText);
    const codes = codesForStatus(status)
      .filter((code) => !HOST_ONLY_CODES.has(code))
      .join(", ");
    const schema = status === 422 ? "ValidationError" : status === 403 ? "MissingScopeError" : "Error";
    responses[name] = {
      description: `${ERROR_MEANINGS[status] ?? ""} Codes: ${codes}.`,
      headers: errorHeaders(status),
      content: { "application/json": { schema: ref("schemas", schema) } },
    };
  }
  return responses;
}

function integerHeader(description: string, required = false): Json {
  return { description, required, schema: { type: "integer", minimum: 0 } };
}

const HEADERS: Json = {
  "X-Request-Id": {
    description: "Identifier of this request; quote it when asking for help. Also stored in the usage log.",
    required: true,
    schema: { type: "string" },
  },
  "X-RateLimit-Limit": integerHeader("Requests allowed per minute for this key."),
  "X-RateLimit-Remaining": integerHeader("Requests left in the current minute window (0 on a 429)."),
  "X-RateLimit-Reset": integerHeader(
    "When the window ends, in unix seconds: the current minute window, except on a 429 daily_limit, where it is the end of the UTC day whose limit refused the request.",
  ),
  "Retry-After": integerHeader(
    "Seconds to wait before the next request: until the minute window ends (rate_limited), or until the UTC day ends (daily_limit).",
    true,
  ),
  Allow: {
    description: "The methods the path takes, comma-separated.",
    required: true,
    schema: { type: "string", examples: ["GET, POST"] },
  },
};

const DESCRIPTION = `Read and manage one company's jobs and applications with a key that belongs to that company.

**Keys.** Send the key (it starts with \`svc_live_\`) as \`Authorization: Bearer svc_live_…\` or in the \`X-Service-Key\` header. Keep it on a server, never in a web page or a mobile app. Keys are created and revoked by company owners and admins in the web application (Business Settings, API and webhooks).

**Paging.** Lists return newest first. When \`has_more\` is true, pass \`next_cursor\` as \`cursor\` to get the next page. Cursors are opaque. To keep a copy in step, set \`updated_since\` to the time of your last successful sync, or use webhooks.

**Duplicates.** The same e-mail address may apply to the same job once every 30 days; a repeat answers 409 \`duplicate\`.

**Scores.** \`scores.ai_match\` is advice for a person to read, never a decision. Hiring decisions must involve a person, and applicants can ask for a person to review their application.

**Limits.** By default 120 requests per minute and 20,000 per day per key (GET /me shows the key's own); \`X-RateLimit-*\` headers on every answer; 429 with \`Retry-After\` beyond them. Request bodies up to 1 MiB. Page size ${LIMITS.pageMin} to ${LIMITS.pageMax}, default ${LIMITS.pageDefault}.

**Retries.** POST accepts an \`Idempotency-Key\` header: a repeat within 24 hours replays the first answer.

**Personal data.** Applications contain personal data. Your company is its controller; the service processes it on your behalf.`;

/** `application.created` is `applicationCreatedWebhook`. */
function webhookOperationId(type: string): string {
  return `${type.replace(/\.(\w)/g, (_, letter: string) => letter.toUpperCase())}Webhook`;
}

function webhooks(): Json {
  const headerParameter = (name: string, description: string): Json => ({
    name,
    in: "header",
    required: true,
    description,
    schema: { type: "string" },
  });
  const out: Json = {};
  for (const type of EVENT_TYPES) {
    const when = EVENT_DESCRIPTIONS[type];
    out[type] = {
      post: {
        operationId: webhookOperationId(type),
        summary: type,
        description: `${when} Sent as a signed POST to your https address. Verify Service-Signature (HMAC-SHA256 of \`t.body\` with the signing secret) and reject a t more than 5 minutes away. Events may arrive more than once or out of order: drop repeats by id, keep the newest data.updated_at.`,
        parameters: [
          headerParameter("Service-Event", `The event type: ${type}.`),
          headerParameter("Service-Delivery", "Identifier of this delivery."),
          headerParameter(
            "Service-Signature",
            "`t=<unix_seconds>,v1=<hex_signature>`; during a secret rotation two v1 entries.",
          ),
        ],
        requestBody: { required: true, content: { "application/json": { schema: ref("schemas", "EventEnvelope") } } },
        responses: {
          "2XX": {
            description:
              "Delivered. Answer within 10 seconds; anything else is retried after 1 min, 5 min, 30 min, 2 h, 6 h and 12 h.",
          },
        },
      },
    };
  }
  return out;
}

/** A GET served without a key beside the API (the document, the reference page): 200, or 405 for another method, 503 while closing. */
function metaOperation(operationId: string, summary: string, answer: string, type: string, schema: Json): Json {
  return {
    get: {
      operationId,
      summary,
      description: "No key needed.",
      tags: ["Meta"],
      security: [],
      responses: {
        "200": {
          description: answer,
          headers: { "X-Request-Id": ref("headers", "X-Request-Id") },
          content: { [type]: { schema } },
        },
        "405": ref("responses", ERROR_RESPONSE_NAMES[405] as string),
        "503": ref("responses", ERROR_RESPONSE_NAMES[503] as string),
      },
    },
  };
}

/**
 * Builds the OpenAPI 3.1.0 document of the public API from `ROUTES` (and the routes of `extensions`) and the zod schemas.
 * A new object on every call; serve it as JSON at `/openapi.json` (no key needed).
 */
export function buildOpenApiDocument(options: OpenApiDocumentOptions = {}): Record<string, unknown> {
  const extensions = options.extensions ?? [];
  const routes: readonly RouteSpec[] = [...ROUTES, ...extensions.flatMap((extension) => extension.routes)];
  const outputComponents = [...OUTPUT_COMPONENTS, ...extensions.flatMap((extension) => extension.components ?? [])];
  const names = new Map<z.ZodType, string>();
  for (const [name, schema] of [...outputComponents, ...INPUT_COMPONENTS]) names.set(schema, name);

  // Route schemas that are not named components yet get a name from their operation.
  const extraOutputs: [string, z.ZodType][] = [];
  const extraInputs: [string, z.ZodType][] = [];
  for (const route of routes) {
    if (!names.has(route.response)) {
      const name = componentName(route, "response", names);
      names.set(route.response, name);
      extraOutputs.push([name, route.response]);
    }
    if (route.body && !names.has(route.body)) {
      const name = componentName(route, "body", names);
      names.set(route.body, name);
      extraInputs.push([name, route.body]);
    }
  }

  const schemas = convertComponents([...outputComponents, ...extraOutputs], "output");
  const requestBodies: Json = {};
  for (const [name, schema] of Object.entries(convertComponents([...INPUT_COMPONENTS, ...extraInputs], "input"))) {
    requestBodies[name] = {
      description: (schema as Json).description,
      required: true,
      content: { "application/json": { schema } },
    };
  }

  const paths: Json = {};
  for (const route of routes) {
    const item = (paths[route.path] ?? {}) as Json;
    item[route.method.toLowerCase()] = operationFor(route, names);
    paths[route.path] = item;
  }
  paths[OPENAPI_PATH] = metaOperation(
    "getOpenApiDocument",
    "This OpenAPI document",
    "The OpenAPI 3.1 document of this API.",
    "application/json",
    { type: "object" },
  );
  paths[REFERENCE_PATH] = metaOperation(
    "getApiReference",
    "This API's reference, as a web page",
    "Every operation, parameter, body field, response and error of this document, as one HTML page that loads nothing else.",
    "text/html",
    { type: "string" },
  );

  return {
    openapi: "3.1.0",
    info: {
      title: "hireport public API",
      version: "1.0",
      description: DESCRIPTION,
    },
    servers: [{ url: options.serverUrl ?? "/api/public/v1" }],
    security: [{ bearerAuth: [] }, { serviceKey: [] }],
    tags: [
      { name: "Key", description: "The calling key." },
      { name: "Jobs", description: "The company's jobs." },
      { name: "Applications", description: "Candidates and their applications." },
      { name: "Events", description: "The events the webhooks carry, as a feed to poll." },
      ...extensions.flatMap((extension) => extension.tags ?? []),
      { name: "Meta", description: "About the API itself." },
    ],
    paths,
    webhooks: webhooks(),
    components: {
      schemas,
      requestBodies,
      responses: errorResponses(),
      parameters: {
        Id: parameter("id", "path", true, idParamSchema),
        IdempotencyKey: parameter("Idempotency-Key", "header", false, idempotencyKeySchema),
      },
      headers: HEADERS,
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "svc_live_…",
          description: "Authorization: Bearer svc_live_…",
        },
        serviceKey: {
          type: "apiKey",
          in: "header",
          name: "X-Service-Key",
          description: "The same key in the X-Service-Key header, instead of Authorization.",
        },
      },
    },
  };
}

/** Every HTTP status the API documents for errors. */
export const DOCUMENTED_ERROR_STATUSES: readonly number[] = Object.keys(ERROR_RESPONSE_NAMES).map(Number);
