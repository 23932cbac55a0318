/**
 * Core's use of the optional `applications.insertWithEvent`: one call instead of a transaction,
 * the event built before it, and the `job_changed` answer (the job renamed or deleted between
 * core's read and the storage's lock). A memory storage stands in for one that has the method.
 */
import { describe, expect, it } from "vitest";
import { createPublicApi } from "../src/index";
import { memoryStorage } from "../src/memory";
import type { InsertWithEventInput, InsertWithEventResult, Storage } from "../src/storage";

const COMPANY = "co_iwe";

/** A memory storage whose `insertWithEvent` records its input and answers what `answer` says. */
function storageWith(answer: (input: InsertWithEventInput) => Promise<InsertWithEventResult>) {
  const base = memoryStorage();
  const calls: InsertWithEventInput[] = [];
  const storage: Storage = {
    ...base,
    transaction: base.transaction.bind(base),
    applications: Object.assign(Object.create(base.applications), {
      insertWithEvent: async (input: InsertWithEventInput) => {
        calls.push(input);
        return answer(input);
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

describe("applications.create with a storage that has insertWithEvent", () => {
  it("makes one call whose event carries the application as created; onEvent hears of it", async () => {
    const { base, storage, calls } = storageWith(async () => ({ outcome: "inserted" }));
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
    // Nothing went through the transaction's methods: the stand-in wrote nothing.
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

  it("job_changed after a rename: the transaction stores it with the new title, one event", async () => {
    let rename: () => Promise<unknown> = async () => {};
    const { base, storage, calls } = storageWith(async () => {
      await rename();
      return { outcome: "job_changed" };
    });
    const { api, job, events, body } = await setUp(storage);
    rename = () => api.jobs.update(COMPANY, job.id, { title: "Senior Welder" });
    const created = await api.applications.create(COMPANY, body);
    expect(calls).toHaveLength(1);
    expect(created.jobTitle).toBe("Senior Welder");
    expect(await base.applications.get(COMPANY, created.id)).toEqual(created);
    // job.updated of the rename, then application.created of the transaction.
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
