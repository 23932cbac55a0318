/**
 * Domain records: what the storage contract stores and returns. These are internal shapes
 * (camelCase, `Date` objects); the wire shapes of the API (snake_case, ISO strings) are produced
 * by `serialize.ts`.
 */

import type { ApplicationFields } from "../fields/application";
import type { ApplicationStage } from "../fields/application-stages";
import type { CandidateFields } from "../fields/candidate";
import type { JobFields } from "../fields/job";

export type { AnswerRecord, AnswerValue } from "../fields/answers";
export { APPLICATION_STAGES, type ApplicationStage } from "../fields/application-stages";

/** Job status values stored and returned. `open` on the wire is `status === "active"`. */
export const JOB_STATUSES = ["active", "draft", "paused", "closed"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Job status values a client may send on create and change (closing is POST /jobs/{id}/close). */
export const JOB_INPUT_STATUSES = ["active", "draft", "paused"] as const;
export type JobInputStatus = (typeof JOB_INPUT_STATUSES)[number];

/** Values of the `status` filter of GET /jobs. */
export const JOB_LIST_FILTERS = ["open", "closed", "draft", "all"] as const;
export type JobListFilter = (typeof JOB_LIST_FILTERS)[number];

/** The four permissions of a key. A `write` scope implies the matching `read` scope. */
/**
 * Permissions of an API key. `webhooks:read` and `webhooks:write` open the webhook endpoints of the
 * API (`/webhook-endpoints`), which answer only where the host mounts `@hireport/webhooks`'s routes.
 */
export const SCOPES = [
  "jobs:read",
  "jobs:write",
  "applications:read",
  "applications:write",
  "webhooks:read",
  "webhooks:write",
] as const;
export type Scope = (typeof SCOPES)[number];

/** Event kinds (docs/api-reference.md#events); `webhook.test` is the test event. */
export const EVENT_TYPES = [
  "application.created",
  "application.updated",
  "job.created",
  "job.updated",
  "job.closed",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export type AnyEventType = EventType | "webhook.test";

export interface CompanyRecord {
  id: string;
  name: string;
  createdAt: Date;
}

export interface ApiKeyRecord {
  /** Public identifier of the key (`key_…`); never the secret. */
  id: string;
  companyId: string;
  name: string;
  /** Scopes as granted at creation (not expanded: `jobs:write` is stored as is). */
  scopes: Scope[];
  /** Hex SHA-256 of the full secret key string. The secret itself is never stored. */
  hash: string;
  /** First characters of the key (`svc_live_abcd`), shown in listings so people can tell keys apart. */
  prefix: string;
  /** Last characters of the key (`wXyZ`), shown after the prefix (`svc_live_abcd…wXyZ`). */
  suffix: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** A key found by its hash, with the name of its company (for GET /me). */
export interface ApiKeyWithCompany {
  key: ApiKeyRecord;
  company: CompanyRecord;
}

/**
 * Every JobInput field, stored whether or not the Job wire shape returns it: derived from their
 * declaration in `fields/job.ts` (salaryCurrency defaults to "GBP", salaryPeriod to "year",
 * closingDate and startDate are YYYY-MM-DD or null).
 */
export type { JobFields };

export interface JobRecord extends JobFields {
  id: string;
  companyId: string;
  /** Readable per-company reference, `JOB-1001`. */
  reference: string;
  status: JobStatus;
  /** Hidden by the host from public pages: `public_url` is then null even while active. */
  hidden: boolean;
  /** Number of applications for this job, kept exact by the storage in the same transaction. */
  applicationsCount: number;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
  /**
   * When the job first became public (active, not hidden, closing date not passed), or null while
   * it never was: set by core's job writes. The careers site answers 410 Gone for the page of a job
   * that was public once and 404 for one that never was; its JobPosting's `datePosted`.
   */
  publishedAt: Date | null;
}

/** The candidate of an application: derived from their declaration in `fields/candidate.ts`. */
export type CandidateRecord = CandidateFields;

/**
 * An application: its ids and the joined job title, the candidate, and every field declared in
 * `fields/application.ts` (the stored CV address and file id are never returned as they are; an
 * erased application stays as an anonymous record: see `erasedApplication` for what is kept).
 */
export interface ApplicationRecord extends ApplicationFields {
  id: string;
  companyId: string;
  jobId: string;
  /** Title of the job, read at query time (joined), never a stale copy. */
  jobTitle: string;
  /** Readable per-company reference, `APP-1001`. */
  reference: string;
  candidate: CandidateRecord;
}

/** Who made a change: the key's name over HTTP, or a label the host chooses. */
export interface Actor {
  type: "api_key" | "host";
  /** Key id for `api_key`; free text for `host`. */
  id: string | null;
  /** Shown in the history: the key's name, or the host's label. */
  name: string;
}

export interface StageChangeRecord {
  id: string;
  applicationId: string;
  companyId: string;
  fromStage: ApplicationStage | null;
  toStage: ApplicationStage;
  actor: Actor;
  createdAt: Date;
}

export interface NoteRecord {
  id: string;
  applicationId: string;
  companyId: string;
  body: string;
  actor: Actor;
  createdAt: Date;
}

export interface EventRecord {
  /** `evt_…` */
  id: string;
  companyId: string;
  type: AnyEventType;
  /** The exact JSON text of the envelope (docs/api-reference.md#the-envelope), as it will be signed and sent. */
  payload: string;
  createdAt: Date;
  /**
   * The id of the Job or Application the event carries (`data.id`), null for `webhook.test`: erasing
   * a candidate finds the events that hold their data by it.
   */
  subjectId: string | null;
}

/** The first digit of an HTTP status, as the usage chart groups answers: 2 for 2xx, 4 for 4xx. */
export function statusClassOf(status: number): number {
  return Math.floor(status / 100);
}

/** The UTC day of a time, `YYYY-MM-DD`: the unit of the usage roll-up. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export interface UsageRecord {
  id: string;
  /** Null when the request carried no valid key. */
  companyId: string | null;
  keyId: string | null;
  method: string;
  /** Route template, `/jobs/{id}`; the raw path for unknown routes (truncated to 200 characters). */
  route: string;
  status: number;
  durationMs: number;
  requestId: string;
  ip: string | null;
  createdAt: Date;
}

/**
 * One entry of a company's audit list: who changed what, when (keys created and revoked, webhook
 * endpoints changed, deliveries resent, candidates exported or erased). Never personal data: the
 * target is named by its id, and `details` holds only ids, counts and settings.
 */
export interface AuditRecord {
  /** `aud_…` */
  id: string;
  companyId: string;
  actor: Actor;
  /** What was done, `noun.verb`: `key.created`, `webhook_endpoint.deleted`, `candidate.erased`. */
  action: string;
  /** What it was done to: a type and its id (null when it names no single record). */
  target: { type: string; id: string | null };
  /** Ids, counts and settings that say more; never names, e-mail addresses or free text a person wrote. */
  details: Record<string, string | number | boolean | null | readonly string[]>;
  createdAt: Date;
}

/** A stored answer for `Idempotency-Key` replays. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * `active` receives deliveries; `paused` queues them (paused by the host, or after failures in a
 * row); `disabled` gets none at all (its receiver answered 410 Gone) until the host resumes it.
 */
export const WEBHOOK_ENDPOINT_STATUSES = ["active", "paused", "disabled"] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

/**
 * A webhook endpoint as the outbox's fan-out reads it: whose it is, the events it subscribes to,
 * and whether it receives them (core's `subscribesTo`). The endpoint's whole record, with its URL,
 * secrets and delivery settings, is `WebhookEndpointRecord` of `@hireport/webhooks`, which
 * extends this.
 */
export interface WebhookSubscription {
  /** `we_…` */
  id: string;
  companyId: string;
  /** Subscribed event kinds. */
  events: EventType[];
  status: WebhookEndpointStatus;
  /** Subscribed endpoints are listed newest first. */
  createdAt: Date;
}

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * The delivery of one event to one endpoint: the row the outbox's fan-out writes, pending, due at
 * once and held by no one (`fanOut`), and the one retention purges once finished. The webhook
 * dispatcher then claims it, leases it and records its attempts: `DeliveryRecord` of
 * `@hireport/webhooks` is this row as the webhook store keeps it.
 */
export interface EventDelivery {
  /** `dlv_…` */
  id: string;
  endpointId: string;
  companyId: string;
  eventId: string;
  eventType: AnyEventType;
  status: DeliveryStatus;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due (pending only). */
  nextAttemptAt: Date | null;
  /** Set while a dispatcher holds the delivery; another may claim it after this time. */
  leaseExpiresAt: Date | null;
  /** Random token of the claim that holds the lease, or null. */
  leaseToken: string | null;
  createdAt: Date;
  updatedAt: Date;
}
