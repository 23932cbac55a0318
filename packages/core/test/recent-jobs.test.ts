/**
 * A burst of applications to one job reads the job once; the write checks that the job read is
 * still its current version, so a job closed, renamed or given new questions by another process
 * is seen by the very next application.
 */
import { describe, expect, it } from "vitest";
import type { JobRecord } from "../src/index";
import { createPublicApi, type PublicApi } from "../src/index";
import { memoryStorage } from "../src/memory";
import { RECENT_JOB_MS, RecentJobs } from "../src/runtime/recent-jobs";
import type { Storage } from "../src/storage";
import { makeJob } from "../src/testing";

const COMPANY = "co_recent";
const OPTIONS = {
  publicBaseUrl: "https://hr.example.com",
  fileTokenSecret: "a-secret-of-at-least-thirty-two-characters!",
};

/**
 * Two api instances (two processes) on one memory storage whose job reads are counted. Their clock
 * stands still: every change falls in the same millisecond, the case where a job's `updatedAt`
 * would not tell its versions apart unless each change moves it on.
 */
async function twoProcesses() {
  const base = memoryStorage();
  const reads: string[] = [];
  const storage: Storage = {
    ...base,
    transaction: base.transaction.bind(base),
    jobs: Object.assign(Object.create(base.jobs), {
      get: (companyId: string, id: string, options?: unknown) => {
        reads.push(id);
        return base.jobs.get(companyId, id, options as never);
      },
    }),
  };
  const clock = { now: () => new Date("2026-11-28T04:00:00.000Z") };
  const here: PublicApi = createPublicApi({ ...OPTIONS, clock, storage });
  const elsewhere: PublicApi = createPublicApi({ ...OPTIONS, clock, storage: base });
  await here.companies.upsert({ id: COMPANY, name: "Acme" });
  const job = await here.jobs.create(COMPANY, { title: "Welder", description: "Welds.", status: "active" });
  reads.length = 0;
  let candidates = 0;
  const apply = (extra: Record<string, unknown> = {}) => {
    candidates++;
    return here.applications.create(COMPANY, {
      job_id: job.id,
      candidate: { name: `Candidate ${candidates}`, email: `c${candidates}@example.com` },
      ...extra,
    });
  };
  return { base, here, elsewhere, job, reads, apply };
}

describe("the job read for an application", () => {
  it("serves the applications of the next moments: ten in a row read the job once", async () => {
    const { job, reads, apply } = await twoProcesses();
    for (let index = 0; index < 10; index++) await apply();
    expect(reads).toEqual([job.id]);
  });

  it("a job closed by another process refuses the next application (422), nothing written", async () => {
    const { base, elsewhere, job, reads, apply } = await twoProcesses();
    await apply();
    await elsewhere.jobs.close(COMPANY, job.id);
    await expect(apply()).rejects.toMatchObject({ status: 422, code: "invalid" });
    // The remembered job, the write's job_changed, the job read again and found closed.
    expect(reads).toEqual([job.id, job.id]);
    expect(await base.applications.list({ companyId: COMPANY, take: 10 })).toHaveLength(1);
  });

  it("a job renamed by another process: the next application's event carries the new title", async () => {
    const { base, elsewhere, job, apply } = await twoProcesses();
    await apply();
    await elsewhere.jobs.update(COMPANY, job.id, { title: "Senior Welder" });
    const second = await apply();
    expect(second.jobTitle).toBe("Senior Welder");
    const events = await base.events.list(COMPANY, { take: 10 });
    const created = events.filter((event) => event.type === "application.created");
    expect(created.map((event) => JSON.parse(event.payload).data.job_title).sort()).toEqual([
      "Senior Welder",
      "Welder",
    ]);
  });

  it("questions added by another process apply to the next application", async () => {
    const { elsewhere, job, apply } = await twoProcesses();
    await apply();
    await elsewhere.jobs.update(COMPANY, job.id, {
      questions: [{ id: "why", label: "Why us?", type: "long_text", required: true }],
    });
    await expect(apply()).rejects.toMatchObject({ status: 422 });
    const answered = await apply({ answers: [{ question_id: "why", value: "Sparks." }] });
    expect(answered.answers).toMatchObject([{ questionId: "why", value: "Sparks." }]);
  });

  it("a change made through the same process forgets the job at once: no write is refused for it", async () => {
    const { here, job, reads, apply } = await twoProcesses();
    await apply();
    await here.jobs.update(COMPANY, job.id, { title: "Senior Welder" });
    expect((await apply()).jobTitle).toBe("Senior Welder");
    expect(reads).toEqual([job.id, job.id]);
  });

  it("every change of a job moves its updatedAt on, also within one millisecond", async () => {
    const { elsewhere, job } = await twoProcesses();
    const renamed = await elsewhere.jobs.update(COMPANY, job.id, { title: "Senior Welder" });
    const closed = await elsewhere.jobs.close(COMPANY, job.id);
    expect(renamed.updatedAt.getTime()).toBe(job.updatedAt.getTime() + 1);
    expect(closed.updatedAt.getTime()).toBe(job.updatedAt.getTime() + 2);
  });

  it("a scoring function gets a copy: what it changes is not what the next application sees", async () => {
    const storage = memoryStorage();
    const seen: string[] = [];
    const api = createPublicApi({
      ...OPTIONS,
      storage,
      scoring: ({ job }) => {
        seen.push(job.title);
        (job as { title: string }).title = "Scribbled";
        return 50;
      },
    });
    await api.companies.upsert({ id: COMPANY, name: "Acme" });
    const job = await api.jobs.create(COMPANY, { title: "Welder", description: "Welds.", status: "active" });
    for (const email of ["a@example.com", "b@example.com"]) {
      const created = await api.applications.create(COMPANY, { job_id: job.id, candidate: { name: "A", email } });
      expect(created.jobTitle).toBe("Welder");
    }
    expect(seen).toEqual(["Welder", "Welder"]);
  });
});

describe("RecentJobs", () => {
  const job = (id: string): JobRecord => makeJob(COMPANY, { id });

  it("remembers a job for two seconds", () => {
    let now = 0;
    const recent = new RecentJobs(() => now);
    const welder = job("job_a");
    recent.remember(welder);
    now = RECENT_JOB_MS - 1;
    expect(recent.get(COMPANY, "job_a")).toBe(welder);
    now = RECENT_JOB_MS;
    expect(recent.get(COMPANY, "job_a")).toBeUndefined();
  });

  it("keeps companies apart and forgets on demand", () => {
    const recent = new RecentJobs(() => 0);
    recent.remember(job("job_a"));
    expect(recent.get("co_other", "job_a")).toBeUndefined();
    recent.forget(COMPANY, "job_a");
    expect(recent.get(COMPANY, "job_a")).toBeUndefined();
  });

  it("holds at most 1,000 jobs, forgetting the one remembered longest", () => {
    const recent = new RecentJobs(() => 0);
    for (let index = 0; index <= 1_000; index++) recent.remember(job(`job_${index}`));
    expect(recent.get(COMPANY, "job_0")).toBeUndefined();
    expect(recent.get(COMPANY, "job_1")?.id).toBe("job_1");
    expect(recent.get(COMPANY, "job_1000")?.id).toBe("job_1000");
  });
});
