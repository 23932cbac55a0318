/**
 * Load with faults, on Postgres (`HIREPORT_PG_URL`, default postgres://postgres@127.0.0.1:5432/test;
 * unreachable: skipped with a loud warning, or a failure with CI=true).
 *
 * `createPublicApi` on `kyselyStorage` with a running `createWebhookDispatcher` (short timeout, a
 * short retry schedule so retries happen within the test) delivering to a local receiver that fails
 * about 30% of the time at random: 500s, answers slower than the timeout, dropped connections. Many
 * parallel writers (new jobs, new applications, duplicate-application races, stage moves, job
 * changes and closes) and readers (lists followed through their cursors) work through
 * `api.handle()` for a bounded time and count. Afterwards:
 *
 * - no answer was a 5xx, and the only 4xx were the 409s of duplicate applications;
 * - every successful change has exactly one outbox event, matched to it by content, and there is
 *   no other event; every race of identical applications created exactly one;
 * - every event reached the receiver at least once, its exact bytes, with a valid signature under
 *   its company's endpoint secret; every delivery succeeded once the dispatcher drained (none lost,
 *   none failed), and `stop()` then finishes cleanly.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import {
  type ApiRequest,
  type ApplicationWire,
  createPublicApi,
  type JobWire,
  type Logger,
  type PublicApi,
} from "@hireport/core";
import { SCOPES } from "@hireport/core/schemas";
import type { EventRecord } from "@hireport/core/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookDispatcher, type WebhookDispatcher } from "../src/index";
import type { DeliveryRecord } from "../src/store/webhook-records";
import { verifySignature } from "../src/verify/index";
import { type SqlStorageFactory, sqlFactories } from "./support/kysely-factories";
import { type ReceivedRequest, type Receiver, startReceiver } from "./support/receiver";

const WRITE_FOR_MS = 8_000;
const MAX_OPERATIONS = 1_200;
const WRITERS = 10;
const READERS = 3;
const KEYS_PER_COMPANY = 4;
const TIMEOUT_MS = 250;
const SLOW_MS = 450;
/** 24 retries a few tens of milliseconds apart: a delivery fails for good only after 25 failures (0.3^25). */
const RETRY_SCHEDULE = Array.from({ length: 24 }, (_, index) => 20 + 10 * index);

/** A small seeded generator (mulberry32), so a failing run's choices can be replayed with ROBUSTNESS_SEED. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Fault = "ok" | "error" | "slow" | "drop";

interface Company {
  id: string;
  /** Several keys, as a company with several systems has: each key has its own rate-limit counter. */
  keys: string[];
  secret: string;
  endpointId: string;
  path: string;
}

/** What a successful change must have produced in the outbox. */
interface Expected {
  jobsCreated: Map<string, string>; // job id -> company
  jobTitles: Map<string, string>; // unique title -> job id (job.updated)
  jobsClosed: Map<string, string>; // job id -> company
  applicationsCreated: Map<string, string>; // application id -> company
  applicationTags: Map<string, string>; // unique tag -> application id (application.updated)
}

describe("load with faults on Postgres", () => {
  const factory = sqlFactories().find((item) => item.name === "postgres") as SqlStorageFactory;
  const seed = Number(process.env.ROBUSTNESS_SEED ?? Math.floor(Math.random() * 2 ** 31));
  let available = false;

  beforeAll(async () => {
    available = await factory.available();
  }, 30_000);

  afterAll(async () => {
    await factory.dispose?.();
  }, 30_000);

  it("parallel writers and readers lose nothing: one event per change, every event delivered and signed", async (context) => {
    if (!available) {
      context.skip();
      return;
    }
    console.info(`[robustness-load] seed ${seed} (rerun with ROBUSTNESS_SEED=${seed})`);
    const rand = random(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;

    const { storage, close } = await factory.create();
    const logged: string[] = [];
    const logger: Logger = {
      warn: (message, details) => void logged.push(`warn ${message} ${JSON.stringify(details)}`),
      error: (message, details) => void logged.push(`error ${message} ${JSON.stringify(details)}`),
    };

    // The receiver: records every request it reads, then fails about 30% of them.
    const receiver: Receiver = await startReceiver();
    const faults: Record<Fault, number> = { ok: 0, error: 0, slow: 0, drop: 0 };
    const timers = new Set<ReturnType<typeof setTimeout>>();
    receiver.setHandler((_request: ReceivedRequest, response: ServerResponse) => {
      const roll = rand();
      const fault: Fault = roll < 0.1 ? "error" : roll < 0.2 ? "slow" : roll < 0.3 ? "drop" : "ok";
      faults[fault]++;
      if (fault === "error") response.writeHead(500, { "content-type": "text/plain" }).end("boom");
      else if (fault === "drop") response.socket?.destroy();
      else if (fault === "slow") {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!response.destroyed) response.writeHead(200).end("too late");
        }, SLOW_MS);
        timers.add(timer);
      } else response.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });

    const dispatcher: WebhookDispatcher = createWebhookDispatcher({
      storage,
      logger,
      allowPrivateAddresses: true,
      timeoutMs: TIMEOUT_MS,
      leaseMs: TIMEOUT_MS + 6_000,
      retrySchedule: RETRY_SCHEDULE,
      pollIntervalMs: 50,
      pauseAfterFailures: 1_000_000,
      concurrency: 24,
      perEndpointConcurrency: 12,
      purgeIntervalMs: 0,
      // Secrets sealed at rest, as in production: every signature below is made from an opened one.
      encryptionKeys: [{ id: "load", key: randomBytes(32) }],
    });
    const api: PublicApi = createPublicApi({
      storage,
      publicBaseUrl: "https://careers.example.com",
      fileTokenSecret: "robustness-load-secret-0123456789-abcdef",
      limits: { perMinute: 1_000_000, perDay: 1_000_000 },
      logger,
      onEvent: () => dispatcher.notify(),
    });

    let stopped = false;
    try {
      const companies: Company[] = [];
      for (const id of ["co_load_a", "co_load_b"]) {
        await api.companies.upsert({ id, name: `Load ${id}` });
        const keys: string[] = [];
        for (let index = 0; index < KEYS_PER_COMPANY; index++) {
          keys.push((await api.keys.create({ companyId: id, name: `load ${index}`, scopes: [...SCOPES] })).key);
        }
        const path = `/hooks/${id}`;
        const { endpoint, secret } = await dispatcher.endpoints.create({
          companyId: id,
          url: `${receiver.origin}${path}`,
          events: ["job.created", "job.updated", "job.closed", "application.created", "application.updated"],
        });
        companies.push({ id, keys, secret, endpointId: endpoint.id, path });
      }
      dispatcher.start();

      const statuses = new Map<string, number>();
      const unexpected: string[] = [];
      const expected: Expected = {
        jobsCreated: new Map(),
        jobTitles: new Map(),
        jobsClosed: new Map(),
        applicationsCreated: new Map(),
        applicationTags: new Map(),
      };
      const jobs = new Map<string, { id: string; company: Company }[]>();
      const applications = new Map<string, { id: string; company: Company }[]>();
      /** (company, job, e-mail) -> the application created for it. */
      const applied = new Map<string, string>();
      const jobApplications = new Map<string, number>();
      for (const company of companies) {
        jobs.set(company.id, []);
        applications.set(company.id, []);
      }

      const call = async (
        company: Company,
        request: Omit<ApiRequest, "headers">,
      ): Promise<{ status: number; json: unknown }> => {
        const response = await api.handle({
          ...request,
          headers: { authorization: `Bearer ${pick(company.keys)}`, "content-type": "application/json" },
        });
        const text = await new Response(response.body as BodyInit).text();
        const label = `${request.method} ${request.path.replace(/\/(job|app)_\w+/g, "/{id}")} ${response.status}`;
        statuses.set(label, (statuses.get(label) ?? 0) + 1);
        if (response.status >= 500) unexpected.push(`${label}: ${text.slice(0, 300)}`);
        return { status: response.status, json: JSON.parse(text) as unknown };
      };

      const createJob = async (company: Company) => {
        const answer = await call(company, {
          method: "POST",
          path: "/jobs",
          body: { title: `Job ${randomUUID()}`, status: pick(["active", "draft", "paused"]), required_skills: ["sql"] },
        });
        if (answer.status !== 201) return void unexpected.push(`POST /jobs ${answer.status}`);
        const job = (answer.json as { data: JobWire }).data;
        expected.jobsCreated.set(job.id, company.id);
        jobs.get(company.id)?.push({ id: job.id, company });
      };

      const apply = async (company: Company, jobId: string, email: string) => {
        const answer = await call(company, {
          method: "POST",
          path: "/applications",
          body: { job_id: jobId, candidate: { name: "Load Candidate", email, skills: ["sql"] } },
        });
        return answer;
      };

      const recordApplication = (company: Company, jobId: string, email: string, application: ApplicationWire) => {
        expected.applicationsCreated.set(application.id, company.id);
        applications.get(company.id)?.push({ id: application.id, company });
        applied.set(`${company.id}|${jobId}|${email.toLowerCase()}`, application.id);
        jobApplications.set(jobId, (jobApplications.get(jobId) ?? 0) + 1);
      };

      const addApplication = async (company: Company) => {
        const own = jobs.get(company.id) ?? [];
        if (own.length === 0) return createJob(company);
        const job = pick(own);
        // A small pool of addresses, so that sequential duplicates happen too.
        const email = `candidate${Math.floor(rand() * 40)}@example.com`;
        const answer = await apply(company, job.id, email);
        const key = `${company.id}|${job.id}|${email}`;
        if (answer.status === 201) {
          if (applied.has(key)) unexpected.push(`second application for ${key}`);
          recordApplication(company, job.id, email, (answer.json as { data: ApplicationWire }).data);
        } else if (answer.status === 409) {
          const existing = (answer.json as { error: { code: string; existing_id: string } }).error;
          if (existing.code !== "duplicate") unexpected.push(`409 ${existing.code}`);
          // A concurrent writer may have made the first one and not yet recorded it: checked after the run.
          duplicates.push({ key, existingId: existing.existing_id });
        } else if (!closedJobAnswer(answer, job.id)) unexpected.push(`POST /applications ${answer.status}`);
      };

      const duplicates: { key: string; existingId: string }[] = [];
      /** Jobs an application was refused for as closed (422 naming job_id): checked against the closes after the run. */
      const refusedAsClosed = new Set<string>();
      /** Whether an answer is the 422 of a closed job, which a job being closed meanwhile gives. */
      const closedJobAnswer = (answer: { status: number; json: unknown }, jobId: string): boolean => {
        const fields = (answer.json as { error?: { fields?: { field: string }[] } }).error?.fields;
        if (answer.status !== 422 || fields?.[0]?.field !== "job_id") return false;
        refusedAsClosed.add(jobId);
        return true;
      };
      const races: { key: string; created: number; conflicts: number; ids: string[]; existing: string[] }[] = [];

      const duplicateRace = async (company: Company) => {
        const own = jobs.get(company.id) ?? [];
        if (own.length === 0) return createJob(company);
        const job = pick(own);
        const email = `race-${randomUUID()}@example.com`;
        const answers = await Promise.all(
          [0, 1, 2, 3].map((index) => apply(company, job.id, index % 2 === 0 ? email : ` ${email.toUpperCase()} `)),
        );
        const race = {
          key: `${company.id}|${job.id}|${email}`,
          created: 0,
          conflicts: 0,
          ids: [] as string[],
          existing: [] as string[],
        };
        let closedMeanwhile = false;
        for (const answer of answers) {
          if (answer.status === 201) {
            race.created++;
            const application = (answer.json as { data: ApplicationWire }).data;
            race.ids.push(application.id);
            recordApplication(company, job.id, email, application);
          } else if (answer.status === 409) {
            race.conflicts++;
            race.existing.push((answer.json as { error: { existing_id: string } }).error.existing_id);
          } else if (closedJobAnswer(answer, job.id)) closedMeanwhile = true;
          else unexpected.push(`race POST /applications ${answer.status}`);
        }
        // A race that met the job's closing proves nothing about the duplicate rule: its counts are left out.
        if (!closedMeanwhile) races.push(race);
      };

      const moveApplication = async (company: Company) => {
        const own = applications.get(company.id) ?? [];
        if (own.length === 0) return addApplication(company);
        const application = pick(own);
        const tag = `t-${randomUUID()}`;
        const answer = await call(company, {
          method: "PATCH",
          path: `/applications/${application.id}`,
          body: { stage: pick(["reviewed", "interview", "offered", "hired", "rejected", "on_hold"]), tags: [tag] },
        });
        if (answer.status !== 200) return void unexpected.push(`PATCH /applications ${answer.status}`);
        expected.applicationTags.set(tag, application.id);
      };

      const changeJob = async (company: Company) => {
        const own = jobs.get(company.id) ?? [];
        if (own.length === 0) return createJob(company);
        const job = pick(own);
        const title = `Renamed ${randomUUID()}`;
        const answer = await call(company, { method: "PATCH", path: `/jobs/${job.id}`, body: { title } });
        if (answer.status !== 200) return void unexpected.push(`PATCH /jobs ${answer.status}`);
        expected.jobTitles.set(title, job.id);
      };

      const closeJob = async (company: Company) => {
        const own = jobs.get(company.id) ?? [];
        if (own.length < 3) return createJob(company);
        const job = pick(own);
        // Two closes of one job at once: one closes it, the other finds it closed; one job.closed.
        const answers = await Promise.all(
          [0, 1].map(() => call(company, { method: "POST", path: `/jobs/${job.id}/close` })),
        );
        for (const answer of answers) {
          if (answer.status !== 200) return void unexpected.push(`POST /jobs/{id}/close ${answer.status}`);
          if ((answer.json as { data: JobWire }).data.status !== "closed")
            unexpected.push("close answered a job not closed");
        }
        expected.jobsClosed.set(job.id, company.id);
      };

      const readerErrors: string[] = [];
      const readAll = async (company: Company) => {
        const own = jobs.get(company.id) ?? [];
        const useJob = own.length > 0 && rand() < 0.5;
        const path = rand() < 0.5 ? "/jobs" : "/applications";
        const query: Record<string, string> = { limit: String(1 + Math.floor(rand() * 9)) };
        if (path === "/applications" && useJob) query.job_id = pick(own).id;
        const seen = new Set<string>();
        for (let page = 0; page < 40; page++) {
          const answer = await call(company, { method: "GET", path, query });
          if (answer.status !== 200) return void readerErrors.push(`GET ${path} ${answer.status}`);
          const body = answer.json as { data: { id: string }[]; next_cursor: string | null; has_more: boolean };
          for (const record of body.data) {
            if (seen.has(record.id)) readerErrors.push(`GET ${path}: ${record.id} on two pages`);
            seen.add(record.id);
            const mine = path === "/jobs" ? jobs : applications;
            if (!record.id.startsWith(path === "/jobs" ? "job_" : "app_")) readerErrors.push(`odd id ${record.id}`);
            for (const [other, list] of mine) {
              if (other !== company.id && list.some((item) => item.id === record.id)) {
                readerErrors.push(`GET ${path} of ${company.id} returned ${other}'s ${record.id}`);
              }
            }
          }
          if (!body.has_more || !body.next_cursor) return;
          query.cursor = body.next_cursor;
        }
      };

      const operations = [
        { weight: 3, run: createJob },
        { weight: 6, run: addApplication },
        { weight: 1, run: duplicateRace },
        { weight: 4, run: moveApplication },
        { weight: 2, run: changeJob },
        { weight: 1, run: closeJob },
      ];
      const totalWeight = operations.reduce((sum, operation) => sum + operation.weight, 0);
      const chooseOperation = () => {
        let roll = rand() * totalWeight;
        for (const operation of operations) {
          roll -= operation.weight;
          if (roll < 0) return operation.run;
        }
        return createJob;
      };

      const started = Date.now();
      let done = 0;
      const more = () => Date.now() - started < WRITE_FOR_MS && done < MAX_OPERATIONS;
      const writer = async () => {
        while (more()) {
          done++;
          await chooseOperation()(pick(companies));
        }
      };
      const reader = async () => {
        while (more()) await readAll(pick(companies));
      };
      await Promise.all([...Array.from({ length: WRITERS }, writer), ...Array.from({ length: READERS }, reader)]);
      const writeMs = Date.now() - started;

      // --- Answers: no 5xx, only the expected statuses. ---
      expect(unexpected, `seed ${seed}`).toEqual([]);
      expect(readerErrors, `seed ${seed}`).toEqual([]);
      for (const label of statuses.keys()) {
        expect(label, `seed ${seed}`).toMatch(/ (200|201)$|^POST \/applications (409|422)$/);
      }
      // A 422 for a job came only once that job was being closed.
      for (const jobId of refusedAsClosed) expect(expected.jobsClosed.has(jobId), jobId).toBe(true);

      // --- Races: exactly one application per (job, e-mail), the others 409 naming it. ---
      for (const race of races) {
        expect(race.created, race.key).toBe(1);
        expect(race.conflicts, race.key).toBe(3);
        expect(new Set(race.existing), race.key).toEqual(new Set(race.ids));
      }
      for (const duplicate of duplicates) {
        expect(applied.get(duplicate.key.toLowerCase()), duplicate.key).toBe(duplicate.existingId);
      }

      // --- Outbox: exactly one event per successful change, and nothing else. ---
      const events: EventRecord[] = [];
      for (const company of companies) events.push(...(await storage.events.list(company.id, { take: 1_000_000 })));
      const matched = new Map<string, number>();
      const count = (key: string) => matched.set(key, (matched.get(key) ?? 0) + 1);
      for (const event of events) {
        const envelope = JSON.parse(event.payload) as {
          type: string;
          company_id: string;
          data: { id: string; title?: string; tags?: string[]; status?: string };
        };
        expect(envelope.company_id).toBe(event.companyId);
        const { data } = envelope;
        if (envelope.type === "job.created") count(`job.created ${data.id}`);
        else if (envelope.type === "job.updated") count(`job.updated ${data.title}`);
        else if (envelope.type === "job.closed") count(`job.closed ${data.id}`);
        else if (envelope.type === "application.created") count(`application.created ${data.id}`);
        else if (envelope.type === "application.updated") count(`application.updated ${data.tags?.join(",")}`);
        else count(`unknown ${envelope.type}`);
      }
      const wanted = new Map<string, number>();
      for (const id of expected.jobsCreated.keys()) wanted.set(`job.created ${id}`, 1);
      for (const title of expected.jobTitles.keys()) wanted.set(`job.updated ${title}`, 1);
      for (const id of expected.jobsClosed.keys()) wanted.set(`job.closed ${id}`, 1);
      for (const id of expected.applicationsCreated.keys()) wanted.set(`application.created ${id}`, 1);
      for (const tag of expected.applicationTags.keys()) wanted.set(`application.updated ${tag}`, 1);
      expect(new Map([...matched].sort()), `seed ${seed}: events against successful changes`).toEqual(
        new Map([...wanted].sort()),
      );
      const changes =
        expected.jobsCreated.size +
        expected.jobTitles.size +
        expected.jobsClosed.size +
        expected.applicationsCreated.size +
        expected.applicationTags.size;
      expect(events.length).toBe(changes);

      // Each job counts exactly the applications created for it.
      for (const company of companies) {
        for (const job of jobs.get(company.id) ?? []) {
          const stored = await storage.jobs.get(company.id, job.id);
          expect(stored?.applicationsCount, job.id).toBe(jobApplications.get(job.id) ?? 0);
        }
      }

      // --- Deliveries: all succeed once the dispatcher drains. ---
      const eventsById = new Map(events.map((event) => [event.id, event]));
      const listDeliveries = async (): Promise<DeliveryRecord[]> => {
        const all: DeliveryRecord[] = [];
        for (const company of companies) {
          all.push(
            ...(await storage.webhooks.listDeliveries({
              companyId: company.id,
              endpointId: company.endpointId,
              take: 1_000_000,
            })),
          );
        }
        return all;
      };
      const drainStarted = Date.now();
      let deliveries = await listDeliveries();
      while (Date.now() - drainStarted < 20_000) {
        if (deliveries.length === events.length && deliveries.every((delivery) => delivery.status === "succeeded"))
          break;
        await new Promise((resolve) => setTimeout(resolve, 100));
        deliveries = await listDeliveries();
      }
      const drainMs = Date.now() - drainStarted;
      const notDone = deliveries.filter((delivery) => delivery.status !== "succeeded");
      expect(
        notDone.map((delivery) => `${delivery.id} ${delivery.status} after ${delivery.attempts}`),
        `seed ${seed}`,
      ).toEqual([]);
      expect(deliveries.length).toBe(events.length);
      // One delivery per event, to its own company's endpoint.
      expect(new Set(deliveries.map((delivery) => delivery.eventId)).size).toBe(events.length);
      for (const delivery of deliveries) {
        const event = eventsById.get(delivery.eventId);
        expect(event, delivery.id).toBeDefined();
        const company = companies.find((item) => item.endpointId === delivery.endpointId) as Company;
        expect(event?.companyId).toBe(company.id);
      }

      const stopStarted = Date.now();
      await dispatcher.stop();
      stopped = true;
      const stopMs = Date.now() - stopStarted;
      expect(stopMs).toBeLessThan(3_000);
      // Stopped means stopped: nothing more goes out.
      const requestsAtStop = receiver.requests.length;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.requests.length).toBe(requestsAtStop);

      // --- The receiver: every event at least once, exact bytes, valid signature; every request signed. ---
      const received = new Map<string, number>();
      const receivedByDelivery = new Map<string, number>();
      for (const request of receiver.requests) {
        const company = companies.find((item) => item.path === request.path);
        expect(company, request.path).toBeDefined();
        await verifySignature({
          payload: request.body,
          header: String(request.headers["service-signature"]),
          secret: company?.secret ?? "",
        });
        const envelope = JSON.parse(request.body.toString("utf8")) as { id: string; type: string; company_id: string };
        const event = eventsById.get(envelope.id);
        expect(event, envelope.id).toBeDefined();
        expect(request.body.toString("utf8")).toBe(event?.payload);
        expect(envelope.company_id).toBe(company?.id);
        expect(request.headers["service-event"]).toBe(envelope.type);
        received.set(envelope.id, (received.get(envelope.id) ?? 0) + 1);
        const deliveryId = String(request.headers["service-delivery"]);
        receivedByDelivery.set(deliveryId, (receivedByDelivery.get(deliveryId) ?? 0) + 1);
      }
      expect(events.filter((event) => !received.has(event.id)).map((event) => event.id)).toEqual([]);
      // Every request that reached the receiver was recorded as an attempt of its delivery.
      for (const delivery of deliveries) {
        expect(receivedByDelivery.get(delivery.id) ?? 0, delivery.id).toBeLessThanOrEqual(delivery.attempts);
      }

      // The faults really happened, and were retried.
      expect(faults.error).toBeGreaterThan(0);
      expect(faults.slow).toBeGreaterThan(0);
      expect(faults.drop).toBeGreaterThan(0);
      expect(deliveries.some((delivery) => delivery.attempts > 1)).toBe(true);
      expect(logged, `seed ${seed}`).toEqual([]);
      console.info(
        `[robustness-load] ${done} operations in ${writeMs} ms (${races.length} races), ${events.length} events, ` +
          `${receiver.requests.length} requests (${faults.error} 500s, ${faults.slow} slow, ${faults.drop} dropped), ` +
          `drained in ${drainMs} ms, stop() in ${stopMs} ms`,
      );
    } finally {
      if (!stopped) await dispatcher.stop();
      await api.close();
      for (const timer of timers) clearTimeout(timer);
      await receiver.close();
      await close();
    }
  }, 60_000);
});
