/**
 * `api.retention.purge()` and CV files no application names: a file put with no application (the
 * process died between the two writes) or left by a refused application whose file could not be
 * deleted goes once it is older than the grace period, never before; a file an application names
 * stays; an erased application's file is already gone; counts are right and every batch is
 * bounded. Each file store the storage module offers runs it: memory and a folder on disk here, the
 * database's own store through the `core-http:*` projects of @hireport/kysely.
 */
import type { FileStore, Storage } from "@hireport/core";
import { RetentionError } from "@hireport/core/extend";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApi, START, type TestApi, testClock } from "./harness";
import { type FileStoreUnderTest, testFileStores } from "./storage";

const MINUTE_MS = 60_000;
const GRACE_MINUTES = 60;
const at = (minutes: number, ms = 0) => new Date(START.getTime() + minutes * MINUTE_MS + ms);

/** What retention asked: the `limit` of every page of files, the size of every question to the storage. */
interface Calls {
  pages: number[];
  inUse: number[];
}

interface Switches {
  failDeletes: boolean;
  /** Files whose delete fails whatever `failDeletes` says. */
  refuse: Set<string>;
}

/** The file store with its `listCreatedBefore` calls recorded, and deletes that fail while `failDeletes` or for `refuse`. */
function watched(store: FileStore, calls: Calls, switches: Switches): FileStore {
  return {
    put: (file) => store.put(file),
    get: (companyId, id) => store.get(companyId, id),
    delete: (companyId, id) =>
      switches.failDeletes || switches.refuse.has(id)
        ? Promise.reject(new Error("the file store is down"))
        : store.delete(companyId, id),
    listCreatedBefore: (query) => {
      calls.pages.push(query.limit);
      return store.listCreatedBefore(query);
    },
    purgeUnfinished: (startedBefore) => store.purgeUnfinished(startedBefore),
  };
}

function counting(storage: Storage, calls: Calls): Storage {
  return {
    ...storage,
    candidates: {
      ...storage.candidates,
      resumeFilesInUse: (ids) => {
        calls.inUse.push(ids.length);
        return storage.candidates.resumeFilesInUse(ids);
      },
    },
    transaction: (fn) => storage.transaction(fn),
  };
}

const PDF = (owner: string) => new TextEncoder().encode(`%PDF-1.7\n%% CV of ${owner}\n`);

describe.each(Object.entries(testFileStores()))("orphaned CV files with the %s file store", (_name, make) => {
  let files: FileStoreUnderTest;
  let t: TestApi;
  let fileStore: FileStore;
  const calls: Calls = { pages: [], inUse: [] };
  const switches: Switches = { failDeletes: false, refuse: new Set() };

  async function setup(batchSize: number, rejectedDays: number | null = null): Promise<string> {
    calls.pages.length = 0;
    calls.inUse.length = 0;
    switches.failDeletes = false;
    switches.refuse.clear();
    const clock = testClock(START);
    files = await make(clock);
    fileStore = watched(files.fileStore, calls, switches);
    t = await createTestApi({
      clock,
      wrapStorage: (storage) => counting(storage, calls),
      extra: {
        fileStore,
        retention: { batchSize, orphanFileGraceMinutes: GRACE_MINUTES, applications: { rejected: rejectedDays } },
      },
    });
    await t.company("acme", "Acme Ltd");
    await t.company("beta", "Beta plc");
    return (await t.api.jobs.create("acme", { title: "Analyst", status: "active" })).id;
  }

  afterEach(async () => {
    await files?.dispose();
  });

  /** A CV put with no application: what a process that died before writing the application leaves. */
  const crashedUpload = (companyId: string, owner: string) =>
    fileStore.put({ companyId, filename: `${owner} CV.pdf`, contentType: "application/pdf", body: PDF(owner) });

  const apply = (jobId: string, name: string, email: string) =>
    t.api.applications.create(
      "acme",
      { job_id: jobId, candidate: { name, email } },
      { resume: { filename: `${name}.pdf`, contentType: "application/pdf", body: PDF(name) } },
    );

  const exists = async (companyId: string, id: string) => (await fileStore.get(companyId, id)) !== null;

  it("removes files no application names once older than the grace period, never before, in bounded batches", async () => {
    const jobId = await setup(2);
    const orphans = [
      await crashedUpload("acme", "Ann Orphan"),
      await crashedUpload("acme", "Bo Orphan"),
      await crashedUpload("beta", "Cy Orphan"),
    ];
    const named = await apply(jobId, "Dee Kept", "dee@example.com");
    expect(named.resumeFileId).not.toBeNull();
    t.clock.set(at(1));
    const laterOrphan = await crashedUpload("acme", "Eve Later");
    const before = files.countStored ? await files.countStored() : null;
    if (before !== null) expect(before).toBe(5);

    // Up to and at the end of the grace period: every file stays.
    for (const when of [at(GRACE_MINUTES - 1), at(GRACE_MINUTES)]) {
      t.clock.set(when);
      expect(await t.api.retention.purge()).toMatchObject({ orphanFiles: 0, unfinishedUploads: 0 });
    }
    for (const file of [...orphans, laterOrphan]) expect(await exists(file.companyId, file.id)).toBe(true);

    // One millisecond later the three first orphans go; the named file and the later orphan stay.
    calls.pages.length = 0;
    calls.inUse.length = 0;
    t.clock.set(at(GRACE_MINUTES, 1));
    expect(await t.api.retention.purge()).toMatchObject({ orphanFiles: 3, unfinishedUploads: 0 });
    for (const file of orphans) expect(await exists(file.companyId, file.id)).toBe(false);
    expect(await exists("acme", named.resumeFileId as string)).toBe(true);
    expect(await exists("acme", laterOrphan.id)).toBe(true);
    if (files.countStored) expect(await files.countStored()).toBe(2);
    // Four old files in pages of two (2, 2, then an empty page); one question per page of at most two.
    expect(calls.pages).toEqual([2, 2, 2]);
    expect(calls.inUse).toEqual([2, 2]);

    // Its own grace period passed: the later one goes too; the named one never.
    t.clock.set(at(GRACE_MINUTES + 1, 1));
    expect(await t.api.retention.purge()).toMatchObject({ orphanFiles: 1 });
    expect(await exists("acme", laterOrphan.id)).toBe(false);
    t.clock.set(at(60 * 24 * 400));
    expect(await t.api.retention.purge()).toMatchObject({ orphanFiles: 0 });
    expect(await exists("acme", named.resumeFileId as string)).toBe(true);
    expect(calls.inUse.every((size) => size <= 2)).toBe(true);
    // The CV of the application is still served.
    const cv = await fileStore.get("acme", named.resumeFileId as string);
    expect(new Uint8Array(await new Response(cv?.body).arrayBuffer())).toEqual(PDF("Dee Kept"));
  });

  it("removes the file of a refused application whose delete failed; an erased application's file is gone already", async () => {
    const jobId = await setup(500);
    const first = await apply(jobId, "Fay First", "fay@example.com");
    const erased = await apply(jobId, "Gus Erased", "gus@example.com");
    // The same address again: refused as a duplicate, and the delete of its CV fails (only logged).
    switches.failDeletes = true;
    await expect(apply(jobId, "Fay First", "FAY@example.com")).rejects.toMatchObject({ code: "duplicate" });
    switches.failDeletes = false;
    expect(t.logger.entries.some((entry) => entry.message.includes("could not be deleted"))).toBe(true);
    if (files.countStored) expect(await files.countStored()).toBe(3);

    t.clock.set(at(10));
    const erasure = await t.api.candidates.erase("acme", { email: "gus@example.com" }, { actor: "privacy team" });
    expect(erasure.counts.files).toBe(1);
    expect(await exists("acme", erased.resumeFileId as string)).toBe(false);

    t.clock.set(at(GRACE_MINUTES, 1));
    // Only the refused application's file is left without an application: it goes, and nothing else.
    expect(await t.api.retention.purge()).toMatchObject({ orphanFiles: 1 });
    expect(await exists("acme", first.resumeFileId as string)).toBe(true);
    if (files.countStored) expect(await files.countStored()).toBe(1);
    expect(await t.api.retention.purge()).toMatchObject({ orphanFiles: 0 });
  });

  it("an application whose CV file will not go is reported and skipped; the others and every other kind are purged", async () => {
    const jobId = await setup(2, 1);
    const names = ["Hal Stuck", "Ida Gone", "Jo Gone", "Kim Gone"];
    const applied = [];
    for (const name of names) applied.push(await apply(jobId, name, `${name.split(" ")[0]}@example.com`));
    for (const application of applied) await t.api.applications.update("acme", application.id, { stage: "rejected" });
    const orphan = await crashedUpload("beta", "Lu Orphan");
    const [stuck, ...others] = applied;
    if (!stuck) throw new Error("no application");
    switches.refuse.add(stuck.resumeFileId as string);

    t.clock.set(at(60 * 24 * 2));
    const failed = await t.api.retention.purge().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(RetentionError);
    const { counts, failures } = failed as RetentionError;
    expect(counts).toMatchObject({ applicationsErased: 3, orphanFiles: 1 });
    expect(failures).toEqual([
      { kind: "applicationsErased", companyId: "acme", ids: [stuck.id], error: expect.any(Error) },
    ]);
    expect((failed as Error).message).toContain(stuck.id);
    // The stuck one is as it was, its file included; the others are erased; the orphan is gone.
    const kept = await t.api.applications.get("acme", stuck.id);
    expect(kept).toMatchObject({ erasedAt: null, resumeFileId: stuck.resumeFileId });
    expect(kept.candidate.name).toBe("Hal Stuck");
    expect(await exists("acme", stuck.resumeFileId as string)).toBe(true);
    for (const application of others) {
      expect((await t.api.applications.get("acme", application.id)).erasedAt).not.toBeNull();
      expect(await exists("acme", application.resumeFileId as string)).toBe(false);
    }
    expect(await exists("beta", orphan.id)).toBe(false);
    expect(
      t.logger.entries.filter((entry) => entry.message.includes("retention could not purge")).map((e) => e.details),
    ).toEqual([expect.objectContaining({ kind: "applicationsErased", ids: [stuck.id] })]);

    // Once the store deletes it again, the next run erases it.
    switches.refuse.clear();
    expect(await t.api.retention.purge()).toMatchObject({ applicationsErased: 1 });
    expect(await exists("acme", stuck.resumeFileId as string)).toBe(false);
    expect((await t.api.applications.get("acme", stuck.id)).candidate.name).toBe("");
  });

  it("removes what an upload that never finished left, once it started before the grace period", async (context) => {
    const jobId = await setup(500);
    const leave = files.leaveUnfinished;
    if (!leave) {
      // This store's put leaves nothing behind.
      context.skip();
      return;
    }
    const kept = await apply(jobId, "Hal Kept", "hal@example.com");
    await leave(START);
    await leave(at(30));
    t.clock.set(at(GRACE_MINUTES));
    expect(await t.api.retention.purge()).toMatchObject({ orphanFiles: 0, unfinishedUploads: 0 });
    t.clock.set(at(GRACE_MINUTES, 1));
    expect(await t.api.retention.purge()).toMatchObject({ orphanFiles: 0, unfinishedUploads: 1 });
    if (files.countStored) expect(await files.countStored()).toBe(2);
    t.clock.set(at(GRACE_MINUTES + 30, 1));
    expect(await t.api.retention.purge()).toMatchObject({ orphanFiles: 0, unfinishedUploads: 1 });
    if (files.countStored) expect(await files.countStored()).toBe(1);
    expect(await exists("acme", kept.resumeFileId as string)).toBe(true);
  });
});
