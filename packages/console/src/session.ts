/**
 * Portal links and the console sessions they open, for hosts that embed the console in an iframe
 * (or send people to it from another app): a link carries a short-lived signed token (JWT, HS256,
 * jose) naming the principal; opening it sets a session cookie scoped to the console's path and
 * redirects to a URL without the token.
 */
import type { ApiRequest } from "@hireport/core";
import { hs256Key } from "@hireport/core/extend";
import { jwtVerify, SignJWT } from "jose";
import { setCookie } from "./cookie-attributes";
import type { ConsolePrincipal, ResolvedConsoleOptions } from "./options";
import { cookie } from "./request";

/** The cookie of a console session. */
export const SESSION_COOKIE = "hireport_console";
const ISSUER = "hireport-console";
const LINK_AUDIENCE = "hireport-console:link";
const SESSION_AUDIENCE = "hireport-console:session";

/** What `console.portalLink` takes. */
export interface PortalLinkInput extends ConsolePrincipal {
  /** Seconds the link can be opened in (not the session's length: `sessionTtlSeconds`). 10 to 3600. @default 300 */
  expiresIn?: number;
}

/** Each console's signing key, imported once (jose would import raw bytes on every sign and verify). */
const keys = new WeakMap<ResolvedConsoleOptions, Promise<CryptoKey>>();

function key(options: ResolvedConsoleOptions): Promise<CryptoKey> {
  let found = keys.get(options);
  if (!found) {
    found = hs256Key(`hireport-console-jwt:${options.secret}`);
    keys.set(options, found);
  }
  return found;
}

function isPrincipal(value: unknown): value is ConsolePrincipal {
  const candidate = value as Partial<ConsolePrincipal> | null;
  if (!candidate || typeof candidate !== "object") return false;
  const { companyId, role, actor } = candidate;
  const actorOk =
    typeof actor === "string" ||
    (typeof actor === "object" &&
      actor !== null &&
      typeof actor.name === "string" &&
      (actor.id === null || typeof actor.id === "string"));
  return typeof companyId === "string" && companyId !== "" && typeof role === "string" && actorOk;
}

async function sign(
  options: ResolvedConsoleOptions,
  principal: ConsolePrincipal,
  audience: string,
  seconds: number,
): Promise<string> {
  const now = Math.floor(options.clock.now().getTime() / 1000);
  const claims = { companyId: principal.companyId, role: principal.role, actor: principal.actor };
  return new SignJWT({ hp: claims })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(ISSUER)
    .setAudience(audience)
    .setIssuedAt(now)
    .setExpirationTime(now + seconds)
    .sign(await key(options));
}

async function verify(
  options: ResolvedConsoleOptions,
  token: string,
  audience: string,
): Promise<ConsolePrincipal | null> {
  try {
    const { payload } = await jwtVerify(token, await key(options), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience,
      currentDate: options.clock.now(),
    });
    return isPrincipal(payload.hp) ? payload.hp : null;
  } catch {
    return null;
  }
}

/** The path and query of a portal link: `{basePath}/portal?token=…`. */
export async function portalLink(options: ResolvedConsoleOptions, input: PortalLinkInput): Promise<string> {
  if (!isPrincipal(input)) throw new TypeError("portalLink needs { companyId, role, actor }");
  const expiresIn = input.expiresIn ?? 300;
  if (!Number.isInteger(expiresIn) || expiresIn < 10 || expiresIn > 3600) {
    throw new TypeError("portalLink: expiresIn must be 10 to 3600 seconds");
  }
  const token = await sign(options, input, LINK_AUDIENCE, expiresIn);
  return `${options.basePath}/portal?token=${encodeURIComponent(token)}`;
}

/** The principal of a portal link's token, or null (expired, forged, a session token). */
export function openPortalLink(options: ResolvedConsoleOptions, token: string): Promise<ConsolePrincipal | null> {
  return verify(options, token, LINK_AUDIENCE);
}

/** The `Set-Cookie` value of a new console session for `principal`, in the answer to `request`. */
export async function sessionCookie(
  options: ResolvedConsoleOptions,
  request: ApiRequest,
  principal: ConsolePrincipal,
): Promise<string> {
  const token = await sign(options, principal, SESSION_AUDIENCE, options.sessionTtlSeconds);
  return setCookie(options, request, SESSION_COOKIE, token, options.sessionTtlSeconds);
}

/** The principal of the request's console session cookie, or null. */
export function sessionOf(options: ResolvedConsoleOptions, request: ApiRequest): Promise<ConsolePrincipal | null> {
  const token = cookie(request, SESSION_COOKIE);
  return token ? verify(options, token, SESSION_AUDIENCE) : Promise.resolve(null);
}
