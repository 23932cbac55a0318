/**
 * The attributes of every cookie the console sets (a portal link's session, the one-time cookie of
 * a secret to show): scoped to the console's path, never readable by scripts, `Secure` whenever the
 * request came over https (or `secureCookies` says so), and able to cross sites only when the
 * console is framed by another origin.
 */
import type { ApiRequest } from "@hireport/core";
import type { ResolvedConsoleOptions } from "./options";

/** Whether the console is framed by other origins than its own: its cookies must then cross sites. */
export function embeddedElsewhere(options: ResolvedConsoleOptions): boolean {
  return options.frameAncestors.some((source) => source !== "'self'" && source !== "'none'");
}

/** Whether a cookie set in the answer to `request` gets `Secure`. */
export function secureCookie(options: ResolvedConsoleOptions, request: ApiRequest): boolean {
  if (embeddedElsewhere(options)) return true; // SameSite=None needs it (resolveOptions refuses `false`).
  if (options.secureCookies !== "auto") return options.secureCookies;
  return request.protocol === "https";
}

/** `name=value; Path=…; Max-Age=…; HttpOnly; …` for an answer to `request`. */
export function setCookie(
  options: ResolvedConsoleOptions,
  request: ApiRequest,
  name: string,
  value: string,
  maxAgeSeconds: number,
): string {
  const attributes = [`${name}=${value}`, `Path=${options.basePath || "/"}`, `Max-Age=${maxAgeSeconds}`, "HttpOnly"];
  if (secureCookie(options, request)) attributes.push("Secure");
  // In a frame of another site the cookie is a third-party one: SameSite=None (Secure required),
  // partitioned by the top-level site (CHIPS) so that browsers that block third-party cookies keep it.
  attributes.push(...(embeddedElsewhere(options) ? ["SameSite=None", "Partitioned"] : ["SameSite=Lax"]));
  return attributes.join("; ");
}
