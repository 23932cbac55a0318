/**
 * The change detector (`api.changes`) in core, over a storage whose `changes` the test plays: the
 * first pass starts at its time, each change of a record is announced once as the right event, a
 * version the outbox already carries is left alone, pages follow one another, and a storage that
 * cannot tell changes is refused with a message that says why.
 */
import { createPublicApi, type JobRecord, type Storage } from "@hireport/core";
import type { ChangeDetectionOptions } from "@hireport/core/extend";
import { memoryStorage } from "@hireport/core/memory";
import type { ChangeCheckpoint, ChangedQuery, ChangeStore } from "@hireport/core/storage";
import { makeJob } from "@hireport/core/testing";
import { describe, expect, it } from "vitest";

const SECRET = "changes-secret-0123456789-abcdefghij";
const quiet = { warn: () => undefined, error: () => undefined, info: () => undefined };

/** A memory storage with a `changes` store over a list of jobs the test changes "in the product". */
function productStorage() {
  const storage = memoryStorage();
  const jobs = new Map<string, JobRecord>();
  const checkpoints = new Map<string, ChangeCheckpoint>();
  const after = (job: JobRecord, q: ChangedQuery) =>
    !q.after || job.updatedAt > q.after.at || (job.updatedAt.getTime() === q.after.at.getTime() && job.id > q.after.id);
  const changes: ChangeStore = {
    lockCheckpoint: async (kind) => checkpoints.get(kind) ?? null,
    async start(kind, at) {
      checkpoints.set(kind, { position: { at, id: "" }, startedAt: at });
    },
    async setPosition(kind, position) {
      const current = checkpoints.get(kind) as ChangeCheckpoint;
      checkpoints.set(kind, { ...current, position });
    },
    async changedJobs(q) {
      return [...jobs.values()]
        .filter((job) => after(job, q) && job.updatedAt <= q.until)
        .sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime() || (a.id < b.id ? -1 : 1))
        .slice(0, q.take);
    },
    changedApplications: async () => [],
    async latestEvents(_kind, subjects) {
      const ids = subjects.map((subject) => subject.id);
      const all = await storage.events.list("co_a", { take: 10_000 });
      const newest = new Map<string, { subjectId: string; type: string; payload: string }>();
      for (const event of all) {
        if (event.subjectId && ids.includes(event.subjectId) && !newest.has(event.subjectId)) {
          newest.set(event.subjectId, { subjectId: event.subjectId, type: event.type, payload: event.payload });
        }
      }
      return [...newest.values()];
    },
  };
  const withChanges: Storage = {
    ...storage,
    changes,
    transaction: (fn) => storage.transaction((tx) => fn({ ...tx, changes })),
  };
  return { storage: withChanges, jobs, events: () => storage.events.list("co_a", { take: 10_000 }) };
}

const job = (id: string, at: Date, fields: Partial<JobRecord> = {}): JobRecord =>
  makeJob("co_a", { id, createdAt: at, updatedAt: at, ...fields });

/** An API on `storage`, with the detector's `changes` options. */
const newApi = (storage: Storage, changes?: ChangeDetectionOptions) =>
  createPublicApi({
    storage,
    publicBaseUrl: "https://jobs.example.com",
    fileTokenSecret: SECRET,
    logger: quiet,
    ...(changes ? { changes } : {}),
  });

describe("api.changes", () => {
  it("starts at its first pass, then announces each change once as job.created, job.updated or job.closed", async () => {
    const { storage, jobs, events } = productStorage();
    const api = newApi(storage, { settleMs: 0, batchSize: 2 });
    await api.companies.upsert({ id: "co_a", name: "Acme" });
    const t0 = new Date(Date.now() - 10_000);
    jobs.set("job_old", job("job_old", t0));
    expect(await api.changes.poll()).toEqual({ jobs: 0, applications: 0 });

    const t1 = new Date();
    for (const id of ["job_a", "job_b", "job_c"]) jobs.set(id, job(id, t1));
    expect(await api.changes.poll()).toEqual({ jobs: 3, applications: 0 });
    expect(await api.changes.poll()).toEqual({ jobs: 0, applications: 0 });

    const t2 = new Date(t1.getTime() + 1);
    jobs.set("job_a", job("job_a", t1, { updatedAt: t2, title: "Renamed" }));
    jobs.set("job_b", job("job_b", t1, { updatedAt: t2, status: "closed", closedAt: t2 }));
    expect(await api.changes.poll()).toEqual({ jobs: 2, applications: 0 });
    const types = (await events()).map((event) => [event.subjectId, event.type]);
    expect(types).toEqual(
      expect.arrayContaining([
        ["job_a", "job.created"],
        ["job_b", "job.created"],
        ["job_c", "job.created"],
        ["job_a", "job.updated"],
        ["job_b", "job.closed"],
      ]),
    );
    expect(types).toHaveLength(5);
    expect(types.some(([id]) => id === "job_old")).toBe(false);
    const renamed = (await events()).find((event) => event.subjectId === "job_a" && event.type === "job.updated");
    expect(JSON.parse(renamed?.payload ?? "{}").data).toMatchObject({
      id: "job_a",
      title: "Renamed",
      updated_at: t2.toISOString(),
    });
  });

  it("a storage that cannot tell changes is refused with a message that says what it needs", async () => {
    const api = newApi(memoryStorage());
    expect(api.changes.available).toBe(false);
    await expect(api.changes.poll()).rejects.toThrow(/declaredDomain/);
    expect(() => api.changes.start()).toThrow(/cannot detect changes/);
    expect(api.changes.settings).toEqual({ intervalMs: 5000, settleMs: 2000, overlapMs: 60_000, batchSize: 200 });
  });

  it("refuses settings that are not whole numbers", () => {
    const make = (changes: object) => () => newApi(memoryStorage(), changes);
    expect(make({ batchSize: 0 })).toThrow(/changes.batchSize/);
    expect(make({ settleMs: -1 })).toThrow(/changes.settleMs/);
    expect(make({ intervalMs: 1.5 })).toThrow(/changes.intervalMs/);
  });

  it("start() runs passes in the background until stop(); close() stops it", async () => {
    const { storage, jobs, events } = productStorage();
    const api = newApi(storage, { settleMs: 0, intervalMs: 10 });
    await api.companies.upsert({ id: "co_a", name: "Acme" });
    api.changes.start();
    expect(api.changes.running).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 30));
    jobs.set("job_bg", job("job_bg", new Date()));
    const deadline = Date.now() + 5_000;
    while (!(await events()).some((event) => event.subjectId === "job_bg") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect((await events()).filter((event) => event.subjectId === "job_bg").map((event) => event.type)).toEqual([
      "job.created",
    ]);
    await api.close();
    expect(api.changes.running).toBe(false);
  });
});
