import type { ApiRequest, ApiResponse, FetchContext, HandlerSettings } from "../base/http-types";
import { readBytes } from "./read-bytes";

/** Reads a request's body, stopping as soon as it passes `maxBytes`. Null when it is too large. */
async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array();
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    // Drop the body unread, so that a keep-alive connection behind the bridge moves on.
    await request.body.cancel().catch(() => undefined);
    return null;
  }
  return readBytes(request.body, maxBytes);
}

/** Whether an answer has no body to send: 204, 304, or an empty string or byte array. */
export function isEmptyBody(response: ApiResponse): boolean {
  const { body } = response;
  return (
    response.status === 204 ||
    response.status === 304 ||
    (typeof body !== "object" || body instanceof Uint8Array ? body.length === 0 : false)
  );
}

/** An `ApiResponse` as a Web `Response`. */
export function toWebResponse(response: ApiResponse): Response {
  const body = isEmptyBody(response) ? null : response.body;
  return new Response(body as BodyInit | null, { status: response.status, headers: response.headers });
}

/**
 * The client's address of a Web request: `context.ip` when the host gives a context (`null`:
 * unknown), else the first address of `X-Forwarded-For`, if any. That header is the platform's
 * own where it sets it (Vercel does); behind a proxy that appends to it, the client's claim (see
 * `FetchContext`).
 */
export function clientIp(request: Request, context?: FetchContext): string | undefined {
  if (context) return context.ip ?? undefined;
  return request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || undefined;
}

/**
 * A Web `fetch` handler for a hireport handler (`Request` in, `Response` out): builds the
 * `ApiRequest` (the client address from `context.ip`, else from `X-Forwarded-For`, the abort
 * signal from the request) and
 * reads the body with `settings.maxBodyBytes` (413 is the handler's to answer), or hands it over as
 * a stream when `settings.streamBody` is set.
 */
export function createFetchHandler(
  handle: (request: ApiRequest) => Promise<ApiResponse>,
  settings: HandlerSettings,
): (request: Request, context?: FetchContext) => Promise<Response> {
  return async (request, context) => {
    const url = new URL(request.url);
    const ip = clientIp(request, context);
    const base: ApiRequest = {
      method: request.method,
      path: url.pathname,
      query: url.searchParams,
      headers: request.headers,
      signal: request.signal,
      ...(ip ? { ip } : {}),
      ...(url.protocol === "https:" || url.protocol === "http:"
        ? { protocol: url.protocol === "https:" ? "https" : "http" }
        : {}),
    };
    const method = request.method.toUpperCase();
    if (method === "GET" || method === "HEAD") return toWebResponse(await handle(base));
    if (settings.streamBody) {
      return toWebResponse(await handle(request.body ? { ...base, bodyStream: request.body } : base));
    }
    let rawBody: Uint8Array | null;
    try {
      rawBody = await readLimited(request, settings.maxBodyBytes);
    } catch {
      return toWebResponse(await handle({ ...base, bodyUnreadable: true }));
    }
    if (rawBody === null) return toWebResponse(await handle({ ...base, bodyTooLarge: true }));
    return toWebResponse(await handle({ ...base, rawBody }));
  };
}
