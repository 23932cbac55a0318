import { randomUUID } from "node:crypto";
import type {
  ApiKeyRecord,
  CompanyRecord,
  DeliveryRecord,
  EventRecord,
  InsertWithEventInput,
  JobRecord,
  NewApplication,
  WebhookEndpointRecord,
} from "@hireport/core";

export const id = (prefix: string): string => `${prefix}_${randomUUID().replaceAll("-", "")}`;

export function company(overrides: Partial<CompanyRecord> = {}): CompanyRecord {
  return { id: id("co"), name: "Acme Ltd", createdAt: new Date("2026-01-02T03:04:05.678Z"), ...overrides };
}

export function job(companyId: string, overrides: Partial<JobRecord> = {}): JobRecord {
  return {
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
    status: "active",
    hidden: false,
    applicationsCount: 0,
    createdAt: new Date("2026-03-01T10:00:00.123Z"),
    updatedAt: new Date("2026-03-01T10:00:00.123Z"),
    closedAt: null,
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
    source: "api",
    consent: true,
    consentAt: new Date("2026-03-02T11:00:00.001Z"),
    stage: "new",
    aiMatch: 42.5,
    overallScore: null,
    tags: [],
    starred: false,
    appliedAt: new Date("2026-03-02T11:00:00.001Z"),
    updatedAt: new Date("2026-03-02T11:00:00.001Z"),
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
    createdAt: new Date("2026-03-01T00:00:00.000Z"),
    expiresAt: null,
    revokedAt: null,
    lastUsedAt: null,
    ...overrides,
  };
}

export function event(companyId: string, overrides: Partial<EventRecord> = {}): EventRecord {
  return {
    id: id("evt"),
    companyId,
    type: "job.created",
    payload: JSON.stringify({ hello: "wörld ✓" }),
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

/** What one `applications.insertWithEvent` call writes: an application of the job, its first stage change, its event. */
export function insertWithEvent(companyId: string, jobId: string, jobTitle: string): InsertWithEventInput {
  const record = application(companyId, jobId);
  return {
    record,
    duplicateSince: new Date(0),
    initialStageChange: {
      id: id("stg"),
      applicationId: record.id,
      companyId,
      fromStage: null,
      toStage: "new",
      actor: { type: "host", id: null, name: "Careers page" },
      createdAt: record.appliedAt,
    },
    event: event(companyId, { type: "application.created", createdAt: record.appliedAt }),
    jobTitle,
  };
}
