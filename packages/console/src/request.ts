/** Reading the parts of an `ApiRequest` the console needs: headers, cookies, query, form bodies. */
import type { ApiRequest } from "@hireport/core";

/** One header, whatever the case of its name and the shape of the bag; the first of several values. */
export function header(request: ApiRequest, name: string): string | undefined {
  const { headers } = request;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const value = bag[name] ?? Object.entries(bag).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/** A cookie of the request, or undefined. */
export function cookie(request: ApiRequest, name: string): string | undefined {
  const text = header(request, "cookie");
  if (!text) return undefined;
  for (const part of text.split(";")) {
    const at = part.indexOf("=");
    if (at === -1) continue;
    if (part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** The query as `URLSearchParams`, whatever the adapter passed. */
export function queryOf(request: ApiRequest): URLSearchParams {
  const { query } = request;
  if (query instanceof URLSearchParams) return query;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(name, item);
  }
  return params;
}

/**
 * The fields of a form POST (`application/x-www-form-urlencoded`): parsed here from the raw body,
 * or taken from what the host's own parser left (`express.urlencoded()` makes `body` an object).
 * Null when the body is something else (JSON, multipart, unreadable).
 */
export function formOf(request: ApiRequest): URLSearchParams | null {
  if (request.bodyTooLarge || request.bodyUnreadable) return null;
  const { body, rawBody } = request;
  if (rawBody !== undefined) {
    const type = (header(request, "content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (type !== "application/x-www-form-urlencoded") return null;
    return new URLSearchParams(typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody));
  }
  if (body === undefined || body === null) return new URLSearchParams();
  if (typeof body === "string") return new URLSearchParams(body);
  if (body instanceof URLSearchParams) return body;
  if (typeof body !== "object" || Array.isArray(body)) return null;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === "string" || typeof item === "number" || typeof item === "boolean") {
        params.append(name, String(item));
      }
    }
  }
  return params;
}
