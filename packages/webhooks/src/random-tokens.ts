import { randomBytes } from "node:crypto";

/**
 * The dispatcher's random tokens. They are secrets, not ids: record ids (`we_`, `evt_`, `att_`)
 * come from `newId` of `@hireport/core`, and delivery ids from its `deliveryId`.
 */

/** A random lease token for one claim. */
export function newLeaseToken(): string {
  return randomBytes(18).toString("base64url");
}

/** A new signing secret: `whsec_` and 32 random bytes in base64url (43 characters). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}
