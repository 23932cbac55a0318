import { withEventTrace } from "../base/telemetry";
import type { AnyEventType, EventRecord } from "../model/domain";
import { newId } from "../model/ids";

/** `api_version` of every envelope (docs/api-reference.md, The envelope). */
export const API_VERSION = "1.0";

/** The envelope (docs/api-reference.md, The envelope) as JSON text: the exact bytes that are signed and sent. */
export function eventPayload(event: {
  id: string;
  type: AnyEventType;
  createdAt: Date;
  companyId: string;
  data: unknown;
}): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: event.createdAt.toISOString(),
    company_id: event.companyId,
    api_version: API_VERSION,
    data: event.data,
  });
}

/** The record an event is about: the `id` of the Job or Application in its data; null for `webhook.test`. */
export function eventSubject(type: AnyEventType, data: unknown): string | null {
  if (type === "webhook.test" || typeof data !== "object" || data === null) return null;
  const id = (data as { id?: unknown }).id;
  return typeof id === "string" ? id : null;
}

/**
 * A new outbox event: a fresh id, the envelope as its payload, and its subject. With a
 * `traceparent` (the span active when it was emitted), the stored payload carries it in a last
 * field the dispatcher takes off before signing (receivers never see it).
 */
export function newEvent(input: {
  type: AnyEventType;
  companyId: string;
  data: unknown;
  now: Date;
  traceparent?: string | undefined;
}): EventRecord {
  const id = newId("evt", input.now);
  const payload = eventPayload({
    id,
    type: input.type,
    createdAt: input.now,
    companyId: input.companyId,
    data: input.data,
  });
  return {
    id,
    companyId: input.companyId,
    type: input.type,
    payload: input.traceparent === undefined ? payload : withEventTrace(payload, input.traceparent),
    createdAt: input.now,
    subjectId: eventSubject(input.type, input.data),
  };
}
