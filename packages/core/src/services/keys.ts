import { type ChangeOptions, hostActor } from "../access/actor";
import { hashKey, KEY_PREFIX } from "../access/key-hash";
import { isScope } from "../access/scopes";
import { HireportError, notFound, unknownCompany } from "../base/errors";
import { randomBytes, toBase64Url } from "../model/crypto";
import type { ApiKeyRecord, Scope } from "../model/domain";
import { newId } from "../model/ids";
import type { Runtime } from "../runtime/runtime";
import { recordAudit } from "./audit-log";

const KEY_RANDOM_BYTES = 32;
/** Characters of the key kept in clear, to tell keys apart in listings. */
const SHOWN_PREFIX_LENGTH = KEY_PREFIX.length + 6;
/** Characters of the end of the key kept in clear, shown after the prefix. */
const SHOWN_SUFFIX_LENGTH = 4;

export interface CreateKeyInput {
  companyId: string;
  /** Shown in listings and in the stage history of the changes the key makes (1 to 200 characters). */
  name: string;
  /** At least one of jobs:read, jobs:write, applications:read, applications:write. */
  scopes: Scope[];
  /** After this time the key answers 401 expired_key. @default null (never expires) */
  expiresAt?: Date | null;
}

export interface CreatedKey {
  /** The secret key, `svc_live_…`. Shown once: only its hash is stored. */
  key: string;
  record: ApiKeyRecord;
}

/** Key management for the host (docs/api-reference.md, Keys and permissions): create, list, revoke. */
export class KeyService {
  readonly #runtime: Runtime;

  constructor(runtime: Runtime) {
    this.#runtime = runtime;
  }

  /**
   * Creates a key and returns the secret once. Refuses (409 key_limit) when the company already has
   * its maximum of active keys (10 by default), also under concurrent creates. Records `key.created`
   * in the audit list with `options.actor` (@default "host").
   */
  async create(input: CreateKeyInput, options?: ChangeOptions): Promise<CreatedKey> {
    const now = this.#runtime.clock.now();
    const fields = [];
    const name = typeof input.name === "string" ? input.name.trim() : "";
    if (name.length === 0 || name.length > 200)
      fields.push({ field: "name", message: "Give the key a name of 1 to 200 characters." });
    const scopes = Array.isArray(input.scopes) ? [...new Set(input.scopes)] : [];
    if (scopes.length === 0 || !scopes.every((scope) => isScope(scope))) {
      fields.push({
        field: "scopes",
        message: "Choose at least one of jobs:read, jobs:write, applications:read, applications:write.",
      });
    }
    const expiresAt = input.expiresAt ?? null;
    if (expiresAt !== null && (!(expiresAt instanceof Date) || Number.isNaN(expiresAt.getTime()) || expiresAt <= now)) {
      fields.push({ field: "expiresAt", message: "The expiry must be a date in the future, or null." });
    }
    if (fields.length > 0) throw new HireportError("invalid", "The key cannot be created as asked.", { fields });

    const { storage, limits } = this.#runtime;
    if (!(await storage.companies.get(input.companyId))) throw unknownCompany(input.companyId);
    const key = `${KEY_PREFIX}${toBase64Url(randomBytes(KEY_RANDOM_BYTES))}`;
    const record: ApiKeyRecord = {
      id: newId("key", now),
      companyId: input.companyId,
      name,
      scopes,
      hash: await hashKey(key),
      prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
      suffix: key.slice(-SHOWN_SUFFIX_LENGTH),
      createdAt: now,
      expiresAt,
      revokedAt: null,
      lastUsedAt: null,
    };
    const actor = hostActor(options);
    const outcome = await storage.transaction(async (tx) => {
      const inserted = await tx.keys.insert(record, { maxActive: limits.activeKeysPerCompany, now });
      if (inserted === "inserted") {
        await recordAudit(
          tx,
          {
            companyId: record.companyId,
            actor,
            action: "key.created",
            target: { type: "key", id: record.id },
            details: { scopes: record.scopes, expires_at: record.expiresAt?.toISOString() ?? null },
          },
          now,
        );
      }
      return inserted;
    });
    if (outcome === "limit_reached") {
      throw new HireportError(
        "key_limit",
        `The company already has ${limits.activeKeysPerCompany} active keys; revoke one before creating another.`,
      );
    }
    return { key, record };
  }

  /**
   * Revokes a key at once: its next request answers 401 invalid_key. Revoking twice is harmless (and
   * recorded once). Records `key.revoked` in the audit list with `options.actor` (@default "host").
   */
  async revoke(companyId: string, keyId: string, options?: ChangeOptions): Promise<ApiKeyRecord> {
    const now = this.#runtime.clock.now();
    return this.#runtime.storage.transaction(async (tx) => {
      const record = await tx.keys.revoke(companyId, keyId, now);
      if (!record) throw notFound("key");
      // A second revoke keeps the first time: only the revoke that set it is recorded.
      if (record.revokedAt?.getTime() === now.getTime()) {
        const target = { type: "key", id: keyId };
        await recordAudit(tx, { companyId, actor: hostActor(options), action: "key.revoked", target }, now);
      }
      return record;
    });
  }

  /** Active (not revoked, not expired) keys a company may have at once (`limits.activeKeysPerCompany`). */
  get maxActive(): number {
    return this.#runtime.limits.activeKeysPerCompany;
  }

  /** Every key of the company, revoked ones included, newest first. Never the secrets. */
  list(companyId: string): Promise<ApiKeyRecord[]> {
    return this.#runtime.storage.keys.list(companyId);
  }

  async get(companyId: string, keyId: string): Promise<ApiKeyRecord> {
    const record = await this.#runtime.storage.keys.get(companyId, keyId);
    if (!record) throw notFound("key");
    return record;
  }
}
