/**
 * Signing secrets sealed at rest with the host's keys, on every storage: what the database holds
 * (a raw read on SQLite, Postgres and MariaDB), signing, key rotation with `reencryptSecrets`, and
 * the errors of a missing or wrong key.
 */
import { randomBytes } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { createWebhookDispatcher, SecretKeyError, type WebhookDispatcherOptions } from "../src/index";
import { createSecretBox, resolveSecretKeys } from "../src/signing/secret-encryption";
import type { WebhookStorage } from "../src/store/webhook-storage";
import { verifySignature } from "../src/verify/index";
import { COMPANY, type DeliveryFixture } from "./support/fixture";
import type { SqlStorageFactory } from "./support/kysely-factories";
import type { Receiver } from "./support/receiver";
import { storageSuite } from "./support/storage-suite";
import { type StorageFactory, storageFactories } from "./support/storages";

const K1 = { id: "k1", key: randomBytes(32).toString("base64") };
const K2 = { id: "2026-02", key: randomBytes(32).toString("base64url") };
const K3 = { id: "k3", key: new Uint8Array(randomBytes(32)) };

describe.each(storageFactories())("signing secrets at rest on $name", (factory: StorageFactory) => {
  const suite = storageSuite(factory);
  const { fixture } = suite;
  let r: Receiver;
  beforeEach(async () => {
    r = await suite.receiver();
  });

  /** Another dispatcher (another process, another configuration) on the same storage and clock. */
  function dispatcherOn(f: DeliveryFixture, overrides: Partial<WebhookDispatcherOptions>) {
    const other = createWebhookDispatcher({ ...f.dispatcher.options, encryptionKeys: [], ...overrides });
    suite.defer(() => other.stop());
    return other;
  }

  /**
   * The `secrets` text of every endpoint as the database holds it: a raw SQL read past the storage
   * where there is a database, the stored record otherwise (the memory storage keeps what it got).
   */
  async function storedSecrets(storage: WebhookStorage, ids: readonly string[]): Promise<string[]> {
    const db = (factory as Partial<SqlStorageFactory>).db?.();
    const location = (factory as Partial<SqlStorageFactory>).location?.();
    if (db && location) {
      const rows = await db
        .selectFrom(`${location.tablePrefix}webhook_endpoint`)
        .select(["id", "secrets"])
        .where("id", "in", [...ids])
        .orderBy("id")
        .execute();
      return rows.map((row: { secrets: string }) => String(row.secrets));
    }
    return Promise.all(
      ids.map(async (id) => JSON.stringify((await storage.webhooks.getEndpoint(COMPANY, id))?.secrets)),
    );
  }

  /** Sends one event to every endpoint and checks each signature against the secret given for it. */
  async function expectSigned(f: DeliveryFixture, dispatcher = f.dispatcher, secrets: Record<string, string[]>) {
    const before = r.requests.length;
    await f.emit();
    expect(await dispatcher.runOnce()).toMatchObject({ succeeded: Object.keys(secrets).length });
    for (const request of r.requests.slice(before)) {
      const path = request.path.slice(1);
      const header = String(request.headers["service-signature"]);
      for (const secret of secrets[path] ?? []) {
        await expect(
          verifySignature({ payload: request.body, header, secret, now: f.clock.now() }),
        ).resolves.toBeTruthy();
      }
    }
  }

  it("a raw read of the database holds no secret, only its sealed form; signing still verifies", async () => {
    const f = await fixture({ encryptionKeys: [K1] });
    const { endpoint, secret } = await f.dispatcher.endpoints.create({
      companyId: COMPANY,
      url: `${r.origin}/a`,
      events: ["job.created"],
    });
    const [stored] = await storedSecrets(f.storage, [endpoint.id]);
    expect(stored).toContain("enc:v1:k1:");
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain("whsec_");
    expect(endpoint.secretHint).toBe(`${secret.slice(0, 10)}…`);
    expect((await f.dispatcher.endpoints.get(COMPANY, endpoint.id)).secretHint).toBe(`${secret.slice(0, 10)}…`);
    await expectSigned(f, f.dispatcher, { a: [secret] });

    // A rotation: the new secret is sealed too, and both sign during the grace period.
    const rotated = await f.dispatcher.endpoints.rotateSecret(COMPANY, endpoint.id);
    const [after] = await storedSecrets(f.storage, [endpoint.id]);
    expect(after).not.toContain(rotated.secret);
    expect(after).not.toContain(secret);
    expect(after?.match(/enc:v1:k1:/g)).toHaveLength(2);
    await expectSigned(f, f.dispatcher, { a: [secret, rotated.secret] });
  });

  it("key rotation: the new key first seals, the old one still opens; reencryptSecrets moves every endpoint, twice is a no-op", async () => {
    const f = await fixture({ encryptionKeys: [K1] });
    const plain = dispatcherOn(f, { encryptionKeys: [] });
    const create = (dispatcher: typeof plain, path: string) =>
      dispatcher.endpoints.create({ companyId: COMPANY, url: `${r.origin}/${path}`, events: ["job.created"] });
    // One endpoint from before encryption was turned on, two sealed with k1.
    const legacy = await create(plain, "legacy");
    const first = await create(f.dispatcher, "first");
    const second = await create(f.dispatcher, "second");
    const ids = [legacy.endpoint.id, first.endpoint.id, second.endpoint.id];
    expect((await storedSecrets(f.storage, [legacy.endpoint.id]))[0]).toContain(legacy.secret);

    // The new key goes first; k1 stays to open what it sealed.
    const next = dispatcherOn(f, { encryptionKeys: [K2, K1] });
    await expectSigned(f, next, { legacy: [legacy.secret], first: [first.secret], second: [second.secret] });
    const rotated = await next.endpoints.rotateSecret(COMPANY, second.endpoint.id);
    const [rotatedRow] = await storedSecrets(f.storage, [second.endpoint.id]);
    expect(rotatedRow).toContain(`enc:v1:${K2.id}:`);
    expect(rotatedRow).toContain("enc:v1:k1:");

    expect(await next.reencryptSecrets({ batchSize: 2 })).toEqual({ endpoints: 3, reencrypted: 3 });
    for (const row of await storedSecrets(f.storage, ids)) {
      expect(row).not.toContain("enc:v1:k1:");
      expect(row).not.toContain("whsec_");
      expect(row).toContain(`enc:v1:${K2.id}:`);
    }
    expect(await next.reencryptSecrets({ batchSize: 2 })).toEqual({ endpoints: 3, reencrypted: 0 });

    // k1 can go now: the new key alone opens everything.
    const only = dispatcherOn(f, { encryptionKeys: [K2] });
    await expectSigned(f, only, {
      legacy: [legacy.secret],
      first: [first.secret],
      second: [second.secret, rotated.secret],
    });
  });

  it("a missing or wrong key fails clearly: the attempt records why, nothing is sent, views still answer", async () => {
    const f = await fixture({ encryptionKeys: [K1] });
    const { endpoint, deliveryIds } = await (async () => {
      const created = await f.dispatcher.endpoints.create({
        companyId: COMPANY,
        url: `${r.origin}/a`,
        events: ["job.created"],
      });
      return { endpoint: created.endpoint, deliveryIds: (await f.emit()).deliveryIds };
    })();
    const cases: Array<[Partial<WebhookDispatcherOptions>, RegExp]> = [
      [
        { encryptionKeys: [K3] },
        /^Not sent: The signing secret of webhook endpoint we_\w+ is encrypted with the key "k1", which is not among the dispatcher's encryptionKeys \(k3\)\.$/,
      ],
      [{ encryptionKeys: [] }, /is encrypted with the key "k1", which is not among .* \(none given\)/],
      [
        { encryptionKeys: [{ id: "k1", key: randomBytes(32) }] },
        /does not decrypt with the key "k1": the key is not the one that encrypted it/,
      ],
    ];
    const quiet = { warn: () => undefined, error: () => undefined };
    for (const [overrides, error] of cases) {
      const other = dispatcherOn(f, { ...overrides, logger: quiet });
      await f.dispatcher.deliveries.resend(COMPANY, deliveryIds[0] ?? "");
      expect(await other.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
      const attempts = await other.deliveries.attempts(COMPANY, deliveryIds[0] ?? "");
      expect(attempts.at(-1)).toMatchObject({ statusCode: null, succeeded: false });
      expect(attempts.at(-1)?.error).toMatch(error);
      expect(await other.endpoints.get(COMPANY, endpoint.id)).toMatchObject({ id: endpoint.id, secretHint: "" });
    }
    expect(r.requests).toHaveLength(0);
    await expect(dispatcherOn(f, { encryptionKeys: [K3] }).reencryptSecrets()).rejects.toBeInstanceOf(SecretKeyError);
    await expect(dispatcherOn(f, { logger: quiet }).reencryptSecrets()).rejects.toThrow(/needs encryptionKeys/);
    // With the right key the delivery goes out.
    await f.dispatcher.deliveries.resend(COMPANY, deliveryIds[0] ?? "");
    expect(await f.dispatcher.runOnce()).toMatchObject({ succeeded: 1 });
  });

  it("without encryptionKeys: secrets are stored as they are, and the dispatcher says so once", async () => {
    const warnings: string[] = [];
    const f = await fixture({ logger: { warn: (message) => void warnings.push(message), error: () => undefined } });
    const { endpoint, secret } = await f.dispatcher.endpoints.create({
      companyId: COMPANY,
      url: `${r.origin}/a`,
      events: ["job.created"],
    });
    expect((await storedSecrets(f.storage, [endpoint.id]))[0]).toContain(secret);
    await expectSigned(f, f.dispatcher, { a: [secret] });
    expect(warnings.filter((message) => /stored in plaintext; pass encryptionKeys/.test(message))).toHaveLength(1);
  });
});

describe("secret sealing", () => {
  it("checks encryptionKeys at creation", () => {
    const resolve = (keys: unknown) => () => resolveSecretKeys(keys as never);
    expect(resolve([{ id: "k1", key: "too short" }])).toThrow(/encryptionKeys\[0\]\.key must be 32 bytes/);
    expect(resolve([{ id: "k1", key: randomBytes(16) }])).toThrow(/must be 32 bytes/);
    expect(resolve([{ id: "a:b", key: K1.key }])).toThrow(/encryptionKeys\[0\]\.id/);
    expect(resolve([K1, { ...K2, id: "k1" }])).toThrow(/given twice/);
    expect(resolve({ id: "k1" })).toThrow(/a list/);
    expect(resolveSecretKeys([K1, K2, K3]).map((key) => key.id)).toEqual(["k1", "2026-02", "k3"]);
  });

  it("a sealed secret opens only for its endpoint, and each sealing differs", () => {
    const box = createSecretBox(resolveSecretKeys([K1]));
    const secret = "whsec_c2VhbGluZy10ZXN0LXNlY3JldC0wMTIzNDU2Nzg5MDEyMzQ1Njc4OQ";
    const sealed = box.seal("we_one", secret);
    expect(box.seal("we_one", secret)).not.toBe(sealed);
    expect(box.open({ id: "we_one", secrets: [{ secret: sealed, expiresAt: null }] })[0]?.secret).toBe(secret);
    expect(() => box.open({ id: "we_two", secrets: [{ secret: sealed, expiresAt: null }] })).toThrow(SecretKeyError);
  });
});
