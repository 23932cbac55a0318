import { randomBytes } from "./crypto";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"; // Crockford base32, lower case

/**
 * A new identifier: `prefix_` then 10 characters of time and 16 of randomness, so ids sort by
 * creation time (good for index locality) and never collide in practice.
 */
export function newId(prefix: string, now: Date = new Date()): string {
  let time = now.getTime();
  let timePart = "";
  for (let i = 0; i < 10; i++) {
    timePart = ALPHABET[time % 32] + timePart;
    time = Math.floor(time / 32);
  }
  let randomPart = "";
  for (const byte of randomBytes(16)) randomPart += ALPHABET[byte % 32];
  return `${prefix}_${timePart}${randomPart}`;
}
