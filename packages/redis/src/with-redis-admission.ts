/** `withRedisAdmission(storage, { redis })`: the storage, with key admission on Redis. */
import type { ApiKeyRecord, Storage } from "@hireport/core";
import type { StorageStores } from "@hireport/core/storage";
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
 * use `storage.keys.admit` (see `fallbackSeconds`). The result has the type of `storage`: a
 * `kyselyWebhookStorage()` stays a storage the webhook dispatcher takes.
 */
export function withRedisAdmission<S extends Storage>(storage: S, options: RedisAdmissionOptions): S {
  return decorate(storage, options, {});
}

/** {@link withRedisAdmission} with test hooks. @internal */
export function decorate<S extends Storage>(
  storage: S,
  options: RedisAdmissionOptions,
  internals: RedisAdmissionInternals,
): S {
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

  /**
   * The stores over `inner`, with the decorated keys and rate limits; every other store of `inner`
   * (the webhook store of `@hireport/webhooks` included) as it is.
   */
  function stores<T extends StorageStores>(inner: T, revoked?: ApiKeyRecord[]): T {
    const innerRateLimits = inner === (storage as StorageStores) ? rateLimits : rateLimitsOf(inner);
    return {
      ...inner,
      keys: redisKeyStore(inner.keys, { ...deps, rateLimits: innerRateLimits }, tombstones, revoked),
      rateLimits: innerRateLimits,
    };
  }

  const decorated: Storage = {
    ...stores<StorageStores>(storage),
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
  // `stores` keeps every store of `storage` and of its `tx` (spread), so this is an `S` at run time.
  return decorated as S;
}
