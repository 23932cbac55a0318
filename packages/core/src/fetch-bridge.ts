import type { ApiRequest, ApiResponse } from "./http-types";
import type { ResolvedOptions } from "./resolve-options";

interface Handlers {
  handle(request: ApiRequest): Promise<ApiResponse>;
  handleFile(request: ApiRequest): Promise<ApiResponse>;
}

/** Reads a body stream, stopping as soon as it passes `maxBytes`. Null when it is too large. */
async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array();
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    // Drop the body unread, so that a keep-alive connection behind the bridge moves on.
    await request.body.cancel().catch(() => undefined);
    return null;
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function toResponse(response: ApiResponse): Response {
  const body = response.status === 204 || response.status === 304 || response.body.length === 0 ? null : response.body;
  return new Response(body as BodyInit | null, { status: response.status, headers: response.headers });
}

/**
 * The Web `fetch` bridge: requests under `filesPath` go to the CV route, everything else to the API
 * (the `basePath` prefix is stripped by `handle`).
 */
export function toFetchHandler(api: Handlers, options: Pick<ResolvedOptions, "filesPath" | "limits">) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const base: Omit<ApiRequest, "rawBody"> = {
      method: request.method,
      path: url.pathname,
      query: url.searchParams,
      headers: request.headers,
      signal: request.signal,
      ...(request.headers.get("x-forwarded-for")
        ? { ip: request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() ?? "" }
        : {}),
    };
    if (options.filesPath && url.pathname.startsWith(`${options.filesPath}/`)) {
      return toResponse(await api.handleFile(base));
    }
    const method = request.method.toUpperCase();
    if (method === "GET" || method === "HEAD") return toResponse(await api.handle(base));
    let rawBody: Uint8Array | null;
    try {
      rawBody = await readLimited(request, options.limits.maxBodyBytes);
    } catch {
      return toResponse(await api.handle({ ...base, bodyUnreadable: true }));
    }
    if (rawBody === null) return toResponse(await api.handle({ ...base, bodyTooLarge: true }));
    return toResponse(await api.handle({ ...base, rawBody }));
  };
}
