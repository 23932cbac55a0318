/**
 * A secret shown once after a redirect: a new API key, or an owner's revealed or rotated webhook
 * signing secret. The POST that makes it answers 303 to its page with a random `shown` id in the
 * query (never the secret) and a cookie that carries the secret sealed (JWE `dir` + `A256GCM`,
 * jose, under a key derived from the console's `secret`), HttpOnly, scoped to the console's path,
 * valid two minutes. The page shows it when the cookie's id matches the query's and its principal is
 * the one asking, and clears the cookie in the same answer: a reload finds no cookie and shows it no
 * more. No secret is ever in a URL.
 */
import { hkdfSync, randomBytes } from "node:crypto";
import type { ApiRequest } from "@hireport/core";
import { EncryptJWT, jwtDecrypt } from "jose";
import { setCookie } from "./cookie-attributes";
import { actorOf, type ConsolePrincipal, type ResolvedConsoleOptions } from "./options";
import { cookie } from "./request";

/** The cookie that carries a sealed secret from the POST to the page after it. */
export const SHOWN_COOKIE = "hireport_console_shown";
/** How long the sealed secret waits for its page. */
const SHOWN_TTL_SECONDS = 120;

/** What a sealed secret is. */
export type ShownKind = "key" | "endpoint-secret";

/** The secret and what the page needs to show it. */
export interface ShownSecret {
  kind: ShownKind;
  /** The API key's name, or the endpoint's id. */
  subject: string;
  value: string;
  /** For a signing secret: whether it was rotated (rather than revealed). */
  rotated: boolean;
}

const keys = new WeakMap<ResolvedConsoleOptions, Uint8Array>();

function sealKey(options: ResolvedConsoleOptions): Uint8Array {
  let found = keys.get(options);
  if (!found) {
    found = new Uint8Array(hkdfSync("sha256", options.secret, "", "hireport-console:shown-once", 32));
    keys.set(options, found);
  }
  return found;
}

/** Who a sealed secret is for: the same company and the same person. */
function whoOf(principal: ConsolePrincipal): string {
  const actor = actorOf(principal);
  return JSON.stringify([principal.companyId, principal.role, actor.id, actor.name]);
}

/** A new `shown` id and the `Set-Cookie` that carries `secret` sealed to the page of that id. */
export async function sealShown(
  options: ResolvedConsoleOptions,
  request: ApiRequest,
  principal: ConsolePrincipal,
  secret: ShownSecret,
): Promise<{ id: string; setCookie: string }> {
  const id = randomBytes(12).toString("base64url");
  const now = Math.floor(options.clock.now().getTime() / 1000);
  const sealed = await new EncryptJWT({ hp: { id, who: whoOf(principal), ...secret } })
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuedAt(now)
    .setExpirationTime(now + SHOWN_TTL_SECONDS)
    .encrypt(sealKey(options));
  return { id, setCookie: setCookie(options, request, SHOWN_COOKIE, sealed, SHOWN_TTL_SECONDS) };
}

/**
 * The secret sealed for the page of `id`, of `kind`, for `principal`; and the `Set-Cookie` that
 * clears the cookie (null when the request carries none). The secret is null when the cookie is
 * missing (already shown), expired, of another page, or of another person.
 */
export async function openShown(
  options: ResolvedConsoleOptions,
  request: ApiRequest,
  principal: ConsolePrincipal,
  id: string,
  kind: ShownKind,
): Promise<{ secret: ShownSecret | null; clear: string | null }> {
  const sealed = cookie(request, SHOWN_COOKIE);
  if (!sealed) return { secret: null, clear: null };
  const clear = setCookie(options, request, SHOWN_COOKIE, "", 0);
  try {
    const { payload } = await jwtDecrypt(sealed, sealKey(options), {
      keyManagementAlgorithms: ["dir"],
      contentEncryptionAlgorithms: ["A256GCM"],
      currentDate: options.clock.now(),
    });
    const found = payload.hp as (ShownSecret & { id: unknown; who: unknown }) | undefined;
    if (!found || found.id !== id || found.kind !== kind || found.who !== whoOf(principal)) {
      return { secret: null, clear };
    }
    return {
      secret: {
        kind: found.kind,
        subject: String(found.subject),
        value: String(found.value),
        rotated: !!found.rotated,
      },
      clear,
    };
  } catch {
    return { secret: null, clear };
  }
}
