/**
 * The public side of core, as the careers site uses it: the public-job rule (closing date inclusive
 * in the company's time zone), `public_url` from one function, the public listing and a job's public
 * state, an application with a CV file (kept in the file store, deleted when refused), the CV route
 * streaming it, the human-review request, and the throttle.
 */
import { type ApplicationWire, createPublicApi, type FileStore, type PublicApi } from "@hireport/core";
import { HUMAN_REVIEW_NOTE } from "@hireport/core/extend";
import { memoryFileStore, memoryStorage } from "@hireport/core/memory";
import type { EventRecord } from "@hireport/core/storage";
import { describe, expect, it } from "vitest";

const SECRET = "public-side-secret-0123456789-abcdefghij";
const START = new Date("2026-03-31T10:00:00.000Z");

function clockAt(start: Date) {
  let now = start.getTime();
  return { now: () => new Date(now), set: (iso: string) => (now = new Date(iso).getTime()) };
}

/** A file store that remembers how many files it holds. */
function countingStore(): FileStore & { held: Set<string> } {
  const inner = memoryFileStore();
  const held = new Set<string>();
  return {
    held,
    async put(file) {
      const info = await inner.put(file);
      held.add(info.id);
      return info;
    },
    get: (companyId, id) => inner.get(companyId, id),
    async delete(companyId, id) {
      held.delete(id);
      return inner.delete(companyId, id);
    },
    listCreatedBefore: (query) => inner.listCreatedBefore(query),
    purgeUnfinished: (startedBefore) => inner.purgeUnfinished(startedBefore),
  };
}

async function setup(options: Partial<Parameters<typeof createPublicApi>[0]> = {}) {
  const storage = memoryStorage();
  const clock = clockAt(START);
  const fileStore = countingStore();
  const events: EventRecord[] = [];
  const api: PublicApi = createPublicApi({
    storage,
    publicBaseUrl: "https://jobs.example.com",
    fileTokenSecret: SECRET,
    clock,
    fileStore,
    logger: { warn: () => undefined, error: () => undefined },
    ...options,
  });
  await api.companies.upsert({ id: "co_a", name: "Acme" });
  await api.companies.upsert({ id: "co_b", name: "Other" });
  const eventsOf = async (companyId: string) => (await storage.events.list(companyId, { take: 100 })) as EventRecord[];
  return { api, storage, clock, fileStore, events, eventsOf };
}

describe("the public-job rule", () => {
  it("keeps a job public through its closing day in the company's time zone, and gives public_url only then", async () => {
    const { api, clock } = await setup({ closingTimeZone: "America/New_York" });
    const job = await api.jobs.create("co_a", { title: "Welder", status: "active", closing_date: "2026-03-31" });
    expect(job.publishedAt?.toISOString()).toBe(START.toISOString());
    expect(api.publicJobs.url(job)).toBe(`https://jobs.example.com/jobs/${job.id}`);
    // 23:59 on the 31st in New York is 03:59 UTC on April 1st: still public.
    clock.set("2026-04-01T03:59:59.999Z");
    expect(api.publicJobs.isPublic(job)).toBe(true);
    clock.set("2026-04-01T04:00:00.000Z");
    expect(api.publicJobs.isPublic(job)).toBe(false);
    expect(api.publicJobs.url(job)).toBeNull();
    expect(api.publicJobs.validThrough(job)?.toISOString()).toBe("2026-04-01T04:00:00.000Z");
    expect(await api.publicJobs.find("co_a", job.id)).toEqual({ state: "gone", job });
  });

  it("ends a closing day when the next day starts there, also where the clock changes at midnight", async () => {
    for (const [closingTimeZone, closingDate, nextDay] of [
      // From midnight (UTC-4) the clock goes to 01:00 (UTC-3): the 6th starts at 01:00.
      ["America/Santiago", "2026-09-05", "2026-09-06T04:00:00.000Z"],
      // At 01:00 (UTC+3) the clock went back to midnight (UTC+2): the 29th started at the first midnight.
      ["Asia/Gaza", "2021-10-28", "2021-10-28T21:00:00.000Z"],
    ] as const) {
      const { api, clock } = await setup({ closingTimeZone });
      const job = await api.jobs.create("co_a", { title: "Welder", status: "active", closing_date: closingDate });
      const end = api.publicJobs.validThrough(job);
      expect(end?.toISOString()).toBe(nextDay);
      clock.set(new Date(Date.parse(nextDay) - 1).toISOString());
      expect(api.publicJobs.isPublic(job)).toBe(true);
      clock.set(nextDay);
      expect(api.publicJobs.isPublic(job)).toBe(false);
    }
  });

  it("names each company's site with publicSiteUrl, for public_url and the listing alike", async () => {
    const { api } = await setup({ publicSiteUrl: (company) => `https://${company.id.slice(3)}.jobs.example.com/` });
    const job = await api.jobs.create("co_a", { title: "Baker", status: "active" });
    expect(api.publicJobs.siteUrl("co_a")).toBe("https://a.jobs.example.com");
    expect(api.publicJobs.url(job)).toBe(`https://a.jobs.example.com/jobs/${job.id}`);
  });

  it("sets publishedAt the first time a job becomes public, and tells gone from never public", async () => {
    const { api } = await setup();
    const draft = await api.jobs.create("co_a", { title: "Draft" });
    expect(draft.publishedAt).toBeNull();
    expect(await api.publicJobs.find("co_a", draft.id)).toEqual({ state: "unknown" });
    const hiddenFirst = await api.jobs.create("co_a", { title: "Hidden", status: "paused" });
    await api.jobs.setHidden("co_a", hiddenFirst.id, true);
    const shownHidden = await api.jobs.update("co_a", hiddenFirst.id, { status: "active" });
    expect(shownHidden.publishedAt).toBeNull();
    const shown = await api.jobs.setHidden("co_a", hiddenFirst.id, false);
    expect(shown.publishedAt).not.toBeNull();
    const back = await api.jobs.update("co_a", hiddenFirst.id, { status: "draft" });
    expect(back.publishedAt).toEqual(shown.publishedAt);
    expect((await api.publicJobs.find("co_a", back.id)).state).toBe("gone");
    expect(await api.publicJobs.find("co_b", back.id)).toEqual({ state: "unknown" });
  });

  it("lists the public jobs of a company only, newest first, in keyset pages", async () => {
    const { api, clock } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.set(new Date(START.getTime() + i * 1000).toISOString());
      ids.unshift((await api.jobs.create("co_a", { title: `Job ${i}`, status: "active" })).id);
    }
    await api.jobs.create("co_a", { title: "Paused", status: "paused" });
    await api.jobs.create("co_a", { title: "Expired", status: "active", closing_date: "2026-03-30" });
    await api.jobs.create("co_b", { title: "Elsewhere", status: "active" });
    const first = await api.publicJobs.list("co_a", { limit: 3 });
    expect(first.hasMore).toBe(true);
    const second = await api.publicJobs.list("co_a", { limit: 3, cursor: first.nextCursor as string });
    expect([...first.data, ...second.data].map((job) => job.id)).toEqual(ids);
    await expect(api.publicJobs.list("co_b", { cursor: first.nextCursor as string })).rejects.toMatchObject({
      code: "bad_request",
    });
  });
});

describe("an application with a CV file", () => {
  const candidate = { name: "Grace Hopper", email: "grace@example.com" };
  const pdf = new TextEncoder().encode("%PDF-1.7\nhello\n%%EOF\n");

  it("keeps the file, names it on the application, and the CV route streams it back", async () => {
    const { api, fileStore } = await setup();
    const job = await api.jobs.create("co_a", { title: "Engineer", status: "active" });
    const application = await api.applications.create(
      "co_a",
      { job_id: job.id, candidate, source: "careers_site", consent: true },
      { actor: "careers site", resume: { filename: "grace.pdf", contentType: "application/pdf", body: pdf } },
    );
    expect(application.resumeFileId).toMatch(/^fil_/);
    expect(fileStore.held.size).toBe(1);
    expect(application.source).toBe("careers_site");
    expect(application.consentAt?.toISOString()).toBe(START.toISOString());
    const wire = (await (
      await api.fetch(
        new Request(`https://api.example.com/api/public/v1/applications/${application.id}`, {
          headers: {
            authorization: `Bearer ${(await api.keys.create({ companyId: "co_a", name: "k", scopes: ["applications:read"] })).key}`,
          },
        }),
      )
    ).json()) as { data: ApplicationWire };
    const file = await api.fetch(new Request(wire.data.resume_url as string));
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''grace.pdf");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(pdf);
  });

  it("deletes the file when the application is refused as a duplicate, and leaves nothing", async () => {
    const { api, fileStore } = await setup();
    const job = await api.jobs.create("co_a", { title: "Engineer", status: "active" });
    const resume = () => ({ filename: "cv.pdf", contentType: "application/pdf", body: pdf });
    await api.applications.create("co_a", { job_id: job.id, candidate }, { resume: resume() });
    await expect(
      api.applications.create(
        "co_a",
        { job_id: job.id, candidate: { ...candidate, email: " GRACE@example.com " } },
        { resume: resume() },
      ),
    ).rejects.toMatchObject({ code: "duplicate" });
    expect(fileStore.held.size).toBe(1);
    expect((await api.jobs.get("co_a", job.id)).applicationsCount).toBe(1);
  });

  it("refuses a job that is not public with publicJobOnly, before any file is kept", async () => {
    const { api, fileStore } = await setup();
    const paused = await api.jobs.create("co_a", { title: "Paused", status: "paused" });
    const expired = await api.jobs.create("co_a", { title: "Expired", status: "active", closing_date: "2026-03-30" });
    for (const job of [paused, expired]) {
      await expect(
        api.applications.create(
          "co_a",
          { job_id: job.id, candidate },
          { publicJobOnly: true, resume: { filename: "cv.pdf", contentType: "application/pdf", body: pdf } },
        ),
      ).rejects.toMatchObject({ code: "invalid", fields: [{ field: "job_id" }] });
    }
    expect(fileStore.held.size).toBe(0);
    // Over the API a paused job still takes candidates.
    await expect(api.applications.create("co_a", { job_id: paused.id, candidate })).resolves.toMatchObject({
      jobId: paused.id,
      stage: "new",
    });
  });
});

describe("the human-review request", () => {
  it("is recorded once with its time in the notes, and emits application.updated once", async () => {
    const { api, clock, eventsOf } = await setup();
    const job = await api.jobs.create("co_a", { title: "Engineer", status: "active" });
    const application = await api.applications.create("co_a", {
      job_id: job.id,
      candidate: { name: "Ada", email: "ada@example.com" },
    });
    clock.set("2026-04-02T09:30:00.000Z");
    const first = await api.applications.requestHumanReview("co_a", application.id, { actor: "Ada (careers site)" });
    expect(first.requested).toBe(true);
    expect(first.application.humanReviewRequestedAt?.toISOString()).toBe("2026-04-02T09:30:00.000Z");
    clock.set("2026-04-03T09:30:00.000Z");
    const again = await api.applications.requestHumanReview("co_a", application.id);
    expect(again.requested).toBe(false);
    expect(again.application.humanReviewRequestedAt?.toISOString()).toBe("2026-04-02T09:30:00.000Z");
    const notes = await api.applications.notes("co_a", application.id);
    expect(notes).toMatchObject([
      {
        body: HUMAN_REVIEW_NOTE,
        actor: { name: "Ada (careers site)" },
        createdAt: new Date("2026-04-02T09:30:00.000Z"),
      },
    ]);
    const updated = (await eventsOf("co_a")).filter((event) => event.type === "application.updated");
    expect(updated).toHaveLength(1);
    expect(JSON.parse(updated[0]?.payload ?? "{}").data.human_review_requested).toBe(true);
    await expect(api.applications.requestHumanReview("co_b", application.id)).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("records nothing for an application whose candidate data was erased", async () => {
    const { api, eventsOf } = await setup();
    const job = await api.jobs.create("co_a", { title: "Engineer", status: "active" });
    const application = await api.applications.create("co_a", {
      job_id: job.id,
      candidate: { name: "Ada", email: "ada@example.com" },
    });
    await api.candidates.erase("co_a", { applicationId: application.id }, { actor: "Privacy desk" });
    const eventsBefore = (await eventsOf("co_a")).length;
    await expect(api.applications.requestHumanReview("co_a", application.id)).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await api.applications.notes("co_a", application.id)).toEqual([]);
    expect((await api.applications.get("co_a", application.id)).humanReviewRequestedAt).toBeNull();
    expect(await eventsOf("co_a")).toHaveLength(eventsBefore);
  });
});

describe("the throttle", () => {
  it("admits the limit per minute, refuses the rest without counting them, and opens again next minute", async () => {
    const { api, clock } = await setup();
    const limits = { perMinute: 5, perDay: 7 };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => api.throttle("careers:apply:203.0.113.9", limits)),
    );
    expect(results.filter((result) => result.allowed)).toHaveLength(5);
    expect(results.find((result) => !result.allowed)).toMatchObject({ refusedBy: "minute", retryAfterSeconds: 60 });
    expect((await api.throttle("careers:apply:198.51.100.1", limits)).allowed).toBe(true);
    clock.set("2026-03-31T10:01:00.000Z");
    expect((await api.throttle("careers:apply:203.0.113.9", limits)).allowed).toBe(true);
    expect((await api.throttle("careers:apply:203.0.113.9", limits)).allowed).toBe(true);
    expect(await api.throttle("careers:apply:203.0.113.9", limits)).toMatchObject({ allowed: false, refusedBy: "day" });
  });
});
