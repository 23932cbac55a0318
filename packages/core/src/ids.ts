import { randomBytes } from "./crypto";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"; // Crockford base32, lower case

/**
 * A new identifier: `prefix_` then 10 characters of time and 16 of randomness, so ids sort by
 * creation time (good for index locality) and never collide in practice.
 */
export function newId(prefix: string, now: Date = new Date()): string {
  return `${idFloor(prefix, now)}${randomPart()}`;
}

/**
 * The id boundary of a time: every id `newId(prefix, t)` makes for a `t` before `at` sorts below it
 * in binary (code-unit) order, every one for a `t` at or after `at` does not. A store that names
 * things by `newId` finds those made before a time with `id < idFloor(prefix, at)`.
 */
export function idFloor(prefix: string, at: Date): string {
  let time = at.getTime();
  let timePart = "";
  for (let i = 0; i < 10; i++) {
    timePart = ALPHABET[time % 32] + timePart;
    time = Math.floor(time / 32);
  }
  return `${prefix}_${timePart}`;
}

/**
 * 16 characters (80 bits) of randomness. `crypto.randomUUID()` draws from a buffered CSPRNG in
 * Node (one system call per 128 UUIDs instead of one per id); its first 8 and last 12 hex digits
 * are random (the version and variant digits sit between them). Runtimes without it fall back to
 * `getRandomValues`.
 */
function randomPart(): string {
  let out = "";
  if (typeof globalThis.crypto.randomUUID === "function") {
    const uuid = globalThis.crypto.randomUUID();
    const hex = uuid.slice(0, 8) + uuid.slice(24);
    // 20 hex digits = 80 bits: 4 groups of 20 bits, each 4 base32 characters.
    for (let group = 0; group < 4; group++) {
      let bits = Number.parseInt(hex.slice(group * 5, group * 5 + 5), 16);
      let chunk = "";
      for (let i = 0; i < 4; i++) {
        chunk = ALPHABET[bits & 31] + chunk;
        bits >>>= 5;
      }
      out += chunk;
    }
    return out;
  }
  for (const byte of randomBytes(16)) out += ALPHABET[byte % 32];
  return out;
}
