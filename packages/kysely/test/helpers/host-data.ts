/**
 * A host's data in hireport's tables, for the tests that run the conformance suites on a database
 * that is not empty: one company with a bit of everything, written through the storage at times
 * around now (as a live host's rows are), and a snapshot of every row of every table under a prefix.
 */
import type { FileStore } from "@hireport/core";
import type { StoredFileInfo } from "@hireport/core/storage";
import type { WebhookStorage } from "@hireport/webhooks";
import { sql } from "kysely";
import { TABLE_NAMES } from "../../src/index";
import type { AnyDb } from "./databases";
import * as make from "./records";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** What {@link seedHostData} wrote that a test may want to name. */
export interface HostData {
  companyId: string;
  file: StoredFileInfo;
}

/**
 * One company of a live host: a key with a rate-limit counter and an idempotency record, jobs,
 * applications (one rejected two years ago) with their stage changes, a note and events, an endpoint
 * with the pending deliveries the applications fanned out and a delivered one with its attempt,
 * usage entries with their daily counts, an audit entry, a job-index mark with a notice whose
 * closing time has passed, and a file.
 */
export async function seedHostData(storage: WebhookStorage, files: FileStore): Promise<HostData> {
  const now = new Date();
  const at = (ms: number) => new Date(now.getTime() + ms);
  const company = await make.addCompany(storage, { name: "Host Co", createdAt: at(-400 * DAY) });
  const companyId = company.id;

  const key = make.apiKey(companyId, { createdAt: at(-30 * DAY), lastUsedAt: at(-HOUR) });
  await storage.keys.insert(key, { maxActive: 10, now });
  await storage.rateLimits.consume([{ key: `${key.id}:m:host`, limit: 100, resetAt: at(HOUR) }], now);
  const claim = {
    keyId: key.id,
    idempotencyKey: "host-retry-1",
    requestHash: "host-hash",
    now,
    expiresAt: at(DAY),
    lockedUntil: at(30_000),
  };
  await storage.idempotency.claim(claim);
  await storage.idempotency.complete(key.id, claim.idempotencyKey, { status: 201, headers: {}, body: "{}" });

  // Subscribed before the applications arrive: they fan out pending deliveries due now.
  const endpoint = make.endpoint(companyId, { createdAt: at(-60 * DAY), updatedAt: at(-60 * DAY) });
  await storage.webhooks.insertEndpoint(endpoint);

  const job = make.job(companyId, { createdAt: at(-90 * DAY), updatedAt: at(-90 * DAY) });
  const closed = make.job(companyId, {
    status: "closed",
    createdAt: at(-800 * DAY),
    updatedAt: at(-700 * DAY),
    closedAt: at(-700 * DAY),
  });
  for (const record of [job, closed]) await storage.jobs.insert(record);
  const fresh = make.application(companyId, job.id, { appliedAt: at(-DAY), updatedAt: at(-DAY), consentAt: at(-DAY) });
  const rejected = make.application(companyId, closed.id, {
    stage: "rejected",
    appliedAt: at(-750 * DAY),
    updatedAt: at(-720 * DAY),
    consentAt: at(-750 * DAY),
  });
  for (const record of [fresh, rejected]) {
    const result = await make.createApplication(storage, record, at(-800 * DAY));
    if (result.outcome !== "created") throw new Error(`The host's application was not created: ${result.outcome}`);
  }
  await storage.applications.addNote({
    id: make.id("note"),
    applicationId: fresh.id,
    companyId,
    body: "Strong portfolio.",
    actor: { type: "host", id: "user_1", name: "Recruiter" },
    createdAt: at(-HOUR),
  });

  const jobCreated = make.event(companyId, { type: "job.created", createdAt: at(-90 * DAY) });
  await storage.events.append(jobCreated);
  const token = make.id("lease");
  const sent = make.delivery(jobCreated, endpoint.id, {
    createdAt: at(-90 * DAY),
    nextAttemptAt: at(-90 * DAY),
    leaseToken: token,
    leaseExpiresAt: at(HOUR),
  });
  await storage.webhooks.insertDeliveries([sent]);
  const recorded = await storage.webhooks.recordAttempt(sent.id, token, make.succeeded(sent, at(-90 * DAY)));
  if (!recorded.recorded) throw new Error("The host's attempt was not recorded.");

  await storage.usage.appendMany(
    [0, 1, 400].map((days) => ({
      id: make.id("use"),
      companyId,
      keyId: key.id,
      method: "GET",
      route: "/jobs",
      status: 200,
      durationMs: 9,
      requestId: make.id("req"),
      ip: "198.51.100.7",
      createdAt: at(-days * DAY),
    })),
  );
  await storage.audit.append({
    id: make.id("aud"),
    companyId,
    actor: { type: "host", id: "user_1", name: "Owner" },
    action: "key.created",
    target: { type: "key", id: key.id },
    details: {},
    createdAt: at(-30 * DAY),
  });

  // A notice whose closing time has passed: a sweep at the present would mark the job again.
  await storage.jobIndex.mark(companyId, job.id, at(-2 * HOUR));
  await storage.jobIndex.record({
    companyId,
    jobId: job.id,
    service: "indexnow",
    seq: 1,
    action: "updated",
    notifiedAt: at(-2 * HOUR),
    status: 202,
    error: null,
    closesAt: at(-HOUR),
  });

  const file = await files.put({
    companyId,
    filename: "cv.pdf",
    contentType: "application/pdf",
    body: new TextEncoder().encode("%PDF-1.7 the host's CV"),
  });
  return { companyId, file };
}

/** Every row of every hireport table under `prefix`, each table's rows in a stable order, as JSON text. */
export async function snapshotTables(db: AnyDb, prefix: string): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const name of TABLE_NAMES) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(`${prefix}${name}`)}`.execute(db);
    tables[name] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return tables;
}

/** How many rows each hireport table under `prefix` holds. */
export function rowCounts(snapshot: Record<string, string[]>): Record<string, number> {
  return Object.fromEntries(Object.entries(snapshot).map(([table, rows]) => [table, rows.length]));
}
