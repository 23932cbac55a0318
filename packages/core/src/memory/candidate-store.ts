import { redactInSteps } from "../applications/erasure-redactions";
import { type CandidateErasureSteps, eraseInSteps } from "../applications/erasure-steps";
import type { CandidateStore, NewApplication } from "../storage";
import type { StateAccess } from "./access";
import { toRecord, withoutJobTitle } from "./application-store";
import { toStored } from "./copy";
import { redactionSteps } from "./erasure-redactions";
import { ownRow } from "./rows";

/** Orders applications oldest first by a time, then by id (code-unit order). */
function byTimeThenId(at: (application: NewApplication) => Date) {
  return (a: NewApplication, b: NewApplication): number => {
    const diff = at(a).getTime() - at(b).getTime();
    if (diff !== 0) return diff;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

/** The statements of `eraseInSteps` on the memory state, each one operation of `access` (a transaction's). */
function erasureSteps(access: StateAccess): CandidateErasureSteps {
  return {
    lockApplications: (companyId, ids) =>
      access.read((state) => {
        const applications = state.read("applications");
        return ids.flatMap((id) => {
          const row = ownRow(applications, companyId, id);
          return row ? [toRecord(state, row)] : [];
        });
      }),
    storeErased: (records) =>
      access.write((state) => {
        const applications = state.write("applications");
        for (const record of records) applications.set(record.id, toStored(withoutJobTitle(record)));
      }),
    deleteNotes: (companyId, applicationIds) =>
      access.write((state) => {
        const ids = new Set(applicationIds);
        const notes = state.write("notes");
        let deleted = 0;
        for (const note of [...notes.values()]) {
          if (note.companyId === companyId && ids.has(note.applicationId) && notes.delete(note.id)) deleted += 1;
        }
        return deleted;
      }),
    redactErasure: (erasure) => redactInSteps(redactionSteps(access), erasure),
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

    // Core's steps on a transaction: the memory storage's writes run one at a time, as row locks make them.
    erase: (input) => access.atomic((tx) => eraseInSteps(erasureSteps(tx), input)),

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
