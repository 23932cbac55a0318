import { sha256Hex, sha256HexNow } from "../model/crypto";

/** Every key starts with this prefix (docs/api-reference.md, Keys and permissions). */
export const KEY_PREFIX = "svc_live_";

/** The hash under which a key is stored and looked up. */
export function hashKey(key: string): Promise<string> {
  return sha256Hex(key);
}

/** {@link hashKey} at once where the runtime can (Node); null elsewhere. */
export function hashKeyNow(key: string): string | null {
  return sha256HexNow(key);
}
