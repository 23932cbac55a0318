import type { AnyEventType } from "@hireport/core/schemas";
import type { EventRecord } from "@hireport/core/storage";
import type { EventTable } from "../schema";
import { fromDb } from "../values";

/** An event row as the outbox's record (the feed adds its position). */
export function toEvent(row: EventTable): EventRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    type: row.type as AnyEventType,
    payload: row.payload,
    createdAt: fromDb(row.created_at),
    subjectId: row.subject_id,
  };
}
