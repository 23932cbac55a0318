/** `withRedisAdmission(storage, { redis })`: the storage, with key admission on Redis. */
import type { ApiKeyRecord, Storage, StorageStores } from "@hireport/core";
import { AdmitBatches } from "./admit-batches";
import { CircuitBreaker } from "./circuit-breaker";
import { type RedisAdmissionOptions, resolveOptions } from "./options";
import { ParsedRecords } from "./parsed-records";
import { type AdmissionHook, KnownHashes, type RedisKeyStoreDeps, redisKeyStore, Tombstones } from "./redis-key-store";
import { RedisKeys } from "./redis-keys";
import { redisRateLimits } from "./redis-rate-limits";
import { defineScripts } from "./scripts";

/** Test hooks, not part of the public options. */
export interface RedisAdmissionInternals {
  hook?: AdmissionHook;
}

/**
 * Returns `storage` with key admission on Redis: `keys.admit` reads the cached key, checks its
 * revocation and expiry and counts the request in its minute and day windows in one Redis script
 * call (one for all the concurrent calls of a key, see `AdmitBatches`); the key is read from `storage` when Redis does not have it. `keys.revoke` (also on the `tx`
 * of `transaction`) writes a revocation tombstone to Redis before it resolves, `keys.touch` updates
 * the cached last use, and `rateLimits.consume` counts on Redis when its buckets share one key (as
 * every call of core does). Everything else is `storage`'s, unchanged. While Redis fails, admissions
 * use `storage.keys.admit` (see `fallbackSeconds`).
 */
export function withRedisAdmission(storage: Storage, options: RedisAdmissionOptions): Storage {
  return decorate(storage, options, {});
}

/** {@link withRedisAdmission} with test hooks. @internal */
export function decorate(
  storage: Storage,
  options: RedisAdmissionOptions,
  internals: RedisAdmissionInternals,
): Storage {
  const resolved = resolveOptions(options);
  const keys = new RedisKeys(resolved.prefix);
  const scripts = defineScripts(resolved.redis);
  const breaker = new CircuitBreaker(resolved.timeoutMs, resolved.fallbackSeconds * 1000, resolved.logger);
  const rateLimitsOf = (inner: StorageStores) =>
    redisRateLimits({
      inner: inner.rateLimits,
      redis: resolved.redis,
      keys,
      scripts,
      breaker,
      logger: resolved.logger,
    });
  const rateLimits = rateLimitsOf(storage);
  const deps: RedisKeyStoreDeps = {
    options: resolved,
    keys,
    scripts,
    breaker,
    rateLimits,
    known: new KnownHashes(),
    batches: new AdmitBatches({ keys, scripts, breaker, records: new ParsedRecords() }),
    ...(internals.hook ? { hook: internals.hook } : {}),
  };
  const tombstones = new Tombstones(deps);

  /** The stores over `inner`, with the decorated keys and rate limits. */
  function stores(inner: StorageStores, revoked?: ApiKeyRecord[]): StorageStores {
    const innerRateLimits = inner === storage ? rateLimits : rateLimitsOf(inner);
    return {
      companies: inner.companies,
      keys: redisKeyStore(inner.keys, { ...deps, rateLimits: innerRateLimits }, tombstones, revoked),
      jobs: inner.jobs,
      applications: inner.applications,
      events: inner.events,
      rateLimits: innerRateLimits,
      usage: inner.usage,
      idempotency: inner.idempotency,
      webhooks: inner.webhooks,
      audit: inner.audit,
      candidates: inner.candidates,
    };
  }

  return {
    ...stores(storage),
    async transaction(fn) {
      const revoked: ApiKeyRecord[] = [];
      const result = await storage.transaction((tx) => fn(stores(tx, revoked)));
      // Committed: now every process must see the revocations, before this resolves.
      const failures: unknown[] = [];
      for (const record of revoked) await tombstones.write(record).catch((error: unknown) => failures.push(error));
      if (failures.length > 0) throw failures[0];
      return result;
    },
  };
}
