/**
 * `eraseInSteps`, core's portable `candidates.erase`, on stand-in stores that log every call: the
 * locks before any write and in id order, the choice made on what the locked read returns, and the
 * result built from the steps' answers.
 */
import { describe, expect, it } from "vitest";
import { erasedApplication } from "../src/applications/erasure";
import { type CandidateErasureSteps, eraseInSteps } from "../src/applications/erasure-steps";
import type { ApplicationRecord } from "../src/model/domain";
import type { CandidateErasureInput } from "../src/storage";
import { makeApplication } from "../src/testing/fixtures";

const COMPANY = "co_1";
const T0 = new Date("2026-03-01T09:00:00.000Z");
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);
const ERASED_AT = minutes(600);

/** An application of the company, stored as `get` returns it. */
function application(id: string, overrides: Partial<ApplicationRecord> = {}): ApplicationRecord {
  return {
    ...makeApplication(COMPANY, "job_1", { id, appliedAt: T0, updatedAt: T0 }),
    jobTitle: "Welder",
    ...overrides,
  };
}

type Call =
  | { step: "lockApplications"; ids: readonly string[] }
  | { step: "get"; id: string; lock: boolean }
  | { step: "storeErased"; record: unknown }
  | { step: "deleteNotes"; companyId: string; ids: readonly string[] }
  | { step: "redactErasure"; companyId: string; ids: readonly string[]; erasedAt: Date };

/**
 * Stand-ins over `rows` (by id) that log every call in `calls`: a batch of `lockApplications` as
 * one `get` with `lock` per id (it answers `lockedRows[id]` when there is one: the row as it is once
 * its lock is taken), and a batch of `storeErased` as one call per record. With `batches`, each
 * call of `lockApplications` and `storeErased` is logged as a batch too.
 */
function standIns(
  rows: ApplicationRecord[],
  lockedRows: Record<string, ApplicationRecord> = {},
  options: { batchSize?: number; batches?: boolean } = {},
) {
  const calls: Call[] = [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const steps: CandidateErasureSteps = {
    lockApplications: async (companyId, ids) => {
      if (options.batches) calls.push({ step: "lockApplications", ids: [...ids] });
      const locked: ApplicationRecord[] = [];
      for (const id of ids) {
        calls.push({ step: "get", id, lock: true });
        const row = lockedRows[id] ?? byId.get(id);
        if (row && row.companyId === companyId) locked.push(row);
      }
      return locked;
    },
    storeErased: async (records) => {
      if (options.batches) calls.push({ step: "storeErased", record: records.map((record) => record.id) });
      for (const record of records) calls.push({ step: "storeErased", record });
    },
    deleteNotes: async (companyId, ids) => {
      calls.push({ step: "deleteNotes", companyId, ids: [...ids] });
      return 3;
    },
    redactErasure: async ({ companyId, applicationIds, erasedAt }) => {
      calls.push({ step: "redactErasure", companyId, ids: [...applicationIds], erasedAt });
      return { events: 4, attempts: 5, idempotencyRecords: 6 };
    },
  };
  const erase = (input: Omit<CandidateErasureInput, "companyId" | "erasedAt">) =>
    eraseInSteps(
      steps,
      {
        companyId: COMPANY,
        erasedAt: ERASED_AT,
        ...input,
      },
      { batchSize: options.batchSize },
    );
  return { calls, erase };
}

describe("eraseInSteps", () => {
  it("locks every application named, once each, in id order, before it writes anything", async () => {
    const rows = ["app_c", "app_a", "app_b"].map((id) => application(id));
    const { calls, erase } = standIns(rows);
    await erase({ applicationIds: ["app_c", "app_a", "app_missing", "app_b", "app_a"] });
    const gets = calls.filter((call) => call.step === "get");
    expect(gets).toEqual(["app_a", "app_b", "app_c", "app_missing"].map((id) => ({ step: "get", id, lock: true })));
    const firstWrite = calls.findIndex((call) => call.step !== "get");
    expect(firstWrite).toBe(gets.length);
  });

  it("stores each as erasedApplication makes it and returns them oldest first, with their files and the steps' counts", async () => {
    const newer = application("app_a", { appliedAt: minutes(20), resumeFileId: "fil_new" });
    const older = application("app_z", { appliedAt: minutes(10), resumeFileId: "fil_old" });
    const sameTime = application("app_y", { appliedAt: minutes(10), resumeFileId: null });
    const { calls, erase } = standIns([newer, older, sameTime]);
    const result = await erase({ applicationIds: [newer.id, older.id, sameTime.id] });
    const expected = [sameTime, older, newer].map((record) => erasedApplication(record, ERASED_AT));
    expect(result).toEqual({
      erased: expected,
      fileIds: ["fil_old", "fil_new"],
      notes: 3,
      events: 4,
      attempts: 5,
      idempotencyRecords: 6,
    });
    expect(result.erased[0]).toMatchObject({ erasedAt: ERASED_AT, updatedAt: ERASED_AT, coverLetter: "" });
    expect(calls.filter((call) => call.step !== "get")).toEqual([
      ...expected.map((record) => ({ step: "storeErased", record })),
      { step: "deleteNotes", companyId: COMPANY, ids: ["app_y", "app_z", "app_a"] },
      { step: "redactErasure", companyId: COMPANY, ids: ["app_y", "app_z", "app_a"], erasedAt: ERASED_AT },
    ]);
  });

  it("leaves missing, other companies' and erased applications alone, and writes nothing when none is left", async () => {
    const erased = application("app_erased", { erasedAt: minutes(1) });
    const elsewhere = application("app_elsewhere", { companyId: "co_2" });
    const { calls, erase } = standIns([erased, elsewhere]);
    const result = await erase({ applicationIds: [erased.id, elsewhere.id, "app_missing"] });
    expect(result).toEqual({ erased: [], fileIds: [], notes: 0, events: 0, attempts: 0, idempotencyRecords: 0 });
    expect(calls.map((call) => call.step)).toEqual(["get", "get", "get"]);
  });

  it("decides on the row as read under the lock: one erased or changed since it was picked is left alone", async () => {
    const picked = application("app_changed", { updatedAt: minutes(1) });
    const erasedMeanwhile = application("app_erased", { updatedAt: minutes(1) });
    const atTheCut = application("app_cut", { updatedAt: minutes(1) });
    const old = application("app_old", { updatedAt: minutes(1) });
    const { calls, erase } = standIns([picked, erasedMeanwhile, atTheCut, old], {
      // Unlocked reads still answer the rows as they were picked.
      [picked.id]: { ...picked, updatedAt: minutes(90) },
      [erasedMeanwhile.id]: { ...erasedMeanwhile, erasedAt: minutes(50), updatedAt: minutes(50) },
      [atTheCut.id]: { ...atTheCut, updatedAt: minutes(30) },
    });
    const result = await erase({
      applicationIds: [picked.id, erasedMeanwhile.id, atTheCut.id, old.id],
      updatedBefore: minutes(30),
    });
    expect(result.erased.map((record) => record.id)).toEqual([old.id]);
    expect(calls.filter((call) => call.step === "storeErased")).toEqual([
      { step: "storeErased", record: erasedApplication(old, ERASED_AT) },
    ]);
  });

  it("takes the applications in batches of batchSize: the locks, the stores and the notes, each batch in order; one redaction", async () => {
    const rows = ["app_e", "app_d", "app_c", "app_b", "app_a"].map((id, n) =>
      application(id, { appliedAt: minutes(n) }),
    );
    const { calls, erase } = standIns(rows, {}, { batchSize: 2, batches: true });
    const result = await erase({ applicationIds: rows.map((row) => row.id) });
    // Oldest first: app_e (minute 0) … app_a (minute 4).
    const oldest = ["app_e", "app_d", "app_c", "app_b", "app_a"];
    expect(result.erased.map((record) => record.id)).toEqual(oldest);
    expect(calls.filter((call) => call.step === "lockApplications")).toEqual([
      { step: "lockApplications", ids: ["app_a", "app_b"] },
      { step: "lockApplications", ids: ["app_c", "app_d"] },
      { step: "lockApplications", ids: ["app_e"] },
    ]);
    const stores = calls.flatMap((call) =>
      call.step === "storeErased" && Array.isArray(call.record) ? [call.record] : [],
    );
    expect(stores).toEqual([["app_e", "app_d"], ["app_c", "app_b"], ["app_a"]]);
    expect(calls.filter((call) => call.step === "deleteNotes")).toEqual([
      { step: "deleteNotes", companyId: COMPANY, ids: ["app_e", "app_d"] },
      { step: "deleteNotes", companyId: COMPANY, ids: ["app_c", "app_b"] },
      { step: "deleteNotes", companyId: COMPANY, ids: ["app_a"] },
    ]);
    expect(calls.filter((call) => call.step === "redactErasure")).toEqual([
      { step: "redactErasure", companyId: COMPANY, ids: oldest, erasedAt: ERASED_AT },
    ]);
    // Every lock before the first write.
    const lastLock = calls.map((call) => call.step).lastIndexOf("get");
    expect(calls.slice(0, lastLock + 1).every((call) => call.step === "get" || call.step === "lockApplications")).toBe(
      true,
    );
    expect(result.notes).toBe(9);
  });

  it("refuses a batchSize that is not a positive integer", async () => {
    for (const batchSize of [0, -1, 1.5]) {
      const { erase } = standIns([application("app_a")], {}, { batchSize });
      await expect(erase({ applicationIds: ["app_a"] })).rejects.toThrow(/batchSize/);
    }
  });
});
