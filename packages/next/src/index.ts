/**
 * `@hireport/next`: Next.js App Router route handlers for the hireport public API, and for any other
 * hireport handler (the careers site, the console).
 *
 * ```ts
 * // app/api/public/v1/[...path]/route.ts
 * export const { GET, POST, PATCH, PUT, DELETE } = toNextHandlers(api);
 * // app/files/cv/[token]/route.ts
 * export const { GET } = toNextFileHandler(api);
 * // app/api/cron/webhooks/route.ts
 * export const { GET, POST } = toNextCronHandler({ dispatcher, secret: process.env.CRON_SECRET });
 * // app/health/route.ts
 * export const { GET, HEAD } = toNextHealthHandler([api, dispatcher]);
 * ```
 *
 * The handlers take a Web `Request` (a `NextRequest` is one) and need nothing from Next at runtime.
 */
import type { HireportHandler, PublicApi } from "@hireport/core";
import { answerHealth, clientIp, type FetchContext, type HealthSource, toWebResponse } from "@hireport/core/http";

/** An App Router route handler. */
export type RouteHandler = (request: Request) => Promise<Response>;

/** The route handlers of the API's catch-all route, one per method. */
export interface NextHandlers {
  GET: RouteHandler;
  HEAD: RouteHandler;
  POST: RouteHandler;
  PUT: RouteHandler;
  PATCH: RouteHandler;
  DELETE: RouteHandler;
  OPTIONS: RouteHandler;
}

export interface NextHandlerOptions {
  /**
   * The client's address of a request (`null` or `undefined`: unknown), for the usage log and the
   * careers site's throttle of applications. Pass it when the app is not on a platform that sets
   * `X-Forwarded-For` itself: behind a proxy of your own that appends to the header, the first
   * address is whatever the client sent (`(request) => request.headers.get("x-real-ip")`, or the
   * address your proxy adds, last in the list).
   * @default the first address of `X-Forwarded-For` (what Vercel sets)
   */
  clientAddress?: (request: Request) => string | null | undefined;
}

/** The `FetchContext` of a request under `options`; undefined: the handler's default. */
function contextOf(request: Request, options: NextHandlerOptions): FetchContext | undefined {
  return options.clientAddress ? { ip: options.clientAddress(request) ?? null } : undefined;
}

/**
 * Route handlers for a catch-all route of any hireport handler: `app/api/public/v1/[...path]/route.ts`
 * for the API (the folder matches the `basePath` of `createPublicApi`), or the careers site's and
 * the console's routes. Each method goes through `handler.fetch`, which reads the body with the size
 * limit (or streams it, for handlers that ask), takes the client address from `clientAddress`
 * (default: `X-Forwarded-For`) and the abort signal from the request.
 */
export function toNextHandlers(api: Pick<HireportHandler, "fetch">, options: NextHandlerOptions = {}): NextHandlers {
  const handler: RouteHandler = (request) => api.fetch(request, contextOf(request, options));
  return {
    GET: handler,
    HEAD: handler,
    POST: handler,
    PUT: handler,
    PATCH: handler,
    DELETE: handler,
    OPTIONS: handler,
  };
}

/**
 * The handler of the CV route behind each application's `resume_url`, for
 * `app/files/cv/[token]/route.ts` (the folder matches the `filesPath` of `createPublicApi`); the
 * token is the last segment of the path, wherever the route lives. The client's address: as for
 * `toNextHandlers`.
 */
export function toNextFileHandler(
  api: Pick<PublicApi, "handleFile">,
  options: NextHandlerOptions = {},
): { GET: RouteHandler } {
  const serveFile: RouteHandler = async (request) => {
    const ip = clientIp(request, contextOf(request, options));
    const answer = await api.handleFile({
      method: request.method,
      path: new URL(request.url).pathname,
      headers: request.headers,
      signal: request.signal,
      ...(ip ? { ip } : {}),
    });
    return toWebResponse(answer);
  };
  return { GET: serveFile };
}

export interface NextCronOptions {
  /** The webhook dispatcher (`createWebhookDispatcher` of `@hireport/webhooks`), or anything with `runOnce`. */
  dispatcher: { runOnce(): Promise<unknown> };
  /**
   * The secret a caller sends as `Authorization: Bearer <secret>`, at least 16 characters: what
   * Vercel Cron sends from `CRON_SECRET`. While it is unset or shorter, every call answers 500.
   */
  secret: string | undefined;
  /** Where a failed pass is logged. @default console */
  logger?: { error(message: string, details?: Record<string, unknown>): void };
}

const MIN_SECRET_LENGTH = 16;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

function fail(status: number, code: string, message: string): Response {
  return json(status, { error: { code, message } });
}

/** Compares two strings in time that does not depend on where they differ (SHA-256 of both first). */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const [a, b] = await Promise.all([
    globalThis.crypto.subtle.digest("SHA-256", encoder.encode(given)),
    globalThis.crypto.subtle.digest("SHA-256", encoder.encode(expected)),
  ]);
  const left = new Uint8Array(a);
  const right = new Uint8Array(b);
  let difference = 0;
  for (let i = 0; i < left.length; i++) difference |= (left[i] ?? 0) ^ (right[i] ?? 0);
  return difference === 0;
}

/**
 * A cron route (`app/api/cron/webhooks/route.ts`) that runs one pass of the webhook dispatcher, for
 * hosts on serverless platforms where no dispatcher process runs. Answers 401 unless the request
 * carries `Authorization: Bearer <secret>`, 200 `{ "data": <what runOnce returned> }` after the pass,
 * 500 when the pass failed.
 */
export function toNextCronHandler(options: NextCronOptions): { GET: RouteHandler; POST: RouteHandler } {
  const { dispatcher, secret } = options;
  const logger = options.logger ?? console;
  const handler: RouteHandler = async (request) => {
    if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) {
      logger.error("hireport: the cron secret is not set or shorter than 16 characters.");
      return fail(500, "server_error", "The cron route is not configured.");
    }
    if (!(await sameSecret(request.headers.get("authorization") ?? "", `Bearer ${secret}`))) {
      return fail(401, "invalid_key", "Send the cron secret as 'Authorization: Bearer <secret>'.");
    }
    try {
      return json(200, { data: (await dispatcher.runOnce()) ?? null });
    } catch (error) {
      logger.error("hireport: the dispatcher pass failed", {
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      return fail(500, "server_error", "The dispatcher pass failed; it runs again on the next call.");
    }
  };
  return { GET: handler, POST: handler };
}

/**
 * The route handler of a readiness route (`app/health/route.ts`) for one source or several
 * (`[api, dispatcher]`): 200 with the health report as JSON when every check passes, 503 when one
 * fails, `cache-control: no-store`; error messages carry no addresses or credentials. HEAD answers
 * the same status without a body. Add `export const dynamic = "force-dynamic"` beside it so that
 * Next never prerenders it.
 */
export function toNextHealthHandler(sources: HealthSource | readonly HealthSource[]): {
  GET: RouteHandler;
  HEAD: RouteHandler;
} {
  const get: RouteHandler = async () => toWebResponse(await answerHealth(sources));
  const head: RouteHandler = async () => {
    const answer = await answerHealth(sources);
    return new Response(null, { status: answer.status, headers: answer.headers });
  };
  return { GET: get, HEAD: head };
}
