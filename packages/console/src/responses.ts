/** The console's answers: HTML pages with their security headers, redirects after a change, files. */
import { randomBytes } from "node:crypto";
import type { ApiResponse } from "@hireport/core";
import { frameOptionsHeader } from "@hireport/core/http";
import type { VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import type { ResolvedConsoleOptions } from "./options";

/** A fresh CSP nonce for one answer. */
export function newNonce(): string {
  return randomBytes(18).toString("base64url");
}

/**
 * The headers of every answer: never cached (pages show keys, secrets, personal data), a strict
 * Content-Security-Policy (no script or style without this answer's nonce, forms only to the console
 * itself, framing as `frameAncestors` says), referrers only within the origin.
 */
export function securityHeaders(options: ResolvedConsoleOptions, nonce: string): Record<string, string> {
  const stylesheet = options.theme.stylesheetUrl;
  const styleOrigin = stylesheet && /^https:/.test(stylesheet) ? ` ${new URL(stylesheet).origin}` : "";
  const styleSelf = stylesheet && !styleOrigin ? " 'self'" : "";
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'${styleSelf}${styleOrigin}`,
    "img-src 'self' data:",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${options.frameAncestors.join(" ")}`,
  ].join("; ");
  return {
    "cache-control": "no-store",
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    // Not no-referrer: with it, browsers send `Origin: null` on form posts, which the origin check refuses.
    "referrer-policy": "same-origin",
    ...frameOptionsHeader(options.frameAncestors),
  };
}

/** An HTML page. */
export function html(
  options: ResolvedConsoleOptions,
  nonce: string,
  page: VNode,
  status = 200,
  extra: Record<string, string> = {},
): ApiResponse {
  return {
    status,
    headers: { ...securityHeaders(options, nonce), "content-type": "text/html; charset=utf-8", ...extra },
    body: `<!doctype html>${renderToString(page)}`,
  };
}

/** 303 to a path of the console (redirect-after-post), with a `done` notice to show there. */
export function redirect(
  options: ResolvedConsoleOptions,
  path: string,
  done?: string,
  extra: Record<string, string> = {},
  query: Record<string, string> = {},
): ApiResponse {
  const params = new URLSearchParams({ ...(done ? { done } : {}), ...query }).toString();
  return {
    status: 303,
    headers: {
      ...securityHeaders(options, newNonce()),
      location: `${options.basePath}${path}${params ? `?${params}` : ""}`,
      ...extra,
    },
    body: "",
  };
}
