/**
 * Personal data and the dispatcher, on every storage: a candidate erased while their
 * `application.created` is being delivered (the request is out, the receiver has not answered)
 * leaves no attempt holding their data, even though the receiver echoes the payload it got; and
 * the dispatcher's loop runs the host's retention.
 */
import { createPublicApi, type PublicApi } from "@hireport/core";
import { REDACTED_RESPONSE_BODY } from "@hireport/core/storage";
import { afterEach, describe, expect, it } from "vitest";
import { createWebhookDispatcher, type WebhookDispatcher } from "../src/index";
import { memoryWebhookStorage } from "../src/memory/index";
import { storageSuite } from "./support/storage-suite";
import { storageFactories } from "./support/storages";

const SECRET = "a-test-secret-of-at-least-32-characters!!";
const QUIET = { warn: () => {}, error: () => {} };
const NAME = "Ingrid Østergaard";
const EMAIL = "Ingrid.Ostergaard@example.dk";

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(storageFactories())("erasure during a delivery on $name", (factory) => {
  const suite = storageSuite(factory);

  it("an attempt recorded after the erasure stores no answer, though the receiver echoed the candidate", async () => {
    const handle = await factory.create();
    suite.defer(() => handle.close());
    const { storage } = handle;
    let dispatcher: WebhookDispatcher | undefined;
    const api: PublicApi = createPublicApi({
      storage,
      publicBaseUrl: "https://careers.example.com",
      fileTokenSecret: SECRET,
      onEvent: () => dispatcher?.notify(),
      logger: QUIET,
    });
    suite.defer(() => api.close());
    dispatcher = createWebhookDispatcher({
      storage,
      allowPrivateAddresses: true,
      tls: { ca: suite.certificate.cert },
      pollIntervalMs: 50,
      logger: QUIET,
    });
    suite.defer(() => (dispatcher as WebhookDispatcher).stop());
    const receiver = await suite.receiver();

    // The first request is held until the test lets it go, then answered with its own body echoed.
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    receiver.setHandler(async (request, response) => {
      if (receiver.requests.indexOf(request) === 0) await released;
      response.writeHead(400, { "content-type": "application/json" }).end(`{"rejected":${request.body.toString()}}`);
    });

    const company = await api.companies.upsert({ id: "co_privacy", name: "Acme" });
    const { endpoint } = await dispatcher.endpoints.create({
      companyId: company.id,
      url: `${receiver.origin}/hooks`,
      events: ["application.created", "application.updated"],
    });
    dispatcher.start();
    const job = await api.jobs.create(company.id, { title: "Data Lead", status: "active" });
    const application = await api.applications.create(company.id, {
      job_id: job.id,
      candidate: { name: NAME, email: EMAIL },
      cover_letter: `Regards, ${NAME}`,
    });

    await receiver.waitForRequests(1, 5_000);
    expect(receiver.requests[0]?.body.toString()).toContain(EMAIL);
    const erasure = await api.candidates.erase(company.id, { email: EMAIL }, { actor: "Privacy desk" });
    expect(erasure.applicationIds).toEqual([application.id]);
    release();

    // The held delivery's attempt, recorded after the erasure committed.
    const [created] = (await dispatcher.deliveries.list(company.id, endpoint.id, { limit: 10 })).data.filter(
      (delivery) => delivery.eventType === "application.created",
    );
    expect(created).toBeDefined();
    const attempts = await until(
      () => storage.webhooks.listAttempts(company.id, created?.id ?? ""),
      (list) => list.length > 0,
    );
    expect(attempts).toMatchObject([{ statusCode: 400, responseBody: REDACTED_RESPONSE_BODY }]);

    // The receiver then hears of the erased state (application.updated), and nothing stored names her.
    await receiver.waitForRequests(2, 5_000);
    const updated = JSON.parse(receiver.requests[1]?.body.toString() ?? "{}");
    expect(updated).toMatchObject({
      type: "application.updated",
      data: { id: application.id, candidate: { name: "", email: "" }, cover_letter: "" },
    });
    expect(updated.data.erased_at).toEqual(expect.any(String));
    const stored = await until(
      () => storage.webhooks.listAttemptsOf(company.id, [created?.id ?? ""]),
      (list) => list.length > 0,
    );
    expect(JSON.stringify(stored)).not.toContain("Ingrid");
    for (const event of await storage.events.list(company.id, { take: 100 })) {
      expect(event.payload).not.toMatch(/ingrid/i);
    }
  });
});

describe("the dispatcher's loop runs the host's retention", () => {
  const open: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of open.splice(0).reverse()) await close();
  });

  it("runs api.retention soon after start, then every retentionIntervalMs, and stops with the dispatcher", async () => {
    const storage = memoryWebhookStorage();
    let now = new Date("2026-01-01T00:00:00.000Z");
    const api = createPublicApi({
      storage,
      publicBaseUrl: "https://careers.example.com",
      fileTokenSecret: SECRET,
      clock: { now: () => now },
      logger: QUIET,
    });
    open.push(() => api.close());
    await api.companies.upsert({ id: "co_ret", name: "Acme" });
    await api.jobs.create("co_ret", { title: "Old job" });
    now = new Date("2026-03-01T00:00:00.000Z");
    expect((await storage.events.list("co_ret", { take: 10 })).length).toBe(1);

    let runs = 0;
    const counted = {
      purge: async () => {
        runs += 1;
        return api.retention.purge();
      },
    };
    const dispatcher = createWebhookDispatcher({
      storage,
      retention: counted,
      retentionIntervalMs: 40,
      pollIntervalMs: 10,
      logger: QUIET,
    });
    dispatcher.start();
    // The 59-day-old job.created event goes (events are kept 30 days by default).
    await until(
      () => storage.events.list("co_ret", { take: 10 }),
      (events) => events.length === 0,
    );
    await until(
      async () => runs,
      (count) => count >= 3,
    );
    await dispatcher.stop();
    const after = runs;
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(runs).toBe(after);
  });

  it("logs a failing retention and keeps running; refuses retentionDays beside retention", async () => {
    const errors: string[] = [];
    let runs = 0;
    const dispatcher = createWebhookDispatcher({
      storage: memoryWebhookStorage(),
      retention: async () => {
        runs += 1;
        throw new Error("database away");
      },
      retentionIntervalMs: 30,
      pollIntervalMs: 10,
      logger: { warn: () => {}, error: (message) => void errors.push(message) },
    });
    dispatcher.start();
    open.push(() => dispatcher.stop());
    await until(
      async () => runs,
      (count) => count >= 2,
    );
    expect(errors).toContain("hireport webhooks: retention failed");
    expect(() =>
      createWebhookDispatcher({
        storage: memoryWebhookStorage(),
        retention: async () => 0,
        retentionDays: 7,
        logger: QUIET,
      }),
    ).toThrow(/retentionDays and retention/);
    expect(() =>
      createWebhookDispatcher({ storage: memoryWebhookStorage(), retention: {} as never, logger: QUIET }),
    ).toThrow(/retention must be/);
  });
});
