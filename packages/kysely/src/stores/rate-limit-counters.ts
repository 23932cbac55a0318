/**
 * Rate-limit counters, one row per bucket (key and window), as every dialect reads and writes them,
 * and `rateLimits.consume` as one transaction: the portable way, used by MySQL/MariaDB and SQLite,
 * and by Postgres when its one-statement count stays undecided.
 */
import type { RateLimitBucket, RateLimitResult } from "@hireport/core/storage";
import { type RawBuilder, sql } from "kysely";
import type { StoreContext } from "../context";
import { readNumber } from "../values";

/** A count as it stands at `now`: zero once the window ended. */
const liveHits = (now: string, alias: string): RawBuilder<number> =>
  sql<number>`case when ${sql.ref(`${alias}.reset_at`)} <= ${now} then 0 else ${sql.ref(`${alias}.hits`)} end`;

/** The buckets once each, in key order: the order rows are locked in, so calls never deadlock. */
export function ordered(buckets: readonly RateLimitBucket[]): RateLimitBucket[] {
  return [...new Map(buckets.map((bucket) => [bucket.key, bucket])).values()].sort((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
  );
}

/** The live counts of the buckets that have a row; `lock` reads them `FOR UPDATE`. */
export async function readCounts(
  ctx: StoreContext,
  keys: readonly string[],
  now: Date,
  lock: boolean,
): Promise<Map<string, number>> {
  const query = ctx.db
    .selectFrom(ctx.tableAs("rate_limit", "r"))
    .select(["r.bucket_key", liveHits(ctx.toDb(now), "r").as("hits")])
    .where("r.bucket_key", "in", [...keys])
    .orderBy("r.bucket_key");
  const rows = await (lock ? ctx.strategy.forUpdate(query) : query).execute();
  return new Map(rows.map((row) => [row.bucket_key, readNumber(row.hits)]));
}

/** Creates the rows of buckets that have none, at zero; rows created meanwhile by others are kept. */
export async function createMissing(ctx: StoreContext, buckets: readonly RateLimitBucket[]): Promise<void> {
  const insert = ctx.db
    .insertInto(ctx.table("rate_limit"))
    .values(buckets.map((bucket) => ({ bucket_key: bucket.key, hits: 0, reset_at: ctx.toDb(bucket.resetAt) })));
  await ctx.strategy.insertIgnore(insert, ["bucket_key"]).execute();
}

/** A refused call: the counts as they are, naming the first full bucket. */
export function refusal(buckets: readonly RateLimitBucket[], counts: ReadonlyMap<string, number>): RateLimitResult {
  const countOf = (bucket: RateLimitBucket) => counts.get(bucket.key) ?? 0;
  const refused = buckets.findIndex((bucket) => countOf(bucket) >= bucket.limit);
  return { allowed: false, counts: buckets.map(countOf), refusedBucket: refused === -1 ? 0 : refused };
}

/**
 * `rateLimits.consume` in one transaction: it reads the rows (`FOR UPDATE` in key order where the
 * dialect locks rows; under the `BEGIN IMMEDIATE` write lock on SQLite) and adds one to all of them
 * only when all are below their limit. Missing rows are created first: under SQLite's write lock
 * inside the transaction, elsewhere in a statement of their own outside it (creating them inside
 * a row-locking transaction, with shared locks on duplicates and gap locks on missing keys, makes
 * concurrent calls deadlock on MySQL/MariaDB).
 */
export async function consumeInTransaction(
  ctx: StoreContext,
  buckets: readonly RateLimitBucket[],
  now: Date,
): Promise<RateLimitResult> {
  const sorted = ordered(buckets);
  const keys = sorted.map((bucket) => bucket.key);
  const rowLocks = ctx.strategy.rowLocks;
  for (let round = 0; ; round += 1) {
    const outcome = await ctx.atomic(async (tx): Promise<RateLimitResult | RateLimitBucket[]> => {
      if (!rowLocks) await createMissing(tx, sorted);
      const counts = await readCounts(tx, keys, now, rowLocks);
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
    await createMissing(ctx, outcome);
  }
}
