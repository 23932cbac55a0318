import { describe, expect, it } from "vitest";
import { memoryStorage } from "../src/memory";
import type { JobRecord } from "../src/model/domain";
import type { NewApplication, NewApplicationWrite } from "../src/storage";
import { makeApplication, makeApplicationWrite, makeJob } from "../src/testing/fixtures";

const COMPANY = "co_1";
const SINCE = new Date("2000-01-01T00:00:00.000Z");

/** A fixed job of the company (id, times) with the fixtures' field values. */
function job(overrides: Partial<JobRecord> = {}): JobRecord {
  const at = new Date("2026-01-01T10:00:00.000Z");
  return makeJob(COMPANY, {
    id: "job_1",
    reference: "JOB-1001",
    title: "Engineer",
    createdAt: at,
    updatedAt: at,
    ...overrides,
  });
}

/** All that `applications.create` writes for `record` on the job titled `title`. */
function writeOf(record: NewApplication, title = "Engineer"): NewApplicationWrite {
  const write = makeApplicationWrite(
    { id: record.jobId, companyId: record.companyId, title, updatedAt: new Date("2026-01-01T10:00:00.000Z") },
    record,
  );
  return { ...write, record, duplicateSince: SINCE };
}

function application(id: string, email = `${id}@example.com`): NewApplication {
  const at = new Date("2026-01-02T10:00:00.000Z");
  return makeApplication(COMPANY, "job_1", {
    id,
    reference: `APP-${id}`,
    candidate: { name: "Ada", email, phone: "", location: "", linkedinUrl: "", currentTitle: "", skills: ["Go"] },
    emailNormalized: email,
    aiMatch: 10,
    appliedAt: at,
    updatedAt: at,
  });
}

/** A promise and the function that resolves it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe("memoryStorage", () => {
  it("copies records on the way in: changing the object passed to insert changes nothing stored", async () => {
    const storage = memoryStorage();
    const record = job();
    await storage.jobs.insert(record);
    record.title = "Changed";
    record.requiredSkills.push("Rust");
    record.createdAt.setTime(0);
    expect(await storage.jobs.get(COMPANY, "job_1")).toEqual(job());
  });

  it("copies records on the way out: changing a returned object, its arrays or its dates changes nothing stored", async () => {
    const storage = memoryStorage();
    await storage.jobs.insert(job());
    const read = await storage.jobs.get(COMPANY, "job_1");
    if (!read) throw new Error("missing");
    read.title = "Changed";
    read.requiredSkills.push("Rust");
    read.createdAt.setTime(0);
    const [listed] = await storage.jobs.list({ companyId: COMPANY, take: 1 });
    listed?.updatedAt.setTime(0);
    listed?.requiredSkills.splice(0);
    const updated = await storage.jobs.update(COMPANY, "job_1", { updatedAt: new Date("2026-01-01T10:00:00.000Z") });
    updated?.benefits.push("x");
    expect(await storage.jobs.get(COMPANY, "job_1")).toEqual(job());
  });

  it("copies nested objects of applications and the response of idempotency records", async () => {
    const storage = memoryStorage();
    await storage.jobs.insert(job());
    await storage.applications.create(writeOf(application("app_1")));
    const read = await storage.applications.get(COMPANY, "app_1");
    if (!read) throw new Error("missing");
    read.candidate.name = "Changed";
    read.candidate.skills.push("Rust");
    expect((await storage.applications.get(COMPANY, "app_1"))?.candidate).toEqual(application("app_1").candidate);

    const now = new Date("2026-01-01T00:00:00.000Z");
    const input = { keyId: "k", idempotencyKey: "i", requestHash: "h", now, expiresAt: SINCE, lockedUntil: SINCE };
    await storage.idempotency.claim({ ...input, expiresAt: new Date("2026-01-02T00:00:00.000Z") });
    const response = { status: 201, headers: { a: "1" }, body: "{}" };
    await storage.idempotency.complete("k", "i", response);
    response.headers.a = "changed";
    const claim = await storage.idempotency.claim(input);
    expect(claim).toEqual({
      state: "completed",
      requestHash: "h",
      response: { status: 201, headers: { a: "1" }, body: "{}" },
    });
  });

  it("never stores jobTitle: a title passed with the application is ignored", async () => {
    const storage = memoryStorage();
    await storage.jobs.insert(job({ title: "Real title" }));
    const withStaleTitle = { ...application("app_1"), jobTitle: "Stale title" };
    expect(await storage.applications.create(writeOf(withStaleTitle, "Real title"))).toEqual({ outcome: "created" });
    expect((await storage.applications.get(COMPANY, "app_1"))?.jobTitle).toBe("Real title");
  });

  it("gives every call its own, empty state", async () => {
    const a = memoryStorage();
    const b = memoryStorage();
    await a.jobs.insert(job());
    expect(await b.jobs.get(COMPANY, "job_1")).toBeNull();
    expect(await memoryStorage().jobs.get(COMPANY, "job_1")).toBeNull();
  });

  it("isolates a running transaction: reads outside see only committed data", async () => {
    const storage = memoryStorage();
    const { opened, open } = gate();
    const inserted = gate();
    const tx = storage.transaction(async (t) => {
      await t.jobs.insert(job());
      inserted.open();
      await opened;
    });
    await inserted.opened;
    expect(await storage.jobs.get(COMPANY, "job_1")).toBeNull();
    await storage.raw.countApplications(COMPANY).then((n) => expect(n).toBe(0));
    open();
    await tx;
    expect(await storage.jobs.get(COMPANY, "job_1")).toEqual(job());
  });

  it("makes a write outside a transaction wait until the transaction has ended", async () => {
    const storage = memoryStorage();
    await storage.jobs.insert(job());
    const { opened, open } = gate();
    const order: string[] = [];
    const tx = storage.transaction(async (t) => {
      const current = await t.jobs.get(COMPANY, "job_1", { lock: true });
      await opened;
      await t.jobs.update(COMPANY, "job_1", { title: `${current?.title} (tx)`, updatedAt: new Date() });
      order.push("tx");
    });
    const plain = storage.jobs
      .update(COMPANY, "job_1", { title: "Plain", updatedAt: new Date() })
      .then(() => order.push("plain"));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual([]);
    open();
    await Promise.all([tx, plain]);
    expect(order).toEqual(["tx", "plain"]);
    expect((await storage.jobs.get(COMPANY, "job_1"))?.title).toBe("Plain");
  });

  it("runs transactions one after the other", async () => {
    const storage = memoryStorage();
    const log: string[] = [];
    const run = (name: string) =>
      storage.transaction(async () => {
        log.push(`${name} start`);
        await new Promise((resolve) => setTimeout(resolve, 2));
        log.push(`${name} end`);
      });
    await Promise.all([run("a"), run("b"), run("c")]);
    expect(log).toEqual(["a start", "a end", "b start", "b end", "c start", "c end"]);
  });

  it("refuses the stores of a transaction once it has ended", async () => {
    const storage = memoryStorage();
    const leaked = await storage.transaction(async (tx) => tx);
    await expect(leaked.jobs.insert(job())).rejects.toThrow(/ended/);
    expect(await storage.jobs.get(COMPANY, "job_1")).toBeNull();
  });

  it("rolls back a transaction whose write failed (duplicate id) when fn rethrows", async () => {
    const storage = memoryStorage();
    await storage.jobs.insert(job());
    await expect(
      storage.transaction(async (tx) => {
        await tx.jobs.update(COMPANY, "job_1", { title: "Changed", updatedAt: new Date() });
        await tx.jobs.insert(job());
      }),
    ).rejects.toThrow(/already has a job/);
    expect((await storage.jobs.get(COMPANY, "job_1"))?.title).toBe("Engineer");
  });

  it("undoes a write that failed inside a transaction, like a failed statement, and commits the rest", async () => {
    const storage = memoryStorage();
    const entry = {
      id: "use_1",
      companyId: COMPANY,
      keyId: null,
      method: "GET",
      route: "/jobs",
      status: 200,
      durationMs: 1,
      requestId: "r",
      ip: null,
      createdAt: new Date(),
    };
    await storage.transaction(async (tx) => {
      await tx.jobs.insert(job());
      await expect(tx.usage.appendMany([entry, { ...entry, id: "use_2" }, entry])).rejects.toThrow();
      expect(await tx.usage.list({ companyId: COMPANY, take: 10 })).toEqual([]);
    });
    expect(await storage.jobs.get(COMPANY, "job_1")).toEqual(job());
    expect(await storage.raw.countUsage(COMPANY)).toBe(0);
  });

  it("applies a write outside a transaction entirely or not at all", async () => {
    const storage = memoryStorage();
    const first = { id: "use_1", companyId: COMPANY, keyId: null, method: "GET", route: "/jobs", status: 200 };
    const entry = { ...first, durationMs: 1, requestId: "r", ip: null, createdAt: new Date() };
    await expect(storage.usage.appendMany([entry, { ...entry, id: "use_2" }, entry])).rejects.toThrow();
    expect(await storage.raw.countUsage(COMPANY)).toBe(0);
  });

  it("rejects an invalid Date instead of storing it", async () => {
    const storage = memoryStorage();
    await expect(storage.jobs.insert(job({ createdAt: new Date(Number.NaN) }))).rejects.toThrow(/Invalid Date/);
    expect(await storage.jobs.get(COMPANY, "job_1")).toBeNull();
  });

  it("answers job_changed, writing nothing, when an application's job does not exist in its company", async () => {
    const storage = memoryStorage();
    expect(await storage.applications.create(writeOf(application("app_1")))).toEqual({ outcome: "job_changed" });
    await storage.jobs.insert(job({ companyId: "co_2" }));
    expect(await storage.applications.create(writeOf(application("app_1")))).toEqual({ outcome: "job_changed" });
    expect(await storage.applications.get(COMPANY, "app_1")).toBeNull();
  });

  it("throws, writing nothing, when an id is taken: the application, its stage change or its event", async () => {
    const storage = memoryStorage();
    await storage.jobs.insert(job());
    const first = writeOf(application("app_1"));
    await storage.applications.create(first);
    const second = writeOf(application("app_2"));
    await expect(storage.applications.create({ ...second, event: first.event })).rejects.toThrow(/event/);
    await expect(
      storage.applications.create({ ...second, initialStageChange: first.initialStageChange }),
    ).rejects.toThrow(/stage change/);
    expect(await storage.applications.get(COMPANY, "app_2")).toBeNull();
    expect((await storage.jobs.get(COMPANY, "job_1"))?.applicationsCount).toBe(1);
  });

  it("counts a rate-limit counter whose window has ended as empty, purged or not", async () => {
    const storage = memoryStorage();
    const t = new Date("2026-01-01T00:00:00.000Z");
    const bucket = { key: "k:minute:1", limit: 1, resetAt: new Date(t.getTime() + 60_000) };
    expect((await storage.rateLimits.consume([bucket], t)).allowed).toBe(true);
    expect((await storage.rateLimits.consume([bucket], t)).allowed).toBe(false);
    const later = new Date(t.getTime() + 60_000);
    expect(await storage.rateLimits.consume([{ ...bucket, resetAt: new Date(t.getTime() + 120_000) }], later)).toEqual({
      allowed: true,
      counts: [1],
      refusedBucket: null,
    });
  });
});
