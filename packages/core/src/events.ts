import type { AnyEventType, EventRecord } from "./domain";
import { newId } from "./ids";

/** `api_version` of every envelope (spec section 9). */
export const API_VERSION = "1.0";

/** The envelope of spec 2.9 as JSON text: the exact bytes that are signed and sent. */
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

/** A new outbox event: a fresh id, and the envelope of spec 2.9 as its payload. */
export function newEvent(input: { type: AnyEventType; companyId: string; data: unknown; now: Date }): EventRecord {
  const id = newId("evt", input.now);
  return {
    id,
    companyId: input.companyId,
    type: input.type,
    payload: eventPayload({ id, type: input.type, createdAt: input.now, companyId: input.companyId, data: input.data }),
    createdAt: input.now,
  };
}
