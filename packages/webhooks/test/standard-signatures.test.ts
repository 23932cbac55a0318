/**
 * Standard Webhooks signatures (`"standard-v1"`, `"standard-v1a"`) on real deliveries: the
 * dispatcher sends to a local receiver over https and the received requests are checked with code
 * that is not hireport's: the official `standardwebhooks` package for `v1`, `@noble/ed25519`
 * against the JWKS served over HTTP for `v1a`. Then `@hireport/webhooks/verify` on the same requests.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as ed from "@noble/ed25519";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createWebhookDispatcher, jwksHandler, type WebhookDispatcher, type WebhookJwks } from "../src/index";
import { verifySignature, verifyStandardSignature, WebhookVerificationError } from "../src/verify/index";
import { COMPANY, type DeliveryFixture } from "./support/fixture";
import type { ReceivedRequest } from "./support/receiver";
import { storageSuite } from "./support/storage-suite";
import { memoryFactory, storageFactories } from "./support/storages";

const HOUR = 3_600_000;

/** The request's headers as strings, for libraries that take a plain record. */
function plainHeaders(request: ReceivedRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

/** Runs `check` with `Date.now()` at the fixture clock's time (the libraries check the timestamp against it). */
function atClock<T>(f: DeliveryFixture, check: () => T): T {
  const spy = vi.spyOn(Date, "now").mockReturnValue(f.clock.now().getTime());
  try {
    return check();
  } finally {
    spy.mockRestore();
  }
}

/** The `v1a` entries of a `webhook-signature` header, as bytes. */
function v1aSignatures(header: string): Uint8Array[] {
  return header
    .split(" ")
    .filter((entry) => entry.startsWith("v1a,"))
    .map((entry) => new Uint8Array(Buffer.from(entry.slice(4), "base64")));
}

/** Whether any `v1a` entry verifies, with @noble/ed25519, under any key of `jwks` whose kid is the endpoint's. */
async function nobleVerifies(request: ReceivedRequest, jwks: WebhookJwks, endpointId: string): Promise<boolean> {
  const signed = new Uint8Array(
    Buffer.concat([
      Buffer.from(`${request.headers["webhook-id"]}.${request.headers["webhook-timestamp"]}.`),
      request.body,
    ]),
  );
  for (const key of jwks.keys.filter((jwk) => jwk.kid.startsWith(`${endpointId}.`))) {
    expect(key).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" });
    const publicKey = new Uint8Array(Buffer.from(key.x, "base64url"));
    for (const signature of v1aSignatures(String(request.headers["webhook-signature"]))) {
      if (await ed.verifyAsync(signature, signed, publicKey)) return true;
    }
  }
  return false;
}

/** Serves `jwksHandler` over real HTTP on a free local port; the company is the first path segment. */
async function serveJwks(dispatcher: WebhookDispatcher): Promise<{ origin: string; server: Server }> {
  const handler = jwksHandler(dispatcher, { companyId: (request) => request.path.split("/")[1] || null });
  const server = createServer(async (req, res) => {
    const answer = await handler.handle({ method: req.method ?? "GET", path: req.url ?? "/", headers: req.headers });
    res.writeHead(answer.status, answer.headers).end(answer.body as string);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function fetchJwks(origin: string, companyId = COMPANY): Promise<WebhookJwks> {
  const response = await fetch(`${origin}/${companyId}/jwks.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/jwk-set+json");
  return (await response.json()) as WebhookJwks;
}

type GuideVerifier = (
  body: Buffer,
  headers: ReceivedRequest["headers"],
  jwks: WebhookJwks,
  endpointId: string,
  toleranceSeconds?: number,
) => string;

/** The receiver guide's by-hand v1a check, the block marked `<!-- tested: standard-v1a-by-hand -->`, loaded as written. */
async function guideVerifier(): Promise<GuideVerifier> {
  const guide = readFileSync(new URL("../../../docs/receiver-guide.md", import.meta.url), "utf8");
  const code = /<!-- tested: standard-v1a-by-hand -->\n```js\n([\s\S]*?)\n```/.exec(guide)?.[1];
  if (!code) throw new Error("docs/receiver-guide.md has no block marked standard-v1a-by-hand");
  const file = join(mkdtempSync(join(tmpdir(), "hireport-guide-")), "verify-v1a.mjs");
  writeFileSync(file, code);
  return ((await import(pathToFileURL(file).href)) as { verifyV1a: GuideVerifier }).verifyV1a;
}

describe.each(storageFactories())("Standard Webhooks signatures on $name", (factory) => {
  const suite = storageSuite(factory);
  const { receiver, fixture } = suite;

  async function standardEndpoint(f: DeliveryFixture, url: string, scheme: "standard-v1" | "standard-v1a") {
    const { endpoint, secret } = await f.dispatcher.endpoints.create({
      companyId: COMPANY,
      url,
      events: ["job.created"],
      signatureScheme: scheme,
    });
    return { endpoint, secret };
  }

  it("standard-v1: a delivery the official standardwebhooks package verifies, with the webhook-* headers", async () => {
    const r = await receiver();
    const f = await fixture();
    const { endpoint, secret } = await standardEndpoint(f, `${r.origin}/v1`, "standard-v1");
    expect(endpoint).toMatchObject({ signatureScheme: "standard-v1", publicKey: null });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const { deliveryIds, payload } = await f.emit("job.created", "Zoë — 日本語 🎉");
    expect(await f.dispatcher.runOnce()).toMatchObject({ succeeded: 1 });

    const [request] = r.requests;
    if (!request) throw new Error("no request");
    expect(request.headers["webhook-id"]).toBe(deliveryIds[0]);
    expect(request.headers["webhook-timestamp"]).toBe(String(Math.floor(f.clock.now().getTime() / 1000)));
    expect(String(request.headers["webhook-signature"])).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(request.headers["service-signature"]).toBeUndefined();
    expect(request.headers["service-event"]).toBe("job.created");

    const verified = atClock(f, () => new Webhook(secret).verify(request.body.toString("utf8"), plainHeaders(request)));
    expect(verified).toEqual(JSON.parse(payload));
    // The same check refuses a body changed by one byte.
    expect(() =>
      atClock(f, () => new Webhook(secret).verify(`${request.body.toString("utf8")} `, plainHeaders(request))),
    ).toThrow();

    await expect(
      verifyStandardSignature({ payload: request.body, headers: request.headers, key: secret, now: f.clock.now() }),
    ).resolves.toEqual({
      id: deliveryIds[0],
      timestamp: new Date(Math.floor(f.clock.now().getTime() / 1000) * 1000),
      key: secret,
    });
  });

  it("standard-v1: after rotateSecret both secrets sign (two v1 entries) during the grace period, then only the new one", async () => {
    const r = await receiver();
    const f = await fixture();
    const { endpoint, secret: oldSecret } = await standardEndpoint(f, r.origin, "standard-v1");
    const { secret: newSecret } = await f.dispatcher.endpoints.rotateSecret(COMPANY, endpoint.id);
    expect(newSecret).not.toBe(oldSecret);

    await f.emit();
    await f.dispatcher.runOnce();
    const during = r.requests[0];
    if (!during) throw new Error("no request");
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const secret of [oldSecret, newSecret]) {
      expect(() =>
        atClock(f, () => new Webhook(secret).verify(during.body.toString("utf8"), plainHeaders(during))),
      ).not.toThrow();
    }

    f.clock.advance(24 * HOUR + 1000);
    await f.emit();
    await f.dispatcher.runOnce();
    const after = r.requests[1];
    if (!after) throw new Error("no second request");
    expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(() =>
      atClock(f, () => new Webhook(newSecret).verify(after.body.toString("utf8"), plainHeaders(after))),
    ).not.toThrow();
    expect(() =>
      atClock(f, () => new Webhook(oldSecret).verify(after.body.toString("utf8"), plainHeaders(after))),
    ).toThrow();
  });

  it("standard-v1a: a delivery @noble/ed25519 verifies against the JWKS served over HTTP; the private key never shows", async () => {
    const r = await receiver();
    const f = await fixture();
    const { endpoint, secret } = await standardEndpoint(f, r.origin, "standard-v1a");
    expect(secret).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint.publicKey).toBe(secret);
    expect(endpoint.secretHint).toBe(`${secret.slice(0, 10)}…`);
    expect((await f.dispatcher.endpoints.revealSecret(COMPANY, endpoint.id)).secret).toBe(secret);
    // Stored as a whsk_ private key, which no view shows.
    const stored = await f.storage.webhooks.getEndpoint(COMPANY, endpoint.id);
    expect(stored?.secrets[0]?.secret).toMatch(/^whsk_/);
    expect(JSON.stringify(await f.dispatcher.endpoints.get(COMPANY, endpoint.id))).not.toContain("whsk_");

    const { deliveryIds } = await f.emit();
    expect(await f.dispatcher.runOnce()).toMatchObject({ succeeded: 1 });
    const [request] = r.requests;
    if (!request) throw new Error("no request");
    expect(request.headers["webhook-id"]).toBe(deliveryIds[0]);
    expect(String(request.headers["webhook-signature"])).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/);

    const served = await serveJwks(f.dispatcher);
    suite.defer(() => new Promise((resolve) => served.server.close(resolve)));
    const jwks = await fetchJwks(served.origin);
    expect(jwks.keys).toHaveLength(1);
    expect(Buffer.from(jwks.keys[0]?.x ?? "", "base64url").toString("base64")).toBe(secret.slice(5));
    expect(await nobleVerifies(request, jwks, endpoint.id)).toBe(true);
    // Another company's key set is empty; the same check fails on a changed body.
    expect((await fetchJwks(served.origin, "co_other")).keys).toEqual([]);
    expect(
      await nobleVerifies({ ...request, body: Buffer.concat([request.body, Buffer.from(" ")]) }, jwks, endpoint.id),
    ).toBe(false);

    // The receiver guide's by-hand check (node:crypto), as written.
    const verifyV1a = await guideVerifier();
    expect(atClock(f, () => verifyV1a(request.body, request.headers, jwks, endpoint.id))).toBe(jwks.keys[0]?.kid);
    expect(() =>
      atClock(f, () => verifyV1a(Buffer.concat([request.body, Buffer.from(" ")]), request.headers, jwks, endpoint.id)),
    ).toThrow("signature mismatch");

    for (const key of [secret, jwks, jwks.keys[0] ?? secret]) {
      await expect(
        verifyStandardSignature({ payload: request.body, headers: request.headers, key, now: f.clock.now() }),
      ).resolves.toMatchObject({ id: deliveryIds[0] });
    }
    await expect(
      verifyStandardSignature({
        payload: `${request.body.toString("utf8")} `,
        headers: request.headers,
        key: secret,
        now: f.clock.now(),
      }),
    ).rejects.toMatchObject({ code: "signature_mismatch" });
  });

  it("standard-v1a: after rotateSecret two keys sign and both are in the JWKS during the grace period; then one", async () => {
    const r = await receiver();
    const f = await fixture();
    const { endpoint, secret: oldKey } = await standardEndpoint(f, r.origin, "standard-v1a");
    const rotated = await f.dispatcher.endpoints.rotateSecret(COMPANY, endpoint.id);
    expect(rotated.secret).toMatch(/^whpk_/);
    expect(rotated.secret).not.toBe(oldKey);
    expect(rotated.endpoint.publicKey).toBe(rotated.secret);

    const served = await serveJwks(f.dispatcher);
    suite.defer(() => new Promise((resolve) => served.server.close(resolve)));
    await f.emit();
    await f.dispatcher.runOnce();
    const during = r.requests[0];
    if (!during) throw new Error("no request");
    expect(v1aSignatures(String(during.headers["webhook-signature"]))).toHaveLength(2);
    const both = await fetchJwks(served.origin);
    expect(both.keys).toHaveLength(2);
    for (const jwk of both.keys) {
      expect(await nobleVerifies(during, { keys: [jwk] }, endpoint.id)).toBe(true);
    }

    f.clock.advance(24 * HOUR + 1000);
    await f.emit();
    await f.dispatcher.runOnce();
    const after = r.requests[1];
    if (!after) throw new Error("no second request");
    expect(v1aSignatures(String(after.headers["webhook-signature"]))).toHaveLength(1);
    const one = await fetchJwks(served.origin);
    expect(one.keys).toHaveLength(1);
    expect(Buffer.from(one.keys[0]?.x ?? "", "base64url").toString("base64")).toBe(rotated.secret.slice(5));
    expect(await nobleVerifies(after, one, endpoint.id)).toBe(true);
    await expect(
      verifyStandardSignature({ payload: after.body, headers: after.headers, key: oldKey, now: f.clock.now() }),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it("changing the scheme replaces the key material and the headers; the default stays service", async () => {
    const r = await receiver();
    const f = await fixture();
    const { id, secret } = await f.endpoint(r.origin);
    expect((await f.dispatcher.endpoints.get(COMPANY, id)).signatureScheme).toBe("service");
    const updated = await f.dispatcher.endpoints.update(COMPANY, id, { signatureScheme: "standard-v1" });
    expect(updated.signatureScheme).toBe("standard-v1");
    const { secret: standardSecret } = await f.dispatcher.endpoints.revealSecret(COMPANY, id);
    expect(standardSecret).not.toBe(secret);
    await f.emit();
    await f.dispatcher.runOnce();
    const request = r.requests[0];
    if (!request) throw new Error("no request");
    expect(request.headers["service-signature"]).toBeUndefined();
    expect(() =>
      atClock(f, () => new Webhook(standardSecret).verify(request.body.toString("utf8"), plainHeaders(request))),
    ).not.toThrow();

    await f.dispatcher.endpoints.update(COMPANY, id, { signatureScheme: "service" });
    const { secret: serviceSecret } = await f.dispatcher.endpoints.revealSecret(COMPANY, id);
    await f.emit();
    await f.dispatcher.runOnce();
    const back = r.requests[1];
    if (!back) throw new Error("no second request");
    expect(back.headers["webhook-signature"]).toBeUndefined();
    const header = String(back.headers["service-signature"]);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    await expect(
      verifySignature({ payload: back.body, header, secret: serviceSecret, now: f.clock.now() }),
    ).resolves.toMatchObject({ secret: serviceSecret });

    await expect(f.dispatcher.endpoints.update(COMPANY, id, { signatureScheme: "v2" as never })).rejects.toMatchObject({
      code: "invalid",
      fields: [{ field: "signatureScheme" }],
    });
  });
});

describe("Standard Webhooks keys sealed at rest", () => {
  const suite = storageSuite(memoryFactory);

  it("seals the ed25519 private key like a secret; the dispatcher without the key cannot sign nor list it", async () => {
    const r = await suite.receiver();
    const keys = [{ id: "k1", key: Buffer.alloc(32, 7).toString("base64") }];
    const f = await suite.fixture({ encryptionKeys: keys });
    const { endpoint, secret } = await f.dispatcher.endpoints.create({
      companyId: COMPANY,
      url: r.origin,
      events: ["job.created"],
      signatureScheme: "standard-v1a",
    });
    const stored = await f.storage.webhooks.getEndpoint(COMPANY, endpoint.id);
    expect(stored?.secrets[0]?.secret).toMatch(/^enc:v1:k1:/);
    expect(
      (await f.dispatcher.jwks(COMPANY)).keys.map((jwk) => Buffer.from(jwk.x, "base64url").toString("base64")),
    ).toEqual([secret.slice(5)]);
    const blind = createWebhookDispatcher({ storage: f.storage, logger: { warn: () => {}, error: () => {} } });
    suite.defer(() => blind.stop());
    expect(await blind.jwks(COMPANY)).toEqual({ keys: [] });
    expect((await blind.endpoints.get(COMPANY, endpoint.id)).publicKey).toBe("");
  });

  it("jwksHandler answers 405 to a POST and 404 when the host names no company", async () => {
    const f = await suite.fixture();
    const handler = jwksHandler(f.dispatcher, { companyId: () => null });
    expect((await handler.handle({ method: "POST", path: "/", headers: {} })).status).toBe(405);
    const missing = await handler.handle({ method: "GET", path: "/", headers: {} });
    expect(missing.status).toBe(404);
    expect(JSON.parse(String(missing.body))).toMatchObject({ error: { code: "not_found" } });
    const response = await jwksHandler(f.dispatcher, { companyId: COMPANY }).fetch(new Request("http://x/jwks.json"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ keys: [] });
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});
