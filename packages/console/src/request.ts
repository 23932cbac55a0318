/** Reading the parts of an `ApiRequest` the console needs beyond core's readers: cookies and form bodies. */
import { type ApiRequest, getHeader } from "@hireport/core";
import { mediaTypeOf } from "@hireport/core/http";

/** A cookie of the request, or undefined. */
export function cookie(request: ApiRequest, name: string): string | undefined {
  const text = getHeader(request.headers, "cookie");
  if (!text) return undefined;
  for (const part of text.split(";")) {
    const at = part.indexOf("=");
    if (at === -1) continue;
    if (part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
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
    if (mediaTypeOf(request.headers) !== "application/x-www-form-urlencoded") return null;
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
