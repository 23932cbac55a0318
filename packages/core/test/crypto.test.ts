import { jwtVerify, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { hashKey } from "../src/access/key-hash";
import {
  createHmacSigner,
  createHmacSignerWeb,
  fromBase64Url,
  fromBase64UrlPortable,
  hs256Key,
  sha256Hex,
  sha256HexNow,
  sha256HexWeb,
  toBase64Url,
  toBase64UrlPortable,
  usesNodeCrypto,
  utf8ToBase64Url,
} from "../src/model/crypto";
import { CursorCodec } from "../src/model/cursor";

const samples = ["", "svc_live_abc123", "é ü ✓ 日本語 🚀", "x".repeat(10_000), "line\nbreak\u0000nul"];

describe("crypto fast path", () => {
  it("uses Node's own crypto on Node (no Web Crypto job per request)", () => {
    expect(usesNodeCrypto).toBe(true);
  });

  it("encodes base64url exactly as Node's Buffer does, at every length and back", () => {
    for (const length of [0, 1, 2, 3, 4, 5, 16, 31, 0x2000 - 1, 0x2000, 0x2000 + 1, 50_000]) {
      const bytes = new Uint8Array(length);
      crypto.getRandomValues(bytes.subarray(0, Math.min(length, 65_536)));
      const text = toBase64Url(bytes);
      expect(text).toBe(Buffer.from(bytes).toString("base64url"));
      expect(toBase64UrlPortable(bytes)).toBe(text);
      expect(fromBase64Url(text)).toEqual(bytes);
      expect(fromBase64UrlPortable(text)).toEqual(bytes);
      // A view into a larger buffer encodes only its own bytes.
      const framed = new Uint8Array(length + 6);
      framed.set(bytes, 3);
      expect(toBase64Url(framed.subarray(3, 3 + length))).toBe(text);
    }
  });

  it("encodes text's UTF-8 bytes as base64url exactly as the portable path does", () => {
    for (const text of samples) {
      const expected = toBase64UrlPortable(new TextEncoder().encode(text));
      expect(utf8ToBase64Url(text)).toBe(expected);
      expect(new TextDecoder().decode(fromBase64Url(expected) ?? undefined)).toBe(text);
    }
  });

  it("refuses base64url text with a character outside the alphabet, on both paths", () => {
    for (const text of ["abc=", "ab+c", "ab/c", "a b", "abc.", "é", "a", "abcde"]) {
      expect(fromBase64Url(text)).toBeNull();
      expect(fromBase64UrlPortable(text)).toBeNull();
    }
  });

  it("hashes a key at once exactly as the promise does", async () => {
    for (const sample of samples) expect(sha256HexNow(sample)).toBe(await sha256HexWeb(sample));
  });

  it("hashes keys exactly as Web Crypto does", async () => {
    for (const text of samples) {
      expect(await sha256Hex(text)).toBe(await sha256HexWeb(text));
    }
    // Key hashes stored by an earlier version (Web Crypto) still match.
    expect(await hashKey("svc_live_abc123")).toBe(await sha256HexWeb("svc_live_abc123"));
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("signs exactly as Web Crypto HMAC-SHA256 does", async () => {
    for (const secret of ["s".repeat(32), "ünïcödé-secret-0123456789-abcdefgh"]) {
      const node = createHmacSigner(secret);
      const web = createHmacSignerWeb(secret);
      for (const text of samples) {
        expect(Array.from(await node.sign(text))).toEqual(Array.from(await web.sign(text)));
      }
    }
  });

  it("keeps cursors issued before the change valid", async () => {
    const codec = new CursorCodec("c".repeat(40));
    const position = { at: new Date("2026-01-02T03:04:05.678Z"), id: "app_1" };
    const cursor = await codec.encode("applications|acme|job_id=|stage=|updated_since=", position);
    // The same cursor built with Web Crypto, as the earlier version did.
    const [text] = cursor.split(".");
    const mac = (await createHmacSignerWeb(`hireport-cursor:${"c".repeat(40)}`).sign(text as string)).slice(0, 16);
    let binary = "";
    for (const byte of mac) binary += String.fromCharCode(byte);
    expect(cursor).toBe(`${text}.${btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`);
    expect(await codec.decode("applications|acme|job_id=|stage=|updated_since=", cursor)).toEqual(position);
  });

  it("gives HS256 tokens identical to jose's raw-key ones, so links signed before stay valid", async () => {
    const secret = "a-secret-of-forty-characters-0123456789";
    const key = await hs256Key(secret);
    const raw = new TextEncoder().encode(secret);
    const token = (signWith: CryptoKey | Uint8Array) =>
      new SignJWT({ cid: "co_1" }).setProtectedHeader({ alg: "HS256" }).setIssuedAt(1_700_000_000).sign(signWith);
    expect(await token(key)).toBe(await token(raw));
    expect((await jwtVerify(await token(raw), key)).payload.cid).toBe("co_1");
    await expect(jwtVerify(await token(raw), await hs256Key(`${secret}x`))).rejects.toThrow();
  });
});
