/**
 * The webhook signature scheme, written once: the dispatcher signs with it and
 * `@hireport/webhooks/verify` checks with it.
 *
 * `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`: each `v1` entry is HMAC-SHA256 over `${t}.${payload}`
 * (the exact UTF-8 bytes sent), keyed with the whole `whsec_…` string, hex-encoded.
 *
 * `verify` runs on Web runtimes, so this module imports nothing at run time and needs only Web
 * Crypto. Where the runtime offers `node:crypto` through `process.getBuiltinModule` (Node 20.16+,
 * 22.3+, Bun), the HMAC is computed synchronously with `createHmac` instead, far cheaper than a Web
 * Crypto job (each a hop to the thread pool; bench/RESULTS.md, "Claims"), on the path of every
 * attempt the dispatcher makes. Both give the same bytes (tested).
 */

/** A payload as signed: text (signed as its UTF-8 bytes) or the bytes themselves. */
export type SignedPayload = string | Uint8Array;

const encoder = new TextEncoder();

interface NodeHmac {
  update(data: string | Uint8Array): NodeHmac;
  digest(): Uint8Array;
}

interface NodeHmacModule {
  createHmac(algorithm: "sha256", key: string | Uint8Array): NodeHmac;
}

function loadNodeHmac(): NodeHmacModule | null {
  try {
    const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const candidate = runtime?.getBuiltinModule?.("node:crypto") as Partial<NodeHmacModule> | undefined;
    return typeof candidate?.createHmac === "function" ? (candidate as NodeHmacModule) : null;
  } catch {
    return null;
  }
}

/** `node:crypto`'s HMAC where the runtime offers it, else null (Web Crypto is used then). */
export const nodeHmac = loadNodeHmac();

/** Whether signatures are computed with `node:crypto` here (for tests). */
export const usesNodeCrypto = nodeHmac !== null;

/** `prefix` then the payload, as the bytes a signature covers (each scheme names its prefix). */
export function prefixedBytes(prefix: string, payload: SignedPayload): Uint8Array<ArrayBuffer> {
  const head = encoder.encode(prefix);
  const body = typeof payload === "string" ? encoder.encode(payload) : payload;
  const bytes = new Uint8Array(head.length + body.length);
  bytes.set(head, 0);
  bytes.set(body, head.length);
  return bytes;
}

/** {@link computeSignature} on Web Crypto alone, whatever the runtime offers. */
export async function computeSignatureWeb(
  secret: string,
  timestamp: number,
  payload: SignedPayload,
): Promise<Uint8Array> {
  const subtle = globalThis.crypto.subtle;
  const key = await subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await subtle.sign("HMAC", key, prefixedBytes(`${timestamp}.`, payload)));
}

/** The signature of a payload at `timestamp` (unix seconds) under one secret: 32 bytes of HMAC-SHA256. */
export async function computeSignature(secret: string, timestamp: number, payload: SignedPayload): Promise<Uint8Array> {
  if (nodeHmac) return nodeHmac.createHmac("sha256", secret).update(`${timestamp}.`).update(payload).digest();
  return computeSignatureWeb(secret, timestamp, payload);
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += HEX[byte];
  return out;
}

/** A `v1` entry's value as bytes, or null when it is not 64 hex digits. */
export function signatureFromHex(hex: string): Uint8Array | null {
  if (hex.length !== 64 || !/^[0-9a-fA-F]+$/.test(hex)) return null;
  const bytes = new Uint8Array(32);
  for (let index = 0; index < 32; index++) bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

/**
 * The signature header: `t=<timestamp>` then one `v1` entry per secret, in the order given.
 * @param timestamp the signing time in unix seconds
 */
export async function signatureHeader(
  payload: SignedPayload,
  secrets: readonly string[],
  timestamp: number,
): Promise<string> {
  const entries = await Promise.all(
    secrets.map(async (secret) => `v1=${toHex(await computeSignature(secret, timestamp, payload))}`),
  );
  return [`t=${timestamp}`, ...entries].join(",");
}

/** Compares two byte strings in time that depends only on their length. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let index = 0; index < a.length; index++) diff |= (a[index] as number) ^ (b[index] as number);
  return diff === 0;
}

/**
 * Whether any of `candidates` (the `v1` entries, as bytes) is the payload's signature at
 * `timestamp` under `secret`. Each is compared in constant time.
 */
export async function signatureMatches(
  secret: string,
  timestamp: number,
  payload: SignedPayload,
  candidates: readonly Uint8Array[],
): Promise<boolean> {
  if (candidates.length === 0) return false;
  const expected = await computeSignature(secret, timestamp, payload);
  let matched = false;
  for (const candidate of candidates) matched = constantTimeEqual(candidate, expected) || matched;
  return matched;
}
