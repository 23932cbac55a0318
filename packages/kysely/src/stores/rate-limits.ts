import type { KeyRateWindow, RateLimitBucket, RateLimitResult, RateLimitStore } from "@hireport/core";
import { type Expression, type RawBuilder, sql } from "kysely";
import type { StoreContext } from "../context";
import { readNumber } from "../values";
import { functionName, withFunction } from "./functions";

/** A count as it stands at `now`: zero once the window ended. */
const liveHits = (now: string, alias: string): RawBuilder<number> =>
  sql<number>`case when ${sql.ref(`${alias}.reset_at`)} <= ${now} then 0 else ${sql.ref(`${alias}.hits`)} end`;

/**
 * Postgres: a call of `{prefix}count_requests` (migration 0002), the function that counts up to
 * `requests` requests against the buckets `prefix || suffix` and returns `counted_key`,
 * `counted_hits`, `counted_taken` for each bucket, or no row when nothing was counted (a bucket
 * full or missing, or `prefix` null). Its statement's plan is kept by PL/pgSQL for the life of
 * the connection. `synchronous_commit` goes off for the calling statement's own transaction,
 * unless the storage asked for durable counters or runs inside a caller's transaction (where the
 * setting would last until that transaction ends).
 */
export function countRequests(
  ctx: StoreContext,
  prefix: Expression<string | null> | string,
  windows: readonly KeyRateWindow[],
  now: Date,
  requests = 1,
): RawBuilder<{ counted_key: string; counted_hits: number; counted_taken: number }> {
  return sql`${sql.id(functionName(ctx, "count_requests"))}(
    ${prefix}::text,
    ${windows.map((window) => window.suffix)}::text[],
    ${windows.map((window) => window.limit)}::integer[],
    ${windows.map((window) => ctx.toDb(window.resetAt))}::timestamptz[],
    ${ctx.toDb(now)}::timestamptz,
    ${requests}::integer,
    ${ctx.asyncRateLimitCommit && !ctx.inTransaction}::boolean
  )`;
}

/** Runs a statement that calls `count_requests`, naming the migration when the function is missing. */
export function withCountRequests<T>(ctx: StoreContext, run: () => Promise<T>): Promise<T> {
  return withFunction(ctx, "count_requests", run);
}

/**
 * Rate-limit counters, one row per bucket (key and window). A call adds one to every bucket only
 * when all of them are below their limit, and changes nothing otherwise. A counter whose
 * `reset_at` has passed counts as zero (the same key used again after its window restarts).
 *
 * Postgres: one call of `count_requests` per admitted call (see `countRequests`): it locks the
 * buckets' rows in key order (`SELECT … FOR UPDATE`, which waits for and then reads the latest
 * committed counts), decides, and adds one to all of them or to none. Rows that do not exist yet
 * (first call of a window) are created once with `ON CONFLICT DO NOTHING` and the call runs again;
 * a refused call reads the counts in a second query. Unless the storage was created with
 * `durableRateLimits`, the count commits with `synchronous_commit` off (set for its own implicit
 * transaction only): it runs on every request, and losing the last few counts in a database crash
 * is an acceptable price for not waiting on the WAL flush.
 *
 * MySQL/MariaDB and SQLite: one transaction that reads the rows (MySQL: `FOR UPDATE`, in key
 * order; SQLite: under the `BEGIN IMMEDIATE` write lock) and adds one to all of them only when all
 * are below their limit. Missing rows are created first (on MySQL in their own statement, outside
 * the locking transaction, so that concurrent calls never deadlock).
 */
export function createRateLimitStore(ctx: StoreContext): RateLimitStore {
  const table = ctx.table("rate_limit");

  /** The buckets once each, in key order: the order rows are locked in, so calls never deadlock. */
  function ordered(buckets: readonly RateLimitBucket[]): RateLimitBucket[] {
    return [...new Map(buckets.map((bucket) => [bucket.key, bucket])).values()].sort((a, b) =>
      a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
    );
  }

  async function readCounts(c: StoreContext, keys: readonly string[], now: Date, lock: boolean) {
    let query = c.db
      .selectFrom(c.tableAs("rate_limit", "r"))
      .select(["r.bucket_key", liveHits(c.toDb(now), "r").as("hits")])
      .where("r.bucket_key", "in", [...keys])
      .orderBy("r.bucket_key");
    if (lock) query = query.forUpdate();
    const rows = await query.execute();
    return new Map(rows.map((row) => [row.bucket_key, readNumber(row.hits)]));
  }

  async function createMissing(c: StoreContext, buckets: readonly RateLimitBucket[]): Promise<void> {
    const insert = c.db
      .insertInto(c.table("rate_limit"))
      .values(buckets.map((bucket) => ({ bucket_key: bucket.key, hits: 0, reset_at: c.toDb(bucket.resetAt) })));
    if (c.dialect === "mysql") await insert.ignore().execute();
    else await insert.onConflict((oc) => oc.column("bucket_key").doNothing()).execute();
  }

  function refusal(buckets: readonly RateLimitBucket[], counts: Map<string, number>): RateLimitResult {
    const countOf = (bucket: RateLimitBucket) => counts.get(bucket.key) ?? 0;
    const refused = buckets.findIndex((bucket) => countOf(bucket) >= bucket.limit);
    return { allowed: false, counts: buckets.map(countOf), refusedBucket: refused === -1 ? 0 : refused };
  }

  async function consumePostgres(buckets: readonly RateLimitBucket[], now: Date): Promise<RateLimitResult> {
    const sorted = ordered(buckets);
    const windows = sorted.map((bucket) => ({ suffix: bucket.key, limit: bucket.limit, resetAt: bucket.resetAt }));
    const statement = sql<{ counted_key: string; counted_hits: number }>`
      select counted_key, counted_hits from ${countRequests(ctx, "", windows, now)}`;
    for (let round = 0; round < 3; round += 1) {
      const { rows } = await withCountRequests(ctx, () => statement.execute(ctx.db));
      if (rows.length > 0) {
        const counts = new Map(rows.map((row) => [row.counted_key, readNumber(row.counted_hits)]));
        return { allowed: true, counts: buckets.map((bucket) => counts.get(bucket.key) ?? 0), refusedBucket: null };
      }
      // Nothing was added: a bucket is at its limit (counts never go down inside a window), or a
      // row was missing when the statement ran (it may exist by now: another call created it).
      const keys = sorted.map((bucket) => bucket.key);
      const counts = await readCounts(ctx, keys, now, false);
      const missing = sorted.filter((bucket) => !counts.has(bucket.key));
      if (missing.length === 0 && buckets.some((bucket) => (counts.get(bucket.key) ?? 0) >= bucket.limit)) {
        return refusal(buckets, counts);
      }
      if (missing.length > 0) await createMissing(ctx, missing);
    }
    // Still undecided after three rounds (windows turning over under heavy contention): decide
    // under row locks in a transaction.
    return consumeInTransaction(buckets, now);
  }

  async function consumeInTransaction(buckets: readonly RateLimitBucket[], now: Date): Promise<RateLimitResult> {
    const sorted = ordered(buckets);
    const keys = sorted.map((bucket) => bucket.key);
    for (let round = 0; ; round += 1) {
      const outcome = await ctx.atomic(async (tx): Promise<RateLimitResult | RateLimitBucket[]> => {
        // SQLite holds the write lock already (BEGIN IMMEDIATE): creating rows here is safe.
        if (tx.dialect === "sqlite") await createMissing(tx, sorted);
        const counts = await readCounts(tx, keys, now, tx.dialect !== "sqlite");
        const missing = sorted.filter((bucket) => !counts.has(bucket.key));
        if (missing.length > 0 && round < 3) return missing;
        if (buckets.some((bucket) => (counts.get(bucket.key) ?? 0) >= bucket.limit)) return refusal(buckets, counts);
        const nowDb = tx.toDb(now);
        const resetAt = sql.ref("reset_at");
        const newReset = sql<string>`case ${sql.ref("bucket_key")} ${sql.join(
          sorted.map((bucket) => sql`when ${bucket.key} then ${tx.toDb(bucket.resetAt)}`),
          sql` `,
        )} end`;
        await tx.db
          .updateTable(tx.table("rate_limit"))
          .set({
            // MySQL assigns left to right: `hits` must be computed before `reset_at` changes.
            hits: sql<number>`case when ${resetAt} <= ${nowDb} then 1 else ${sql.ref("hits")} + 1 end`,
            reset_at: sql<string>`case when ${resetAt} <= ${nowDb} then ${newReset} else ${resetAt} end`,
          })
          .where("bucket_key", "in", keys)
          .execute();
        return {
          allowed: true,
          counts: buckets.map((bucket) => (counts.get(bucket.key) ?? 0) + 1),
          refusedBucket: null,
        };
      });
      if (!Array.isArray(outcome)) return outcome;
      // MySQL: rows are created outside the locking transaction, in their own short statement.
      // Creating them inside it (shared locks on duplicates, gap locks on missing keys) makes
      // concurrent calls deadlock.
      await createMissing(ctx, outcome);
    }
  }

  return {
    async consume(buckets, now) {
      if (buckets.length === 0) return { allowed: true, counts: [], refusedBucket: null };
      if (buckets.some((bucket) => bucket.limit <= 0)) {
        return refusal(
          buckets,
          await readCounts(
            ctx,
            buckets.map((bucket) => bucket.key),
            now,
            false,
          ),
        );
      }
      return ctx.dialect === "postgres" ? consumePostgres(buckets, now) : consumeInTransaction(buckets, now);
    },

    async purgeExpired(now) {
      const result = await ctx.db.deleteFrom(table).where("reset_at", "<", ctx.toDb(now)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
