/**
 * The part of `candidates.erase` on hireport's own tables, stated once: which texts of the outbox,
 * of the delivery attempts and of the stored `Idempotency-Key` answers can carry an erased
 * candidate's data ({@link REDACTED_TEXTS}), and the order of the locks, the rewrites and the counts
 * ({@link redactInSteps}). The memory storage and `@hireport/kysely` (whose `DomainScope` hands it
 * to a host's own tables as `redactErasure`) supply the reads and writes, over every text listed:
 * a text added to the list is redacted by both.
 */

import { redactApplications } from "./erasure";
import type { ErasureRedactionInput, ErasureRedactions } from "./erasure-steps";

/** A text of a row of hireport's own tables. */
export interface RedactedText {
  /** Its column in `@hireport/kysely`'s table. */
  readonly column: string;
  /** Where the memory storage's record keeps it: a property, or a property of a property. */
  readonly path: readonly [string] | readonly [string, string];
}

/** The texts erasure rewrites, by table of `@hireport/kysely`. */
export const REDACTED_TEXTS = {
  /** Of the company's events whose subject is one of the erased applications: through `redactApplications`. */
  event: [{ column: "payload", path: ["payload"] }],
  /**
   * Of the attempts of those events' deliveries: set to `REDACTED_RESPONSE_BODY` (the receiver may
   * have echoed the payload).
   */
  webhook_attempt: [{ column: "response_body", path: ["responseBody"] }],
  /** Of the stored answers of the company's keys that name one of them: through `redactApplications`. */
  idempotency: [{ column: "response_body", path: ["response", "body"] }],
} as const satisfies Record<string, readonly RedactedText[]>;

/** A row to redact: its key, and its texts of {@link REDACTED_TEXTS} by column (null where it has none). */
export interface RedactableRow<K> {
  key: K;
  texts: Readonly<Record<string, string | null>>;
}

/**
 * The reads and writes {@link redactInSteps} is built from, each bound to the erasure's transaction,
 * each over every text {@link REDACTED_TEXTS} lists for its table. `K` is the key of a stored answer.
 */
export interface ErasureRedactionSteps<K> {
  /** The company's events whose `subjectId` is one of `applicationIds`, each locked until the transaction ends, in id order. */
  lockEvents(companyId: string, applicationIds: readonly string[]): Promise<RedactableRow<string>[]>;
  /** Writes `texts` (by column) over the event `id`. */
  writeEvent(id: string, texts: Readonly<Record<string, string>>): Promise<void>;
  /** Locks the deliveries of the events `eventIds`, in id order; returns their ids. */
  lockDeliveries(eventIds: readonly string[]): Promise<string[]>;
  /**
   * Sets each text of `REDACTED_TEXTS.webhook_attempt` to `REDACTED_RESPONSE_BODY` in the attempts
   * of the deliveries `deliveryIds` that hold another value; how many attempts it changed.
   */
  emptyAttempts(deliveryIds: readonly string[]): Promise<number>;
  /**
   * The stored answers of the company's keys whose texts hold one of `applicationIds`, each once
   * (a few more do no harm: an answer that redaction leaves as it is is neither written nor counted).
   */
  findAnswers(companyId: string, applicationIds: readonly string[]): Promise<RedactableRow<K>[]>;
  /** Writes `texts` (by column) over the stored answer `key`. */
  writeAnswer(key: K, texts: Readonly<Record<string, string>>): Promise<void>;
}

/** The texts of `row` that `redactApplications` changes, by column; null when it changes none. */
function redactedTexts(
  texts: readonly RedactedText[],
  row: RedactableRow<unknown>,
  ids: readonly string[],
  erasedAt: Date,
): Record<string, string> | null {
  const changed: Record<string, string> = {};
  for (const { column } of texts) {
    const text = row.texts[column];
    if (text === null || text === undefined) continue;
    const redacted = redactApplications(text, ids, erasedAt);
    if (redacted !== text) changed[column] = redacted;
  }
  return Object.keys(changed).length > 0 ? changed : null;
}

/**
 * The part of `candidates.erase` on hireport's own tables, as `CandidateStore.erase` states it,
 * once the application rows are locked and erased, from `steps` on the same transaction: the
 * events of the company whose subject is one of the applications, locked in id order, redacted;
 * the deliveries of those events locked in id order and their attempts' answers emptied; every
 * stored `Idempotency-Key` answer of the company's keys that names one of them redacted. Returns
 * the counts of `CandidateErasureResult`: every event found, the attempts and answers changed.
 */
export async function redactInSteps<K>(
  steps: ErasureRedactionSteps<K>,
  erasure: ErasureRedactionInput,
): Promise<ErasureRedactions> {
  const { companyId, erasedAt } = erasure;
  const ids = [...new Set(erasure.applicationIds)].sort();
  const result: ErasureRedactions = { events: 0, attempts: 0, idempotencyRecords: 0 };
  if (ids.length === 0) return result;
  const events = await steps.lockEvents(companyId, ids);
  for (const event of events) {
    const texts = redactedTexts(REDACTED_TEXTS.event, event, ids, erasedAt);
    if (texts) await steps.writeEvent(event.key, texts);
  }
  result.events = events.length;
  result.attempts = await steps.emptyAttempts(await steps.lockDeliveries(events.map((event) => event.key)));
  for (const answer of await steps.findAnswers(companyId, ids)) {
    const texts = redactedTexts(REDACTED_TEXTS.idempotency, answer, ids, erasedAt);
    if (!texts) continue;
    await steps.writeAnswer(answer.key, texts);
    result.idempotencyRecords += 1;
  }
  return result;
}
