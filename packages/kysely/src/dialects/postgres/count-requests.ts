/** The rate-limit count on Postgres: calls of the `count_requests` routine. */
import type { KeyRateWindow, RateLimitBucket, RateLimitResult } from "@hireport/core/storage";
import { type Expression, type RawBuilder, sql } from "kysely";
import { runCompiled } from "../../compiled-queries";
import type { StoreContext } from "../../context";
import { consumeInTransaction, createMissing, ordered, readCounts, refusal } from "../../stores/rate-limit-counters";
import { readNumber } from "../../values";
import { routineRef, withRoutine } from "./routines";

/** The values of a `count_requests` call but its prefix, as the statement takes them. */
export interface CountArgs {
  suffixes: string[];
  limits: number[];
  resets: string[];
  now: string;
  requests: number;
  relaxed: boolean;
}

/** The values of a call counting `requests` requests in `windows` at `now`. */
export function countArgs(ctx: StoreContext, windows: readonly KeyRateWindow[], now: Date, requests = 1): CountArgs {
  return {
    suffixes: windows.map((window) => window.suffix),
    limits: windows.map((window) => window.limit),
    resets: windows.map((window) => ctx.toDb(window.resetAt)),
    now: ctx.toDb(now),
    requests,
    relaxed: ctx.asyncRateLimitCommit && !ctx.inTransaction,
  };
}

/**
 * A call of `count_requests`, which counts up to `requests` requests against the buckets
 * `prefix || suffix` and returns `counted_key`, `counted_hits`, `counted_taken` for each bucket,
 * or no row when nothing was counted (a bucket full or missing, or `prefix` null). Its statement's
 * plan is kept by PL/pgSQL for the life of the connection. `synchronous_commit` goes off for the
 * calling statement's own transaction when `relaxed` (see {@link countArgs}: unless the storage
 * asked for durable counters or runs inside a transaction, where the setting would last until that
 * transaction ends).
 */
export function countRequests(
  ctx: StoreContext,
  prefix: Expression<string | null> | string,
  args: { readonly [K in keyof CountArgs]: unknown },
): RawBuilder<{ counted_key: string; counted_hits: number; counted_taken: number }> {
  return sql`${routineRef(ctx, "count_requests")}(
    ${prefix}::text,
    ${args.suffixes}::text[],
    ${args.limits}::integer[],
    ${args.resets}::timestamptz[],
    ${args.now}::timestamptz,
    ${args.requests}::integer,
    ${args.relaxed}::boolean
  )`;
}

/**
 * `rateLimits.consume` on Postgres: one call of `count_requests` per admitted call. It locks the
 * buckets' rows in key order (`SELECT … FOR UPDATE`, which waits for and then reads the latest
 * committed counts), decides, and adds one to all of them or to none. Rows that do not exist yet
 * (first call of a window) are created once with `ON CONFLICT DO NOTHING` and the call runs
 * again; a refused call reads the counts in a second query. Unless the storage was created with
 * `durableRateLimits`, the count commits with `synchronous_commit` off (for its own implicit
 * transaction only): it runs on every request, and losing the last few counts in a database crash
 * is an acceptable price for not waiting on the WAL flush. Still undecided after three rounds
 * (windows turning over under heavy contention), it decides under row locks in a transaction.
 */
export async function consumeWithCountRequests(
  ctx: StoreContext,
  buckets: readonly RateLimitBucket[],
  now: Date,
): Promise<RateLimitResult> {
  const sorted = ordered(buckets);
  const windows = sorted.map((bucket) => ({ suffix: bucket.key, limit: bucket.limit, resetAt: bucket.resetAt }));
  const args = countArgs(ctx, windows, now);
  const statement = () =>
    runCompiled(
      ctx,
      "rateLimits.consume",
      args,
      (p) => sql<{ counted_key: string; counted_hits: number }>`
        select counted_key, counted_hits from ${countRequests(ctx, "", p)}`,
    );
  for (let round = 0; round < 3; round += 1) {
    const rows = await withRoutine(ctx, "count_requests", statement);
    if (rows.length > 0) {
      const counts = new Map(rows.map((row) => [row.counted_key, readNumber(row.counted_hits)]));
      return { allowed: true, counts: buckets.map((bucket) => counts.get(bucket.key) ?? 0), refusedBucket: null };
    }
    // Nothing was added: a bucket is at its limit (counts never go down inside a window), or a
    // row was missing when the statement ran (it may exist by now: another call created it).
    const counts = await readCounts(
      ctx,
      sorted.map((bucket) => bucket.key),
      now,
      false,
    );
    const missing = sorted.filter((bucket) => !counts.has(bucket.key));
    if (missing.length === 0 && buckets.some((bucket) => (counts.get(bucket.key) ?? 0) >= bucket.limit)) {
      return refusal(buckets, counts);
    }
    if (missing.length > 0) await createMissing(ctx, missing);
  }
  return consumeInTransaction(ctx, buckets, now);
}
