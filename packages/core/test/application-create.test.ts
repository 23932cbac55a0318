/**
 * Core's side of `applications.create`, the one write path of a new application: one storage call
 * with the event built before it, and the `job_changed` answer (the job renamed or deleted between
 * core's read and the storage's lock), after which core reads the job again and writes again.
 */
import { describe, expect, it } from "vitest";
import { createPublicApi } from "../src/index";
import { memoryStorage } from "../src/memory";
import type { CreateApplicationResult, NewApplicationWrite, Storage } from "../src/storage";

const COMPANY = "co_iwe";

/**
 * A memory storage whose `applications.create` records its input, then answers what `answer` says
 * (`"store"`: writes it through the memory storage and answers as it does).
 */
function storageWith(answer: (input: NewApplicationWrite, call: number) => Promise<CreateApplicationResult | "store">) {
  const base = memoryStorage();
  const calls: NewApplicationWrite[] = [];
  const storage: Storage = {
    ...base,
    transaction: base.transaction.bind(base),
    applications: Object.assign(Object.create(base.applications), {
      create: async (input: NewApplicationWrite) => {
        calls.push(input);
        const result = await answer(input, calls.length);
        return result === "store" ? base.applications.create(input) : result;
      },
    }),
  };
  return { base, storage, calls };
}

async function setUp(storage: Storage) {
  const events: { id: string; type: string; companyId: string }[] = [];
  const api = createPublicApi({
    storage,
    publicBaseUrl: "https://hr.example.com",
    fileTokenSecret: "a-secret-of-at-least-thirty-two-characters!",
    onEvent: (event) => events.push(event),
  });
  await api.companies.upsert({ id: COMPANY, name: "Acme" });
  const job = await api.jobs.create(COMPANY, { title: "Welder", description: "Welds.", status: "active" });
  events.length = 0;
  const body = { job_id: job.id, candidate: { name: "Ada Lovelace", email: "ada@example.com" } };
  return { api, job, events, body };
}

describe("core's applications.create", () => {
  it("makes one call whose event carries the application as created; onEvent hears of it", async () => {
    const { base, storage, calls } = storageWith(async () => ({ outcome: "created" }));
    const { api, job, events, body } = await setUp(storage);
    const created = await api.applications.create(COMPANY, body, { actor: "Careers page" });
    expect(calls).toHaveLength(1);
    const [input] = calls;
    expect(input?.jobTitle).toBe("Welder");
    expect(input?.record).toMatchObject({ id: created.id, jobId: job.id, emailNormalized: "ada@example.com" });
    expect(input?.initialStageChange).toMatchObject({
      applicationId: created.id,
      fromStage: null,
      toStage: "new",
      actor: { type: "host", id: null, name: "Careers page" },
    });
    const payload = JSON.parse(input?.event.payload ?? "{}");
    expect(payload).toMatchObject({ id: input?.event.id, type: "application.created", company_id: COMPANY });
    expect(payload.data).toMatchObject({ id: created.id, job_id: job.id, job_title: "Welder" });
    expect(created.jobTitle).toBe("Welder");
    expect(events).toEqual([{ id: input?.event.id, type: "application.created", companyId: COMPANY }]);
    // One call, nothing else: the stand-in answered without writing.
    expect(await base.applications.get(COMPANY, created.id)).toBeNull();
  });

  it("answers 409 duplicate with the earlier id, and no event is announced", async () => {
    const { storage } = storageWith(async () => ({ outcome: "duplicate", existingId: "app_earlier" }));
    const { api, events, body } = await setUp(storage);
    await expect(api.applications.create(COMPANY, body)).rejects.toMatchObject({
      code: "duplicate",
      extra: { existing_id: "app_earlier" },
    });
    expect(events).toEqual([]);
  });

  it("job_changed after a rename: core reads the job again and writes it with the new title, one event", async () => {
    let rename: () => Promise<unknown> = async () => {};
    const { base, storage, calls } = storageWith(async (_input, call) => {
      if (call > 1) return "store";
      await rename();
      return { outcome: "job_changed" };
    });
    const { api, job, events, body } = await setUp(storage);
    rename = () => api.jobs.update(COMPANY, job.id, { title: "Senior Welder" });
    const created = await api.applications.create(COMPANY, body);
    expect(calls.map((call) => call.jobTitle)).toEqual(["Welder", "Senior Welder"]);
    // The same reference both times: the number was taken once, before the first write.
    expect(calls[1]?.record.reference).toBe(calls[0]?.record.reference);
    expect(created.jobTitle).toBe("Senior Welder");
    expect(await base.applications.get(COMPANY, created.id)).toEqual(created);
    // job.updated of the rename, then application.created of the second write.
    expect(events.map((event) => event.type)).toEqual(["job.updated", "application.created"]);
    const stored = await base.events.list(COMPANY, { take: 10 });
    const event = stored.find((candidate) => candidate.type === "application.created");
    expect(stored.map((candidate) => candidate.type).sort()).toEqual([
      "application.created",
      "job.created",
      "job.updated",
    ]);
    expect(JSON.parse(event?.payload ?? "{}").data.job_title).toBe("Senior Welder");
    expect(await base.applications.listStageChanges(COMPANY, created.id)).toHaveLength(1);
  });

  it("job_changed for a job gone meanwhile (deleted by the host): 404 not_found, nothing stored", async () => {
    let gone = false;
    const { base, storage } = storageWith(async () => {
      gone = true;
      return { outcome: "job_changed" };
    });
    const jobs = base.jobs;
    storage.jobs = Object.assign(Object.create(jobs), {
      get: (companyId: string, id: string) => (gone ? Promise.resolve(null) : jobs.get(companyId, id)),
    });
    const { api, events, body } = await setUp(storage);
    await expect(api.applications.create(COMPANY, body)).rejects.toMatchObject({ code: "not_found" });
    expect(await base.applications.list({ companyId: COMPANY, take: 10 })).toEqual([]);
    expect(events).toEqual([]);
  });
});

describe("core's applications.create under a job that keeps changing", () => {
  it("gives up after 5 reads with a server error, having written nothing", async () => {
    const { base, storage, calls } = storageWith(async () => ({ outcome: "job_changed" }));
    const { api, events, body } = await setUp(storage);
    await expect(api.applications.create(COMPANY, body)).rejects.toThrow(/changed 5 times/);
    expect(calls).toHaveLength(5);
    expect(await base.applications.list({ companyId: COMPANY, take: 10 })).toEqual([]);
    expect(events).toEqual([]);
  });
});
