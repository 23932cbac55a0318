import { redactApplications } from "../applications/erasure";
import type { IdempotencyClaim, IdempotencyStore } from "../storage";
import type { StateAccess } from "./access";
import { copy, toStored } from "./copy";
import { deleteMatching } from "./rows";

function entryKey(keyId: string, idempotencyKey: string): string {
  return `${keyId}\u0000${idempotencyKey}`;
}

export function createIdempotencyStore(access: StateAccess): IdempotencyStore {
  return {
    claim: (input) =>
      access.write((state): IdempotencyClaim => {
        const entries = state.write("idempotency");
        const key = entryKey(input.keyId, input.idempotencyKey);
        const entry = entries.get(key);
        const now = input.now.getTime();
        const expired = !entry || entry.expiresAt.getTime() <= now;
        const abandoned = !!entry && entry.response === null && entry.lockedUntil.getTime() <= now;
        if (!entry || expired || abandoned) {
          entries.set(
            key,
            toStored({
              keyId: input.keyId,
              idempotencyKey: input.idempotencyKey,
              requestHash: input.requestHash,
              createdAt: input.now,
              expiresAt: input.expiresAt,
              lockedUntil: input.lockedUntil,
              response: null,
            }),
          );
          return { state: "claimed" };
        }
        if (entry.response === null) return { state: "in_progress", requestHash: entry.requestHash };
        return { state: "completed", requestHash: entry.requestHash, response: copy(entry.response) };
      }),

    complete: (keyId, idempotencyKey, response, subjectId) =>
      access.write((state) => {
        const entries = state.write("idempotency");
        const key = entryKey(keyId, idempotencyKey);
        const entry = entries.get(key);
        if (!entry) return;
        // One state operation: an erasure runs wholly before or after it, as with the row lock of a database.
        const erasedAt = subjectId === undefined ? null : (state.read("applications").get(subjectId)?.erasedAt ?? null);
        const body = erasedAt && subjectId ? redactApplications(response.body, [subjectId], erasedAt) : response.body;
        entries.set(key, toStored({ ...entry, response: { ...response, body } }));
      }),

    release: (keyId, idempotencyKey) =>
      access.write((state) => {
        const entries = state.write("idempotency");
        const key = entryKey(keyId, idempotencyKey);
        if (entries.get(key)?.response === null) entries.delete(key);
      }),

    purgeExpired: (now) =>
      access.write(
        (state) =>
          deleteMatching(
            state.write("idempotency"),
            (entry) => entry.expiresAt,
            (entry) => entry.expiresAt.getTime() <= now.getTime(),
          ).length,
      ),
  };
}
