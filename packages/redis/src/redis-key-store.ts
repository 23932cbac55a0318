/**
 * `keys` of the decorated storage: `admit` on Redis (one script call when the key is cached, for
 * every call of the key that arrived while the previous one was under way),
 * `revoke` and `touch` on the wrapped storage and then on Redis, everything else unchanged.
 */
import type { ApiKeyRecord } from "@hireport/core";
import { isKeyUsable } from "@hireport/core";
import type { ApiKeyWithCompany, KeyAdmission, KeyRateWindow, KeyStore, RateLimitStore } from "@hireport/core/storage";
import type { AdmitAnswer, AdmitBatches } from "./admit-batches";
import { toCached } from "./cached-record";
import { type CircuitBreaker, RedisUnavailable } from "./circuit-breaker";
import type { ResolvedRedisAdmissionOptions } from "./options";
import type { RedisKeys } from "./redis-keys";
import type { Scripts } from "./scripts";

/** Key ids of key hashes remembered by one process (a hash never changes its key). */
const KNOWN_HASHES = 10_000;

/** The key ids of the key hashes seen lately, oldest first (bounded). */
export class KnownHashes {
  private readonly ids = new Map<string, string>();

  get(hash: string): string | undefined {
    return this.ids.get(hash);
  }

  set(hash: string, keyId: string): void {
    if (this.ids.size >= KNOWN_HASHES && !this.ids.has(hash)) {
      this.ids.delete(this.ids.keys().next().value as string);
    }
    this.ids.set(hash, keyId);
  }
}

/** Called between steps of an admission; tests use it to order a race without sleeping. */
export type AdmissionHook = (step: "after-database-read", hash: string) => Promise<void> | void;

export interface RedisKeyStoreDeps {
  options: ResolvedRedisAdmissionOptions;
  keys: RedisKeys;
  scripts: Scripts;
  breaker: CircuitBreaker;
  /** The Redis-backed rate limits of the decorated storage (admission of odd windows uses them). */
  rateLimits: RateLimitStore;
  known: KnownHashes;
  /** The admission script calls, batched per key (one per decorated storage, shared by its transactions). */
  batches: AdmitBatches;
  hook?: AdmissionHook;
}

/** Tombstones to write: revocations committed while Redis could not be reached. */
export class Tombstones {
  private readonly pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: Pick<RedisKeyStoreDeps, "options" | "keys" | "scripts" | "breaker">) {}

  /**
   * Writes the tombstone of a revoked key and drops its cached record. Rejects when Redis cannot be
   * reached; the tombstone is then retried in the background until it is written.
   */
  async write(key: ApiKeyRecord): Promise<void> {
    const at = key.revokedAt?.getTime() ?? Date.now();
    try {
      await this.send(key.id, at);
      this.pending.delete(key.id);
    } catch (error) {
      this.pending.set(key.id, Math.min(at, this.pending.get(key.id) ?? at));
      this.schedule();
      throw new Error(
        `hireport: the key ${key.id} is revoked in the database, but its revocation could not be written to Redis (retried in the background; revoking again is safe): ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }

  /** Revocations not yet on Redis, by key id. */
  has(keyId: string): boolean {
    return this.pending.has(keyId);
  }

  private send(keyId: string, at: number): Promise<unknown> {
    const { keys, scripts, breaker, options } = this.deps;
    return breaker.call(() =>
      scripts.hireportRevokeV1(2, keys.record(keyId), keys.tombstone(keyId), at, options.tombstoneTtlSeconds),
    );
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.retry();
    }, 1000);
    this.timer.unref();
  }

  private async retry(): Promise<void> {
    for (const [keyId, at] of [...this.pending]) {
      try {
        await this.send(keyId, at);
        if (this.pending.get(keyId) === at) this.pending.delete(keyId);
      } catch {
        break;
      }
    }
    if (this.pending.size > 0) this.schedule();
  }
}

/** The decorated `keys` over the wrapped storage's `inner` (the storage itself, or a transaction's `tx`). */
export function redisKeyStore(
  inner: KeyStore,
  deps: RedisKeyStoreDeps,
  tombstones: Tombstones,
  revoked?: ApiKeyRecord[],
): KeyStore {
  const { keys, scripts, breaker, options, batches } = deps;
  const remember = (hash: string, keyId: string) => deps.known.set(hash, keyId);

  async function keyIdOf(hash: string): Promise<string | null> {
    const known = deps.known.get(hash);
    if (known) return known;
    const stored = (await breaker.call(() => options.redis.get(keys.index(hash)))) as string | null;
    if (stored) remember(hash, stored);
    return stored;
  }

  /**
   * A key's admission from the script's answer. The batch's time is the latest of its calls': a
   * key that expired by then but not at this call's `now` is counted here alone.
   */
  function admission(
    answer: Extract<AdmitAnswer, { kind: "found" }>,
    windows: readonly KeyRateWindow[],
    now: Date,
  ): KeyAdmission | Promise<KeyAdmission> {
    const { found, rate } = answer;
    if (rate !== null || !isKeyUsable(found.key, now)) return { found, rate };
    return countAlone(found, windows, now);
  }

  async function countAlone(
    found: ApiKeyWithCompany,
    windows: readonly KeyRateWindow[],
    now: Date,
  ): Promise<KeyAdmission> {
    const buckets = windows.map((window) => ({
      key: `${found.key.id}${window.suffix}`,
      limit: window.limit,
      resetAt: window.resetAt,
    }));
    return { found, rate: await deps.rateLimits.consume(buckets, now) };
  }

  /** The key read from the database and cached, unless a tombstone refuses it; then admitted again. */
  async function admitFromDatabase(
    hash: string,
    windows: readonly KeyRateWindow[],
    now: Date,
  ): Promise<KeyAdmission | null> {
    const readAt = Date.now();
    const found = await inner.findByHash(hash);
    if (!found) return null;
    await deps.hook?.("after-database-read", hash);
    const id = found.key.id;
    remember(hash, id);
    await breaker.call(() => options.redis.set(keys.index(hash), id, "EX", options.cacheTtlSeconds));
    const cached = toCached(found);
    await breaker.call(() =>
      scripts.hireportFillV2(
        2,
        keys.record(id),
        keys.tombstone(id),
        cached.json,
        cached.lastUsedAt,
        cached.expiresAt,
        cached.revokedAt,
        options.cacheTtlSeconds,
        readAt,
      ),
    );
    const answer = await batches.once(id, windows, now, 0);
    if (answer.kind === "found") return admission(answer, windows, now);
    if (answer.kind === "revoked") return { found: revokedAt(found, answer.at), rate: null };
    // Evicted at once (memory pressure): count with the same counters, from the record just read.
    if (!isKeyUsable(found.key, now)) return { found, rate: null };
    return countAlone(found, windows, now);
  }

  async function admitOnRedis(
    hash: string,
    windows: readonly KeyRateWindow[],
    now: Date,
  ): Promise<KeyAdmission | null> {
    const keyId = await keyIdOf(hash);
    if (keyId && !tombstones.has(keyId)) {
      const answer = await batches.admit(keyId, windows, now);
      if (answer.kind === "found") return admission(answer, windows, now);
    }
    if (keyId && tombstones.has(keyId)) {
      // Revoked here while Redis was away, tombstone not written yet: the database knows.
      return inner.admit(hash, windows, now);
    }
    return admitFromDatabase(hash, windows, now);
  }

  return {
    insert: (record, insertOptions) => inner.insert(record, insertOptions),
    findByHash: (hash) => inner.findByHash(hash),
    get: (companyId, id) => inner.get(companyId, id),
    list: (companyId) => inner.list(companyId),

    async admit(hash, windows, now) {
      if (!breaker.closed) return inner.admit(hash, windows, now);
      try {
        return await admitOnRedis(hash, windows, now);
      } catch (error) {
        if (error instanceof RedisUnavailable) return inner.admit(hash, windows, now);
        throw error;
      }
    },

    async revoke(companyId, id, at) {
      const record = await inner.revoke(companyId, id, at);
      if (!record) return record;
      // In a transaction: written once it commits (see withRedisAdmission's transaction).
      if (revoked) revoked.push(record);
      else await tombstones.write(record);
      return record;
    },

    async touch(id, at) {
      await inner.touch(id, at);
      if (!breaker.closed) return;
      // Best effort, like the touch itself: a stale cached last use only means another touch.
      await breaker.call(() => scripts.hireportTouchV1(1, keys.record(id), at.getTime())).catch(() => undefined);
    },
  };
}

function revokedAt(found: ApiKeyWithCompany, at: string): ApiKeyWithCompany {
  if (found.key.revokedAt) return found;
  return { ...found, key: { ...found.key, revokedAt: new Date(Number(at)) } };
}
