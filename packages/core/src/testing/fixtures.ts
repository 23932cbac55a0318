import { jobFieldDefaults } from "../fields/job";
import type {
  ApiKeyRecord,
  ApplicationRecord,
  CompanyRecord,
  EventRecord,
  JobRecord,
  UsageRecord,
} from "../model/domain";
import type { NewApplication, NewApplicationWrite } from "../storage";

/** Random lower-case hex, `length` characters (at most 32). */
export function randomHex(length = 32): string {
  return globalThis.crypto.randomUUID().replaceAll("-", "").slice(0, length);
}

/** A random id with a prefix: `job_3f2a…`. Lower-case ASCII only, so every collation orders them alike. */
export function newId(prefix: string): string {
  return `${prefix}_${randomHex(24)}`;
}

/**
 * Ids that sort in the order given, under binary and case-insensitive collations alike: one
 * random stem and a single differing letter at the end (`…a` < `…b` < `…c`).
 */
export function orderedIds(prefix: string, count: number): string[] {
  const stem = newId(prefix);
  return Array.from({ length: count }, (_, index) => `${stem}${String.fromCharCode(97 + index)}`);
}

/** The current time, to the millisecond. */
export function now(): Date {
  return new Date(Date.now());
}

/** `date` moved by `ms` milliseconds. */
export function shift(date: Date, ms: number): Date {
  return new Date(date.getTime() + ms);
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/**
 * The end of the suites' own past: 1 January 2000. Every call of the suites to a method that sees
 * the whole database (purges, claims of due deliveries, job-index sweeps and pending lists,
 * retention lists) uses a time before it, where only the suites' rows are: a host's real rows are
 * later, so those calls never read or change them.
 */
export const FAR_PAST_END = new Date("2000-01-01T00:00:00.000Z");

/** A random instant from `from` up to (not including) `to`, both UTC milliseconds. */
function randomInstant(from: number, to: number): Date {
  return new Date(from + Math.floor(Math.random() * (to - from)));
}

/**
 * A random instant in the 1990s, before {@link FAR_PAST_END}. Tests of methods that see the whole
 * database (purges, claims) put their rows there, far from the rows of every other test and of the
 * host.
 */
export function farPast(): Date {
  return randomInstant(Date.UTC(1991, 0, 1), Date.UTC(1999, 11, 31));
}

/**
 * A random instant from 1980 to mid-1987, before every {@link farPast} (and the due-delivery
 * statistics' 1988): for the tests whose whole-database reads must see no other test's rows either
 * (the retention list, purges with a limit), each run at a time of its own.
 */
export function ancientPast(): Date {
  return randomInstant(Date.UTC(1980, 0, 1), Date.UTC(1987, 5, 30));
}

/** Strings that a careless encoding breaks: order, duplicates, separators, quotes, non-ASCII, emoji. */
export const TRICKY_STRINGS: readonly string[] = [
  "TypeScript",
  "Zürich – Straße",
  "日本語のスキル",
  "emoji 🚀👩🏽‍💻",
  "dup",
  "dup",
  "a,b;c|d",
  "\"quoted\" and 'single'",
  "back\\slash {json: [1]}",
  "  spaced  ",
  "",
  "NULL",
];

export function makeCompany(overrides: Partial<CompanyRecord> = {}): CompanyRecord {
  return { id: newId("co"), name: "Conformance Ltd", createdAt: now(), ...overrides };
}

export function makeKey(companyId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const secret = randomHex(32);
  return {
    id: newId("key"),
    companyId,
    name: "Conformance key",
    scopes: ["jobs:read", "applications:write"],
    hash: `${randomHex(32)}${randomHex(32)}`,
    prefix: `svc_live_${secret.slice(0, 4)}`,
    suffix: secret.slice(-4),
    createdAt: now(),
    expiresAt: null,
    revokedAt: null,
    lastUsedAt: null,
    ...overrides,
  };
}

/** The stored application as `applications.get` returns it: with its job's title. */
export function withTitle(application: NewApplication, job: Pick<JobRecord, "title">): ApplicationRecord {
  return { ...application, jobTitle: job.title };
}

export function makeJob(companyId: string, overrides: Partial<JobRecord> = {}): JobRecord {
  const at = overrides.createdAt ?? now();
  return {
    ...jobFieldDefaults(),
    id: newId("job"),
    companyId,
    reference: `JOB-${randomHex(12)}`,
    title: "Backend Engineer",
    description: "Build things.",
    shortDescription: "Build.",
    department: "Engineering",
    location: "London",
    employmentType: "full_time",
    experienceLevel: "senior",
    salaryMin: 50000,
    salaryMax: 70000,
    salaryCurrency: "GBP",
    salaryPeriod: "year",
    requiredSkills: ["TypeScript", "SQL"],
    preferredSkills: [],
    qualifications: [],
    responsibilities: [],
    benefits: [],
    closingDate: null,
    startDate: null,
    positions: null,
    status: "active",
    hidden: false,
    applicationsCount: 0,
    createdAt: at,
    updatedAt: at,
    closedAt: null,
    publishedAt: null,
    ...overrides,
  };
}

export function makeApplication(
  companyId: string,
  jobId: string,
  overrides: Partial<NewApplication> = {},
): NewApplication {
  const at = overrides.appliedAt ?? now();
  const email = `${randomHex(12)}@example.com`;
  return {
    id: newId("app"),
    companyId,
    jobId,
    reference: `APP-${randomHex(12)}`,
    candidate: {
      name: "Ada Lovelace",
      email,
      phone: "",
      location: "",
      linkedinUrl: "",
      currentTitle: "",
      skills: [],
    },
    emailNormalized: email,
    coverLetter: "",
    resumeSourceUrl: null,
    resumeFileId: null,
    source: "api",
    consent: null,
    consentAt: null,
    stage: "new",
    aiMatch: 50,
    overallScore: null,
    tags: [],
    starred: false,
    humanReviewRequestedAt: null,
    answers: [],
    knockedOut: false,
    appliedAt: at,
    updatedAt: at,
    erasedAt: null,
    ...overrides,
  };
}

/**
 * All that adding `record` to `job` writes (`applications.create`): a 30-day duplicate window, the
 * first stage change, and an `application.created` event whose payload holds awkward JSON text.
 */
export function makeApplicationWrite(
  job: { id: string; companyId: string; title: string; updatedAt: Date },
  overrides: Partial<NewApplication> = {},
): NewApplicationWrite {
  const record = makeApplication(job.companyId, job.id, overrides);
  const eventId = newId("evt");
  const payload = JSON.stringify({
    id: eventId,
    type: "application.created",
    data: {
      id: record.id,
      title: job.title,
      candidate: { name: record.candidate.name, email: record.candidate.email },
      quote: '"\\ \u2028 🚀',
      nested: [1, 2.5, null],
    },
  });
  return {
    record,
    duplicateSince: shift(record.appliedAt, -30 * DAY),
    initialStageChange: {
      id: newId("stg"),
      applicationId: record.id,
      companyId: job.companyId,
      fromStage: null,
      toStage: record.stage,
      actor: { type: "api_key", id: newId("key"), name: "Careers site 🚀 'quoted'" },
      createdAt: record.appliedAt,
    },
    event: makeEvent(job.companyId, {
      id: eventId,
      type: "application.created",
      payload,
      createdAt: record.appliedAt,
      subjectId: record.id,
    }),
    jobTitle: job.title,
    jobUpdatedAt: job.updatedAt,
  };
}

/**
 * An outbox event. Its type defaults to `webhook.test`, to which no endpoint subscribes: appending
 * it fans out nothing, so the delivery tests insert exactly the deliveries they need.
 */
export function makeEvent(companyId: string, overrides: Partial<EventRecord> = {}): EventRecord {
  const id = overrides.id ?? newId("evt");
  const createdAt = overrides.createdAt ?? now();
  const type = overrides.type ?? "webhook.test";
  return {
    id,
    companyId,
    type,
    payload: JSON.stringify({ id, type, created_at: createdAt.toISOString(), company_id: companyId }),
    createdAt,
    subjectId: null,
    ...overrides,
  };
}

export function makeUsage(companyId: string, overrides: Partial<UsageRecord> = {}): UsageRecord {
  return {
    id: newId("use"),
    companyId,
    keyId: null,
    method: "GET",
    route: "/jobs",
    status: 200,
    durationMs: 12,
    requestId: `req_${randomHex(16)}`,
    ip: "203.0.113.9",
    createdAt: now(),
    ...overrides,
  };
}

/** `count` copies of `fn()`, started together. */
export function parallel<T>(count: number, fn: (index: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => fn(index)));
}

/** An application event of `application` as core writes it: the Application in `data`, its id as the subject. */
export function applicationEvent(application: NewApplication, jobTitle: string, at = now()): EventRecord {
  const id = newId("evt");
  const data = {
    id: application.id,
    job_title: jobTitle,
    candidate: {
      name: application.candidate.name,
      email: application.candidate.email,
      phone: application.candidate.phone,
      location: application.candidate.location,
      linkedin_url: application.candidate.linkedinUrl,
      current_title: application.candidate.currentTitle,
      skills: application.candidate.skills,
    },
    cover_letter: application.coverLetter,
    resume_url: "https://careers.example.com/files/cv/token",
    stage: application.stage,
  };
  return makeEvent(application.companyId, {
    id,
    type: "application.updated",
    payload: JSON.stringify({ id, type: "application.updated", company_id: application.companyId, data }),
    createdAt: at,
    subjectId: application.id,
  });
}
