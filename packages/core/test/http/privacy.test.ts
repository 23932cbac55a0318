/**
 * Candidates' personal data, end to end on the test storage (memory here; SQLite, Postgres and
 * MariaDB through @hireport/kysely's `core-http:*` projects): a candidate put in through the API
 * (several applications, notes, stage moves, an idempotent POST, webhook deliveries whose receiver
 * echoed the payload, a CV file), exported, then erased; after it, a raw scan of every text of
 * every table finds neither their e-mail address nor their name, and the file store holds no file
 * of theirs.
 */
import type { CandidateExport, JobRecord } from "@hireport/core";
import { newEvent } from "@hireport/core/extend";
import { makeEndpoint } from "@hireport/webhooks/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { makeApplicationWrite } from "../../src/testing/fixtures";
import { type TestFileStore, testFileStore } from "./file-store";
import {
  type Answer,
  applicationOf,
  type Client,
  createClient,
  createTestApi,
  errorOf,
  eventsOf,
  START,
  type TestApi,
  type TestKey,
} from "./harness";

const NAME = "Zoë Quintana-Øster";
const EMAIL = "Zoe.Quintana@Example.ORG";
const NOTE = "Phoned Zoë: prefers Lisbon, notice period 2 months";
const COVER = "I have led data teams at Quintana Analytics for six years.";
/** Her candidate fields as sent in the first application (the others change the address's case). */
const CANDIDATE = {
  name: NAME,
  email: EMAIL,
  phone: "+351 21 000 0000",
  location: "Lisboa",
  linkedin_url: "https://www.linkedin.com/in/zoe-quintana",
  current_title: "Head of Data",
  skills: ["SQL", "Leadership"],
};

interface Scene extends Omit<TestApi, "key"> {
  client: Client;
  acme: string;
  key: TestKey;
  files: TestFileStore;
  jobs: JobRecord[];
  /** The candidate's applications, oldest first: two over the API, one with a stored CV file. */
  ids: string[];
  /** Another candidate of the same company, who must come out of it untouched. */
  bystander: string;
  /** The answer of the idempotent POST, and how to send it again. */
  replay: () => Promise<Answer>;
  fileId: string;
}

async function scene(): Promise<Scene> {
  const files = testFileStore();
  const test = await createTestApi({ extra: { fileStore: files } });
  const acme = await test.company("acme", "Acme Ltd");
  const key = await test.key(acme, undefined, { name: "ATS sync" });
  const client = createClient(test.api, "handle");
  const endpoint = makeEndpoint(acme, { events: ["application.created", "application.updated"] });
  await test.webhooks.insertEndpoint(endpoint);

  test.clock.set(new Date(START.getTime() - 3_600_000));
  const jobs = [
    await test.api.jobs.create(acme, { title: "Data Lead", status: "active" }),
    await test.api.jobs.create(acme, { title: "Analytics Engineer", status: "active" }),
    await test.api.jobs.create(acme, { title: "Platform Engineer", status: "active" }),
  ];
  test.clock.set(START);
  const body = (jobId: string, email: string) => ({
    job_id: jobId,
    candidate: { ...CANDIDATE, email },
    cover_letter: COVER,
    resume_url: "https://files.example.org/zoe-quintana.pdf",
    consent: true,
  });
  const idempotent = () =>
    client.call("POST", "/applications", {
      key: key.key,
      body: body(jobs[0]?.id ?? "", EMAIL),
      headers: { "idempotency-key": "zoe-first-try" },
    });
  const first = await idempotent();
  expect(first.status, first.text).toBe(201);
  test.clock.advance(1000);
  const second = await client.call("POST", "/applications", {
    key: key.key,
    body: body(jobs[1]?.id ?? "", `  ${EMAIL.toLowerCase()} `),
  });
  expect(second.status, second.text).toBe(201);
  const other = await client.call("POST", "/applications", {
    key: key.key,
    body: {
      job_id: jobs[0]?.id,
      candidate: { name: "Sam Bystander", email: "sam.bystander@example.net" },
      cover_letter: "Hello from Sam.",
    },
  });
  expect(other.status, other.text).toBe(201);

  // An application from the careers site, with its CV kept in the file store.
  test.clock.advance(1000);
  const job = jobs[2] as JobRecord;
  const stored = await files.put({
    companyId: acme,
    filename: "Zoe-Quintana-CV.pdf",
    contentType: "application/pdf",
    body: new TextEncoder().encode(`%PDF-1.7 CV of ${NAME}`),
  });
  const write = makeApplicationWrite(job, {
    companyId: acme,
    candidate: {
      name: NAME,
      email: EMAIL,
      phone: "",
      location: "Lisboa",
      linkedinUrl: "",
      currentTitle: "",
      skills: [],
    },
    emailNormalized: EMAIL.toLowerCase(),
    coverLetter: COVER,
    resumeFileId: stored.id,
    source: "careers_site",
    appliedAt: test.clock.now(),
    updatedAt: test.clock.now(),
  });
  const event = newEvent({
    type: "application.created",
    companyId: acme,
    data: { id: write.record.id, candidate: { name: NAME, email: EMAIL }, cover_letter: COVER },
    now: test.clock.now(),
  });
  expect((await test.storage.applications.create({ ...write, event })).outcome).toBe("created");

  const ids = [applicationOf(first).id, applicationOf(second).id, write.record.id];
  test.clock.advance(1000);
  await test.api.applications.update(acme, ids[0] as string, { stage: "interview", note: NOTE }, { actor: "Rita" });
  const moved = await client.call("PATCH", `/applications/${ids[1]}`, {
    key: key.key,
    body: { stage: "shortlisted", note: `Second note about ${NAME}`, tags: ["lisbon"], starred: true },
  });
  expect(moved.status, moved.text).toBe(200);
  await test.storage.applications.update(acme, ids[2] as string, {
    humanReviewRequestedAt: test.clock.now(),
    updatedAt: test.clock.now(),
  });

  // The dispatcher's part: claim what is due and record attempts whose receiver echoed the body.
  const leaseToken = "lease-test";
  const claimed = await test.webhooks.claimDueDeliveries({
    now: test.clock.now(),
    limit: 100,
    leaseUntil: new Date(test.clock.now().getTime() + 60_000),
    leaseToken,
  });
  expect(claimed.length).toBeGreaterThanOrEqual(4);
  const results = await test.webhooks.recordAttempts(
    claimed.map(({ delivery, payload }) => ({
      deliveryId: delivery.id,
      leaseToken,
      outcome: {
        attempt: {
          id: `att_${delivery.id.slice(4)}`,
          deliveryId: delivery.id,
          endpointId: delivery.endpointId,
          attemptedAt: test.clock.now(),
          statusCode: 400,
          durationMs: 12,
          responseBody: `Bad payload: ${payload}`.slice(0, 4096),
          error: "HTTP 400",
          succeeded: false,
        },
        status: "pending" as const,
        nextAttemptAt: new Date(test.clock.now().getTime() + 60_000),
        endpoint: { failureCount: "increment" as const, statusChanges: [] },
      },
    })),
  );
  expect(results.every((result) => result.recorded)).toBe(true);
  return {
    ...test,
    client,
    acme,
    key,
    files,
    jobs,
    ids,
    bystander: applicationOf(other).id,
    replay: idempotent,
    fileId: stored.id,
  };
}

/** Where the person's identifying texts still are in the storage (raw scan). */
async function traces(s: Scene): Promise<string[]> {
  const found = [];
  for (const text of [EMAIL, EMAIL.toLowerCase(), NAME, "Quintana", NOTE, COVER]) {
    for (const place of await s.inspect.findText(text)) found.push(`${text} in ${place}`);
  }
  return found;
}

describe("candidates' personal data", () => {
  let s: Scene;
  beforeEach(async () => {
    s = await scene();
  });

  it("export holds everything stored about the person, matched as the duplicate rule matches, and is audited", async () => {
    const document: CandidateExport = await s.api.candidates.export(s.acme, { email: ` ${EMAIL.toUpperCase()}` });
    expect(document).toMatchObject({
      format: "hireport.candidate-export",
      version: 1,
      company_id: s.acme,
      email: EMAIL.toLowerCase(),
      exported_at: s.clock.now().toISOString(),
    });
    expect(document.applications.map((application) => application.id)).toEqual(s.ids);
    const [first, second, third] = document.applications;
    expect(first).toMatchObject({
      job_id: s.jobs[0]?.id,
      job_title: "Data Lead",
      candidate: CANDIDATE,
      cover_letter: COVER,
      stage: "interview",
      source: "api",
      consent: true,
      consent_at: START.toISOString(),
      human_review_requested: false,
      human_review_requested_at: null,
      erased_at: null,
      notes: [{ body: NOTE, author: { type: "host", id: null, name: "Rita" } }],
      stage_history: [
        { from_stage: null, to_stage: "new", actor: { type: "api_key", id: s.key.id, name: "ATS sync" } },
        { from_stage: "new", to_stage: "interview", actor: { type: "host", id: null, name: "Rita" } },
      ],
    });
    expect(first?.resume_url).toMatch(/^https:\/\/careers\.example\.com\/files\/cv\/[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(second).toMatchObject({
      candidate: { email: EMAIL.toLowerCase() },
      stage: "shortlisted",
      tags: ["lisbon"],
      starred: true,
      notes: [{ body: `Second note about ${NAME}`, author: { type: "api_key", id: s.key.id, name: "ATS sync" } }],
    });
    expect(third).toMatchObject({ source: "careers_site", human_review_requested: true });
    expect(third?.human_review_requested_at).toBe(s.clock.now().toISOString());
    // The CV link is fresh and serves the stored file.
    const cv = await s.api.fetch(new Request(third?.resume_url ?? ""));
    expect(cv.status).toBe(200);
    expect(await cv.text()).toBe(`%PDF-1.7 CV of ${NAME}`);

    const [entry] = (await s.api.audit.list(s.acme)).data;
    expect(entry).toMatchObject({
      action: "candidate.exported",
      actor: { type: "host", name: "host" },
      target: { type: "candidate", id: null },
      details: { applications: 3, application_ids: s.ids },
    });
    expect(JSON.stringify(entry)).not.toContain("Quintana");
    expect((await s.api.candidates.export(s.acme, { email: "nobody@example.com" })).applications).toEqual([]);
  });

  it("erase by e-mail leaves no trace of the person in any table, no file, and tells receivers", async () => {
    expect((await traces(s)).length).toBeGreaterThan(0);
    const eventsBefore = await s.inspect.countEvents(s.acme);
    const historyBefore = await s.api.applications.history(s.acme, s.ids[0] as string);
    const erasure = await s.api.candidates.erase(s.acme, { email: EMAIL.toUpperCase() }, { actor: "Privacy desk" });

    expect(erasure).toMatchObject({
      erasedAt: s.clock.now(),
      applicationIds: s.ids,
      alreadyErased: [],
      counts: { notes: 2, files: 1 },
    });
    expect(erasure.counts.events).toBeGreaterThanOrEqual(5);
    expect(erasure.counts.attempts).toBeGreaterThanOrEqual(4);
    expect(erasure.counts.idempotencyRecords).toBe(1);
    expect(await traces(s)).toEqual([]);
    expect(s.files.files.has(s.fileId)).toBe(false);
    expect(s.files.deletes).toEqual([s.fileId]);

    // Anonymous records stay: stage, history, tags, counts.
    for (const [index, id] of s.ids.entries()) {
      const record = await s.api.applications.get(s.acme, id);
      expect(record).toMatchObject({
        candidate: { name: "", email: "", phone: "", location: "", linkedinUrl: "", currentTitle: "", skills: [] },
        emailNormalized: "",
        coverLetter: "",
        resumeSourceUrl: null,
        resumeFileId: null,
        erasedAt: s.clock.now(),
        stage: ["interview", "shortlisted", "new"][index],
      });
      expect(await s.inspect.countNotes(s.acme, id)).toBe(0);
      expect(await s.inspect.jobApplicationsCount(s.acme, s.jobs[index]?.id ?? "")).toBe(index === 0 ? 2 : 1);
    }
    expect(await s.api.applications.history(s.acme, s.ids[0] as string)).toEqual(historyBefore);
    expect((await s.api.applications.get(s.acme, s.ids[1] as string)).tags).toEqual(["lisbon"]);
    expect((await s.api.applications.get(s.acme, s.bystander)).candidate.name).toBe("Sam Bystander");

    // Over the API: the erased state, with erased_at; a receiver gets it as application.updated.
    const read = await s.client.call("GET", `/applications/${s.ids[0]}`, { key: s.key.key });
    expect(applicationOf(read)).toMatchObject({
      candidate: { name: "", email: "", skills: [] },
      cover_letter: "",
      resume_url: null,
      stage: "interview",
      erased_at: s.clock.now().toISOString(),
    });
    expect(await s.inspect.countEvents(s.acme)).toBe(eventsBefore + 3);
    const events = await eventsOf(s.storage, s.acme);
    for (const id of s.ids) {
      const updated = events.find((event) => event.envelope.data.id === id);
      expect(updated?.envelope.type).toBe("application.updated");
      expect(updated?.envelope.data).toMatchObject({
        erased_at: s.clock.now().toISOString(),
        candidate: { email: "" },
      });
    }
    // The idempotent POST replays the erased application, not the person.
    const replay = await s.replay();
    expect(replay.status).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(applicationOf(replay)).toMatchObject({ id: s.ids[0], candidate: { name: "", email: "" }, cover_letter: "" });

    const [entry] = (await s.api.audit.list(s.acme)).data;
    expect(entry).toMatchObject({
      action: "candidate.erased",
      actor: { type: "host", name: "Privacy desk" },
      target: { type: "candidate", id: null },
      details: { by: "email", application_ids: s.ids, applications: 3, notes: 2, files: 1 },
    });
    expect(JSON.stringify(entry)).not.toMatch(/quintana/i);
    expect((await s.api.candidates.export(s.acme, { email: EMAIL })).applications).toEqual([]);
  });

  it("a second erase changes nothing and emits nothing; a CV link of an erased application answers 404", async () => {
    const link = (await s.api.candidates.export(s.acme, { email: EMAIL })).applications[2]?.resume_url ?? "";
    await s.api.candidates.erase(s.acme, { email: EMAIL }, { actor: "Privacy desk" });
    const events = await s.inspect.countEvents(s.acme);
    const audit = (await s.api.audit.list(s.acme)).data.length;
    const record = await s.api.applications.get(s.acme, s.ids[0] as string);
    s.clock.advance(60_000);
    expect(await s.api.candidates.erase(s.acme, { email: EMAIL }, { actor: "Privacy desk" })).toEqual({
      erasedAt: null,
      applicationIds: [],
      alreadyErased: [],
      counts: { notes: 0, events: 0, attempts: 0, idempotencyRecords: 0, files: 0 },
      auditId: null,
    });
    expect(
      await s.api.candidates.erase(s.acme, { applicationId: s.ids[0] as string }, { actor: "Privacy desk" }),
    ).toMatchObject({ erasedAt: null, applicationIds: [], alreadyErased: [s.ids[0]], auditId: null });
    expect(await s.inspect.countEvents(s.acme)).toBe(events);
    expect((await s.api.audit.list(s.acme)).data.length).toBe(audit);
    expect(await s.api.applications.get(s.acme, s.ids[0] as string)).toEqual(record);
    expect(s.files.deletes).toEqual([s.fileId]);
    const cv = await s.api.fetch(new Request(link));
    expect(cv.status).toBe(404);
  });

  it("erase by application id erases that one only; the person's other applications stay", async () => {
    const target = s.ids[1] as string;
    const erasure = await s.api.candidates.erase(s.acme, { applicationId: target }, { actor: "Privacy desk" });
    expect(erasure).toMatchObject({ applicationIds: [target], counts: { notes: 1, files: 0 } });
    expect((await s.api.applications.get(s.acme, target)).erasedAt).toEqual(s.clock.now());
    expect((await s.api.applications.get(s.acme, s.ids[0] as string)).candidate.name).toBe(NAME);
    expect(s.files.files.has(s.fileId)).toBe(true);
    const [entry] = (await s.api.audit.list(s.acme)).data;
    expect(entry).toMatchObject({ target: { type: "application", id: target }, details: { by: "application_id" } });
  });

  it("bad input gets a typed error and changes nothing", async () => {
    const globex = await s.company("globex", "Globex plc");
    const events = await s.inspect.countEvents(s.acme);
    const expectError = async (work: Promise<unknown>, code: string, field?: string) => {
      const error = await work.then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ name: "HireportError", code });
      if (field) expect((error as { fields: { field: string }[] }).fields[0]?.field).toBe(field);
    };
    const actor = { actor: "Privacy desk" };
    await expectError(s.api.candidates.erase(s.acme, {} as never, actor), "invalid", "email");
    await expectError(
      s.api.candidates.erase(s.acme, { email: EMAIL, applicationId: s.ids[0] } as never, actor),
      "invalid",
      "email",
    );
    await expectError(s.api.candidates.erase(s.acme, { email: "   " }, actor), "invalid", "email");
    await expectError(s.api.candidates.erase(s.acme, { email: EMAIL }, {} as never), "invalid", "actor");
    await expectError(s.api.candidates.erase(s.acme, { applicationId: "app_missing" }, actor), "not_found");
    await expectError(s.api.candidates.erase(globex, { applicationId: s.ids[0] as string }, actor), "not_found");
    await expectError(s.api.candidates.export(s.acme, { applicationId: s.ids[0] } as never), "invalid", "email");
    expect((await s.api.candidates.erase(globex, { email: EMAIL }, actor)).applicationIds).toEqual([]);
    expect(await s.inspect.countEvents(s.acme)).toBe(events);
    expect((await traces(s)).length).toBeGreaterThan(0);
    expect((await s.api.applications.get(s.acme, s.ids[0] as string)).erasedAt).toBeNull();
    expect(s.files.deletes).toEqual([]);
  });

  it("a file store that fails stops the erasure before anything is redacted; a retry finishes it", async () => {
    s.files.failDeletes = true;
    await expect(s.api.candidates.erase(s.acme, { email: EMAIL }, { actor: "Privacy desk" })).rejects.toThrow(
      "the file store is down",
    );
    expect((await s.api.applications.get(s.acme, s.ids[2] as string)).resumeFileId).toBe(s.fileId);
    expect((await s.api.applications.get(s.acme, s.ids[0] as string)).erasedAt).toBeNull();
    s.files.failDeletes = false;
    const erasure = await s.api.candidates.erase(s.acme, { email: EMAIL }, { actor: "Privacy desk" });
    expect(erasure.applicationIds).toEqual(s.ids);
    expect(s.files.files.size).toBe(0);
    expect(await traces(s)).toEqual([]);
  });

  it("a CV file the store no longer has counts as no file deleted; the erasure still completes", async () => {
    // What a first try that deleted the file, then failed, leaves behind.
    expect(await s.files.delete(s.acme, s.fileId)).toBe(true);
    const erasure = await s.api.candidates.erase(s.acme, { email: EMAIL }, { actor: "Privacy desk" });
    expect(erasure).toMatchObject({ applicationIds: s.ids, counts: { files: 0 } });
    expect((await s.api.applications.get(s.acme, s.ids[2] as string)).resumeFileId).toBeNull();
    expect(await traces(s)).toEqual([]);
  });

  it("an erasure and PATCHes of the same applications at once: the erasure wins, no note comes back", async () => {
    const patches = s.ids.slice(0, 2).flatMap((id) =>
      [0, 1, 2].map((round) =>
        s.client.call("PATCH", `/applications/${id}`, {
          key: s.key.key,
          body: { stage: round % 2 === 0 ? "offered" : "hired", note: `Late note ${round} on Quintana` },
        }),
      ),
    );
    const [erasure, ...answers] = await Promise.all([
      s.api.candidates.erase(s.acme, { email: EMAIL }, { actor: "Privacy desk" }),
      ...patches,
    ]);
    expect(erasure.applicationIds).toEqual(s.ids);
    for (const answer of answers) {
      expect([200, 422], answer.text).toContain(answer.status);
      if (answer.status === 422) expect(errorOf(answer).fields?.[0]?.field).toBe("note");
    }
    for (const id of s.ids) {
      expect(await s.inspect.countNotes(s.acme, id)).toBe(0);
      expect((await s.api.applications.get(s.acme, id)).candidate.email).toBe("");
    }
    expect(await traces(s)).toEqual([]);
    expect(await s.inspect.findText("Late note")).toEqual([]);
    // Stage moves still work on the anonymous record; a note is refused.
    const move = await s.client.call("PATCH", `/applications/${s.ids[0]}`, {
      key: s.key.key,
      body: { stage: "hired" },
    });
    expect(move.status).toBe(200);
    const note = await s.client.call("PATCH", `/applications/${s.ids[0]}`, {
      key: s.key.key,
      body: { note: "about her" },
    });
    expect(note.status).toBe(422);
  });
});
