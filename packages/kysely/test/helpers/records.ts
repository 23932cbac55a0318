import { randomBytes, randomUUID } from "node:crypto";
import type { ApiKeyRecord, CompanyRecord, JobRecord } from "@hireport/core";
import type {
  CreateApplicationResult,
  EventRecord,
  NewApplication,
  NewApplicationWrite,
  StorageStores,
} from "@hireport/core/storage";
import { jobFieldDefaults } from "@hireport/core/storage";
import type { AttemptOutcome, DeliveryRecord, WebhookEndpointRecord } from "@hireport/webhooks";

/**
 * A new id of core's length (`evt_` and 26 characters): a delivery's id, `dlv_` and the bodies of
 * its event's and its endpoint's ids, then fits the 64 characters of an id column.
 */
export const id = (prefix: string): string => `${prefix}_${randomBytes(13).toString("hex")}`;

export function company(overrides: Partial<CompanyRecord> = {}): CompanyRecord {
  return { id: id("co"), name: "Acme Ltd", createdAt: new Date("2026-01-02T03:04:05.678Z"), ...overrides };
}

/** A new company (`company`), upserted into `stores`. */
export async function addCompany(
  stores: StorageStores,
  overrides: Partial<CompanyRecord> = {},
): Promise<CompanyRecord> {
  const record = company(overrides);
  await stores.companies.upsert(record);
  return record;
}

export function job(companyId: string, overrides: Partial<JobRecord> = {}): JobRecord {
  return {
    ...jobFieldDefaults(),
    id: id("job"),
    companyId,
    reference: "JOB-1001",
    title: "Backend engineer",
    description: "Build things.",
    shortDescription: "",
    department: "Engineering",
    location: "London",
    employmentType: "full_time",
    experienceLevel: "senior",
    salaryMin: 50_000.5,
    salaryMax: null,
    salaryCurrency: "GBP",
    salaryPeriod: "year",
    requiredSkills: ["TypeScript", "SQL", "SQL", "Zürich-ß", "日本語", "emoji 🚀"],
    preferredSkills: [],
    qualifications: [],
    responsibilities: ["a"],
    benefits: [],
    closingDate: "2026-12-31",
    startDate: null,
    positions: 2,
    questions: [
      {
        id: "go_years",
        label: "Years of Go — «ß» 🚀",
        type: "single_choice",
        required: true,
        choices: [
          { value: "none", label: "None", knockout: true },
          { value: "3_plus", label: "3 years or more", knockout: false },
        ],
        help: "Count production work only.",
      },
      { id: "start", label: "Earliest start", type: "date", required: false, choices: [], help: "" },
    ],
    status: "active",
    hidden: false,
    applicationsCount: 0,
    createdAt: new Date("2026-03-01T10:00:00.123Z"),
    updatedAt: new Date("2026-03-01T10:00:00.123Z"),
    closedAt: null,
    publishedAt: null,
    ...overrides,
  };
}

export function application(companyId: string, jobId: string, overrides: Partial<NewApplication> = {}): NewApplication {
  const email = overrides.emailNormalized ?? `${randomUUID()}@example.com`;
  return {
    id: id("app"),
    companyId,
    jobId,
    reference: "APP-1",
    candidate: {
      name: "Zoë Ōtsuka",
      email: email.toUpperCase(),
      phone: "",
      location: "",
      linkedinUrl: "",
      currentTitle: "",
      skills: ["Go", "Ünïcode"],
    },
    emailNormalized: email,
    coverLetter: "Hello",
    resumeSourceUrl: null,
    resumeFileId: null,
    source: "api",
    consent: true,
    consentAt: new Date("2026-03-02T11:00:00.001Z"),
    stage: "new",
    aiMatch: 42.5,
    overallScore: null,
    tags: [],
    starred: false,
    humanReviewRequestedAt: null,
    answers: [
      { questionId: "go_years", label: "Years of Go — «ß» 🚀", type: "single_choice", value: "none", text: "None" },
      { questionId: "langs", label: "Languages", type: "multiple_choice", value: ["go", "日本語"], text: "Go, 日本語" },
      { questionId: "years", label: "Years", type: "number", value: 2.5, text: "2.5" },
      { questionId: "remote", label: "Remote?", type: "yes_no", value: false, text: "No" },
    ],
    knockedOut: true,
    appliedAt: new Date("2026-03-02T11:00:00.001Z"),
    updatedAt: new Date("2026-03-02T11:00:00.001Z"),
    erasedAt: null,
    ...overrides,
  };
}

export function apiKey(companyId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id: id("key"),
    companyId,
    name: "CI key",
    scopes: ["jobs:read", "applications:write"],
    hash: randomUUID().replaceAll("-", "") + randomUUID().replaceAll("-", ""),
    prefix: "svc_live_abcd",
    suffix: "wXyZ",
    createdAt: new Date("2026-03-01T00:00:00.000Z"),
    expiresAt: null,
    revokedAt: null,
    lastUsedAt: null,
    ...overrides,
  };
}

/**
 * An outbox event. Its type defaults to `webhook.test`, to which no endpoint subscribes: appending
 * it fans out nothing, so tests insert exactly the deliveries they need.
 */
export function event(companyId: string, overrides: Partial<EventRecord> = {}): EventRecord {
  return {
    id: id("evt"),
    companyId,
    type: "webhook.test",
    payload: JSON.stringify({ hello: "wörld ✓" }),
    subjectId: null,
    createdAt: new Date("2026-03-01T10:00:00.123Z"),
    ...overrides,
  };
}

export function endpoint(companyId: string, overrides: Partial<WebhookEndpointRecord> = {}): WebhookEndpointRecord {
  return {
    id: id("we"),
    companyId,
    url: "https://hooks.example.com/in",
    description: "",
    events: ["job.created", "application.created"],
    status: "active",
    pausedReason: null,
    signatureScheme: "service",
    ordered: false,
    maxPerSecond: null,
    secrets: [{ secret: "whsec_abc", expiresAt: null }],
    consecutiveFailures: 0,
    createdAt: new Date("2026-03-01T10:00:00.000Z"),
    updatedAt: new Date("2026-03-01T10:00:00.000Z"),
    ...overrides,
  };
}

export function delivery(ev: EventRecord, endpointId: string, overrides: Partial<DeliveryRecord> = {}): DeliveryRecord {
  return {
    id: id("dlv"),
    endpointId,
    companyId: ev.companyId,
    eventId: ev.id,
    eventType: ev.type,
    status: "pending",
    attempts: 0,
    nextAttemptAt: new Date("2026-03-01T10:00:00.000Z"),
    leaseExpiresAt: null,
    leaseToken: null,
    createdAt: new Date("2026-03-01T10:00:00.000Z"),
    updatedAt: new Date("2026-03-01T10:00:00.000Z"),
    ...overrides,
  };
}

/** What a dispatcher records for a delivery answered 200 at `at`: succeeded, its failure count reset. */
export function succeeded(delivery: Pick<DeliveryRecord, "id" | "endpointId">, at: Date): AttemptOutcome {
  return {
    attempt: {
      id: id("att"),
      deliveryId: delivery.id,
      endpointId: delivery.endpointId,
      attemptedAt: at,
      statusCode: 200,
      durationMs: 1,
      responseBody: "",
      error: null,
      succeeded: true,
    },
    status: "succeeded",
    nextAttemptAt: null,
    endpoint: { failureCount: "reset", statusChanges: [] },
  };
}

/** What `applications.create` writes for `record`: its first stage change and its event, for `job` as read. */
export function applicationWrite(
  record: NewApplication,
  job: { title: string; updatedAt: Date },
  duplicateSince = new Date(0),
): NewApplicationWrite {
  const jobTitle = job.title;
  return {
    record,
    duplicateSince,
    initialStageChange: {
      id: id("stg"),
      applicationId: record.id,
      companyId: record.companyId,
      fromStage: null,
      toStage: record.stage,
      actor: { type: "host", id: null, name: "Careers page" },
      createdAt: record.appliedAt,
    },
    event: event(record.companyId, {
      type: "application.created",
      payload: JSON.stringify({ title: jobTitle, candidate: record.candidate.name }),
      createdAt: record.appliedAt,
    }),
    jobTitle,
    jobUpdatedAt: job.updatedAt,
  };
}

/** A new application of the job, with its write (`applicationWrite`). */
export function newApplicationWrite(
  companyId: string,
  job: { id: string; title: string; updatedAt: Date },
): NewApplicationWrite {
  return applicationWrite(application(companyId, job.id), job);
}

/** Adds `record` through `applications.create` on `stores`, with its job's title as it is now, as core does. */
export async function createApplication(
  stores: StorageStores,
  record: NewApplication,
  duplicateSince = new Date(0),
): Promise<CreateApplicationResult> {
  const job = await stores.jobs.get(record.companyId, record.jobId);
  if (!job) throw new Error(`No job ${record.jobId} in company ${record.companyId}.`);
  return stores.applications.create(applicationWrite(record, job, duplicateSince));
}
