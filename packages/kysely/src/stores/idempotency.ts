import {
  type IdempotencyClaim,
  type IdempotencyStore,
  redactApplications,
  type StoredResponse,
} from "@hireport/core/storage";
import type { StoreContext } from "../context";
import { fromDb, readJson } from "../values";
import { lockedErasedAt } from "./domain-erasures";
import { findRow } from "./rows";

/**
 * Idempotency keys. A claim is at most three single statements, each atomic on its own: insert
 * when absent (`ON CONFLICT DO NOTHING` / `INSERT IGNORE`), else take over an expired record or a
 * stale unfinished one with a conditional update, else read the state. Two concurrent claims can
 * never both insert or both win the conditional update.
 */
export function createIdempotencyStore(ctx: StoreContext): IdempotencyStore {
  const table = ctx.table("idempotency");

  return {
    async claim(input) {
      const row = {
        key_id: input.keyId,
        idempotency_key: input.idempotencyKey,
        request_hash: input.requestHash,
        state: "in_progress",
        response_status: null,
        response_headers: null,
        response_body: null,
        created_at: ctx.toDb(input.now),
        expires_at: ctx.toDb(input.expiresAt),
        locked_until: ctx.toDb(input.lockedUntil),
      };
      for (let round = 0; round < 3; round += 1) {
        const insert = ctx.db.insertInto(table).values(row);
        const inserted = await ctx.strategy.insertIgnore(insert, ["key_id", "idempotency_key"]).executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) return { state: "claimed" };

        const now = ctx.toDb(input.now);
        const taken = await ctx.db
          .updateTable(table)
          .set({
            request_hash: row.request_hash,
            state: row.state,
            response_status: null,
            response_headers: null,
            response_body: null,
            created_at: row.created_at,
            expires_at: row.expires_at,
            locked_until: row.locked_until,
          })
          .where("key_id", "=", input.keyId)
          .where("idempotency_key", "=", input.idempotencyKey)
          .where((eb) =>
            eb.or([
              eb("expires_at", "<=", now),
              eb.and([eb("state", "=", "in_progress"), eb("locked_until", "<=", now)]),
            ]),
          )
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) > 0) return { state: "claimed" };

        const existing = await findRow(ctx, "idempotency", {
          key_id: row.key_id,
          idempotency_key: row.idempotency_key,
        });
        if (!existing) continue; // purged in between: try again
        if (existing.state === "completed") {
          const response: StoredResponse = {
            status: existing.response_status ?? 200,
            headers: readJson<Record<string, string>>(existing.response_headers, {}),
            body: existing.response_body ?? "",
          };
          return { state: "completed", requestHash: existing.request_hash, response } satisfies IdempotencyClaim;
        }
        return { state: "in_progress", requestHash: existing.request_hash };
      }
      throw new Error("The idempotency record kept disappearing while it was being claimed.");
    },

    async complete(keyId, idempotencyKey, response, subjectId) {
      const store = (on: StoreContext, body: string) =>
        on.db
          .updateTable(on.table("idempotency"))
          .set({
            state: "completed",
            response_status: response.status,
            response_headers: JSON.stringify(response.headers),
            response_body: body,
          })
          .where("key_id", "=", keyId)
          .where("idempotency_key", "=", idempotencyKey)
          .execute();
      if (subjectId === undefined) {
        await store(ctx, response.body);
        return;
      }
      // The application's row locked first: an erasure holding it has committed (and is seen)
      // by the time this reads it, and one that comes later finds this answer stored.
      await ctx.atomic(async (tx) => {
        if (tx.domain) {
          const erasedAt = await lockedErasedAt(tx, tx.domain, keyId, subjectId);
          await store(tx, erasedAt ? redactApplications(response.body, [subjectId], erasedAt) : response.body);
          return;
        }
        const row = await tx.strategy
          .forUpdate(
            tx.db
              .selectFrom(tx.tableAs("application", "a"))
              .select(tx.strategy.selectColumns("a", ["erased_at"], new Set(["erased_at"])))
              .where("a.id", "=", subjectId),
          )
          .$castTo<{ erased_at: string | Date | null }>()
          .executeTakeFirst();
        const erasedAt = row ? fromDb(row.erased_at) : null;
        await store(tx, erasedAt ? redactApplications(response.body, [subjectId], erasedAt) : response.body);
      });
    },

    async release(keyId, idempotencyKey) {
      await ctx.db
        .deleteFrom(table)
        .where("key_id", "=", keyId)
        .where("idempotency_key", "=", idempotencyKey)
        .where("state", "=", "in_progress")
        .execute();
    },

    async purgeExpired(now) {
      const result = await ctx.db.deleteFrom(table).where("expires_at", "<=", ctx.toDb(now)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
