const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"; // Crockford base32, lower case
const CODES = Array.from(ALPHABET, (char) => char.charCodeAt(0));

/**
 * A new identifier: `prefix_` then 10 characters of time and 16 of randomness, so ids sort by
 * creation time (good for index locality) and never collide in practice.
 */
export function newId(prefix: string, now: Date = new Date()): string {
  return `${timePrefix(prefix, now.getTime())}${randomPart()}`;
}

/**
 * The id boundary of a time: every id `newId(prefix, t)` makes for a `t` before `at` sorts below it
 * in binary (code-unit) order, every one for a `t` at or after `at` does not. A store that names
 * things by `newId` finds those made before a time with `id < idFloor(prefix, at)`.
 */
export function idFloor(prefix: string, at: Date): string {
  let time = at.getTime();
  const codes = new Array<number>(10);
  for (let i = 9; i >= 0; i--) {
    codes[i] = CODES[time % 32] as number;
    time = Math.floor(time / 32);
  }
  return `${prefix}_${String.fromCharCode.apply(null, codes)}`;
}

/** The last prefix made per id prefix: ids made in the same millisecond share it. */
const lastPrefixes = new Map<string, { time: number; text: string }>();

function timePrefix(prefix: string, time: number): string {
  const last = lastPrefixes.get(prefix);
  if (last !== undefined && last.time === time) return last.text;
  const text = idFloor(prefix, new Date(time));
  if (last === undefined) lastPrefixes.set(prefix, { time, text });
  else {
    last.time = time;
    last.text = text;
  }
  return text;
}

/**
 * Random bytes drawn from the CSPRNG a block at a time (one `getRandomValues` call per 256 ids
 * instead of one per id); each byte is used once.
 */
const pool = new Uint8Array(4096);
let poolAt = pool.length;

/** 16 characters (80 bits) of randomness: 5 random bits of each of 16 random bytes. */
function randomPart(): string {
  if (poolAt + 16 > pool.length) {
    globalThis.crypto.getRandomValues(pool);
    poolAt = 0;
  }
  const at = poolAt;
  poolAt += 16;
  const codes = new Array<number>(16);
  for (let i = 0; i < 16; i++) codes[i] = CODES[(pool[at + i] as number) & 31] as number;
  return String.fromCharCode.apply(null, codes);
}
