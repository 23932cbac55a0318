import type { WebhookStore } from "@hireport/webhooks";
import { sql } from "kysely";
import type { StoreContext } from "../context";
import { readNumber } from "../values";

export type AttemptStatsMethods = Pick<WebhookStore, "attemptStats">;

/**
 * An endpoint's attempts summed per time bucket: one range read of the `(endpoint_id,
 * attempted_at)` index, grouped in the database, so that the answer has at most one row per bucket
 * whatever the traffic. The bucket of a row is a `CASE` over the bucket bounds, which every dialect
 * compares as it compares the column (no date arithmetic of its own).
 */
export function createAttemptStatsMethods(ctx: StoreContext): AttemptStatsMethods {
  return {
    async attemptStats(query) {
      const since = query.since.getTime();
      const bound = (index: number) => ctx.toDb(new Date(since + index * query.bucketMs));
      const inner = Array.from({ length: query.buckets - 1 }, (_, index) => index);
      const bucket =
        inner.length === 0
          ? sql<number>`0`
          : sql<number>`case ${sql.join(
              inner.map((index) => sql`when ${sql.ref("t.attempted_at")} < ${bound(index + 1)} then ${sql.lit(index)}`),
              sql` `,
            )} else ${sql.lit(query.buckets - 1)} end`;
      const attempts = ctx.db
        .selectFrom(ctx.from("webhook_attempt", "t", "endpoint_attempted"))
        .select([bucket.as("bucket"), "t.succeeded", "t.duration_ms"])
        .where("t.endpoint_id", "=", query.endpointId)
        .where("t.attempted_at", ">=", bound(0))
        .where("t.attempted_at", "<", bound(query.buckets))
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom(ctx.tableAs("webhook_endpoint", "e"))
              .select("e.id")
              .where("e.id", "=", query.endpointId)
              .where("e.company_id", "=", query.companyId),
          ),
        );
      const rows = await ctx.db
        .selectFrom(attempts.as("s"))
        .select([
          "s.bucket",
          sql<number | string>`count(*)`.as("attempts"),
          sql<number | string>`sum(case when ${sql.ref("s.succeeded")} then 1 else 0 end)`.as("succeeded"),
          sql<number | string>`sum(${sql.ref("s.duration_ms")})`.as("total"),
          sql<number | string>`max(${sql.ref("s.duration_ms")})`.as("longest"),
        ])
        .groupBy("s.bucket")
        .execute();
      return rows
        .map((row) => ({
          index: readNumber(row.bucket),
          attempts: readNumber(row.attempts),
          succeeded: readNumber(row.succeeded),
          totalDurationMs: readNumber(row.total),
          maxDurationMs: readNumber(row.longest),
        }))
        .sort((a, b) => a.index - b.index);
    },
  };
}
