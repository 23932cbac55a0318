import { type ApplicationCreateSteps, createApplicationInSteps } from "../applications/application-create-steps";
import { APPLICATION_FIELDS } from "../fields/application";
import type { ApplicationRecord } from "../model/domain";
import type { ApplicationPatch, ApplicationStore, NewApplication } from "../storage";
import type { StateAccess } from "./access";
import { copy, toStored } from "./copy";
import { appendEvent } from "./event-store";
import { keysetPage, oldestFirst } from "./keyset";
import { insertNew, ownRow, patchOwnRow } from "./rows";
import type { MemoryState } from "./state";

/** The fields an application patch may write: the Application fields declared `patch`, and the time. */
const APPLICATION_PATCH_KEYS: readonly (keyof ApplicationPatch)[] = [
  ...Object.entries(APPLICATION_FIELDS)
    .filter(([, spec]) => spec.patch)
    .map(([name]) => name as keyof ApplicationPatch),
  "updatedAt",
];

/** A stored application as returned: a copy, with the job's title as it is now. */
export function toRecord(state: MemoryState, application: NewApplication): ApplicationRecord {
  const job = state.read("jobs").get(application.jobId);
  return { ...copy(application), jobTitle: job?.title ?? "" };
}

/** The stored shape: everything but `jobTitle`, even when the caller passed one. */
export function withoutJobTitle(record: NewApplication): NewApplication {
  const stored: NewApplication & { jobTitle?: unknown } = { ...record };
  delete stored.jobTitle;
  return stored;
}

/** An application's stage changes or notes, oldest first (in the order written within a millisecond), copied out. */
function history<T extends { companyId: string; applicationId: string; createdAt: Date }>(
  rows: ReadonlyMap<string, T>,
  companyId: string,
  applicationId: string,
): T[] {
  return [...rows.values()]
    .filter((row) => row.companyId === companyId && row.applicationId === applicationId)
    .sort(oldestFirst((row) => row.createdAt))
    .map((row) => copy(row));
}

/**
 * The statements of core's `createApplicationInSteps` on the memory state, each one operation of
 * `access` (a transaction's: the memory storage runs it alone, as the job's row lock would make it).
 */
function createSteps(access: StateAccess): ApplicationCreateSteps {
  return {
    lockJob: (companyId, jobId) =>
      access.read((state) => {
        const job = ownRow(state.read("jobs"), companyId, jobId);
        return job ? { title: job.title, updatedAt: job.updatedAt } : null;
      }),
    findRecent: (_companyId, jobId, emailNormalized, since) =>
      access.read((state) => {
        // The latest of them, as the Kysely storage's `order by applied_at desc` finds it.
        let existing: NewApplication | null = null;
        for (const other of state.read("applications").values()) {
          if (
            other.jobId === jobId &&
            other.emailNormalized === emailNormalized &&
            other.appliedAt.getTime() >= since.getTime() &&
            (!existing || other.appliedAt.getTime() > existing.appliedAt.getTime())
          ) {
            existing = other;
          }
        }
        return existing?.id ?? null;
      }),
    countApplication: (companyId, jobId) =>
      access.write((state) => {
        const jobs = state.write("jobs");
        const job = ownRow(jobs, companyId, jobId);
        if (job) jobs.set(jobId, toStored({ ...job, applicationsCount: job.applicationsCount + 1 }));
      }),
    insertApplication: (record) =>
      access.write((state) => {
        const applications = state.write("applications");
        if (applications.has(record.id)) {
          throw new Error(`The memory storage already has an application with id ${record.id}.`);
        }
        applications.set(record.id, toStored(withoutJobTitle(record)));
      }),
    insertStageChange: (record) =>
      access.write((state) => insertNew(state.write("stageChanges"), record, "a stage change")),
    appendEvent: (event) => access.write((state) => appendEvent(state, event)),
  };
}

export function createApplicationStore(access: StateAccess): ApplicationStore {
  return {
    // Core's steps on a transaction: a step that throws (a repeated id) rolls the others back.
    create: (write) => access.atomic((tx) => createApplicationInSteps(createSteps(tx), write)),

    get: (companyId, id) =>
      access.read((state) => {
        const application = ownRow(state.read("applications"), companyId, id);
        return application ? toRecord(state, application) : null;
      }),

    update: (companyId, id, patch) =>
      access.write((state) => {
        const updated = patchOwnRow(state.write("applications"), companyId, id, patch, APPLICATION_PATCH_KEYS);
        return updated ? toRecord(state, updated) : null;
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
      access.write((state) => insertNew(state.write("stageChanges"), record, "a stage change")),

    listStageChanges: (companyId, applicationId) =>
      access.read((state) => history(state.read("stageChanges"), companyId, applicationId)),

    addNote: (record) => access.write((state) => insertNew(state.write("notes"), record, "a note")),

    listNotes: (companyId, applicationId) =>
      access.read((state) => history(state.read("notes"), companyId, applicationId)),
  };
}
