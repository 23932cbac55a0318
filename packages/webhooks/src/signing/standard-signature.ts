/**
 * Standard Webhooks 1.0 signatures, written once: the dispatcher signs with them and
 * `@hireport/webhooks/verify` checks with them.
 *
 * Both cover the UTF-8 bytes of `${webhook-id}.${webhook-timestamp}.${body}`:
 * - `v1,<base64>`: HMAC-SHA256 keyed with the bytes the base64 after `whsec_` decodes to;
 * - `v1a,<base64>`: ed25519 under a key pair whose private key is `whsk_<base64 of its 32 bytes>`
 *   and public key `whpk_<base64 of its 32 bytes>` (RFC 8032 raw keys).
 * The `webhook-signature` header holds one or more of them, separated by spaces.
 *
 * Web runtimes included: Web Crypto (`Ed25519`, `HMAC`) and `atob`/`btoa` only, with `node:crypto`'s
 * HMAC where the runtime offers it (as `./signature` does).
 */
import { nodeHmac, prefixedBytes, type SignedPayload } from "./signature";

/** The prefix of a Standard Webhooks symmetric secret. */
export const SECRET_PREFIX = "whsec_";
/** The prefix of a Standard Webhooks ed25519 private key. */
export const PRIVATE_KEY_PREFIX = "whsk_";
/** The prefix of a Standard Webhooks ed25519 public key. */
export const PUBLIC_KEY_PREFIX = "whpk_";

/** Standard base64 of bytes. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Bytes of base64 text (standard or URL-safe alphabet, padded or not), or null when it is not base64. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  const standard = text.replace(/-/g, "+").replace(/_/g, "/");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(standard)) return null;
  try {
    const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, "="));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/** URL-safe base64 without padding (JWK members). */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes of a prefixed key (`whsec_…`, `whsk_…`, `whpk_…`), or null when it is not one. */
export function keyBytes(key: string, prefix: string): Uint8Array<ArrayBuffer> | null {
  if (!key.startsWith(prefix)) return null;
  const bytes = fromBase64(key.slice(prefix.length));
  return bytes && bytes.length > 0 ? bytes : null;
}

/** The bytes a Standard Webhooks signature covers: `${id}.${timestamp}.` then the payload. */
export function standardSignedBytes(id: string, timestamp: number, payload: SignedPayload): Uint8Array<ArrayBuffer> {
  return prefixedBytes(`${id}.${timestamp}.`, payload);
}

/** HMAC-SHA256 of the signed bytes under the key bytes of a `whsec_…` secret. */
export async function standardHmac(
  keyBytes: Uint8Array<ArrayBuffer>,
  signed: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array> {
  if (nodeHmac) return nodeHmac.createHmac("sha256", keyBytes).update(signed).digest();
  const subtle = globalThis.crypto.subtle;
  const key = await subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await subtle.sign("HMAC", key, signed));
}

/**
 * The 48 bytes that, followed by a 32-byte ed25519 private key, make its PKCS #8 DER encoding
 * (RFC 8410): the form Web Crypto imports a private key from.
 */
export const PKCS8_ED25519_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);

/** The PKCS #8 DER encoding of a 32-byte ed25519 private key. */
export function ed25519Pkcs8(privateKey: Uint8Array): Uint8Array<ArrayBuffer> {
  const pkcs8 = new Uint8Array(PKCS8_ED25519_PREFIX.length + privateKey.length);
  pkcs8.set(PKCS8_ED25519_PREFIX, 0);
  pkcs8.set(privateKey, PKCS8_ED25519_PREFIX.length);
  return pkcs8;
}

/** The ed25519 signature of the signed bytes under a 32-byte private key. */
export async function ed25519Sign(privateKey: Uint8Array, signed: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const subtle = globalThis.crypto.subtle;
  const key = await subtle.importKey("pkcs8", ed25519Pkcs8(privateKey), { name: "Ed25519" }, false, ["sign"]);
  return new Uint8Array(await subtle.sign({ name: "Ed25519" }, key, signed));
}

/** Whether `signature` is the ed25519 signature of the signed bytes under a 32-byte public key. */
export async function ed25519Verify(
  publicKey: Uint8Array<ArrayBuffer>,
  signature: Uint8Array<ArrayBuffer>,
  signed: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  const subtle = globalThis.crypto.subtle;
  try {
    const key = await subtle.importKey("raw", publicKey, { name: "Ed25519" }, false, ["verify"]);
    return await subtle.verify({ name: "Ed25519" }, key, signature, signed);
  } catch {
    return false;
  }
}

/**
 * The `webhook-signature` header: one `v1,<base64>` entry per `whsec_…` secret and one
 * `v1a,<base64>` entry per `whsk_…` private key, in the order given, separated by spaces.
 * @throws TypeError for a key that is neither
 */
export async function standardSignatureHeader(
  id: string,
  timestamp: number,
  payload: SignedPayload,
  keys: readonly string[],
): Promise<string> {
  const signed = standardSignedBytes(id, timestamp, payload);
  const entries = await Promise.all(
    keys.map(async (key) => {
      const secret = keyBytes(key, SECRET_PREFIX);
      if (secret) return `v1,${toBase64(await standardHmac(secret, signed))}`;
      const privateKey = keyBytes(key, PRIVATE_KEY_PREFIX);
      if (privateKey?.length === 32) return `v1a,${toBase64(await ed25519Sign(privateKey, signed))}`;
      throw new TypeError("A Standard Webhooks signing key is a whsec_… secret or a whsk_… ed25519 private key.");
    }),
  );
  return entries.join(" ");
}

/** Compares two byte strings in time that depends only on their length. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let index = 0; index < a.length; index++) diff |= (a[index] as number) ^ (b[index] as number);
  return diff === 0;
}
