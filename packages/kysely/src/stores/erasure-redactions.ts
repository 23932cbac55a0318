/** What erasing applications changes in hireport's own tables: the outbox, delivery attempts, stored answers. */
import { type ErasureRedactions, REDACTED_RESPONSE_BODY, redactApplications } from "@hireport/core";
import type { StoreContext } from "../context";

/** Ids per `IN (…)` list. */
const CHUNK = 500;

export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK) out.push(items.slice(start, start + CHUNK));
  return out;
}

/** What {@link redactErasedApplications} changed: core's `ErasureRedactions`. */
export type { ErasureRedactions };

/**
 * The part of `candidates.erase` on hireport's tables, once the application rows `ids` of the
 * company are locked and erased, on the same transaction: the payload of each event whose subject
 * is one of them (locked in id order) through `redactApplications`, then the deliveries of those
 * events locked in id order and the answers of their attempts set to `REDACTED_RESPONSE_BODY`,
 * then every stored `Idempotency-Key` answer of the company's keys that names one of them.
 */
export async function redactErasedApplications(
  tx: StoreContext,
  companyId: string,
  ids: readonly string[],
  erasedAt: Date,
): Promise<ErasureRedactions> {
  const result: ErasureRedactions = { events: 0, attempts: 0, idempotencyRecords: 0 };
  if (ids.length === 0) return result;
  const events: { id: string; payload: string }[] = [];
  for (const part of chunks(ids)) {
    const read = tx.db
      .selectFrom(tx.tableAs("event", "e"))
      .select(["e.id", "e.payload"])
      .where("e.company_id", "=", companyId)
      .where("e.subject_id", "in", part)
      .orderBy("e.id", "asc");
    events.push(...(await tx.strategy.forUpdate(read, "e").execute()));
  }
  for (const event of events) {
    await tx.db
      .updateTable(tx.table("event"))
      .set({ payload: redactApplications(event.payload, ids, erasedAt) })
      .where("id", "=", event.id)
      .execute();
  }
  result.events = events.length;

  const deliveryIds: string[] = [];
  for (const part of chunks(events.map((event) => event.id))) {
    const read = tx.db
      .selectFrom(tx.tableAs("webhook_delivery", "d"))
      .select("d.id")
      .where("d.event_id", "in", part)
      .orderBy("d.id", "asc");
    deliveryIds.push(...(await tx.strategy.forUpdate(read, "d").execute()).map((row) => row.id));
  }
  for (const part of chunks(deliveryIds)) {
    const emptied = await tx.db
      .updateTable(tx.table("webhook_attempt"))
      .set({ response_body: REDACTED_RESPONSE_BODY })
      .where("delivery_id", "in", part)
      .where("response_body", "<>", REDACTED_RESPONSE_BODY)
      .executeTakeFirst();
    result.attempts += Number(emptied.numUpdatedRows);
  }

  const keys = tx.db.selectFrom(tx.tableAs("api_key", "k")).select("k.id").where("k.company_id", "=", companyId);
  for (const part of chunks(ids)) {
    const answers = await tx.db
      .selectFrom(tx.tableAs("idempotency", "i"))
      .select(["i.key_id", "i.idempotency_key", "i.response_body"])
      .where("i.key_id", "in", keys)
      .where("i.response_body", "is not", null)
      .where((eb) => eb.or(part.map((id) => tx.strategy.textContains("i.response_body", id))))
      .execute();
    for (const answer of answers) {
      const body = redactApplications(answer.response_body ?? "", ids, erasedAt);
      if (body === answer.response_body) continue;
      await tx.db
        .updateTable(tx.table("idempotency"))
        .set({ response_body: body })
        .where("key_id", "=", answer.key_id)
        .where("idempotency_key", "=", answer.idempotency_key)
        .execute();
      result.idempotencyRecords += 1;
    }
  }
  return result;
}
