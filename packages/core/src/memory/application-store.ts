import type { ApplicationRecord } from "../domain";
import type { ApplicationPatch, ApplicationStore, NewApplication } from "../storage";
import type { StateAccess } from "./access";
import { copy, pickPatch, toStored } from "./copy";
import { appendEvent } from "./event-store";
import { keysetPage, oldestFirst } from "./keyset";
import type { MemoryState } from "./state";

/** The columns an application patch may write. */
const APPLICATION_PATCH_KEYS = [
  "stage",
  "tags",
  "starred",
  "overallScore",
  "humanReviewRequestedAt",
  "updatedAt",
] as const satisfies readonly (keyof ApplicationPatch)[];

/** A stored application as returned: a copy, with the job's title as it is now. */
export function toRecord(state: MemoryState, application: NewApplication): ApplicationRecord {
  const job = state.read("jobs").get(application.jobId);
  return { ...copy(application), jobTitle: job?.title ?? "" };
}

/** The stored shape: everything but `jobTitle`, even when the caller passed one. */
function withoutJobTitle(record: NewApplication): NewApplication {
  const stored: NewApplication & { jobTitle?: unknown } = { ...record };
  delete stored.jobTitle;
  return stored;
}

export function createApplicationStore(access: StateAccess): ApplicationStore {
  return {
    create: (write) =>
      access.write((state) => {
        const { record } = write;
        const applications = state.write("applications");
        if (applications.has(record.id)) {
          throw new Error(`The memory storage already has an application with id ${record.id}.`);
        }
        const jobs = state.write("jobs");
        const job = jobs.get(record.jobId);
        if (!job || job.companyId !== record.companyId || job.title !== write.jobTitle) {
          return { outcome: "job_changed" as const };
        }
        const since = write.duplicateSince.getTime();
        let existing: NewApplication | undefined;
        for (const other of applications.values()) {
          if (
            other.jobId === record.jobId &&
            other.emailNormalized === record.emailNormalized &&
            other.appliedAt.getTime() >= since &&
            (!existing || other.appliedAt.getTime() > existing.appliedAt.getTime())
          ) {
            existing = other;
          }
        }
        if (existing) return { outcome: "duplicate" as const, existingId: existing.id };
        const changes = state.write("stageChanges");
        if (changes.has(write.initialStageChange.id)) {
          throw new Error(`The memory storage already has a stage change ${write.initialStageChange.id}.`);
        }
        // The event first: it throws on a repeated id before anything else is written.
        appendEvent(state, write.event);
        applications.set(record.id, toStored(withoutJobTitle(record)));
        jobs.set(job.id, toStored({ ...job, applicationsCount: job.applicationsCount + 1 }));
        changes.set(write.initialStageChange.id, toStored(write.initialStageChange));
        return { outcome: "created" as const };
      }),

    get: (companyId, id) =>
      access.read((state) => {
        const application = state.read("applications").get(id);
        return application && application.companyId === companyId ? toRecord(state, application) : null;
      }),

    update: (companyId, id, patch) =>
      access.write((state) => {
        const applications = state.write("applications");
        const application = applications.get(id);
        if (!application || application.companyId !== companyId) return null;
        const updated: NewApplication = toStored({ ...application, ...pickPatch(patch, APPLICATION_PATCH_KEYS) });
        applications.set(id, updated);
        return toRecord(state, updated);
      }),

    list: (query) =>
      access.read((state) => {
        const since = query.updatedSince?.getTime();
        const rows: NewApplication[] = [];
        for (const application of state.read("applications").values()) {
          if (application.companyId !== query.companyId) continue;
          if (query.jobId !== undefined && application.jobId !== query.jobId) continue;
          if (query.stage !== undefined && application.stage !== query.stage) continue;
          if (since !== undefined && application.updatedAt.getTime() < since) continue;
          rows.push(application);
        }
        return keysetPage(
          rows,
          (application) => application.appliedAt,
          (application) => application.id,
          query.after,
          query.take,
        ).map((application) => toRecord(state, application));
      }),

    addStageChange: (record) =>
      access.write((state) => {
        const changes = state.write("stageChanges");
        if (changes.has(record.id)) throw new Error(`The memory storage already has a stage change ${record.id}.`);
        changes.set(record.id, toStored(record));
      }),

    listStageChanges: (companyId, applicationId) =>
      access.read((state) =>
        [...state.read("stageChanges").values()]
          .filter((change) => change.companyId === companyId && change.applicationId === applicationId)
          .sort(oldestFirst((change) => change.createdAt))
          .map((change) => copy(change)),
      ),

    addNote: (record) =>
      access.write((state) => {
        const notes = state.write("notes");
        if (notes.has(record.id)) throw new Error(`The memory storage already has a note ${record.id}.`);
        notes.set(record.id, toStored(record));
      }),

    listNotes: (companyId, applicationId) =>
      access.read((state) =>
        [...state.read("notes").values()]
          .filter((note) => note.companyId === companyId && note.applicationId === applicationId)
          .sort(oldestFirst((note) => note.createdAt))
          .map((note) => copy(note)),
      ),
  };
}
