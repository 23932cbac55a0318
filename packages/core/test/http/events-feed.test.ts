/**
 * GET /events, the events feed, on the test storage (memory here; SQLite, Postgres and MariaDB
 * through the `core-http:*` projects): the webhook envelopes oldest first, paged by `next_cursor`
 * (given on the last page too), filtered by `type` and `created_since`, limited to what the key's
 * scopes read, served for the window (`eventFeedDays`), and erased candidates read as erased.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { type Answer, createClient, createTestApi, DAY_MS, errorOf, START, type TestApi } from "./harness";

interface Envelope {
  id: string;
  type: string;
  created_at: string;
  company_id: string;
  api_version: string;
  data: Record<string, unknown> & { id: string };
}

const envelopes = (answer: Answer) => answer.json.data as unknown as Envelope[];

describe("GET /events", () => {
  let t: TestApi;
  let all: string;
  let jobsOnly: string;
  let applicationsOnly: string;
  let writeOnly: string;

  beforeEach(async () => {
    t = await createTestApi();
    await t.company("acme");
    await t.company("other");
    all = (await t.key("acme")).key;
    jobsOnly = (await t.key("acme", ["jobs:read"])).key;
    applicationsOnly = (await t.key("acme", ["applications:write"])).key;
    writeOnly = (await t.key("acme", ["jobs:write"])).key;
  });

  const get = (key: string, query: Record<string, string | number> = {}) =>
    createClient(t.api, "handle").call("GET", "/events", { key, query });

  /** Follows next_cursor from `cursor` until has_more is false; the envelopes and the last cursor. */
  async function follow(key: string, query: Record<string, string | number>, cursor?: string) {
    const seen: Envelope[] = [];
    let next = cursor;
    for (let pages = 0; pages < 100; pages++) {
      const answer = await get(key, { ...query, ...(next ? { cursor: next } : {}) });
      expect(answer.status, answer.text).toBe(200);
      seen.push(...envelopes(answer));
      next = (answer.json.next_cursor as string | null) ?? next;
      if (answer.json.has_more !== true) return { seen, cursor: next };
    }
    throw new Error("the feed never ended");
  }

  async function someEvents() {
    const job = await t.api.jobs.create("acme", { title: "Analyst", status: "active" });
    t.clock.advance(1000);
    await t.api.jobs.update("acme", job.id, { title: "Senior analyst" });
    t.clock.advance(1000);
    const application = await t.api.applications.create("acme", {
      job_id: job.id,
      candidate: { name: "Ada Lovelace", email: "ada@example.com" },
    });
    t.clock.advance(1000);
    await t.api.jobs.close("acme", job.id);
    await t.api.jobs.create("other", { title: "Not yours" });
    return { job, application };
  }

  it("serves the webhook envelopes of the key's company, oldest first, paged, with a cursor on the last page", async () => {
    const { job, application } = await someEvents();
    const { seen, cursor } = await follow(all, { limit: 2 });
    expect(seen.map((event) => event.type)).toEqual([
      "job.created",
      "job.updated",
      "application.created",
      "job.closed",
    ]);
    expect(seen.every((event) => event.company_id === "acme" && event.api_version === "1.0")).toBe(true);
    expect(seen[0]?.data.id).toBe(job.id);
    expect(seen[2]?.data.id).toBe(application.id);
    expect(seen[1]?.data.title).toBe("Senior analyst");
    // The envelope is the one the outbox stored: the same id and bytes the webhooks send.
    const stored = await t.storage.events.get(seen[0]?.id as string);
    expect(JSON.parse(stored?.payload as string)).toEqual(seen[0]);
    expect(new Set(seen.map((event) => event.id)).size).toBe(4);

    // Caught up: nothing new, a cursor all the same; then a new event is the one served.
    const idle = await get(all, { cursor: cursor as string });
    expect(idle.status).toBe(200);
    expect(envelopes(idle)).toEqual([]);
    expect(idle.json).toMatchObject({ has_more: false });
    expect(typeof idle.json.next_cursor).toBe("string");
    await t.api.jobs.update("acme", job.id, { title: "Lead analyst" });
    const after = await get(all, { cursor: idle.json.next_cursor as string });
    expect(envelopes(after).map((event) => [event.type, event.data.title])).toEqual([["job.updated", "Lead analyst"]]);
  });

  it("has next_cursor null only while the company has had no event", async () => {
    const empty = await get(all);
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual({ data: [], has_more: false, next_cursor: null });
  });

  it("serves each key the kinds its scopes read, and answers 403 for a type it cannot read", async () => {
    await someEvents();
    expect((await follow(jobsOnly, {})).seen.map((event) => event.type)).toEqual([
      "job.created",
      "job.updated",
      "job.closed",
    ]);
    expect((await follow(applicationsOnly, {})).seen.map((event) => event.type)).toEqual(["application.created"]);
    // A write scope reads its kind too.
    expect((await follow(writeOnly, {})).seen).toHaveLength(3);

    const refused = await get(jobsOnly, { type: "job.created,application.created" });
    expect(refused.status).toBe(403);
    expect(errorOf(refused)).toMatchObject({ code: "missing_scope", required_scope: "applications:read" });
    expect(errorOf(refused).message).toMatch(/application\.created/);
    // (A key with neither read scope cannot exist: every key holds a scope, and a write scope
    // includes its read. The pipeline's 403 for it is the route's `anyOfScopes`.)
  });

  it("filters by one or several types and by created_since", async () => {
    await someEvents();
    const closed = await follow(all, { type: "job.closed" });
    expect(closed.seen.map((event) => event.type)).toEqual(["job.closed"]);
    const two = await follow(all, { type: "job.created,application.created" });
    expect(two.seen.map((event) => event.type)).toEqual(["job.created", "application.created"]);

    const since = new Date(START.getTime() + 2000).toISOString();
    expect((await follow(all, { created_since: since })).seen.map((event) => event.type)).toEqual([
      "application.created",
      "job.closed",
    ]);

    const bad = await get(all, { type: "job.deleted" });
    expect(bad.status).toBe(400);
    expect(errorOf(bad).message).toMatch(/type/);
    expect((await get(all, { created_since: "yesterday" })).status).toBe(400);
    expect((await get(all, { status: "open" })).status).toBe(400);
  });

  it("refuses a cursor of other filters, and of other lists", async () => {
    await someEvents();
    const first = await get(all, { limit: 1 });
    const cursor = first.json.next_cursor as string;
    const other = await get(all, { limit: 1, cursor, type: "job.created" });
    expect(other.status).toBe(400);
    expect(errorOf(other).code).toBe("bad_request");
    const jobs = await createClient(t.api, "handle").call("GET", "/jobs", { key: all, query: { limit: 1 } });
    expect((await get(all, { cursor: jobs.json.next_cursor as string })).status).toBe(400);
  });

  it("serves the window only, and answers 410 cursor_expired for a cursor older than the window", async () => {
    await someEvents();
    const { cursor } = await follow(all, {});
    t.clock.advance(20 * DAY_MS);
    await t.api.jobs.create("acme", { title: "Later" });
    t.clock.advance(11 * DAY_MS);
    // The first four events are past the 30 days: the feed serves the one left.
    expect((await follow(all, {})).seen.map((event) => event.data.title)).toEqual(["Later"]);
    // A cursor from a page read 31 days ago: 410, with how to resync.
    const expired = await get(all, { cursor: cursor as string });
    expect(expired.status).toBe(410);
    expect(errorOf(expired).code).toBe("cursor_expired");
    expect(errorOf(expired).message).toMatch(/created_since=/);
    expect(errorOf(expired).message).toMatch(/updated_since/);
  });

  it("keeps a cursor fresh while it is used, however long no event comes", async () => {
    await someEvents();
    let { cursor } = await follow(all, {});
    for (let day = 0; day < 3; day++) {
      t.clock.advance(20 * DAY_MS);
      const answer = await get(all, { cursor: cursor as string });
      expect(answer.status).toBe(200);
      cursor = answer.json.next_cursor as string;
    }
  });

  it("takes its window from eventFeedDays, and retention keeps events that long even when delivered", async () => {
    const long = await createTestApi({ extra: { eventFeedDays: 45, retention: { eventDays: 10 } } });
    await long.company("acme");
    const key = (await long.key("acme")).key;
    await long.api.jobs.create("acme", { title: "Old" });
    long.clock.advance(40 * DAY_MS);
    await long.api.retention.purge();
    const answer = await createClient(long.api, "handle").call("GET", "/events", { key });
    expect((answer.json.data as unknown as Envelope[]).map((event) => event.data.title)).toEqual(["Old"]);
    long.clock.advance(6 * DAY_MS);
    expect((await long.api.retention.purge()).events).toBe(1);
    await expect(createTestApi({ extra: { eventFeedDays: 0 } })).rejects.toThrow(/eventFeedDays/);
  });

  it("serves the events of an erased candidate as erased, as their webhooks are", async () => {
    const { application } = await someEvents();
    await t.api.applications.update("acme", application.id, { stage: "reviewed" });
    await t.api.candidates.erase("acme", { applicationId: application.id }, { actor: "Privacy team" });
    const { seen } = await follow(all, { type: "application.created,application.updated" });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const event of seen) {
      expect(JSON.stringify(event)).not.toContain("ada@example.com");
      expect(JSON.stringify(event)).not.toContain("Lovelace");
    }
  });
  it("api.events.list serves host code the same envelopes, every type, with the same cursors and checks", async () => {
    const { job, application } = await someEvents();
    const over = await follow(all, {});
    const pages: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await t.api.events.list("acme", { limit: 2, ...(cursor ? { cursor } : {}) });
      pages.push(...page.data.map((event) => event.id));
      cursor = page.nextCursor ?? cursor;
      if (!page.hasMore) break;
    }
    expect(pages).toEqual(over.seen.map((event) => event.id));
    expect(pages.length).toBe(4);
    const typed = await t.api.events.list("acme", { types: ["application.created"] });
    expect(typed.data.map((event) => (event.data as { id: string }).id)).toEqual([application.id]);
    const since = await t.api.events.list("acme", { createdSince: new Date(START.getTime() + 2500) });
    expect(since.data.map((event) => event.type)).toEqual(["job.closed"]);
    expect((await t.api.events.list("other")).data.map((event) => event.type)).toEqual(["job.created"]);
    // An empty page keeps the cursor to poll from; a new event reads after it.
    const tail = await t.api.events.list("acme", { ...(cursor ? { cursor } : {}) });
    expect(tail.data).toEqual([]);
    await t.api.jobs.update("acme", job.id, { title: "Lead analyst" });
    const polled = await t.api.events.list("acme", { cursor: tail.nextCursor ?? "" });
    expect(polled.data.map((event) => event.type)).toEqual(["job.updated"]);
    await expect(t.api.events.list("acme", { limit: 0 })).rejects.toMatchObject({ code: "invalid" });
    await expect(t.api.events.list("acme", { types: [] })).rejects.toMatchObject({ code: "invalid" });
    await expect(t.api.events.list("acme", { types: ["job.opened" as "job.created"] })).rejects.toMatchObject({
      code: "invalid",
    });
    await expect(t.api.events.list("acme", { cursor: "nonsense" })).rejects.toMatchObject({ code: "bad_request" });
  });
});
