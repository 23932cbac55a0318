import { admit } from "./auth";
import { readJsonBody } from "./body";
import { CursorCodec } from "./cursor";
import type { ApiKeyWithCompany, StoredResponse } from "./domain";
import { HireportError, isHireportError } from "./errors";
import { toFetchHandler } from "./fetch-bridge";
import { serveFile } from "./file-route";
import { FileTokens } from "./file-tokens";
import { createHandlers } from "./handlers";
import type { ApiRequest, ApiResponse } from "./http-types";
import { withIdempotency } from "./idempotency";
import { newId } from "./ids";
import { buildOpenApiDocument } from "./openapi";
import { type CreatePublicApiOptions, type Logger, systemClock } from "./options";
import { type RateLimitState, rateLimitHeaders, uncharged } from "./rate-limit";
import { getHeader, toQueryBag } from "./request-parts";
import { resolveOptions } from "./resolve-options";
import { apiPath, Router } from "./router";
import type { Runtime } from "./runtime";
import { hasScope } from "./scopes";
import { skillsMatchScore } from "./scoring";
import { Serializer } from "./serialize";
import { ApplicationService } from "./services/applications";
import { CompanyService } from "./services/companies";
import { JobService } from "./services/jobs";
import { KeyService } from "./services/keys";
import { UsageLog } from "./usage-log";

const JSON_HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
} as const;

/** The object `createPublicApi` returns: the request handler and the host services. */
export interface PublicApi {
  /** Answers one API request. Never rejects: every failure becomes an error body of spec 2.7. */
  handle(request: ApiRequest): Promise<ApiResponse>;
  /** Answers `GET {filesPath}/{token}`: the CV behind a signed `resume_url`. Never rejects. */
  handleFile(request: ApiRequest): Promise<ApiResponse>;
  /** A Web `fetch` handler for the API and the CV route (Next.js, Hono, Bun, Deno). */
  fetch(request: Request): Promise<Response>;
  /** The OpenAPI 3.1 document of the API, generated from the schemas that validate requests. */
  openapi(): Record<string, unknown>;
  /** The resolved settings adapters need: where the API and the CV route live, the body limit. */
  readonly settings: Readonly<{ basePath: string; filesPath: string; maxBodyBytes: number }>;
  companies: CompanyService;
  keys: KeyService;
  jobs: JobService;
  applications: ApplicationService;
  usage: UsageLog;
  /** Stops taking requests (503), waits for those under way and writes the pending usage log. */
  close(): Promise<void>;
}

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): StoredResponse {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

function errorResponse(error: HireportError): StoredResponse {
  return jsonResponse(error.status, error.toBody(), error.headers);
}

function toHireportError(error: unknown, logger: Logger, requestId: string): HireportError {
  if (isHireportError(error)) return error;
  logger.error("hireport: request failed", {
    requestId,
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  return new HireportError("server_error", `Something went wrong on our side; retry. Request id: ${requestId}.`);
}

/**
 * Creates the public API of spec v1 over the given storage. Mount `handle` with an adapter
 * (`@hireport/express`, `@hireport/fastify`, `@hireport/next`) or use `fetch` directly.
 */
export function createPublicApi(options: CreatePublicApiOptions): PublicApi {
  const resolved = resolveOptions(options);
  const clock = options.clock ?? systemClock;
  const logger: Logger = options.logger ?? console;
  const fileTokens = new FileTokens(options.fileTokenSecret, resolved.fileTokenTtlSeconds, clock);
  const runtime: Runtime = Object.freeze({
    storage: options.storage,
    clock,
    logger,
    limits: resolved.limits,
    serializer: new Serializer({
      publicBaseUrl: resolved.publicBaseUrl,
      filesPath: resolved.filesPath,
      fileTokens,
      hostServesResumes: options.resolveResume !== undefined,
    }),
    cursors: new CursorCodec(options.fileTokenSecret),
    fileTokens,
    scoring: options.scoring ?? skillsMatchScore,
    basePath: resolved.basePath,
    filesPath: resolved.filesPath,
    resolveResume: options.resolveResume,
    onEvent: options.onEvent,
  });

  const jobs = new JobService(runtime);
  const applications = new ApplicationService(runtime);
  const usage = new UsageLog(runtime, resolved.usageBatchSize, resolved.usageFlushMs);
  const handlers = createHandlers(runtime, { jobs, applications });
  const router = new Router();
  const pending = new Set<Promise<unknown>>();
  let openapiDocument: Record<string, unknown> | undefined;
  let closed = false;

  const openapi = (): Record<string, unknown> => {
    if (!openapiDocument) openapiDocument = buildOpenApiDocument({ serverUrl: resolved.basePath });
    return openapiDocument;
  };

  async function answer(
    request: ApiRequest,
    requestId: string,
    log: { route: string; auth: ApiKeyWithCompany | null },
  ) {
    const now = clock.now();
    let limitState: RateLimitState = uncharged(runtime, now);
    let response: StoredResponse;
    try {
      if (closed) throw new HireportError("service_unavailable", "The service is shutting down; retry shortly.");
      const method = request.method.toUpperCase();
      const path = apiPath(request.path, resolved.basePath);
      if (path === "/openapi.json" && method === "GET") {
        log.route = "/openapi.json";
        response = jsonResponse(200, openapi());
      } else {
        const { route, params } = router.match(method, path);
        log.route = route.path;
        const admission = await admit(runtime, request.headers, now, pending, log);
        const auth = admission.auth;
        limitState = admission.limit;
        if (route.scope !== null && !hasScope(auth.key.scopes, route.scope)) {
          throw new HireportError("missing_scope", `This API key lacks the permission ${route.scope}.`, {
            requiredScope: route.scope,
          });
        }
        const query = toQueryBag(request.query);
        if (!route.query) {
          const unknown = Object.keys(query)[0];
          if (unknown !== undefined) {
            throw new HireportError("bad_request", `Unknown query parameter '${unknown}': this endpoint takes none.`);
          }
        }
        const body = route.body ? readJsonBody(request, resolved.limits.maxBodyBytes) : undefined;
        const run = async (): Promise<StoredResponse> => {
          if (request.signal?.aborted) {
            throw new HireportError("bad_request", "The client closed the request before it was handled.");
          }
          try {
            const result = await handlers[route.operationId]({ auth, params, query, body });
            return jsonResponse(result.status, result.body);
          } catch (error) {
            if (isHireportError(error)) return errorResponse(error);
            throw error;
          }
        };
        const idempotencyKey = method === "POST" ? getHeader(request.headers, "idempotency-key") : undefined;
        response =
          idempotencyKey !== undefined
            ? await withIdempotency(runtime, { keyId: auth.key.id, idempotencyKey, method, path, body, now }, run)
            : await run();
      }
    } catch (error) {
      response = errorResponse(toHireportError(error, logger, requestId));
    }
    return {
      status: response.status,
      // A 429 carries its own rate-limit headers (remaining 0); they win over the uncharged state.
      headers: { ...rateLimitHeaders(limitState), ...response.headers, "x-request-id": requestId },
      body: response.body,
    };
  }

  async function handle(request: ApiRequest): Promise<ApiResponse> {
    const started = performance.now();
    const requestId = newId("req");
    // String(): a JavaScript caller may send a request without a path; handle() must still answer.
    const log: { route: string; auth: ApiKeyWithCompany | null } = {
      route: String(request?.path ?? "").slice(0, 200),
      auth: null,
    };
    const work = answer(request, requestId, log);
    pending.add(work);
    let response: ApiResponse;
    try {
      response = await work;
    } catch (error) {
      // answer() catches everything; this is the last guard of the never-rejects promise.
      const failure = errorResponse(toHireportError(error, logger, requestId));
      response = { ...failure, headers: { ...failure.headers, "x-request-id": requestId } };
    } finally {
      pending.delete(work);
    }
    try {
      usage.record({
        id: newId("use"),
        companyId: log.auth?.company.id ?? null,
        keyId: log.auth?.key.id ?? null,
        method: String(request?.method ?? "")
          .toUpperCase()
          .slice(0, 10),
        route: log.route,
        status: response.status,
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
        requestId,
        ip: request.ip ?? null,
        createdAt: clock.now(),
      });
    } catch (error) {
      logger.error("hireport: could not record usage", { error: String(error) });
    }
    return response;
  }

  async function handleFile(request: ApiRequest): Promise<ApiResponse> {
    try {
      return await serveFile(runtime, request);
    } catch (error) {
      const failure = toHireportError(error, logger, newId("req"));
      return errorResponse(failure);
    }
  }

  const api: PublicApi = {
    handle,
    handleFile,
    fetch: (request) => fetchHandler(request),
    openapi,
    settings: Object.freeze({
      basePath: resolved.basePath,
      filesPath: resolved.filesPath,
      maxBodyBytes: resolved.limits.maxBodyBytes,
    }),
    companies: new CompanyService(runtime),
    keys: new KeyService(runtime),
    jobs,
    applications,
    usage,
    async close() {
      closed = true;
      while (pending.size > 0) await Promise.allSettled([...pending]);
      await usage.flush();
    },
  };
  const fetchHandler = toFetchHandler(api, resolved);
  return Object.freeze(api);
}
