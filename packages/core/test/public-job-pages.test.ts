/**
 * `publicJobPages: false`, for a host without public job pages: every job's `public_url` is null,
 * in answers, in events and through `api.publicJobs.url()`, while the public-job rule still holds
 * for the rest; a value other than a boolean is refused.
 */
import { createPublicApi, type PublicApi } from "@hireport/core";
import { memoryStorage } from "@hireport/core/memory";
import type { EventRecord } from "@hireport/core/storage";
import { describe, expect, it } from "vitest";

const SECRET = "public-job-pages-secret-0123456789-abcdef";

async function setup(publicJobPages?: boolean) {
  const storage = memoryStorage();
  const api: PublicApi = createPublicApi({
    storage,
    publicBaseUrl: "https://jobs.example.com",
    fileTokenSecret: SECRET,
    logger: { warn: () => undefined, error: () => undefined },
    ...(publicJobPages === undefined ? {} : { publicJobPages }),
  });
  await api.companies.upsert({ id: "co_a", name: "Acme" });
  const { key } = await api.keys.create({ companyId: "co_a", name: "Careers", scopes: ["jobs:write"] });
  const call = async (method: string, path: string, body?: unknown) => {
    const headers = {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    };
    const answer = await api.handle({ method, path, headers, body });
    const json = JSON.parse(String(answer.body)) as { data: Record<string, unknown> & Record<string, unknown>[] };
    return { status: answer.status, json: json.data };
  };
  const payloads = async () =>
    ((await storage.events.list("co_a", { take: 100 })) as EventRecord[]).map(
      (event) => JSON.parse(event.payload) as { type: string; data: { public_url?: string | null } },
    );
  return { api, call, payloads };
}

describe("publicJobPages", () => {
  it("by default, an active job has its page as public_url", async () => {
    const { api, call } = await setup();
    const created = await call("POST", "/jobs", { title: "Welder", status: "active" });
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    expect(created.json.public_url).toBe(`https://jobs.example.com/jobs/${id}`);
    expect(api.settings.publicJobPages).toBe(true);
  });

  it("false: public_url is null in answers, lists, events and api.publicJobs.url(), and the job is still public", async () => {
    const { api, call, payloads } = await setup(false);
    expect(api.settings.publicJobPages).toBe(false);
    const created = await call("POST", "/jobs", { title: "Welder", status: "active" });
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    expect(created.json.public_url).toBeNull();
    expect((await call("GET", `/jobs/${id}`)).json.public_url).toBeNull();
    const changed = await call("PATCH", `/jobs/${id}`, { title: "Senior welder" });
    expect(changed.json.public_url).toBeNull();
    const listed = (await call("GET", "/jobs")).json as unknown as { id: string; public_url: string | null }[];
    expect(listed.map((job) => [job.id, job.public_url])).toEqual([[id, null]]);
    const events = await payloads();
    expect(events.map((event) => event.type).sort()).toEqual(["job.created", "job.updated"]);
    for (const event of events) expect(event.data.public_url).toBeNull();

    const job = await api.jobs.get("co_a", id);
    expect(api.publicJobs.isPublic(job)).toBe(true);
    expect(api.publicJobs.url(job)).toBeNull();
    expect((await api.publicJobs.list("co_a")).data.map((listedJob) => listedJob.id)).toEqual([id]);
  });

  it("refuses anything but a boolean", async () => {
    for (const value of ["false", 0, "no"]) {
      expect(() =>
        createPublicApi({
          storage: memoryStorage(),
          publicBaseUrl: "https://jobs.example.com",
          fileTokenSecret: SECRET,
          publicJobPages: value as unknown as boolean,
        }),
      ).toThrow(/option publicJobPages must be true or false/);
    }
  });
});
