import type { ApiKeyWithCompany } from "./domain";
import { HireportError } from "./errors";
import type { HeaderBag } from "./http-types";
import { getHeader } from "./request-parts";
import type { Runtime } from "./runtime";
import { hashKey, KEY_PREFIX } from "./services/keys";

const TOUCH_EVERY_MS = 60_000;
const MAX_KEY_LENGTH = 200;

/** The key sent with a request: `Authorization: Bearer …`, else `X-Service-Key` (spec section 5). */
export function readKey(headers: HeaderBag | Headers): string | undefined {
  const authorization = getHeader(headers, "authorization")?.trim();
  if (authorization) {
    const match = /^bearer\s+(\S+)$/i.exec(authorization);
    if (match) return match[1];
  }
  const header = getHeader(headers, "x-service-key")?.trim();
  return header || undefined;
}

/**
 * Finds the key of a request and checks it: 401 missing_key, invalid_key (unknown or revoked) or
 * expired_key. Revocation is read from storage on every request, so it takes effect at once.
 */
export async function authenticate(
  runtime: Runtime,
  headers: HeaderBag | Headers,
  now: Date,
  pending: Set<Promise<unknown>>,
): Promise<ApiKeyWithCompany> {
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
  const found = await runtime.storage.keys.findByHash(await hashKey(key));
  if (!found || found.key.revokedAt !== null) throw invalid();
  if (found.key.expiresAt !== null && found.key.expiresAt.getTime() <= now.getTime()) {
    throw new HireportError("expired_key", `This API key expired at ${found.key.expiresAt.toISOString()}.`);
  }
  const lastUsed = found.key.lastUsedAt?.getTime() ?? 0;
  if (now.getTime() - lastUsed >= TOUCH_EVERY_MS) {
    const touch = runtime.storage.keys
      .touch(found.key.id, now)
      .catch((error: unknown) =>
        runtime.logger.warn("hireport: could not record a key's last use", { error: String(error) }),
      )
      .finally(() => pending.delete(touch));
    pending.add(touch);
  }
  return found;
}
