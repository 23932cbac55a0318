/** The hireport API as every process of the API benchmarks builds it (same secret, same limits). */
import { createHmac } from "node:crypto";
import { createPublicApi, type PublicApi, type Storage, type UsageLogMode } from "@hireport/core";
import { admitInSteps } from "@hireport/core/storage";
import { kyselyStorage } from "@hireport/kysely";
import type { Kysely } from "kysely";
import { FILE_SECRET, TABLE_PREFIX } from "./common";

export const PUBLIC_BASE_URL = "http://bench.local";
export const BASE_PATH = "/api/public/v1";

/**
 * Pipeline stages a diagnostic server can leave out, to show what each costs (never used for the
 * figures compared with the targets): `rate-limit` admits without a counter, `key-lookup` remembers
 * keys forever in the process (no revocation!), `usage-log` drops the entries.
 */
export const SKIPPABLE = ["rate-limit", "key-lookup", "usage-log"] as const;
export type Skippable = (typeof SKIPPABLE)[number];

function diagnosticStorage(base: Storage, without: readonly Skippable[]): Storage {
  const storage: Storage = { ...base };
  if (without.includes("rate-limit") || without.includes("key-lookup")) {
    // The storage's one-statement admission would do both anyway: admission goes through core's
    // portable steps instead (`findByHash`, then `rateLimits.consume`), one of which is left out below.
    storage.keys = { ...base.keys, admit: (...args) => admitInSteps(storage, ...args) };
  }
  if (without.includes("rate-limit")) {
    storage.rateLimits = {
      ...base.rateLimits,
      consume: async (buckets) => ({ allowed: true, counts: buckets.map(() => 1), refusedBucket: null }),
    };
  }
  if (without.includes("key-lookup")) {
    const cache = new Map<string, ReturnType<Storage["keys"]["findByHash"]>>();
    storage.keys = {
      ...storage.keys,
      findByHash: (hash) => {
        let found = cache.get(hash);
        if (!found) {
          // Seen as just used, or core would record the key's last use on every request.
          found = base.keys
            .findByHash(hash)
            .then((key) => key && { ...key, key: { ...key.key, lastUsedAt: new Date(Date.now() + 86_400_000) } });
          cache.set(hash, found);
        }
        return found;
      },
    };
  }
  if (without.includes("usage-log")) storage.usage = { ...base.usage, appendMany: async () => {} };
  return storage;
}

export function benchApi(
  db: Kysely<unknown>,
  without: readonly Skippable[] = [],
  usageLog: UsageLogMode = "batched",
  onEvent?: () => void,
  admission?: (storage: Storage) => Storage,
): PublicApi {
  const base = kyselyStorage({ db, tablePrefix: TABLE_PREFIX });
  const storage = admission ? admission(base) : base;
  return createPublicApi({
    storage: without.length > 0 ? diagnosticStorage(storage, without) : storage,
    publicBaseUrl: PUBLIC_BASE_URL,
    fileTokenSecret: FILE_SECRET,
    usageLog,
    onEvent,
    // High enough never to refuse during a run: the counters are still taken on every request.
    limits: { perMinute: 100_000_000, perDay: 1_000_000_000 },
  });
}

/**
 * The list cursor of GET /applications as core signs it (core's src/model/cursor.ts: HMAC-SHA256 under
 * `hireport-cursor:{secret}`, 16 bytes). The deep-paging benchmark uses it to start at a keyset
 * position found by SQL, and checks first that it equals the `next_cursor` the API itself returns
 * for a page boundary, so the deep request is exactly one a client paging that far would send.
 */
export function applicationsCursor(companyId: string, at: Date, id: string): string {
  const scope = `applications|${companyId}|job_id=|stage=|updated_since=`;
  const text = Buffer.from(JSON.stringify({ v: 1, s: scope, t: at.getTime(), i: id })).toString("base64url");
  const mac = createHmac("sha256", `hireport-cursor:${FILE_SECRET}`).update(text).digest().subarray(0, 16);
  return `${text}.${mac.toString("base64url")}`;
}
