/**
 * What erasing applications changes in hireport's own tables (the outbox, delivery attempts, stored
 * answers): core's `redactInSteps` on statements of this storage, over every text `REDACTED_TEXTS`
 * lists, each step one statement per `IN_LIST_SIZE` ids.
 */
import {
  type ErasureRedactionSteps,
  type ErasureRedactions,
  REDACTED_RESPONSE_BODY,
  REDACTED_TEXTS,
  type RedactableRow,
  type RedactedText,
  redactInSteps,
} from "@hireport/core/storage";
import { sql } from "kysely";
import type { StoreContext } from "../context";

/** Ids per `IN (…)` list. */
export const IN_LIST_SIZE = 500;

export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += IN_LIST_SIZE) out.push(items.slice(start, start + IN_LIST_SIZE));
  return out;
}

/** What {@link redactErasedApplications} changed: core's `ErasureRedactions`. */
export type { ErasureRedactions };

/** A stored answer's key. */
interface AnswerKey {
  keyId: string;
  idempotencyKey: string;
}

/** The texts of `texts` read from `row`, by column. */
function textsOf(row: Record<string, unknown>, texts: readonly RedactedText[]): Record<string, string | null> {
  return Object.fromEntries(texts.map(({ column }) => [column, (row[column] as string | null | undefined) ?? null]));
}

/** The columns of `texts`, under `alias`. */
function columnsOf(alias: string, texts: readonly RedactedText[]) {
  return texts.map(({ column }) => sql.ref(`${alias}.${column}`).as(column));
}

/** `redactInSteps`'s steps on `tx`: the events and deliveries locked `FOR UPDATE`, in id order per statement. */
function redactionSteps(tx: StoreContext): ErasureRedactionSteps<AnswerKey> {
  return {
    async lockEvents(companyId, applicationIds) {
      const rows: RedactableRow<string>[] = [];
      for (const part of chunks(applicationIds)) {
        const read = tx.db
          .selectFrom(tx.tableAs("event", "e"))
          .select("e.id")
          .select(columnsOf("e", REDACTED_TEXTS.event))
          .where("e.company_id", "=", companyId)
          .where("e.subject_id", "in", part)
          .orderBy("e.id", "asc");
        for (const row of await tx.strategy.forUpdate(read, "e").execute()) {
          rows.push({ key: row.id, texts: textsOf(row, REDACTED_TEXTS.event) });
        }
      }
      return rows;
    },
    async writeEvent(id, texts) {
      await tx.db.updateTable(tx.table("event")).set(texts).where("id", "=", id).execute();
    },
    async lockDeliveries(eventIds) {
      const ids: string[] = [];
      for (const part of chunks(eventIds)) {
        const read = tx.db
          .selectFrom(tx.tableAs("webhook_delivery", "d"))
          .select("d.id")
          .where("d.event_id", "in", part)
          .orderBy("d.id", "asc");
        ids.push(...(await tx.strategy.forUpdate(read, "d").execute()).map((row) => row.id));
      }
      return ids;
    },
    async emptyAttempts(deliveryIds) {
      const columns = REDACTED_TEXTS.webhook_attempt.map(({ column }) => column);
      const emptied = Object.fromEntries(columns.map((column) => [column, REDACTED_RESPONSE_BODY]));
      let changed = 0;
      for (const part of chunks(deliveryIds)) {
        const result = await tx.db
          .updateTable(tx.table("webhook_attempt"))
          .set(emptied)
          .where("delivery_id", "in", part)
          .where((eb) => eb.or(columns.map((column) => eb(sql.ref(column), "<>", REDACTED_RESPONSE_BODY))))
          .executeTakeFirst();
        changed += Number(result.numUpdatedRows);
      }
      return changed;
    },
    async findAnswers(companyId, applicationIds) {
      const texts = REDACTED_TEXTS.idempotency;
      const keys = tx.db.selectFrom(tx.tableAs("api_key", "k")).select("k.id").where("k.company_id", "=", companyId);
      // An answer naming ids of two lists is read twice: it is listed once.
      const found = new Map<string, RedactableRow<AnswerKey>>();
      for (const part of chunks(applicationIds)) {
        const rows = await tx.db
          .selectFrom(tx.tableAs("idempotency", "i"))
          .select(["i.key_id", "i.idempotency_key"])
          .select(columnsOf("i", texts))
          .where("i.key_id", "in", keys)
          .where((eb) =>
            eb.or(texts.flatMap(({ column }) => part.map((id) => tx.strategy.textContains(`i.${column}`, id)))),
          )
          .execute();
        for (const row of rows) {
          const key = { keyId: row.key_id, idempotencyKey: row.idempotency_key };
          found.set(`${key.keyId}\u0000${key.idempotencyKey}`, { key, texts: textsOf(row, texts) });
        }
      }
      return [...found.values()];
    },
    async writeAnswer(key, texts) {
      await tx.db
        .updateTable(tx.table("idempotency"))
        .set(texts)
        .where("key_id", "=", key.keyId)
        .where("idempotency_key", "=", key.idempotencyKey)
        .execute();
    },
  };
}

/**
 * The part of `candidates.erase` on hireport's tables (core's `redactInSteps`), once the
 * application rows `ids` of the company are locked and erased, on the same transaction `tx`.
 */
export function redactErasedApplications(
  tx: StoreContext,
  companyId: string,
  ids: readonly string[],
  erasedAt: Date,
): Promise<ErasureRedactions> {
  return redactInSteps(redactionSteps(tx), { companyId, applicationIds: ids, erasedAt });
}
