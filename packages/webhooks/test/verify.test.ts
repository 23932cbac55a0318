import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildSignatureHeader } from "../src/delivery/delivery-request";
import { computeSignature, computeSignatureWeb, usesNodeCrypto } from "../src/signing/signature";
import {
  parseEvent,
  signPayload,
  signStandardPayload,
  verifySignature,
  verifyStandardSignature,
  WebhookVerificationError,
} from "../src/verify/index";
import { sampleJob, samplePayload } from "./support/outbox";
import { rejectionOf } from "./support/rejection";

const secret = "whsec_dGVzdC1zZWNyZXQtZm9yLXZlcmlmeS10ZXN0cy0xMjM0NTY3OA";
const other = "whsec_b3RoZXItc2VjcmV0LWZvci12ZXJpZnktdGVzdHMtMTIzNDU2Nzg";
const now = new Date("2026-03-01T09:00:00.000Z");
const payload = samplePayload("job.created", sampleJob(), now);

const rejection = (promise: Promise<unknown>) => rejectionOf(promise, WebhookVerificationError);

describe("verifySignature", () => {
  it("accepts the dispatcher's signature, non-ASCII payload included", async () => {
    const header = await buildSignatureHeader(payload, [{ secret, expiresAt: null }], now);
    const result = await verifySignature({ payload, header, secret, now });
    expect(result).toEqual({ timestamp: now, secret });
    // The same bytes given as a Uint8Array (what a receiver reading the raw body has).
    await expect(verifySignature({ payload: Buffer.from(payload, "utf8"), header, secret, now })).resolves.toEqual({
      timestamp: now,
      secret,
    });
  });

  it("matches the documented recipe: HMAC-SHA256 over `t.body`, keyed with the whole whsec_ string, hex", async () => {
    const { createHmac } = await import("node:crypto");
    const t = Math.floor(now.getTime() / 1000);
    const expected = createHmac("sha256", secret).update(`${t}.${payload}`).digest("hex");
    expect(await signPayload({ payload, secret, timestamp: now })).toBe(`t=${t},v1=${expected}`);
    expect(await buildSignatureHeader(payload, [{ secret, expiresAt: null }], now)).toBe(`t=${t},v1=${expected}`);
  });

  it("computes the same bytes on node:crypto and on Web Crypto, for text and for bytes", async () => {
    // The fast path is on wherever Node offers process.getBuiltinModule (20.16+, 22.3+).
    expect(usesNodeCrypto).toBe(typeof process.getBuiltinModule === "function");
    const t = Math.floor(now.getTime() / 1000);
    for (const body of [payload, Buffer.from(payload, "utf8"), "", "Zoë 日本語 🎉"]) {
      const web = await computeSignatureWeb(secret, t, body);
      expect(web).toHaveLength(32);
      expect(Buffer.from(await computeSignature(secret, t, body))).toEqual(Buffer.from(web));
    }
    // Different time, payload or secret: a different signature.
    const base = Buffer.from(await computeSignature(secret, t, payload));
    expect(Buffer.from(await computeSignature(secret, t + 1, payload))).not.toEqual(base);
    expect(Buffer.from(await computeSignature(other, t, payload))).not.toEqual(base);
    expect(Buffer.from(await computeSignature(secret, t, `${payload} `))).not.toEqual(base);
  });

  it("signs with every secret still signing at the time, the current one first", async () => {
    const t = Math.floor(now.getTime() / 1000);
    const header = await buildSignatureHeader(
      payload,
      [
        { secret, expiresAt: null },
        { secret: other, expiresAt: new Date(now.getTime() + 1) },
        { secret: "whsec_gone", expiresAt: now },
      ],
      now,
    );
    expect(header).toBe(await signPayload({ payload, secret: [secret, other], timestamp: t * 1000 }));
  });

  it("refuses a payload changed by one character, or re-encoded with \\u escapes", async () => {
    const header = await signPayload({ payload, secret, timestamp: now });
    const escaped = payload.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    expect(escaped).not.toBe(payload);
    expect(JSON.parse(escaped)).toEqual(JSON.parse(payload));
    expect((await rejection(verifySignature({ payload: escaped, header, secret, now }))).code).toBe(
      "signature_mismatch",
    );
    expect((await rejection(verifySignature({ payload: `${payload} `, header, secret, now }))).code).toBe(
      "signature_mismatch",
    );
  });

  it("refuses the wrong secret", async () => {
    const header = await signPayload({ payload, secret, timestamp: now });
    expect((await rejection(verifySignature({ payload, header, secret: other, now }))).code).toBe("signature_mismatch");
  });

  it("accepts any of several v1 entries (rotation) and any of several secrets", async () => {
    const header = await signPayload({ payload, secret: [other, secret], timestamp: now });
    expect(header.match(/v1=/g)).toHaveLength(2);
    await expect(verifySignature({ payload, header, secret, now })).resolves.toMatchObject({ secret });
    await expect(verifySignature({ payload, header, secret: other, now })).resolves.toMatchObject({ secret: other });
    const single = await signPayload({ payload, secret: other, timestamp: now });
    await expect(verifySignature({ payload, header: single, secret: [secret, other], now })).resolves.toMatchObject({
      secret: other,
    });
  });

  it("ignores unknown schemes and garbage v1 entries beside a good one", async () => {
    const good = await signPayload({ payload, secret, timestamp: now });
    const header = `${good},v0=abc,v1=zz,v1=${"0".repeat(64)}`;
    await expect(verifySignature({ payload, header, secret, now })).resolves.toMatchObject({ secret });
  });

  it("refuses a t further than the tolerance, in the past or the future (300 s default)", async () => {
    const header = await signPayload({ payload, secret, timestamp: now });
    const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
    await expect(verifySignature({ payload, header, secret, now: at(300) })).resolves.toBeTruthy();
    await expect(verifySignature({ payload, header, secret, now: at(-300) })).resolves.toBeTruthy();
    expect((await rejection(verifySignature({ payload, header, secret, now: at(301) }))).code).toBe(
      "timestamp_out_of_tolerance",
    );
    expect((await rejection(verifySignature({ payload, header, secret, now: at(-301) }))).code).toBe(
      "timestamp_out_of_tolerance",
    );
    await expect(
      verifySignature({ payload, header, secret, now: at(3600), toleranceSeconds: 3600 }),
    ).resolves.toBeTruthy();
  });

  it("refuses a missing or malformed header", async () => {
    for (const header of [undefined, null, "", "  "]) {
      expect((await rejection(verifySignature({ payload, header, secret, now }))).code).toBe("missing_header");
    }
    for (const header of ["v1=abc", "t=abc,v1=abc", "t=1,t=2,v1=abc", `t=${now.getTime() / 1000}`, "garbage"]) {
      expect((await rejection(verifySignature({ payload, header, secret, now }))).code).toBe("malformed_header");
    }
  });

  it("loads nothing a Web runtime lacks: verify/index.ts and the modules it loads import no node: module and no package", () => {
    const src = new URL("../src/", import.meta.url);
    const loaded = runtimeModules(new URL("verify/index.ts", src));
    // The verify entry and the signature schemes it shares with the dispatcher, nothing more.
    expect([...loaded.keys()].map((path) => path.slice(src.pathname.length)).sort()).toEqual([
      "signing/signature.ts",
      "signing/standard-signature.ts",
      "verify/index.ts",
    ]);
    for (const [path, source] of loaded) {
      expect(source, path).not.toMatch(/from\s+["']node:/);
      expect(source, path).not.toMatch(/require\(/);
      expect(source, path).not.toMatch(/\bimport\(/);
    }
  });
});

/** Specifiers a module loads at run time: imports and re-exports that are not `type`-only, side-effect imports. */
function runtimeSpecifiers(source: string): string[] {
  const fromClauses = source.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?\sfrom\s+["']([^"']+)["']/gms);
  const bare = source.matchAll(/^import\s+["']([^"']+)["']/gm);
  return [...fromClauses, ...bare].map((match) => match[1] ?? "");
}

/**
 * The modules loaded at run time from `entry`, itself included, by path, with their sources.
 * Type-only imports (the wire types of @hireport/core) are erased; anything else must be a module of
 * this package, which is then followed.
 */
function runtimeModules(entry: URL): Map<string, string> {
  const loaded = new Map<string, string>();
  const visit = (url: URL): void => {
    if (loaded.has(url.pathname)) return;
    const source = readFileSync(url, "utf8");
    loaded.set(url.pathname, source);
    for (const specifier of runtimeSpecifiers(source)) {
      expect(specifier, `${url.pathname} loads ${specifier} at run time`).toMatch(/^\.\.?\//);
      visit(new URL(`${specifier}.ts`, url));
    }
  };
  visit(entry);
  return loaded;
}

describe("parseEvent", () => {
  it("parses an envelope into a typed event", () => {
    const event = parseEvent(payload);
    expect(event.type).toBe("job.created");
    if (event.type === "job.created") expect(event.data.title).toBe("Développeuse — Zoë Ångström 日本語 🎉");
    const test = parseEvent(
      JSON.stringify({ ...JSON.parse(payload), type: "webhook.test", data: { endpoint_id: "we_1" } }),
    );
    expect(test.type === "webhook.test" && test.data.endpoint_id).toBe("we_1");
    expect(parseEvent(new TextEncoder().encode(payload)).id).toBe("evt_1");
  });

  it.each([
    ["not json", "{"],
    ["not an object", "[]"],
    ["no id", JSON.stringify({ ...JSON.parse(payload), id: undefined })],
    ["unknown type", JSON.stringify({ ...JSON.parse(payload), type: "job.deleted" })],
    ["no data", JSON.stringify({ ...JSON.parse(payload), data: null })],
  ])("refuses %s", (_name, body) => {
    expect(() => parseEvent(body)).toThrowError(WebhookVerificationError);
    try {
      parseEvent(body);
    } catch (error) {
      expect((error as WebhookVerificationError).code).toBe("invalid_payload");
    }
  });
});

describe("verifyStandardSignature", () => {
  const v1 = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  const signed = (key: string | string[], at = now) =>
    signStandardPayload({ id: "dlv_1", payload, key, timestamp: at });

  it("accepts a v1 signature under any of the given keys, with a Web Headers or a plain object", async () => {
    const headers = await signed(v1);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    await expect(verifyStandardSignature({ payload, headers, key: v1, now })).resolves.toEqual({
      id: "dlv_1",
      timestamp: now,
      key: v1,
    });
    const web = new Headers(headers);
    await expect(verifyStandardSignature({ payload, headers: web, key: [other, v1], now })).resolves.toMatchObject({
      key: v1,
    });
  });

  it("refuses what does not check out, each with its code", async () => {
    const headers = await signed(v1);
    const { "webhook-id": _id, ...withoutId } = headers;
    expect((await rejection(verifyStandardSignature({ payload, headers: withoutId, key: v1, now }))).code).toBe(
      "missing_header",
    );
    const notSeconds = { ...headers, "webhook-timestamp": "2026-03-01" };
    expect((await rejection(verifyStandardSignature({ payload, headers: notSeconds, key: v1, now }))).code).toBe(
      "malformed_header",
    );
    const otherVersion = { ...headers, "webhook-signature": headers["webhook-signature"]?.replace("v1,", "v2,") };
    expect((await rejection(verifyStandardSignature({ payload, headers: otherVersion, key: v1, now }))).code).toBe(
      "malformed_header",
    );
    const late = new Date(now.getTime() + 301_000);
    expect((await rejection(verifyStandardSignature({ payload, headers, key: v1, now: late }))).code).toBe(
      "timestamp_out_of_tolerance",
    );
    // A signature of another id does not verify: the id is signed.
    const moved = { ...headers, "webhook-id": "dlv_2" };
    expect((await rejection(verifyStandardSignature({ payload, headers: moved, key: v1, now }))).code).toBe(
      "signature_mismatch",
    );
    await expect(verifyStandardSignature({ payload, headers, key: [], now })).rejects.toBeInstanceOf(TypeError);
  });
});
