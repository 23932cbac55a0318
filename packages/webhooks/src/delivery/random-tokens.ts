import { randomBytes } from "node:crypto";

/**
 * The dispatcher's random tokens. They are secrets, not ids: record ids (`we_`, `evt_`, `att_`)
 * come from `newId` of `@hireport/core`, and delivery ids from its `deliveryId`.
 */

/** A random lease token for one claim. */
export function newLeaseToken(): string {
  return randomBytes(18).toString("base64url");
}
