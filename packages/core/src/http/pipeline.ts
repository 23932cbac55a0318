/**
 * The request pipeline of the public API, as its steps, in order:
 *
 *   meta       GET /openapi.json and GET /reference (the page rendered from it), without a key
 *   route      method and path against the route table (and the extensions' routes): 404 not_found, 405 method_not_allowed
 *   admit      the key and its rate-limit count, one storage call: 401, 429
 *   authorize  the route's permission: 403 missing_scope with required_scope
 *   validate   the route's query parser (400) and body schema (413, 400, 422): handlers get typed input
 *   run        the handler, under the Idempotency-Key when one is sent (POST)
 *   answer     status, JSON body, rate-limit headers and X-Request-Id; a usage entry for every request
 *
 * `handle` never rejects: every failure becomes an error body (docs/api-reference.md, Errors).
 */
import { admit } from "../access/auth";
import { type RateLimitState, rateLimitHeaders, uncharged } from "../access/rate-limit";
import { hasScope } from "../access/scopes";
import type { UsageLog } from "../access/usage-log";
import { HireportError, isHireportError } from "../base/errors";
import type { ApiRequest, ApiResponse } from "../base/http-types";
import type { Logger } from "../base/logger";
import { getHeader } from "../base/request-parts";
import type { ApiKeyWithCompany, StoredResponse } from "../model/domain";
import { newId } from "../model/ids";
import type { Runtime } from "../runtime/runtime";
import { parseBody } from "../schemas/validation";
import { readJsonBody } from "./body";
import { isExtensionRoute } from "./extension";
import type { HandlerContext, Handlers } from "./handlers";
import { type IdempotentAnswer, withIdempotency } from "./idempotency";
import { tracedAnswer } from "./request-telemetry";
import { apiPath, type Router } from "./router";
import type { RouteSpec } from "./routes";
import { OPENAPI_PATH, REFERENCE_PATH } from "./routes";

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
});

export function jsonResponse(status: number, body: unknown, headers?: Record<string, string>): StoredResponse {
  // The shared headers as they are when there is nothing to add: every answer copies them anyway.
  return {
    status,
    headers: headers ? { ...JSON_HEADERS, ...headers } : (JSON_HEADERS as Record<string, string>),
    body: JSON.stringify(body),
  };
}

/** The reference page: HTML that may load nothing (the CSP says so to the browser too). */
export function htmlResponse(html: string): StoredResponse {
  return {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-cache",
      "content-security-policy":
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      "x-content-type-options": "nosniff",
    },
    body: html,
  };
}

export function errorResponse(error: HireportError): StoredResponse {
  return jsonResponse(error.status, error.toBody(), error.headers);
}

/** A known error as it is; anything else becomes 500 server_error, logged with its detail, never leaked. */
export function toHireportError(error: unknown, logger: Logger, requestId: string): HireportError {
  if (isHireportError(error)) return error;
  logger.error("hireport: request failed", {
    requestId,
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  return new HireportError("server_error", `Something went wrong on our side; retry. Request id: ${requestId}.`);
}

export interface PipelineParts {
  runtime: Runtime;
  router: Router;
  handlers: Handlers;
  usage: UsageLog;
  /** The OpenAPI document, served at `GET /openapi.json` without a key. */
  openapi: () => Record<string, unknown>;
  /** The HTML reference rendered from it, served at `GET /reference` without a key. */
  reference: () => Promise<string>;
  /** True once `close()` began: new requests answer 503. */
  closed: () => boolean;
  /** Work under way (requests, best-effort writes), awaited by `close()`. */
  pending: Set<Promise<unknown>>;
}

interface RequestLog {
  route: string;
  auth: ApiKeyWithCompany | null;
}

/** 403 missing_scope unless the key holds the route's permission (a write scope implies its read). */
export function authorize(route: RouteSpec, auth: ApiKeyWithCompany): void {
  if (route.scope !== null && !hasScope(auth.key.scopes, route.scope)) {
    throw new HireportError("missing_scope", `This API key lacks the permission ${route.scope}.`, {
      requiredScope: route.scope,
    });
  }
  const anyOf = route.anyOfScopes;
  if (anyOf?.[0] !== undefined && !anyOf.some((scope) => hasScope(auth.key.scopes, scope))) {
    throw new HireportError(
      "missing_scope",
      `This API key lacks the permissions ${anyOf.join(" and ")}: this endpoint needs at least one.`,
      { requiredScope: anyOf[0] },
    );
  }
}

/** Builds `handle(request)`: the pipeline above, with the usage log. */
export function createPipeline(parts: PipelineParts): (request: ApiRequest) => Promise<ApiResponse> {
  const { runtime, router, handlers, usage, pending } = parts;
  const { clock, logger, basePath, limits, telemetry } = runtime;

  async function answer(request: ApiRequest, requestId: string, log: RequestLog) {
    const now = clock.now();
    let limitState: RateLimitState | undefined;
    let response: StoredResponse;
    try {
      if (parts.closed())
        throw new HireportError("service_unavailable", "The service is shutting down; retry shortly.");
      const method = request.method.toUpperCase();
      const path = apiPath(request.path, basePath);
      if (path === OPENAPI_PATH || path === REFERENCE_PATH) {
        // Served without a key; like every path of the API, another method is 405 with Allow.
        log.route = path;
        if (method !== "GET") {
          throw new HireportError("method_not_allowed", `This path does not accept ${method}; use GET.`, {
            headers: { allow: "GET" },
          });
        }
        response = path === OPENAPI_PATH ? jsonResponse(200, parts.openapi()) : htmlResponse(await parts.reference());
      } else {
        const { route, params } = router.match(method, path);
        log.route = route.path;
        const admission = await admit(runtime, request.headers, now, pending, log);
        limitState = admission.limit;
        authorize(route, admission.auth);
        const query = route.query.parse(request.query);
        const json = route.body ? readJsonBody(request, limits.maxBodyBytes) : undefined;
        const body = route.body ? parseBody(route.body, json) : undefined;
        // An extension's route brings its own handler; core's routes use core's.
        const handler = isExtensionRoute(route)
          ? (context: HandlerContext<unknown, unknown>) => route.handle(context)
          : (handlers[route.operationId as keyof Handlers] as (
              context: HandlerContext<unknown, unknown>,
            ) => ReturnType<Handlers[keyof Handlers]>);
        const run = async (): Promise<IdempotentAnswer> => {
          // A read for a client that went away is harmless: only a change is not made for it.
          if (method !== "GET" && request.signal?.aborted) {
            throw new HireportError("bad_request", "The client closed the request before it was handled.");
          }
          try {
            const result = await handler({ auth: admission.auth, params, query, body });
            return { response: jsonResponse(result.status, result.body), subjectId: result.subjectId };
          } catch (error) {
            if (isHireportError(error)) return { response: errorResponse(error) };
            throw error;
          }
        };
        const idempotencyKey = method === "POST" ? getHeader(request.headers, "idempotency-key") : undefined;
        response =
          idempotencyKey !== undefined
            ? await withIdempotency(
                runtime,
                { keyId: admission.auth.key.id, idempotencyKey, method, path, body: json, now },
                run,
              )
            : (await run()).response;
      }
    } catch (error) {
      response = errorResponse(toHireportError(error, logger, requestId));
    }
    // A 429 carries its own rate-limit headers (remaining 0); they win over the uncharged state.
    const headers = Object.assign(rateLimitHeaders(limitState ?? uncharged(runtime, now)), response.headers);
    headers["x-request-id"] = requestId;
    return { status: response.status, headers, body: response.body };
  }

  return async function handle(request: ApiRequest): Promise<ApiResponse> {
    const started = performance.now();
    const requestId = newId("req");
    // String(): a JavaScript caller may send a request without a path; handle() must still answer.
    const log: RequestLog = { route: String(request?.path ?? "").slice(0, 200), auth: null };
    const work =
      telemetry === undefined
        ? answer(request, requestId, log)
        : tracedAnswer(telemetry, answer, request, requestId, log);
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
    // Durable mode: the answer leaves once its entry is written.
    await usage.recordRequest({
      auth: log.auth,
      method: request?.method,
      route: log.route,
      status: response.status,
      requestId,
      started,
      ip: request?.ip,
    });
    return response;
  };
}
