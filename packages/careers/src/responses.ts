/**
 * The careers site's answers: HTML pages with their security headers, XML feeds, JSON, and the
 * caching every public GET gets (an `ETag` of the body, `Cache-Control`, 304 for a matching
 * `If-None-Match`).
 */
import { hash } from "node:crypto";
import { type ApiRequest, type ApiResponse, getHeader } from "@hireport/core";
import { frameOptionsHeader } from "@hireport/core/http";
import type { VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import type { ResolvedCareersOptions, ResolvedTheme } from "./options";

/** The body of a page render function: a preact element, or HTML the host escaped itself. */
export type Rendered = VNode | string;

/** `'sha256-…'` of an inline block, for the CSP. */
export function cspHash(text: string): string {
  return `'sha256-${hash("sha256", text, "base64")}'`;
}

function originOf(url: string | null): string | null {
  return url && /^https:/.test(url) ? new URL(url).origin : null;
}

/**
 * The headers of every page: a strict Content-Security-Policy (no script at all, the one inline
 * style allowed by its hash, forms only to this site, framing as `frameAncestors` says), nosniff,
 * and referrers only to this origin in full.
 */
export function pageHeaders(
  options: ResolvedCareersOptions,
  theme: ResolvedTheme,
  styleHash: string,
): Record<string, string> {
  const extra = options.cspSources;
  const list = (...sources: (string | null | undefined)[]) => sources.filter(Boolean).join(" ");
  const stylesheet = theme.stylesheetUrl;
  const logo = theme.logoUrl;
  const directives = [
    "default-src 'none'",
    `script-src ${extra.script.length > 0 ? extra.script.join(" ") : "'none'"}`,
    `style-src ${list(styleHash, stylesheet && !originOf(stylesheet) ? "'self'" : null, originOf(stylesheet), ...extra.style)}`,
    `img-src ${list("'self'", "data:", originOf(logo), ...extra.img)}`,
    `font-src ${list("'self'", ...extra.font)}`,
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${options.frameAncestors.join(" ")}`,
  ];
  if (extra.frame.length > 0) directives.push(`frame-src ${extra.frame.join(" ")}`);
  if (extra.connect.length > 0) directives.push(`connect-src ${extra.connect.join(" ")}`);
  return {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": directives.join("; "),
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    ...frameOptionsHeader(options.frameAncestors),
  };
}

/**
 * The Content-Security-Policy of what is not a page (the feeds, the sitemap, JSON): a browser that
 * shows one loads nothing from it, runs nothing in it, and shows it in no frame.
 */
export const DOCUMENT_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox";

/** A rendered page's HTML text, with its doctype. */
export function pageText(page: Rendered): string {
  return `<!doctype html>${typeof page === "string" ? page : renderToString(page)}`;
}

/** A strong `ETag` of a body (`crypto.hash`, one call: no hash object per answer). */
export function etagOf(body: string): string {
  return `"${hash("sha256", body, "base64url").slice(0, 27)}"`;
}

/** Whether `If-None-Match` names the `etag` (weak comparison, as RFC 9110 says for GET), or is `*`. */
export function notModified(request: ApiRequest, etag: string): boolean {
  const condition = getHeader(request.headers, "if-none-match");
  if (!condition) return false;
  const bare = etag.replace(/^W\//, "");
  return condition
    .split(",")
    .map((tag) => tag.trim())
    .some((tag) => tag === "*" || tag.replace(/^W\//, "") === bare);
}

/**
 * A cacheable answer to a public GET: its `ETag` and `Cache-Control`, and 304 with no body when the
 * client's copy is current. `etag` is given when the body holds per-answer parts (a form token):
 * then it is a weak tag of the body without them.
 */
export function cacheable(
  request: ApiRequest,
  answer: { status: number; headers: Record<string, string>; body: string },
  cacheControl: string,
  etag = etagOf(answer.body),
): ApiResponse {
  const headers = { ...answer.headers, etag, "cache-control": cacheControl };
  if (answer.status === 200 && notModified(request, etag)) return { status: 304, headers, body: "" };
  return { status: answer.status, headers, body: answer.body };
}

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): ApiResponse {
  return {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "x-content-type-options": "nosniff", ...headers },
    body: JSON.stringify(body),
  };
}

/** A JSON error of the API's shape (`{ error: { code, message, fields? } }`). */
export function jsonError(
  status: number,
  code: string,
  message: string,
  extra: { fields?: { field: string; message: string }[]; headers?: Record<string, string> } = {},
): ApiResponse {
  const error: Record<string, unknown> = { code, message };
  if (extra.fields) error.fields = extra.fields;
  return json(status, { error }, { "cache-control": "no-store", ...(extra.headers ?? {}) });
}

/** A redirect (303 after a POST, 302 otherwise). */
export function redirect(location: string, status = 302): ApiResponse {
  return { status, headers: { location, "cache-control": "no-store" }, body: "" };
}
