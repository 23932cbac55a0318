/**
 * The API as a handler served beside it (the MCP server of `@hireport/mcp`) uses it: the same
 * admission (key, rate limits), the same usage log, and the same operations (the route table's
 * permissions and validation, the handlers, the services and the serializer), so that a request
 * through that handler is a request of its company like any other. Nothing here repeats a rule.
 */
import { admit } from "../access/auth";
import { type RateLimitState, rateLimitHeaders, uncharged } from "../access/rate-limit";
import type { UsageLog } from "../access/usage-log";
import { HireportError } from "../base/errors";
import type { ApiRequest, ApiResponse, QueryBag } from "../base/http-types";
import type { Actor, ApiKeyWithCompany } from "../model/domain";
import { newId } from "../model/ids";
import type { Runtime } from "../runtime/runtime";
import { parseBody } from "../schemas/validation";
import type { StageChangeAudit } from "../services/applications";
import type { HandlerContext, HandlerResult, Handlers } from "./handlers";
import { authorize, errorResponse, toHireportError } from "./pipeline";
import { type OperationId, ROUTE_TABLE } from "./routes";

/** What a handler served beside the API answers for one admitted request. */
export interface ServedAnswer {
  response: ApiResponse;
  /**
   * Settles when the answer is complete (a streamed body ends): the usage entry is written then,
   * with the duration up to that moment. @default the answer is complete when returned
   */
  finished?: Promise<unknown>;
}

/** What the served request's usage entry records; the handler may set it while it runs. */
export interface ServedOutcome {
  /**
   * The status to log instead of the answer's HTTP status: an operation's own failure (404, 422)
   * inside an answer that is a 200 of its protocol. @default the answer's status
   */
  status?: number;
  /** The route to log, set once the handler knows it (which operation). @default the route given to `serve` */
  route?: string;
}

/** One of the API's operations for an admitted key, as `ApiAccess.call` runs it. */
export interface OperationCall {
  auth: ApiKeyWithCompany;
  /** The path parameters: `{ id }` for the operations on one job or application. @default {} */
  params?: Record<string, string>;
  /** The query parameters, as strings, checked by the route's query parser. @default {} */
  query?: QueryBag;
  /** The JSON body, checked by the route's body schema (422 `invalid`). Ignored by bodiless operations. */
  body?: unknown;
  /** Who makes the change, instead of the key (`updateApplication`, `createApplication`). @default the key */
  actor?: Actor;
  /** An audit entry recorded with a stage move, in its transaction (`updateApplication`). @default none */
  stageAudit?: StageChangeAudit;
}

/** The API's admission, usage log and operations, for a handler served beside it. */
export interface ApiAccess {
  /**
   * Serves one request of a handler beside the API as a request of the API: 503 while the API
   * closes, the key admitted and counted (401, 429 with the API's error bodies and rate-limit
   * headers), then `answer` for the key; the rate-limit headers and `X-Request-Id` are added, and
   * one usage entry is written for `route` (or `outcome.route`). Never rejects.
   */
  serve(
    request: ApiRequest,
    route: string,
    answer: (auth: ApiKeyWithCompany, outcome: ServedOutcome) => Promise<ServedAnswer>,
  ): Promise<ApiResponse>;
  /**
   * Runs one operation of the API for an admitted key as its route would: the permission
   * (403 `missing_scope`), the query and body checks (400, 422), the handler (services and
   * serializer). Resolves with the operation's status and JSON body.
   * @throws HireportError as the API would answer it
   */
  call(operation: OperationId, call: OperationCall): Promise<HandlerResult>;
}

/** What `createPublicApi` gives `createApiAccess`. */
export interface ApiAccessParts {
  runtime: Runtime;
  handlers: Handlers;
  usage: UsageLog;
  closed: () => boolean;
  pending: Set<Promise<unknown>>;
}

export function createApiAccess(parts: ApiAccessParts): ApiAccess {
  const { runtime, handlers, usage, pending } = parts;
  const { clock, logger } = runtime;

  async function record(
    request: ApiRequest,
    log: { auth: ApiKeyWithCompany | null },
    route: string,
    status: number,
    requestId: string,
    started: number,
  ): Promise<void> {
    await usage.recordRequest({
      auth: log.auth,
      method: request.method,
      route,
      status,
      requestId,
      started,
      ip: request.ip,
    });
  }

  return {
    async serve(request, route, answer) {
      const started = performance.now();
      const requestId = newId("req");
      const now = clock.now();
      const log: { auth: ApiKeyWithCompany | null } = { auth: null };
      const outcome: ServedOutcome = {};
      let limit: RateLimitState | undefined;
      let served: ServedAnswer;
      const work = (async () => {
        if (parts.closed()) {
          throw new HireportError("service_unavailable", "The service is shutting down; retry shortly.");
        }
        const admission = await admit(runtime, request.headers, now, pending, log);
        limit = admission.limit;
        return answer(admission.auth, outcome);
      })();
      pending.add(work);
      try {
        served = await work;
      } catch (error) {
        served = { response: errorResponse(toHireportError(error, logger, requestId)) };
      } finally {
        pending.delete(work);
      }
      const headers = Object.assign(rateLimitHeaders(limit ?? uncharged(runtime, now)), served.response.headers);
      headers["x-request-id"] = requestId;
      const response: ApiResponse = { ...served.response, headers };
      const logged = async () => {
        await served.finished?.catch(() => undefined);
        await record(request, log, outcome.route ?? route, outcome.status ?? response.status, requestId, started);
      };
      if (served.finished === undefined) {
        await logged();
      } else {
        // A streamed answer: its entry is written when it ends; close() waits for it.
        const later: Promise<void> = logged().finally(() => pending.delete(later));
        pending.add(later);
      }
      return response;
    },

    async call(operation, call) {
      const route = ROUTE_TABLE[operation];
      authorize(route, call.auth);
      const query = route.query.parse(call.query ?? {});
      const body = route.body ? parseBody(route.body as never, call.body) : undefined;
      const handler = handlers[operation] as (context: HandlerContext<unknown, unknown>) => Promise<HandlerResult>;
      return handler({
        auth: call.auth,
        params: call.params ?? {},
        query,
        body,
        ...(call.actor ? { actor: call.actor } : {}),
        ...(call.stageAudit ? { stageAudit: call.stageAudit } : {}),
      });
    },
  };
}

const registry = new WeakMap<object, ApiAccess>();

/** Links an API object to its access (called by `createPublicApi`). */
export function registerApiAccess(api: object, access: ApiAccess): void {
  registry.set(api, access);
}

/**
 * The admission, usage log and operations of an API made by `createPublicApi`, for a handler
 * served beside it (`@hireport/mcp`).
 * @throws HireportError `server_error` for an object `createPublicApi` did not make
 */
export function apiAccess(api: object): ApiAccess {
  const access = registry.get(api);
  if (!access) {
    throw new HireportError(
      "server_error",
      "Pass the object createPublicApi returned: this one is not a hireport API.",
    );
  }
  return access;
}
