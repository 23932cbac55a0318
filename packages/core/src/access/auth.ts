import { HireportError } from "../base/errors";
import type { HeaderBag } from "../base/http-types";
import { getHeader } from "../base/request-parts";
import type { ApiKeyWithCompany } from "../model/domain";
import type { Runtime } from "../runtime/runtime";
import { isKeyUsable } from "./key-admission";
import { hashKey, hashKeyNow, KEY_PREFIX } from "./key-hash";
import { type RateLimitState, rateLimitState, rateWindows } from "./rate-limit";

const TOUCH_EVERY_MS = 60_000;
const MAX_KEY_LENGTH = 200;

/** The key sent with a request: `Authorization: Bearer …`, else `X-Service-Key` (docs/api-reference.md, Keys and permissions). */
export function readKey(headers: HeaderBag | Headers): string | undefined {
  const authorization = getHeader(headers, "authorization")?.trim();
  if (authorization) {
    const match = /^bearer\s+(\S+)$/i.exec(authorization);
    if (match) return match[1];
  }
  const header = getHeader(headers, "x-service-key")?.trim();
  return header || undefined;
}

/** An authenticated request: its key and company, and its rate-limit state after it was counted. */
export interface Admission {
  auth: ApiKeyWithCompany;
  limit: RateLimitState;
}

/**
 * Finds the key of a request, checks it and counts the request against the key's rate limits, in
 * one storage call (`keys.admit`): 401 missing_key, invalid_key (unknown or revoked) or
 * expired_key, then 429 rate_limited or daily_limit. Revocation is read from storage on every
 * request, so it takes effect at once. A request refused here counts in no window. `log.auth` is
 * set as soon as the key is known valid, so the usage log names the key of a refused (429) request too.
 */
export async function admit(
  runtime: Runtime,
  headers: HeaderBag | Headers,
  now: Date,
  pending: Set<Promise<unknown>>,
  log: { auth: ApiKeyWithCompany | null },
): Promise<Admission> {
  const key = readKey(headers);
  if (!key) {
    throw new HireportError(
      "missing_key",
      "Send your API key as 'Authorization: Bearer svc_live_…' or in the 'X-Service-Key' header.",
    );
  }
  // Made only when thrown: an error captures a stack trace, too dear for every request.
  const invalid = () => new HireportError("invalid_key", "This API key is not valid: it is unknown or was revoked.");
  if (!key.startsWith(KEY_PREFIX) || key.length > MAX_KEY_LENGTH) throw invalid();
  const windows = rateWindows(runtime, now);
  const hash = hashKeyNow(key) ?? (await hashKey(key));
  const admission = await runtime.storage.keys.admit(hash, windows, now);
  if (!admission) throw invalid();
  const { found, rate } = admission;
  if (found.key.revokedAt !== null) throw invalid();
  if (!isKeyUsable(found.key, now)) {
    throw new HireportError("expired_key", `This API key expired at ${found.key.expiresAt?.toISOString()}.`);
  }
  if (rate === null) throw new Error("keys.admit counted nothing for a usable key (a storage contract breach).");
  // Known before the rate limit decides: the usage log names the key of a 429 too.
  log.auth = found;
  touchLater(runtime, found, now, pending);
  return { auth: found, limit: rateLimitState(runtime, windows, rate, now) };
}

/** Records the key's last use, off the request path, at most about once a minute per key. */
function touchLater(runtime: Runtime, found: ApiKeyWithCompany, now: Date, pending: Set<Promise<unknown>>): void {
  const lastUsed = found.key.lastUsedAt?.getTime() ?? 0;
  if (now.getTime() - lastUsed < TOUCH_EVERY_MS) return;
  const touch = runtime.storage.keys
    .touch(found.key.id, now)
    .catch((error: unknown) =>
      runtime.logger.warn("hireport: could not record a key's last use", { error: String(error) }),
    )
    .finally(() => pending.delete(touch));
  pending.add(touch);
}
