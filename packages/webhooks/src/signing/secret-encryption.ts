/**
 * Signing secrets at rest: sealed with AES-256-GCM (`node:crypto`) under a key the host supplies,
 * so that a copy of the database (a backup, a read replica, a leaked dump) does not hold them.
 *
 * A sealed secret is `enc:v1:<key id>:<base64url of IV (12 bytes), ciphertext, tag (16 bytes)>`,
 * with the endpoint's id as additional data: a sealed value copied to another endpoint's row does
 * not open. New secrets are sealed with the first key; any listed key opens what it sealed (key
 * rotation: put the new key first, keep the old ones until `reencryptSecrets()` has run). A secret
 * stored before keys were given (plain `whsec_…`) still opens as it is.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { WebhookEndpointRecord, WebhookSecret } from "../store/webhook-records";
import type { WebhookStorage } from "../store/webhook-storage";

/** One key for sealing secrets: an id (stored with what it sealed) and 32 bytes. */
export interface SecretEncryptionKey {
  /** Letters, digits, `.`, `_` and `-`, up to 64 characters: `"2026-01"`. Stored with each sealed secret. */
  id: string;
  /** 32 bytes, or their base64 (`openssl rand -base64 32`). */
  key: string | Uint8Array;
}

/** A key as the dispatcher keeps it: the 32 bytes decoded. */
export interface ResolvedSecretKey {
  readonly id: string;
  readonly key: Uint8Array;
}

/** Thrown when a stored secret cannot be opened: its key is not given, or it does not open with it. */
export class SecretKeyError extends Error {
  override readonly name = "SecretKeyError";
  readonly code = "ERR_HIREPORT_SECRET_KEY";
}

const SEALED = "enc:v1:";
const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Checks `encryptionKeys` and decodes them; a `TypeError` names what is wrong. */
export function resolveSecretKeys(input: readonly SecretEncryptionKey[] | undefined): readonly ResolvedSecretKey[] {
  if (input === undefined) return Object.freeze([]);
  if (!Array.isArray(input)) throw new TypeError("encryptionKeys must be a list of { id, key }");
  const seen = new Set<string>();
  return Object.freeze(
    input.map(({ id, key }: SecretEncryptionKey, index) => {
      if (typeof id !== "string" || !KEY_ID.test(id)) {
        throw new TypeError(`encryptionKeys[${index}].id must be 1 to 64 letters, digits, '.', '_' or '-'`);
      }
      if (seen.has(id)) throw new TypeError(`encryptionKeys: the id ${JSON.stringify(id)} is given twice`);
      seen.add(id);
      const bytes = typeof key === "string" ? new Uint8Array(Buffer.from(key, "base64")) : key;
      if (!(bytes instanceof Uint8Array) || bytes.byteLength !== 32) {
        throw new TypeError(`encryptionKeys[${index}].key must be 32 bytes, or their base64 (openssl rand -base64 32)`);
      }
      return Object.freeze({ id, key: Uint8Array.from(bytes) });
    }),
  );
}

/** Seals and opens one dispatcher's secrets with its keys. */
export interface SecretBox {
  /** True when new secrets are sealed (keys were given). */
  readonly seals: boolean;
  /** The secret as stored: sealed with the first key, or as it is without keys. */
  seal(endpointId: string, secret: string): string;
  /** The endpoint's secrets, opened. @throws SecretKeyError when one cannot be opened */
  open(record: Pick<WebhookEndpointRecord, "id" | "secrets">): WebhookSecret[];
  /** The record with its secrets opened, or `""` for any that cannot be (for views, which must not fail). */
  openForView(record: WebhookEndpointRecord): WebhookEndpointRecord;
  /** The secrets sealed with the first key, or null when they are already. @throws SecretKeyError */
  reseal(record: Pick<WebhookEndpointRecord, "id" | "secrets">): WebhookSecret[] | null;
}

const additionalData = (endpointId: string) => Buffer.from(`hireport webhook secret ${endpointId}`);

export function createSecretBox(keys: readonly ResolvedSecretKey[]): SecretBox {
  const [current] = keys;
  const byId = new Map(keys.map((key) => [key.id, key.key]));

  function sealWith(key: ResolvedSecretKey, endpointId: string, secret: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", key.key, iv);
    cipher.setAAD(additionalData(endpointId));
    const body = Buffer.concat([iv, cipher.update(secret, "utf8"), cipher.final(), cipher.getAuthTag()]);
    return `${SEALED}${key.id}:${body.toString("base64url")}`;
  }

  function openOne(endpointId: string, stored: string): string {
    if (!stored.startsWith(SEALED)) return stored;
    const rest = stored.slice(SEALED.length);
    const at = rest.indexOf(":");
    const keyId = rest.slice(0, at);
    const key = byId.get(keyId);
    if (at < 0 || !key) {
      throw new SecretKeyError(
        `The signing secret of webhook endpoint ${endpointId} is encrypted with the key ${JSON.stringify(keyId)}, ` +
          `which is not among the dispatcher's encryptionKeys (${keys.length ? keys.map((k) => k.id).join(", ") : "none given"}).`,
      );
    }
    const body = Buffer.from(rest.slice(at + 1), "base64url");
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, body.subarray(0, IV_BYTES));
      decipher.setAAD(additionalData(endpointId));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      const plain = decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES));
      return Buffer.concat([plain, decipher.final()]).toString("utf8");
    } catch {
      throw new SecretKeyError(
        `The signing secret of webhook endpoint ${endpointId} does not decrypt with the key ${JSON.stringify(keyId)}: ` +
          "the key is not the one that encrypted it, or the stored value was altered.",
      );
    }
  }

  const isCurrent = (stored: string) => current !== undefined && stored.startsWith(`${SEALED}${current.id}:`);

  return {
    seals: current !== undefined,
    seal: (endpointId, secret) => (current ? sealWith(current, endpointId, secret) : secret),
    open: (record) => record.secrets.map((secret) => ({ ...secret, secret: openOne(record.id, secret.secret) })),
    openForView(record) {
      const secrets = record.secrets.map((secret) => {
        try {
          return { ...secret, secret: openOne(record.id, secret.secret) };
        } catch {
          return { ...secret, secret: "" };
        }
      });
      return { ...record, secrets };
    },
    reseal(record) {
      if (!current || record.secrets.every((secret) => isCurrent(secret.secret))) return null;
      return record.secrets.map((secret) =>
        isCurrent(secret.secret)
          ? secret
          : { ...secret, secret: sealWith(current, record.id, openOne(record.id, secret.secret)) },
      );
    },
  };
}

/** What `reencryptSecrets()` did. */
export interface ReencryptResult {
  /** Endpoints read (every endpoint of every company). */
  endpoints: number;
  /** Endpoints whose secrets were written again, sealed with the first key. */
  reencrypted: number;
}

export interface ReencryptOptions {
  /** Endpoints read and written per batch. @default 100 */
  batchSize?: number;
}

/** Attempts to write one endpoint's secrets while rotations race with it. */
const CAS_ATTEMPTS = 5;

/**
 * Seals every endpoint's secrets with the first key: those stored in plaintext and those sealed
 * with an older key. Walks every company's endpoints by id in batches (`listEndpointsAfter`) and
 * writes each changed endpoint with a compare-and-set (`replaceEndpointSecrets`), reading it again
 * when a rotation got there first. Safe to run twice, and beside running dispatchers: a second run
 * finds nothing to do.
 */
export async function reencryptSecrets(
  storage: WebhookStorage,
  box: SecretBox,
  options: ReencryptOptions = {},
): Promise<ReencryptResult> {
  const batchSize = options.batchSize ?? 100;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new TypeError("batchSize must be a positive integer");
  if (!box.seals) throw new TypeError("reencryptSecrets needs encryptionKeys: there is no key to seal with");
  const result: ReencryptResult = { endpoints: 0, reencrypted: 0 };
  let after: string | null = null;
  for (;;) {
    const batch = await storage.webhooks.listEndpointsAfter(after, batchSize);
    for (const endpoint of batch) {
      result.endpoints += 1;
      let record: WebhookEndpointRecord | null = endpoint;
      for (let attempt = 1; record; attempt += 1) {
        const sealed = box.reseal(record);
        if (!sealed) break;
        if (await storage.webhooks.replaceEndpointSecrets(record.companyId, record.id, record.secrets, sealed)) {
          result.reencrypted += 1;
          break;
        }
        if (attempt === CAS_ATTEMPTS) {
          throw new Error(
            `The secrets of webhook endpoint ${record.id} kept changing while being re-encrypted: run again.`,
          );
        }
        record = await storage.webhooks.getEndpoint(record.companyId, record.id);
      }
    }
    if (batch.length < batchSize) return result;
    after = batch[batch.length - 1]?.id ?? null;
  }
}
