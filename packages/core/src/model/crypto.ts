/**
 * The few cryptographic helpers core needs, on Web Crypto only (Node 20+, Deno, Bun, edge runtimes).
 */
const encoder = new TextEncoder();

function subtle(): SubtleCrypto {
  return globalThis.crypto.subtle;
}

export function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  globalThis.crypto.getRandomValues(bytes);
  return bytes;
}

export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

/** Node's `Buffer` (Node, Bun, Deno's Node mode), whose base64url coding is native: far cheaper than `btoa`. */
interface NodeBufferClass {
  from(bytes: ArrayBufferLike, offset: number, length: number): { toString(encoding: "base64url"): string };
  from(text: string, encoding: "utf8"): { toString(encoding: "base64url"): string };
  from(text: string, encoding: "base64url"): Uint8Array;
}
const NodeBuffer = (globalThis as { Buffer?: NodeBufferClass }).Buffer;

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Base64url without padding (RFC 4648 §5), natively where `Buffer` exists. */
export function toBase64Url(bytes: Uint8Array): string {
  return NodeBuffer
    ? NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url")
    : toBase64UrlPortable(bytes);
}

/** The UTF-8 bytes of `text` as base64url without padding: natively in one step where `Buffer` exists. */
export function utf8ToBase64Url(text: string): string {
  return NodeBuffer ? NodeBuffer.from(text, "utf8").toString("base64url") : toBase64UrlPortable(encoder.encode(text));
}

/** Bytes per `String.fromCharCode` call: well under every engine's limit on arguments. */
const CHARS_PER_CALL = 0x2000;

/** {@link toBase64Url} on `btoa` alone, for runtimes without `Buffer`. */
export function toBase64UrlPortable(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += CHARS_PER_CALL) {
    // apply, not a spread: a spread walks the bytes through an iterator, an object per byte.
    binary += String.fromCharCode.apply(null, bytes.subarray(at, at + CHARS_PER_CALL) as unknown as number[]);
  }
  const base64 = btoa(binary);
  let end = base64.length;
  while (end > 0 && base64.charCodeAt(end - 1) === 61) end -= 1;
  return base64.slice(0, end).replaceAll("+", "-").replaceAll("/", "_");
}

/** The bytes of base64url text, or null when it holds a character outside the alphabet. */
export function fromBase64Url(text: string): Uint8Array | null {
  // Buffer would skip a stray character, or a lone last one, silently: both are refused here.
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  return NodeBuffer ? new Uint8Array(NodeBuffer.from(text, "base64url")) : fromBase64UrlPortable(text);
}

/** {@link fromBase64Url} on `atob` alone, for runtimes without `Buffer`. */
export function fromBase64UrlPortable(text: string): Uint8Array | null {
  if (!BASE64URL.test(text)) return null;
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  try {
    const binary = atob(padded);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/**
 * Node's own `createHash`/`createHmac`, when the runtime offers them through
 * `process.getBuiltinModule` (Node 20.16+, 22.3+; Bun): synchronous and far cheaper than Web
 * Crypto, whose every call is a job on the thread pool. This is on the request path twice (the
 * key's hash, the list cursor's MAC). Elsewhere (edge runtimes, older Node) Web Crypto is used; both
 * give the same bytes.
 */
interface NodeDigest {
  update(data: string): NodeDigest;
  digest(): Uint8Array;
  digest(encoding: "hex"): string;
}
interface NodeCrypto {
  createHash(algorithm: "sha256"): NodeDigest;
  createHmac(algorithm: "sha256", key: string): NodeDigest;
}

function loadNodeCrypto(): NodeCrypto | null {
  try {
    const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const candidate = runtime?.getBuiltinModule?.("node:crypto") as Partial<NodeCrypto> | undefined;
    return typeof candidate?.createHash === "function" && typeof candidate.createHmac === "function"
      ? (candidate as NodeCrypto)
      : null;
  } catch {
    return null;
  }
}

const nodeCrypto = loadNodeCrypto();

/** Whether the Node fast path is in use (for tests). */
export const usesNodeCrypto = nodeCrypto !== null;

export async function sha256HexWeb(text: string): Promise<string> {
  return toHex(new Uint8Array(await subtle().digest("SHA-256", encoder.encode(text))));
}

export async function sha256Hex(text: string): Promise<string> {
  return sha256HexNow(text) ?? sha256HexWeb(text);
}

/** {@link sha256Hex} at once where Node's hash is at hand; null elsewhere (use the promise). */
export function sha256HexNow(text: string): string | null {
  return nodeCrypto ? nodeCrypto.createHash("sha256").update(text).digest("hex") : null;
}

/** An HMAC-SHA256 signer bound to one key; the imported key is reused across calls. */
export interface HmacSigner {
  sign(text: string): Promise<Uint8Array>;
}

export function createHmacSigner(secret: string): HmacSigner {
  const node = nodeCrypto;
  if (node) {
    return {
      async sign(text) {
        return new Uint8Array(node.createHmac("sha256", secret).update(text).digest());
      },
    };
  }
  return createHmacSignerWeb(secret);
}

export function createHmacSignerWeb(secret: string): HmacSigner {
  const key = subtle().importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return {
    async sign(text) {
      return new Uint8Array(await subtle().sign("HMAC", await key, encoder.encode(text)));
    },
  };
}

/** Compares two byte strings in time that depends only on their length. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

/**
 * An HMAC-SHA256 key for jose's HS256, imported once through Web Crypto. Given raw bytes, jose
 * imports the key again on every sign and verify; a CV link is signed per listed application, so
 * a signer keeps the promise this returns and awaits it each time. The key cannot be exported.
 */
export function hs256Key(secret: string): Promise<CryptoKey> {
  const key = subtle().importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
  // Kept for later: a refused secret rejects where the key is awaited, not as an unhandled rejection.
  key.catch(() => {});
  return key;
}
