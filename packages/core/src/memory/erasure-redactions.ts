/** What erasing applications changes in the memory storage's infrastructure data: the outbox, delivery attempts, stored answers. */

import { REDACTED_RESPONSE_BODY, redactApplications } from "../applications/erasure";
import type { ErasureRedactionInput, ErasureRedactions } from "../applications/erasure-steps";
import { toStored } from "./copy";
import type { MemoryState } from "./state";

/**
 * The part of `candidates.erase` on hireport's own data, as `CandidateErasureSteps.redactErasure`
 * states it, in one state operation: the company's events whose subject is one of the applications,
 * the attempts of those events' deliveries, and the stored answers of the company's keys.
 */
export function redactErasure(state: MemoryState, erasure: ErasureRedactionInput): ErasureRedactions {
  const { companyId, erasedAt } = erasure;
  const ids = new Set(erasure.applicationIds);
  const result: ErasureRedactions = { events: 0, attempts: 0, idempotencyRecords: 0 };
  if (ids.size === 0) return result;

  const events = state.write("events");
  const eventIds = new Set<string>();
  for (const event of [...events.values()]) {
    if (event.companyId !== companyId || event.subjectId === null || !ids.has(event.subjectId)) continue;
    eventIds.add(event.id);
    events.set(event.id, toStored({ ...event, payload: redactApplications(event.payload, ids, erasedAt) }));
    result.events += 1;
  }

  const deliveryIds = new Set<string>();
  for (const delivery of state.read("deliveries").values()) {
    if (eventIds.has(delivery.eventId)) deliveryIds.add(delivery.id);
  }
  const attempts = state.write("attempts");
  for (const attempt of [...attempts.values()]) {
    if (!deliveryIds.has(attempt.deliveryId) || attempt.responseBody === REDACTED_RESPONSE_BODY) continue;
    attempts.set(attempt.id, toStored({ ...attempt, responseBody: REDACTED_RESPONSE_BODY }));
    result.attempts += 1;
  }

  const keyIds = new Set<string>();
  for (const key of state.read("keys").values()) if (key.companyId === companyId) keyIds.add(key.id);
  const entries = state.write("idempotency");
  for (const [key, entry] of [...entries]) {
    if (!keyIds.has(entry.keyId) || entry.response === null) continue;
    const body = redactApplications(entry.response.body, ids, erasedAt);
    if (body === entry.response.body) continue;
    entries.set(key, toStored({ ...entry, response: { ...entry.response, body } }));
    result.idempotencyRecords += 1;
  }
  return result;
}
