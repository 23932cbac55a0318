/**
 * The tables as the stores see them, without the table-name prefix (the stores add it at run
 * time, see `context.ts`). The migrations in `migrations.ts` are the source of truth for the
 * columns; these types follow them and are used by the stores only.
 *
 * Dates are `timestamptz(3)` on Postgres (read back as `Date`), `datetime(3)` on MySQL (read back
 * as text through `CAST(… AS CHAR)`), ISO 8601 text on SQLite. Booleans are `boolean` on Postgres
 * and 0/1 elsewhere. Arrays and objects are JSON text.
 */

import {
  APPLICATION_FIELDS,
  type ApplicationFieldColumns,
  CANDIDATE_FIELDS,
  type CandidateFieldColumns,
  JOB_FIELDS,
  type JobFieldColumns,
} from "@hireport/core/storage";
import type { Generated } from "kysely";

/** A stored date as the drivers return it. */
export type DbDate = Date | string;
/** A stored boolean as the drivers return it. */
export type DbBool = boolean | number;
/** A number as the drivers return it (Postgres `count` and `bigint` come back as text). */
export type DbNumber = number | string;

export interface CompanyTable {
  id: string;
  name: string;
  created_at: DbDate;
}

export interface SequenceTable {
  company_id: string;
  kind: string;
  value: DbNumber;
}

export interface ApiKeyTable {
  id: string;
  company_id: string;
  name: string;
  scopes: string;
  hash: string;
  prefix: string;
  suffix: string;
  created_at: DbDate;
  expires_at: DbDate | null;
  revoked_at: DbDate | null;
  last_used_at: DbDate | null;
}

/** A job row: the columns of the declared Job fields (`JOB_FIELDS` of core) and the ones the service keeps. */
export type JobTable = JobFieldColumns & {
  id: string;
  company_id: string;
  reference: string;
  status: string;
  hidden: DbBool;
  applications_count: DbNumber;
  created_at: DbDate;
  updated_at: DbDate;
  closed_at: DbDate | null;
  published_at: DbDate | null;
};

/**
 * An application row: the columns of the candidate's fields (`CANDIDATE_FIELDS` of core, the
 * `candidate_…` columns) and of the declared Application fields (`APPLICATION_FIELDS`), after the ids.
 */
export type ApplicationTable = CandidateFieldColumns &
  ApplicationFieldColumns & {
    id: string;
    company_id: string;
    job_id: string;
    reference: string;
  };

/** Stage changes, notes and audit entries share their actor columns. */
export interface ActorColumns {
  actor_type: string;
  actor_id: string | null;
  actor_name: string;
}

export interface StageChangeTable extends ActorColumns {
  /** Insertion order: rows of the same millisecond keep the order they were written in. */
  seq: Generated<DbNumber>;
  id: string;
  application_id: string;
  company_id: string;
  from_stage: string | null;
  to_stage: string;
  created_at: DbDate;
}

export interface NoteTable extends ActorColumns {
  seq: Generated<DbNumber>;
  id: string;
  application_id: string;
  company_id: string;
  body: string;
  created_at: DbDate;
}

export interface EventTable {
  id: string;
  company_id: string;
  type: string;
  payload: string;
  created_at: DbDate;
  /** The Job or Application the event carries (erasure finds an application's events by it). */
  subject_id: string | null;
  /**
   * Its place in the events feed (GET /events), given after its commit (`stores/event-feed.ts`);
   * every insert writes null (the Postgres routines too, from the event's JSON).
   */
  feed_position: DbNumber | null;
}

export interface RateLimitTable {
  bucket_key: string;
  hits: DbNumber;
  reset_at: DbDate;
}

export interface UsageTable {
  id: string;
  company_id: string | null;
  key_id: string | null;
  method: string;
  route: string;
  status: number;
  duration_ms: number;
  request_id: string;
  ip: string | null;
  created_at: DbDate;
}

/** The usage roll-up: requests per company, UTC day (`YYYY-MM-DD`) and status class, kept by `usage.appendMany`. */
export interface UsageDailyTable {
  company_id: string;
  day: string;
  status_class: DbNumber;
  requests: DbNumber;
}

export interface IdempotencyTable {
  key_id: string;
  idempotency_key: string;
  request_hash: string;
  /** `in_progress` or `completed`. */
  state: string;
  response_status: number | null;
  response_headers: string | null;
  response_body: string | null;
  created_at: DbDate;
  expires_at: DbDate;
  locked_until: DbDate;
}

export interface WebhookEndpointTable {
  id: string;
  company_id: string;
  url: string;
  description: string;
  events: string;
  status: string;
  paused_reason: string | null;
  signature_scheme: string;
  secrets: string;
  consecutive_failures: DbNumber;
  created_at: DbDate;
  updated_at: DbDate;
  ordered: DbBool;
  max_per_second: DbNumber | null;
  /** The start of the second `throttle_count` counts in; null before the first throttled claim. */
  throttle_window_at: DbDate | null;
  throttle_count: DbNumber;
}

export interface WebhookDeliveryTable {
  id: string;
  endpoint_id: string;
  company_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: DbNumber;
  next_attempt_at: DbDate | null;
  lease_expires_at: DbDate | null;
  lease_token: string | null;
  created_at: DbDate;
  updated_at: DbDate;
}

export interface WebhookAttemptTable {
  seq: Generated<DbNumber>;
  id: string;
  delivery_id: string;
  endpoint_id: string;
  attempted_at: DbDate;
  status_code: number | null;
  duration_ms: number;
  response_body: string;
  error: string | null;
  succeeded: DbBool;
}

/** The job-indexing outbox: a job's change count, written in the transaction of each change. */
export interface JobIndexMarkTable {
  company_id: string;
  job_id: string;
  seq: DbNumber;
  changed_at: DbDate;
}

/** Where the change detector is in one kind of record (`job`, `application`), and when its first pass ran. */
export interface ChangePositionTable {
  kind: string;
  started_at: DbDate;
  at: DbDate;
  last_id: string;
}

/** A search-engine service's last notice of a job, and the change count it covers. */
export interface JobIndexNoticeTable {
  company_id: string;
  job_id: string;
  service: string;
  seq: DbNumber;
  action: string | null;
  notified_at: DbDate | null;
  status: DbNumber | null;
  error: string | null;
  closes_at: DbDate | null;
}

/** The audit list: who changed what, when (no personal data). `details` is JSON text. */
export interface AuditTable extends ActorColumns {
  id: string;
  company_id: string;
  action: string;
  target_type: string;
  target_id: string | null;
  details: string;
  created_at: DbDate;
}

/** A file of the file store (`kyselyFileStore`): written after its last chunk, so a partial upload has none. */
export interface FileTable {
  id: string;
  company_id: string;
  filename: string;
  content_type: string;
  size: DbNumber;
  chunk_count: DbNumber;
  created_at: DbDate;
}

/** The bytes of a file, in chunks of at most 256 KiB, numbered from 0. */
export interface FileChunkTable {
  file_id: string;
  seq: DbNumber;
  data: Uint8Array;
}

/** Every hireport table, by its name without the prefix. */
export interface HireportDatabase {
  company: CompanyTable;
  sequence: SequenceTable;
  api_key: ApiKeyTable;
  job: JobTable;
  application: ApplicationTable;
  stage_change: StageChangeTable;
  note: NoteTable;
  event: EventTable;
  rate_limit: RateLimitTable;
  usage: UsageTable;
  usage_daily: UsageDailyTable;
  idempotency: IdempotencyTable;
  webhook_endpoint: WebhookEndpointTable;
  webhook_delivery: WebhookDeliveryTable;
  webhook_attempt: WebhookAttemptTable;
  audit: AuditTable;
  file: FileTable;
  file_chunk: FileChunkTable;
  job_index_mark: JobIndexMarkTable;
  job_index_notice: JobIndexNoticeTable;
  change_position: ChangePositionTable;
}

export type TableName = keyof HireportDatabase;

/** The table names, in the order the migrations create them. */
export const TABLE_NAMES = [
  "company",
  "sequence",
  "api_key",
  "job",
  "application",
  "stage_change",
  "note",
  "event",
  "rate_limit",
  "usage",
  "usage_daily",
  "idempotency",
  "webhook_endpoint",
  "webhook_delivery",
  "webhook_attempt",
  "audit",
  "file",
  "file_chunk",
  "job_index_mark",
  "job_index_notice",
  "change_position",
] as const satisfies readonly TableName[];

/** Columns holding dates, per table: MySQL reads them through `CAST(… AS CHAR)`. */
export const DATE_COLUMNS: { readonly [T in TableName]: readonly (keyof HireportDatabase[T] & string)[] } = {
  company: ["created_at"],
  sequence: [],
  api_key: ["created_at", "expires_at", "revoked_at", "last_used_at"],
  job: ["created_at", "updated_at", "closed_at", "published_at"],
  application: ["consent_at", "human_review_requested_at", "applied_at", "updated_at", "erased_at"],
  stage_change: ["created_at"],
  note: ["created_at"],
  event: ["created_at"],
  rate_limit: ["reset_at"],
  usage: ["created_at"],
  usage_daily: [],
  idempotency: ["created_at", "expires_at", "locked_until"],
  webhook_endpoint: ["created_at", "updated_at", "throttle_window_at"],
  webhook_delivery: ["next_attempt_at", "lease_expires_at", "created_at", "updated_at"],
  webhook_attempt: ["attempted_at"],
  audit: ["created_at"],
  file: ["created_at"],
  file_chunk: [],
  job_index_mark: ["changed_at"],
  change_position: ["started_at", "at"],
  job_index_notice: ["notified_at", "closes_at"],
};

/**
 * Every column, per table, in migration order (a job's and an application's declared fields in
 * their declaration order, the candidate's before the application's: a candidate field added later
 * is listed with them, whatever its place in the table).
 */
export const COLUMNS: { readonly [T in TableName]: readonly (keyof HireportDatabase[T] & string)[] } = {
  company: ["id", "name", "created_at"],
  sequence: ["company_id", "kind", "value"],
  api_key: [
    "id",
    "company_id",
    "name",
    "scopes",
    "hash",
    "prefix",
    "suffix",
    "created_at",
    "expires_at",
    "revoked_at",
    "last_used_at",
  ],
  job: [
    "id",
    "company_id",
    "reference",
    ...Object.values(JOB_FIELDS).map((spec) => spec.column as keyof JobFieldColumns),
    "status",
    "hidden",
    "applications_count",
    "created_at",
    "updated_at",
    "closed_at",
    "published_at",
  ],
  application: [
    "id",
    "company_id",
    "job_id",
    "reference",
    ...Object.values(CANDIDATE_FIELDS).map((spec) => spec.column as keyof CandidateFieldColumns),
    ...Object.values(APPLICATION_FIELDS).map((spec) => spec.column as keyof ApplicationFieldColumns),
  ],
  stage_change: [
    "seq",
    "id",
    "application_id",
    "company_id",
    "from_stage",
    "to_stage",
    "actor_type",
    "actor_id",
    "actor_name",
    "created_at",
  ],
  note: ["seq", "id", "application_id", "company_id", "body", "actor_type", "actor_id", "actor_name", "created_at"],
  event: ["id", "company_id", "type", "payload", "created_at", "subject_id", "feed_position"],
  rate_limit: ["bucket_key", "hits", "reset_at"],
  usage: ["id", "company_id", "key_id", "method", "route", "status", "duration_ms", "request_id", "ip", "created_at"],
  usage_daily: ["company_id", "day", "status_class", "requests"],
  idempotency: [
    "key_id",
    "idempotency_key",
    "request_hash",
    "state",
    "response_status",
    "response_headers",
    "response_body",
    "created_at",
    "expires_at",
    "locked_until",
  ],
  webhook_endpoint: [
    "id",
    "company_id",
    "url",
    "description",
    "events",
    "status",
    "paused_reason",
    "signature_scheme",
    "secrets",
    "consecutive_failures",
    "created_at",
    "updated_at",
    "ordered",
    "max_per_second",
    "throttle_window_at",
    "throttle_count",
  ],
  webhook_delivery: [
    "id",
    "endpoint_id",
    "company_id",
    "event_id",
    "event_type",
    "status",
    "attempts",
    "next_attempt_at",
    "lease_expires_at",
    "lease_token",
    "created_at",
    "updated_at",
  ],
  webhook_attempt: [
    "seq",
    "id",
    "delivery_id",
    "endpoint_id",
    "attempted_at",
    "status_code",
    "duration_ms",
    "response_body",
    "error",
    "succeeded",
  ],
  audit: [
    "id",
    "company_id",
    "actor_type",
    "actor_id",
    "actor_name",
    "action",
    "target_type",
    "target_id",
    "details",
    "created_at",
  ],
  file: ["id", "company_id", "filename", "content_type", "size", "chunk_count", "created_at"],
  file_chunk: ["file_id", "seq", "data"],
  job_index_mark: ["company_id", "job_id", "seq", "changed_at"],
  job_index_notice: ["company_id", "job_id", "service", "seq", "action", "notified_at", "status", "error", "closes_at"],
  change_position: ["kind", "started_at", "at", "last_id"],
};
