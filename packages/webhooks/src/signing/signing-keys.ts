/**
 * The key material of each signature scheme, made and read by the dispatcher (`node:crypto`):
 * - `"service"`: `whsec_` and 32 random bytes in base64url (the whole string is the HMAC key);
 * - `"standard-v1"`: `whsec_` and 32 random bytes in standard base64, as Standard Webhooks
 *   libraries read it (the bytes are the HMAC key);
 * - `"standard-v1a"`: an ed25519 key pair, stored as the private key `whsk_<base64 of 32 bytes>`;
 *   its public key `whpk_<base64 of 32 bytes>` is derived from it.
 * Every one is stored in the endpoint's `secrets`, sealed like any secret (`./secret-encryption`).
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from "node:crypto";
import type { WebhookSignatureScheme } from "../store/webhook-records";
import {
  ed25519Pkcs8,
  keyBytes,
  PRIVATE_KEY_PREFIX,
  PUBLIC_KEY_PREFIX,
  toBase64,
  toBase64Url,
} from "./standard-signature";

/** New key material for an endpoint signed with `scheme` (the private key, for `"standard-v1a"`). */
export function newSigningKey(scheme: WebhookSignatureScheme): string {
  if (scheme === "standard-v1") return `whsec_${randomBytes(32).toString("base64")}`;
  if (scheme === "standard-v1a") {
    const { privateKey } = generateKeyPairSync("ed25519");
    const jwk = privateKey.export({ format: "jwk" });
    return `${PRIVATE_KEY_PREFIX}${Buffer.from(jwk.d ?? "", "base64url").toString("base64")}`;
  }
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** Whether `key` is material of `scheme` (a secret made for another scheme does not sign with it). */
export function isKeyOf(scheme: WebhookSignatureScheme, key: string): boolean {
  if (scheme === "standard-v1a") return key.startsWith(PRIVATE_KEY_PREFIX);
  if (scheme === "standard-v1") return key.startsWith("whsec_") && /^[A-Za-z0-9+/]+={0,2}$/.test(key.slice(6));
  return !key.startsWith(PRIVATE_KEY_PREFIX);
}

/** The raw 32-byte ed25519 public key of a `whsk_…` private key, or null when it is not one. */
export function publicKeyBytes(privateKey: string): Uint8Array | null {
  const seed = keyBytes(privateKey, PRIVATE_KEY_PREFIX);
  if (seed?.length !== 32) return null;
  const privateKeyObject = createPrivateKey({ key: Buffer.from(ed25519Pkcs8(seed)), format: "der", type: "pkcs8" });
  const jwk = createPublicKey(privateKeyObject).export({ format: "jwk" });
  return new Uint8Array(Buffer.from(jwk.x ?? "", "base64url"));
}

/** `whpk_…`: the public key of a `whsk_…` private key, or "" when it is not one. */
export function publicKeyOf(privateKey: string): string {
  const bytes = publicKeyBytes(privateKey);
  return bytes ? `${PUBLIC_KEY_PREFIX}${toBase64(bytes)}` : "";
}

/** The RFC 7638 thumbprint of an Ed25519 public key (base64url of the SHA-256 of its canonical JWK). */
export function thumbprint(publicKey: Uint8Array): string {
  const canonical = `{"crv":"Ed25519","kty":"OKP","x":"${toBase64Url(publicKey)}"}`;
  return createHash("sha256").update(canonical).digest("base64url");
}
