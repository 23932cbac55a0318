/**
 * `api.retention.purge()` on the test storage (memory here; SQLite, Postgres and MariaDB through the
 * `core-http:*` projects): each kind goes exactly when it is older than its period (a row at the
 * limit stays), in batches of `batchSize`, with the counts returned.
 */
import type { Storage } from "@hireport/core";
import { RetentionError } from "@hireport/core/extend";
import { beforeEach, describe, expect, it } from "vitest";
import { createClient, createTestApi, DAY_MS, START, type TestApi } from "./harness";

/** A view of the storage that records the `limit` of every purge call. */
function countingPurges(storage: Storage, calls: { kind: string; limit: number | undefined }[]): Storage {
  return {
    ...storage,
    usage: {
      ...storage.usage,
      purge: (before, limit) => {
        calls.push({ kind: "usage", limit });
        return storage.usage.purge(before, limit);
      },
    },
    events: {
      ...storage.events,
      purge: (before, limit) => {
        calls.push({ kind: "events", limit });
        return storage.events.purge(before, limit);
      },
    },
    eventDeliveries: {
      ...storage.eventDeliveries,
      purgeDeliveries: (before, limit) => {
        calls.push({ kind: "deliveries", limit });
        return storage.eventDeliveries.purgeDeliveries(before, limit);
      },
    },
    candidates: {
      ...storage.candidates,
      listForRetention: (query) => {
        calls.push({ kind: "applications", limit: query.take });
        return storage.candidates.listForRetention(query);
      },
    },
    transaction: (fn) => storage.transaction(fn),
  };
}

const at = (days: number, ms = 0) => new Date(START.getTime() + days * DAY_MS + ms);

describe("retention", () => {
  let t: TestApi;
  const calls: { kind: string; limit: number | undefined }[] = [];

  beforeEach(async () => {
    calls.length = 0;
    t = await createTestApi({
      wrapStorage: (storage) => countingPurges(storage, calls),
      extra: {
        retention: { applications: { rejected: 90, withdrawn: 30 }, usageDays: 10, batchSize: 2 },
      },
    });
    await t.company("acme", "Acme Ltd");
  });

  it("has documented defaults: nothing erased, the usage log kept, events after 30 days", async () => {
    const plain = await createTestApi();
    expect(plain.api.retention.settings).toEqual({
      applications: { rejected: null, withdrawn: null, other: null },
      usageDays: null,
      eventDays: 30,
      orphanFileGraceMinutes: 60,
      batchSize: 500,
    });
    expect(t.api.retention.settings).toMatchObject({ applications: { rejected: 90, withdrawn: 30, other: null } });
    await expect(createTestApi({ extra: { retention: { usageDays: 0 } } })).rejects.toThrow(/retention\.usageDays/);
    await expect(createTestApi({ extra: { retention: { orphanFileGraceMinutes: 0 } } })).rejects.toThrow(
      /retention\.orphanFileGraceMinutes/,
    );
  });

  it("erases applications past their stage group's period, deletes old usage and events, in batches, with counts", async () => {
    const { api, clock } = t;
    const key = await t.key("acme");
    const client = createClient(api, "handle");
    clock.set(START);
    const job = await api.jobs.create("acme", { title: "Analyst", status: "active" });
    const apply = async (email: string) =>
      (await api.applications.create("acme", { job_id: job.id, candidate: { name: `N ${email}`, email } })).id;
    const rejectedOld = [await apply("r1@example.com"), await apply("r2@example.com"), await apply("r3@example.com")];
    const rejectedAtLimit = await apply("r4@example.com");
    const withdrawnOld = await apply("w1@example.com");
    const active = await apply("a1@example.com");

    // Moves: three rejected on day 1; one rejected exactly 90 days before the purge; one withdrawn on day 1.
    clock.set(at(1));
    for (const id of rejectedOld) await api.applications.update("acme", id, { stage: "rejected" });
    await api.applications.update("acme", withdrawnOld, { stage: "withdrawn" });
    clock.set(at(5));
    await api.applications.update("acme", rejectedAtLimit, { stage: "rejected" });
    await api.applications.update("acme", active, { stage: "interview" });

    // Usage: five requests before the usage cut, one exactly at it, one after.
    const purgeAt = at(95);
    const usageCut = new Date(purgeAt.getTime() - 10 * DAY_MS);
    for (const when of [at(0), at(2), at(40), at(84), new Date(usageCut.getTime() - 1), usageCut, at(90)]) {
      clock.set(when);
      expect((await client.call("GET", "/me", { key: key.key })).status).toBe(200);
    }
    await api.usage.flush();
    const eventsBefore = await t.inspect.countEvents("acme");
    const usageBefore = await t.inspect.countUsage("acme");
    expect(usageBefore).toBe(7);

    clock.set(purgeAt);
    const counts = await api.retention.purge();
    expect(counts).toEqual({
      applicationsErased: 4,
      usageEntries: 5,
      deliveries: 0,
      events: eventsBefore,
      idempotencyRecords: 0,
      rateLimitCounters: expect.any(Number),
      // No file store: no files to look at.
      orphanFiles: 0,
      unfinishedUploads: 0,
    });
    for (const id of [...rejectedOld, withdrawnOld]) {
      const record = await api.applications.get("acme", id);
      expect(record.erasedAt).toEqual(purgeAt);
      expect(record.candidate.email).toBe("");
    }
    // Exactly at its period's limit, and in a stage group without a period: kept.
    expect((await api.applications.get("acme", rejectedAtLimit)).erasedAt).toBeNull();
    expect((await api.applications.get("acme", active)).erasedAt).toBeNull();
    expect(await t.inspect.countUsage("acme")).toBe(2);
    expect((await api.usage.list("acme", { limit: 10 })).data.map((entry) => entry.createdAt)).toEqual([
      at(90),
      usageCut,
    ]);
    // The old events went; the erasure's own application.updated events (now) stay.
    expect(await t.inspect.countEvents("acme")).toBe(4);
    const erasures = (await api.audit.list("acme")).data.filter((entry) => entry.action === "candidate.erased");
    expect(erasures.every((entry) => entry.actor.name === "retention" && entry.details.by === "retention")).toBe(true);
    // The three rejected ones in two batches (2, then 1), the withdrawn one on its own.
    expect(erasures.map((entry) => entry.details.applications).sort()).toEqual([1, 1, 2]);

    // Batches of two: 5 usage rows take 3 calls (2, 2, then 1 < 2 stops).
    expect(calls.filter((call) => call.kind === "usage")).toEqual([
      { kind: "usage", limit: 2 },
      { kind: "usage", limit: 2 },
      { kind: "usage", limit: 2 },
    ]);
    expect(calls.filter((call) => call.kind === "applications").every((call) => call.limit === 2)).toBe(true);
    expect(calls.filter((call) => call.kind === "events").length).toBeGreaterThan(1);
    expect(calls.every((call) => call.limit === 2)).toBe(true);

    // Run again: nothing left to remove.
    calls.length = 0;
    expect(await api.retention.purge()).toMatchObject({
      applicationsErased: 0,
      usageEntries: 0,
      deliveries: 0,
      events: 0,
    });
  });

  it("a kind that fails is reported after the run; the other kinds are purged all the same", async () => {
    const broken = await createTestApi({
      wrapStorage: (storage) => ({
        ...storage,
        usage: { ...storage.usage, purge: () => Promise.reject(new Error("usage table is locked")) },
        transaction: (fn) => storage.transaction(fn),
      }),
      extra: { retention: { applications: { rejected: 1 }, usageDays: 1 } },
    });
    await broken.company("acme", "Acme Ltd");
    const job = await broken.api.jobs.create("acme", { title: "Analyst", status: "active" });
    const application = await broken.api.applications.create("acme", {
      job_id: job.id,
      candidate: { name: "Ola Old", email: "ola@example.com" },
    });
    await broken.api.applications.update("acme", application.id, { stage: "rejected" });
    const eventsBefore = await broken.inspect.countEvents("acme");
    broken.clock.set(at(40));
    const failed = await broken.api.retention.purge().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(RetentionError);
    expect((failed as RetentionError).failures).toEqual([
      { kind: "usageEntries", companyId: null, ids: [], error: new Error("usage table is locked") },
    ]);
    expect((failed as Error).message).toMatch(/1 part failed; the first: usageEntries: usage table is locked/);
    expect((failed as RetentionError).counts).toMatchObject({ applicationsErased: 1, events: eventsBefore });
    expect((await broken.api.applications.get("acme", application.id)).erasedAt).toEqual(at(40));
  });
});
