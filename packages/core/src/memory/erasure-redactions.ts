/**
 * The reads and writes of core's `redactInSteps` on the memory storage's infrastructure data (the
 * outbox, delivery attempts, stored answers), over every text `REDACTED_TEXTS` lists.
 */
import { REDACTED_RESPONSE_BODY } from "../applications/erasure";
import {
  type ErasureRedactionSteps,
  REDACTED_TEXTS,
  type RedactableRow,
  type RedactedText,
} from "../applications/erasure-redactions";
import type { StateAccess } from "./access";
import { toStored } from "./copy";

/** The text at `path` of a record; null when there is none (a stored answer without a response). */
function textAt(record: object, path: RedactedText["path"]): string | null {
  let value: unknown = record;
  for (const key of path) value = value !== null && typeof value === "object" ? Reflect.get(value, key) : undefined;
  return typeof value === "string" ? value : null;
}

/** A record's row to redact: `key`, and its texts of `texts` by column. */
function rowOf<K>(key: K, record: object, texts: readonly RedactedText[]): RedactableRow<K> {
  return { key, texts: Object.fromEntries(texts.map(({ column, path }) => [column, textAt(record, path)])) };
}

/** `record` with the `values` (by column) of `texts` written at their paths. */
function withTexts<T extends object>(
  record: T,
  texts: readonly RedactedText[],
  values: Readonly<Record<string, string>>,
): T {
  const out: Record<string, unknown> = { ...(record as Record<string, unknown>) };
  for (const { column, path } of texts) {
    const value = values[column];
    if (value === undefined) continue;
    const [first, second] = path;
    out[first] = second === undefined ? value : { ...(out[first] as object), [second]: value };
  }
  return out as T;
}

const byKey = <K>(a: RedactableRow<K>, b: RedactableRow<K>) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * `redactInSteps`'s steps on `access` (the erasure's transaction, which runs alone: its reads are
 * as locked). A stored answer's key is its key in the `idempotency` table.
 */
export function redactionSteps(access: StateAccess): ErasureRedactionSteps<string> {
  return {
    lockEvents: (companyId, applicationIds) =>
      access.read((state) => {
        const subjects = new Set(applicationIds);
        const rows: RedactableRow<string>[] = [];
        for (const event of state.read("events").values()) {
          if (event.companyId !== companyId || event.subjectId === null || !subjects.has(event.subjectId)) continue;
          rows.push(rowOf(event.id, event, REDACTED_TEXTS.event));
        }
        return rows.sort(byKey);
      }),
    writeEvent: (id, texts) =>
      access.write((state) => {
        const events = state.write("events");
        const event = events.get(id);
        if (event) events.set(id, toStored(withTexts(event, REDACTED_TEXTS.event, texts)));
      }),
    lockDeliveries: (eventIds) =>
      access.read((state) => {
        const events = new Set(eventIds);
        const ids: string[] = [];
        for (const delivery of state.read("deliveries").values())
          if (events.has(delivery.eventId)) ids.push(delivery.id);
        return ids.sort();
      }),
    emptyAttempts: (deliveryIds) =>
      access.write((state) => {
        const deliveries = new Set(deliveryIds);
        const texts = REDACTED_TEXTS.webhook_attempt;
        const emptied = Object.fromEntries(texts.map(({ column }) => [column, REDACTED_RESPONSE_BODY]));
        const attempts = state.write("attempts");
        let changed = 0;
        for (const attempt of [...attempts.values()]) {
          if (!deliveries.has(attempt.deliveryId)) continue;
          if (texts.every(({ path }) => textAt(attempt, path) === REDACTED_RESPONSE_BODY)) continue;
          attempts.set(attempt.id, toStored(withTexts(attempt, texts, emptied)));
          changed += 1;
        }
        return changed;
      }),
    findAnswers: (companyId, applicationIds) =>
      access.read((state) => {
        const keyIds = new Set<string>();
        for (const key of state.read("keys").values()) if (key.companyId === companyId) keyIds.add(key.id);
        const rows: RedactableRow<string>[] = [];
        for (const [key, entry] of state.read("idempotency")) {
          if (!keyIds.has(entry.keyId)) continue;
          const row = rowOf(key, entry, REDACTED_TEXTS.idempotency);
          const texts = Object.values(row.texts);
          if (texts.some((text) => text !== null && applicationIds.some((id) => text.includes(id)))) rows.push(row);
        }
        return rows;
      }),
    writeAnswer: (key, texts) =>
      access.write((state) => {
        const entries = state.write("idempotency");
        const entry = entries.get(key);
        if (entry) entries.set(key, toStored(withTexts(entry, REDACTED_TEXTS.idempotency, texts)));
      }),
  };
}
