/**
 * `@hireport/webhooks/verify`: what a receiver needs to check and read hireport webhooks.
 *
 * Runs in Node 20+ and in Web runtimes (Cloudflare Workers, Deno, Bun, Vercel Edge, browsers):
 * it imports no Node module and needs only Web Crypto (`globalThis.crypto.subtle`) and
 * `TextEncoder`. The signature scheme itself is `./signature`, the very code the dispatcher signs
 * with (which uses `node:crypto` where the runtime offers it, for speed).
 *
 * ```ts
 * const body = await request.text(); // the raw body, before any JSON parsing
 * await verifySignature({ payload: body, header: request.headers.get("service-signature"), secret });
 * const event = parseEvent(body);
 * ```
 *
 * Endpoints signed with Standard Webhooks (`"standard-v1"`, `"standard-v1a"`) are checked with
 * {@link verifyStandardSignature} instead.
 */
import type { ApplicationWire, JobWire } from "@hireport/core";
import { signatureFromHex, signatureHeader, signatureMatches } from "../signing/signature";
import {
  constantTimeEqual,
  ed25519Verify,
  fromBase64,
  keyBytes,
  PUBLIC_KEY_PREFIX,
  SECRET_PREFIX,
  standardHmac,
  standardSignatureHeader,
  standardSignedBytes,
} from "../signing/standard-signature";

/** Why a signature or a payload was refused. */
export type WebhookVerificationErrorCode =
  /** No signature header was sent (Standard Webhooks: `webhook-id`, `webhook-timestamp` or `webhook-signature`). */
  | "missing_header"
  /**
   * The header is not `t=<unix seconds>,v1=<hex>[,v1=<hex>…]` (Standard Webhooks: the timestamp is
   * not unix seconds, or no `v1,`/`v1a,` entry is in `webhook-signature`).
   */
  | "malformed_header"
  /** `t` is further than the tolerance from now (a replay, or a clock far off). */
  | "timestamp_out_of_tolerance"
  /** No `v1` entry matches the payload under any of the given secrets. */
  | "signature_mismatch"
  /** The payload is not a JSON webhook envelope (from `parseEvent`). */
  | "invalid_payload";

/** The one error `verifySignature` and `parseEvent` throw. Answer 400 to the sender when you catch it. */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  readonly code: WebhookVerificationErrorCode;

  constructor(code: WebhookVerificationErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export interface VerifySignatureOptions {
  /** The raw request body exactly as received: a string, or its bytes. Never re-serialized JSON. */
  payload: string | Uint8Array;
  /** The value of the `Service-Signature` header (or your prefix's `…-Signature`). */
  header: string | null | undefined;
  /**
   * Your endpoint's signing secret, the whole `whsec_…` string. Several secrets may be given, for
   * example while you roll a new one out on your side; any one matching is enough.
   */
  secret: string | readonly string[];
  /** Largest accepted distance between `t` and now, in seconds, both ways. @default 300 */
  toleranceSeconds?: number;
  /** The current time. @default new Date() */
  now?: Date | number;
}

/** What a valid signature tells. */
export interface VerifiedSignature {
  /** The signing time `t`. */
  timestamp: Date;
  /** The secret that matched (useful to know when a rotated-out secret can be dropped). */
  secret: string;
}

/** The parts of a signature header: `t` and every `v1` entry. Other schemes are ignored. */
export function parseSignatureHeader(header: string): { timestamp: number; signatures: string[] } {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const index = part.indexOf("=");
    if (index <= 0) continue;
    const key = part.slice(0, index).trim();
    const value = part.slice(index + 1).trim();
    if (key === "t") {
      if (!/^\d{1,12}$/.test(value) || timestamp !== null) {
        throw new WebhookVerificationError("malformed_header", "The signature header has an invalid t= entry.");
      }
      timestamp = Number(value);
    } else if (key === "v1") {
      signatures.push(value);
    }
  }
  if (timestamp === null) throw new WebhookVerificationError("malformed_header", "The signature header has no t=.");
  if (signatures.length === 0) {
    throw new WebhookVerificationError("malformed_header", "The signature header has no v1= entry.");
  }
  return { timestamp, signatures };
}

/**
 * Checks a webhook signature. Resolves with the signing time and the matching secret; rejects with
 * a {@link WebhookVerificationError} otherwise (never resolves to a boolean you could forget to
 * check). Each `v1` entry is compared in constant time with the signature the dispatcher's own
 * code computes; `t` must be within `toleranceSeconds` of now, in the past or the future.
 */
export async function verifySignature(options: VerifySignatureOptions): Promise<VerifiedSignature> {
  const { header } = options;
  if (header === null || header === undefined || header.trim() === "") {
    throw new WebhookVerificationError("missing_header", "No signature header was sent.");
  }
  const secrets = typeof options.secret === "string" ? [options.secret] : [...options.secret];
  if (secrets.length === 0 || secrets.some((secret) => typeof secret !== "string" || secret === "")) {
    throw new TypeError("verifySignature needs the endpoint's signing secret (whsec_…).");
  }
  const { timestamp, signatures } = parseSignatureHeader(header);
  const tolerance = options.toleranceSeconds ?? 300;
  const nowMs = options.now === undefined ? Date.now() : new Date(options.now).getTime();
  if (Math.abs(nowMs / 1000 - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      "timestamp_out_of_tolerance",
      `The signature time is more than ${tolerance} seconds from now.`,
    );
  }
  const candidates = signatures.map(signatureFromHex).filter((bytes): bytes is Uint8Array => bytes !== null);
  for (const secret of secrets) {
    if (await signatureMatches(secret, timestamp, options.payload, candidates)) {
      return { timestamp: new Date(timestamp * 1000), secret };
    }
  }
  throw new WebhookVerificationError("signature_mismatch", "No signature matches the payload.");
}

export interface SignPayloadOptions {
  payload: string | Uint8Array;
  /** One secret, or several (one `v1` entry each, in order). */
  secret: string | readonly string[];
  /** The signing time. @default new Date() */
  timestamp?: Date | number;
}

/**
 * Builds a signature header the way the dispatcher does: `t=<unix>,v1=<hex>[,v1=<hex>…]`. For
 * receivers' tests (sign a fixture, post it to your handler, expect it accepted).
 */
export async function signPayload(options: SignPayloadOptions): Promise<string> {
  const secrets = typeof options.secret === "string" ? [options.secret] : [...options.secret];
  const time = options.timestamp === undefined ? Date.now() : new Date(options.timestamp).getTime();
  return signatureHeader(options.payload, secrets, Math.floor(time / 1000));
}

/** An ed25519 public key as a JWK (RFC 8037): what `dispatcher.jwks()` serves. */
export interface Ed25519Jwk {
  kty: "OKP";
  crv: "Ed25519";
  /** The 32-byte public key, base64url. */
  x: string;
  kid?: string;
}

/**
 * A key a Standard Webhooks signature is checked with: a `whsec_…` secret (`v1`), a `whpk_…`
 * public key or an ed25519 JWK (`v1a`).
 */
export type StandardVerificationKey = string | Ed25519Jwk;

/** Request headers: a Web `Headers`, or a plain object such as Node's `request.headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyStandardSignatureOptions {
  /** The raw request body exactly as received: a string, or its bytes. Never re-serialized JSON. */
  payload: string | Uint8Array;
  /** The request's headers; `webhook-id`, `webhook-timestamp` and `webhook-signature` are read. */
  headers: WebhookHeaders;
  /**
   * What to check with: the endpoint's `whsec_…` secret (`"standard-v1"`), or its public key
   * (`"standard-v1a"`: `whpk_…`, a JWK, or a whole JWKS `{ keys }` as `dispatcher.jwks()` returns
   * it). Several may be given; any one matching is enough.
   */
  key: StandardVerificationKey | { keys: readonly Ed25519Jwk[] } | readonly StandardVerificationKey[];
  /** Largest accepted distance between `webhook-timestamp` and now, in seconds, both ways. @default 300 */
  toleranceSeconds?: number;
  /** The current time. @default new Date() */
  now?: Date | number;
}

/** What a valid Standard Webhooks signature tells. */
export interface VerifiedStandardSignature {
  /** `webhook-id`: the same on every attempt of a delivery; drop repeats by it. */
  id: string;
  /** `webhook-timestamp`. */
  timestamp: Date;
  /** The key that matched, as given (a JWK as its `kid` when it has one, else its `x`). */
  key: string;
}

function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const found = Object.keys(bag).find((key) => key.toLowerCase() === name);
  const value = found === undefined ? undefined : bag[found];
  return Array.isArray(value) ? value.join(" ") : value;
}

function standardKeys(key: VerifyStandardSignatureOptions["key"]): StandardVerificationKey[] {
  if (typeof key === "string") return [key];
  if (Array.isArray(key)) return [...(key as readonly StandardVerificationKey[])];
  if (key && typeof key === "object" && "keys" in key && Array.isArray(key.keys)) return [...key.keys];
  return [key as StandardVerificationKey];
}

/**
 * Checks a Standard Webhooks 1.0 signature (`webhook-signature: v1,<base64> v1a,<base64> …` over
 * `${webhook-id}.${webhook-timestamp}.${body}`). Resolves with the id, the time and the matching
 * key; rejects with a {@link WebhookVerificationError} otherwise. `v1` entries are compared in
 * constant time; `v1a` entries are checked with Web Crypto's Ed25519.
 */
export async function verifyStandardSignature(
  options: VerifyStandardSignatureOptions,
): Promise<VerifiedStandardSignature> {
  const id = headerValue(options.headers, "webhook-id")?.trim();
  const time = headerValue(options.headers, "webhook-timestamp")?.trim();
  const header = headerValue(options.headers, "webhook-signature")?.trim();
  if (!id || !time || !header) {
    throw new WebhookVerificationError(
      "missing_header",
      "The webhook-id, webhook-timestamp and webhook-signature headers are required.",
    );
  }
  const keys = standardKeys(options.key);
  if (keys.length === 0 || keys.some((key) => key === "" || (typeof key !== "string" && typeof key?.x !== "string"))) {
    throw new TypeError("verifyStandardSignature needs the endpoint's whsec_ secret or its public key.");
  }
  if (!/^\d{1,12}$/.test(time)) {
    throw new WebhookVerificationError("malformed_header", "The webhook-timestamp header is not unix seconds.");
  }
  const timestamp = Number(time);
  const entries = header
    .split(" ")
    .map((entry) => {
      const comma = entry.indexOf(",");
      return { version: entry.slice(0, comma), signature: fromBase64(entry.slice(comma + 1)) };
    })
    .filter((entry) => entry.version === "v1" || entry.version === "v1a");
  if (entries.length === 0) {
    throw new WebhookVerificationError("malformed_header", "The webhook-signature header has no v1 or v1a entry.");
  }
  const tolerance = options.toleranceSeconds ?? 300;
  const nowMs = options.now === undefined ? Date.now() : new Date(options.now).getTime();
  if (Math.abs(nowMs / 1000 - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      "timestamp_out_of_tolerance",
      `The webhook timestamp is more than ${tolerance} seconds from now.`,
    );
  }
  const signed = standardSignedBytes(id, timestamp, options.payload);
  for (const key of keys) {
    if (typeof key === "string" && key.startsWith(SECRET_PREFIX)) {
      const secret = keyBytes(key, SECRET_PREFIX);
      if (!secret) throw new TypeError("The whsec_ secret is not base64.");
      const expected = await standardHmac(secret, signed);
      let matched = false;
      for (const entry of entries) {
        if (entry.version === "v1" && entry.signature)
          matched = constantTimeEqual(entry.signature, expected) || matched;
      }
      if (matched) return { id, timestamp: new Date(timestamp * 1000), key };
      continue;
    }
    const publicKey = typeof key === "string" ? keyBytes(key, PUBLIC_KEY_PREFIX) : fromBase64(key.x);
    if (!publicKey)
      throw new TypeError("A Standard Webhooks key is a whsec_ secret, a whpk_ public key or an ed25519 JWK.");
    for (const entry of entries) {
      if (entry.version === "v1a" && entry.signature && (await ed25519Verify(publicKey, entry.signature, signed))) {
        return { id, timestamp: new Date(timestamp * 1000), key: typeof key === "string" ? key : (key.kid ?? key.x) };
      }
    }
  }
  throw new WebhookVerificationError("signature_mismatch", "No signature matches the payload.");
}

export interface SignStandardPayloadOptions {
  /** The value of `webhook-id`. */
  id: string;
  payload: string | Uint8Array;
  /**
   * One key or several, one entry each in order: a `whsec_…` secret signs a `v1` entry, a `whsk_…`
   * ed25519 private key a `v1a` entry.
   */
  key: string | readonly string[];
  /** The signing time. @default new Date() */
  timestamp?: Date | number;
}

/**
 * The three Standard Webhooks headers the dispatcher sends (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`), for receivers' tests: sign a fixture, post it to your handler.
 */
export async function signStandardPayload(options: SignStandardPayloadOptions): Promise<Record<string, string>> {
  const keys = typeof options.key === "string" ? [options.key] : [...options.key];
  const time = options.timestamp === undefined ? Date.now() : new Date(options.timestamp).getTime();
  const timestamp = Math.floor(time / 1000);
  return {
    "webhook-id": options.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": await standardSignatureHeader(options.id, timestamp, options.payload, keys),
  };
}

/** The Job object (docs/api-reference.md, Job), as carried by job events. */
export type WebhookJob = JobWire;

/** The Application object (docs/api-reference.md, Application), as carried by application events. */
export type WebhookApplication = ApplicationWire;

interface EnvelopeBase<TType extends string, TData> {
  /** `evt_…`: drop repeats by this id (events may arrive more than once). */
  id: string;
  type: TType;
  created_at: string;
  company_id: string;
  api_version: string;
  data: TData;
}

/** A parsed webhook envelope (docs/api-reference.md, The envelope); narrow on `type`. */
export type WebhookEvent =
  | EnvelopeBase<"application.created" | "application.updated", WebhookApplication>
  | EnvelopeBase<"job.created" | "job.updated" | "job.closed", WebhookJob>
  | EnvelopeBase<"webhook.test", { endpoint_id: string }>;

export type WebhookEventType = WebhookEvent["type"];

/** Every event type a receiver may get: the five of docs/api-reference.md, Events, and `webhook.test`. */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [
  "application.created",
  "application.updated",
  "job.created",
  "job.updated",
  "job.closed",
  "webhook.test",
];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Parses a webhook body into a typed envelope. Checks the envelope (id, type, times, company,
 * version, an object in `data`); the fields inside `data` are trusted as the API's wire shapes.
 * Throws a {@link WebhookVerificationError} with code `invalid_payload` otherwise, including for an
 * event type this version does not know (answer 2xx to such events if you only want to skip them).
 * Call it after {@link verifySignature}, on the same raw body.
 */
export function parseEvent(payload: string | Uint8Array): WebhookEvent {
  let value: unknown;
  try {
    value = JSON.parse(typeof payload === "string" ? payload : new TextDecoder().decode(payload));
  } catch {
    throw new WebhookVerificationError("invalid_payload", "The webhook body is not JSON.");
  }
  if (!isObject(value)) throw new WebhookVerificationError("invalid_payload", "The webhook body is not an object.");
  const { id, type, created_at, company_id, api_version, data } = value;
  for (const [name, field] of Object.entries({ id, type, created_at, company_id, api_version })) {
    if (typeof field !== "string" || field === "") {
      throw new WebhookVerificationError("invalid_payload", `The webhook envelope has no ${name}.`);
    }
  }
  if (!WEBHOOK_EVENT_TYPES.includes(type as WebhookEventType)) {
    throw new WebhookVerificationError("invalid_payload", `Unknown webhook event type ${String(type)}.`);
  }
  if (!isObject(data)) throw new WebhookVerificationError("invalid_payload", "The webhook envelope has no data.");
  return value as unknown as WebhookEvent;
}
