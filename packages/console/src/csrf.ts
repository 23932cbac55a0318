/**
 * Protection of every change against cross-site requests, two checks that must both pass:
 * - a CSRF token in each form, an HMAC of the principal (company, role, actor), the time it was
 *   issued and a random form id under the console's secret: a page of one person's session yields
 *   no token for another, and a token expires after 12 hours. The form id makes each form of a page
 *   act once (`once.ts`);
 * - the request's `Sec-Fetch-Site` (when the browser sends it) must be `same-origin`, and its
 *   `Origin` must be one of `allowedOrigins` (by default the origin of its own `Host`).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { type ApiRequest, getHeader } from "@hireport/core";
import { actorOf, type ConsolePrincipal } from "./options";

/** How long a form's token stays valid. */
const TOKEN_TTL_SECONDS = 12 * 3600;

function mac(secret: string, principal: ConsolePrincipal, issued: number, form: string): string {
  const actor = actorOf(principal);
  const text = JSON.stringify(["csrf", issued, form, principal.companyId, principal.role, actor.id, actor.name]);
  return createHmac("sha256", `hireport-console:${secret}`).update(text).digest("base64url");
}

/** A token for the forms of a page shown to `principal`: `{issued}.{form id}.{mac}`. */
export function csrfToken(secret: string, principal: ConsolePrincipal, now: Date): string {
  const issued = Math.floor(now.getTime() / 1000);
  const form = randomBytes(16).toString("base64url");
  return `${issued}.${form}.${mac(secret, principal, issued, form)}`;
}

/**
 * The form id of `token` when it was issued to `principal` by this console within the last 12
 * hours; null otherwise.
 */
export function checkCsrfToken(
  secret: string,
  principal: ConsolePrincipal,
  token: string | null,
  now: Date,
): string | null {
  if (!token) return null;
  const [issuedText, form, given, ...rest] = token.split(".");
  if (!issuedText || !form || !given || rest.length > 0 || !/^\d{1,12}$/.test(issuedText)) return null;
  if (!/^[\w-]{16,64}$/.test(form)) return null;
  const issued = Number(issuedText);
  const age = Math.floor(now.getTime() / 1000) - issued;
  if (age < -60 || age > TOKEN_TTL_SECONDS) return null;
  const expected = Buffer.from(mac(secret, principal, issued, form));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? form : null;
}

/** Whether a change comes from a page of the console's own origin (or of `allowed`). */
export function sameOrigin(request: ApiRequest, allowed: readonly string[] | null): boolean {
  const site = getHeader(request.headers, "sec-fetch-site");
  if (site !== undefined && site !== "same-origin") return false;
  const origin = getHeader(request.headers, "origin");
  // Browsers send Origin with every form POST; Sec-Fetch-Site alone is enough where it says same-origin.
  if (origin === undefined) return site === "same-origin";
  if (allowed) return allowed.includes(origin);
  const host = getHeader(request.headers, "host");
  if (!host) return false;
  try {
    const parsed = new URL(origin);
    return (parsed.protocol === "https:" || parsed.protocol === "http:") && parsed.host === host.toLowerCase();
  } catch {
    return false;
  }
}
