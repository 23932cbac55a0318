/** The rules of key admission stated once: when a key may be used, and admission in portable steps. */
import type { ApiKeyRecord } from "../model/domain";
import type { KeyAdmission, KeyRateWindow, StorageStores } from "../storage";

/** A key may be used when it is not revoked and not expired: it expires when `expiresAt <= now`. */
export function isKeyUsable(key: Pick<ApiKeyRecord, "revokedAt" | "expiresAt">, now: Date): boolean {
  return key.revokedAt === null && (key.expiresAt === null || key.expiresAt.getTime() > now.getTime());
}

/**
 * `keys.admit` in portable steps, for storages with nothing faster: `keys.findByHash`, then, for a
 * usable key, `rateLimits.consume` on the buckets `key.id + window.suffix`.
 */
export async function admitInSteps(
  stores: Pick<StorageStores, "keys" | "rateLimits">,
  hash: string,
  windows: readonly KeyRateWindow[],
  now: Date,
): Promise<KeyAdmission | null> {
  const found = await stores.keys.findByHash(hash);
  if (!found) return null;
  if (!isKeyUsable(found.key, now)) return { found, rate: null };
  const buckets = windows.map((window) => ({
    key: `${found.key.id}${window.suffix}`,
    limit: window.limit,
    resetAt: window.resetAt,
  }));
  return { found, rate: await stores.rateLimits.consume(buckets, now) };
}
