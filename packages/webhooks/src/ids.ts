import { randomBytes } from "node:crypto";

/**
 * A new identifier: the prefix, 12 hex digits of the creation time in milliseconds (so ids sort by
 * creation time, which keeps keyset paging ties stable), then 16 random bytes in base64url.
 */
export function newId(prefix: "we" | "dlv" | "evt" | "att", now: Date): string {
  const time = now.getTime().toString(16).padStart(12, "0");
  return `${prefix}_${time}${randomBytes(16).toString("base64url")}`;
}

/** A random lease token for one claim. */
export function newLeaseToken(): string {
  return randomBytes(18).toString("base64url");
}

/** A new signing secret: `whsec_` and 32 random bytes in base64url (43 characters). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}
