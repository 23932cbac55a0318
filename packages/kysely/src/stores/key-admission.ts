import type { KeyRateWindow, KeyStore, KeyWithCounts } from "@hireport/core";
import { sql } from "kysely";
import type { StoreContext } from "../context";
import { readNumber } from "../values";
import { type KeyWithCompanyRow, toKeyWithCompany } from "./keys";
import { countRequests, withCountRequests } from "./rate-limits";

/** Requests of one key counted by one statement at most; more wait for the next one. */
const MAX_BATCH = 64;
/**
 * Statements of one key under way at once; calls that arrive meanwhile wait for one to end. One is
 * the fastest measured (`pnpm bench`, GET /jobs through Fastify: about 1,600 requests/s with one,
 * 1,300 to 1,500 with two or three): more statements then queue on the same two rows.
 */
const IN_FLIGHT = 1;

type AdmissionRow = KeyWithCompanyRow & {
  counted_key: string | null;
  counted_hits: number | string | null;
  counted_taken: number | string | null;
};

interface Waiter {
  now: Date;
  resolve(result: KeyWithCounts): void;
  reject(error: unknown): void;
}

/** The calls of one key and one set of windows: the batch being counted and those waiting for the next. */
interface Group {
  hash: string;
  windows: readonly KeyRateWindow[];
  waiting: Waiter[];
  /** Statements of the group under way. */
  running: number;
}

/**
 * `keys.findByHashAndConsume` on Postgres: the key lookup and the rate-limit count of a request in
 * one statement, so a request costs one round trip before its own query instead of two.
 *
 * The key (joined to its company) is read by hash; only when it is neither revoked nor expired are
 * its buckets (`key.id || suffix`) counted, by `count_requests` as in `rateLimits.consume`. Calls
 * for the same key and windows that arrive while its statement runs are counted together by the
 * next one (up to 64): each of them is looked up after it arrived, so a revocation is seen at once,
 * and the statement admits as many as every window has room for, in the order they came. One busy
 * key therefore costs one statement per batch on its counter rows instead of one per request,
 * which is what keeps those rows from becoming the bottleneck (every request of a key updates the
 * same two rows, and Postgres serializes updates of a row).
 *
 * A call gets `counts: null` when nothing was counted for it (a window full or with no row yet,
 * or the key unusable): core then calls `rateLimits.consume`, which creates missing rows and
 * reads the counts of a refusal. Other dialects have no such method: core makes two calls there.
 */
export function createKeyAdmission(
  ctx: StoreContext,
  findByHash: KeyStore["findByHash"],
): KeyStore["findByHashAndConsume"] {
  if (ctx.dialect !== "postgres") return undefined;
  const keys = sql.table(ctx.table("api_key"));
  const companies = sql.table(ctx.table("company"));
  const groups = new Map<string, Group>();

  async function count(group: Group, batch: readonly Waiter[]): Promise<KeyWithCounts[]> {
    const { hash, windows } = group;
    const now = new Date(Math.max(...batch.map((waiter) => waiter.now.getTime())));
    const nowDb = ctx.toDb(now);
    // Only a key neither revoked nor expired is counted: `count_requests` counts nothing for null.
    const usable = sql<string | null>`case when k.revoked_at is null
      and (k.expires_at is null or k.expires_at > ${nowDb}::timestamptz) then k.id end`;
    const { rows } = await withCountRequests(ctx, () =>
      sql<AdmissionRow>`
        select k.*, c.id as company__id, c.name as company__name, c.created_at as company__created_at,
          counted.counted_key, counted.counted_hits, counted.counted_taken
        from ${keys} as k join ${companies} as c on c.id = k.company_id
        left join lateral ${countRequests(ctx, usable, windows, now, batch.length)} as counted on true
        where k.hash = ${hash}`.execute(ctx.db),
    );
    const row = rows[0];
    if (!row) return batch.map(() => ({ found: null, counts: null }));
    const after = new Map<string, number>();
    for (const r of rows) if (r.counted_key !== null) after.set(r.counted_key, readNumber(r.counted_hits ?? 0));
    const taken = after.size === windows.length ? readNumber(row.counted_taken ?? 0) : 0;
    // The i-th admitted call is the i-th request counted: its counts are those before the batch + i + 1.
    return batch.map((_, i) => ({
      found: toKeyWithCompany(row),
      counts: i < taken ? windows.map((window) => (after.get(`${row.id}${window.suffix}`) ?? 0) - taken + i + 1) : null,
    }));
  }

  /** Sends batches while fewer than `IN_FLIGHT` statements of the group run; forgets an idle group. */
  function pump(id: string, group: Group): void {
    while (group.running < IN_FLIGHT && group.waiting.length > 0) {
      const batch = group.waiting.splice(0, MAX_BATCH);
      group.running += 1;
      count(group, batch)
        .then(
          (results) => {
            for (const [i, waiter] of batch.entries()) waiter.resolve(results[i] as KeyWithCounts);
          },
          (error: unknown) => {
            for (const waiter of batch) waiter.reject(error);
          },
        )
        .finally(() => {
          group.running -= 1;
          pump(id, group);
        });
    }
    if (group.running === 0 && group.waiting.length === 0) groups.delete(id);
  }

  return (hash, windows, now) => {
    // Nothing to count, or two windows naming one bucket: look up only, and let core decide.
    if (windows.length === 0 || new Set(windows.map((window) => window.suffix)).size !== windows.length) {
      return findByHash(hash).then((found) => ({ found, counts: null }));
    }
    const id = [hash, ...windows.map((w) => `${w.suffix}\u0000${w.limit}\u0000${w.resetAt.getTime()}`)].join("\u0001");
    let group = groups.get(id);
    if (!group) {
      group = { hash, windows, waiting: [], running: 0 };
      groups.set(id, group);
    }
    const joined = group;
    return new Promise<KeyWithCounts>((resolve, reject) => {
      joined.waiting.push({ now, resolve, reject });
      pump(id, joined);
    });
  };
}
