import {
  emptyErasureResult,
  erasedApplication,
  REDACTED_RESPONSE_BODY,
  redactApplications,
} from "../applications/erasure";
import type { CandidateErasureResult, CandidateStore, NewApplication } from "../storage";
import type { StateAccess } from "./access";
import { toRecord } from "./application-store";
import { toStored } from "./copy";

/** Orders applications oldest first by a time, then by id (code-unit order). */
function byTimeThenId(at: (application: NewApplication) => Date) {
  return (a: NewApplication, b: NewApplication): number => {
    const diff = at(a).getTime() - at(b).getTime();
    if (diff !== 0) return diff;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

export function createCandidateStore(access: StateAccess): CandidateStore {
  return {
    listByEmail: (companyId, emailNormalized) =>
      access.read((state) =>
        [...state.read("applications").values()]
          .filter((row) => row.companyId === companyId && row.emailNormalized === emailNormalized)
          .sort(byTimeThenId((row) => row.appliedAt))
          .map((row) => toRecord(state, row)),
      ),

    // One state operation: nothing runs between its reads and its writes, which is what the row
    // locks of a database give.
    erase: (input) =>
      access.write((state): CandidateErasureResult => {
        const result = emptyErasureResult();
        const applications = state.write("applications");
        const targets = [...new Set(input.applicationIds)]
          .map((id) => applications.get(id))
          .filter(
            (row): row is NewApplication =>
              row?.companyId === input.companyId &&
              (row.erasedAt ?? null) === null &&
              (input.updatedBefore === undefined || row.updatedAt.getTime() < input.updatedBefore.getTime()),
          )
          .sort(byTimeThenId((row) => row.appliedAt));
        if (targets.length === 0) return result;
        const ids = new Set(targets.map((row) => row.id));
        for (const row of targets) {
          if (row.resumeFileId !== null) result.fileIds.push(row.resumeFileId);
          applications.set(row.id, toStored(erasedApplication(row, input.erasedAt)));
        }

        const notes = state.write("notes");
        for (const note of [...notes.values()]) {
          if (note.companyId === input.companyId && ids.has(note.applicationId)) {
            notes.delete(note.id);
            result.notes += 1;
          }
        }

        const events = state.write("events");
        const eventIds = new Set<string>();
        for (const event of [...events.values()]) {
          if (event.companyId !== input.companyId || event.subjectId === null || !ids.has(event.subjectId)) continue;
          eventIds.add(event.id);
          events.set(event.id, toStored({ ...event, payload: redactApplications(event.payload, ids, input.erasedAt) }));
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
        for (const key of state.read("keys").values()) if (key.companyId === input.companyId) keyIds.add(key.id);
        const entries = state.write("idempotency");
        for (const [key, entry] of [...entries]) {
          if (!keyIds.has(entry.keyId) || entry.response === null) continue;
          const body = redactApplications(entry.response.body, ids, input.erasedAt);
          if (body === entry.response.body) continue;
          entries.set(key, toStored({ ...entry, response: { ...entry.response, body } }));
          result.idempotencyRecords += 1;
        }

        result.erased = targets.map((row) => toRecord(state, applications.get(row.id) as NewApplication));
        return result;
      }),

    listForRetention: (query) =>
      access.read((state) => {
        const stages = new Set<string>(query.stages);
        const before = query.updatedBefore.getTime();
        return [...state.read("applications").values()]
          .filter((row) => (row.erasedAt ?? null) === null && stages.has(row.stage) && row.updatedAt.getTime() < before)
          .sort(byTimeThenId((row) => row.updatedAt))
          .slice(0, Math.max(0, query.take))
          .map((row) => ({ companyId: row.companyId, id: row.id }));
      }),

    resumeFilesInUse: (fileIds) =>
      access.read((state) => {
        const asked = new Set(fileIds);
        const named = new Set<string>();
        for (const row of state.read("applications").values()) {
          if (row.resumeFileId !== null && asked.has(row.resumeFileId)) named.add(row.resumeFileId);
        }
        return [...named];
      }),
  };
}
