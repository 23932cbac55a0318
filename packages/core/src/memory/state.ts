import type {
  ApiKeyRecord,
  AuditRecord,
  CompanyRecord,
  EventDelivery,
  EventRecord,
  JobRecord,
  NoteRecord,
  StageChangeRecord,
  StoredResponse,
  UsageRecord,
  WebhookSubscription,
} from "../model/domain";
import type { JobIndexNotice, NewApplication, UsageDayCount } from "../storage";

/** A rate-limit counter: one bucket of one window. */
export interface RateLimitCounter {
  key: string;
  count: number;
  resetAt: Date;
}

/** An `Idempotency-Key` record; `response` is null while the first request runs. */
export interface IdempotencyEntry {
  keyId: string;
  idempotencyKey: string;
  requestHash: string;
  createdAt: Date;
  expiresAt: Date;
  lockedUntil: Date;
  response: StoredResponse | null;
}

/** A job's change count and time (the job-indexing outbox). */
export interface JobIndexMarkRow {
  companyId: string;
  jobId: string;
  seq: number;
  changedAt: Date;
}

/**
 * A delivery attempt as core's memory stores read it: a purge deletes it with its delivery, erasure
 * redacts its answer. `@hireport/webhooks/memory` keeps whole `DeliveryAttemptRecord`s here.
 */
export interface StoredAttempt {
  id: string;
  deliveryId: string;
  endpointId: string;
  responseBody: string;
}

/**
 * Every table of the memory storage, each a map from primary key to a frozen record. The webhook
 * tables are typed by what core reads of them; `@hireport/webhooks/memory` writes whole records.
 */
export interface Tables {
  companies: Map<string, CompanyRecord>;
  /** Key: `${companyId}\u0000${kind}`. */
  sequences: Map<string, number>;
  keys: Map<string, ApiKeyRecord>;
  jobs: Map<string, JobRecord>;
  /** Stored without `jobTitle`: it is read from the job at read time. */
  applications: Map<string, NewApplication>;
  stageChanges: Map<string, StageChangeRecord>;
  notes: Map<string, NoteRecord>;
  events: Map<string, EventRecord>;
  /** Each event's feed position (GET /events), by event id: numbered as appended (one transaction at a time is commit order). */
  eventPositions: Map<string, { companyId: string; position: number }>;
  rateLimits: Map<string, RateLimitCounter>;
  usage: Map<string, UsageRecord>;
  /** The usage roll-up. Key: `${companyId}\u0000${day}\u0000${statusClass}`. */
  usageDaily: Map<string, UsageDayCount & { companyId: string }>;
  /** Key: `${keyId}\u0000${idempotencyKey}`. */
  idempotency: Map<string, IdempotencyEntry>;
  endpoints: Map<string, WebhookSubscription>;
  deliveries: Map<string, EventDelivery>;
  attempts: Map<string, StoredAttempt>;
  audit: Map<string, AuditRecord>;
  /** Key: `${companyId}\u0000${jobId}`. */
  jobIndexMarks: Map<string, JobIndexMarkRow>;
  /** Key: `${companyId}\u0000${jobId}\u0000${service}`. */
  jobIndexNotices: Map<string, JobIndexNotice>;
}

export type TableName = keyof Tables;

const TABLE_NAMES = [
  "companies",
  "sequences",
  "keys",
  "jobs",
  "applications",
  "stageChanges",
  "notes",
  "events",
  "eventPositions",
  "rateLimits",
  "usage",
  "usageDaily",
  "idempotency",
  "endpoints",
  "deliveries",
  "attempts",
  "audit",
  "jobIndexMarks",
  "jobIndexNotices",
] as const satisfies readonly TableName[];

type ReadonlyTables = { [K in TableName]: ReadonlyMap<MapKey<Tables[K]>, MapValue<Tables[K]>> };
type MapKey<M> = M extends Map<infer K, unknown> ? K : never;
type MapValue<M> = M extends Map<unknown, infer V> ? V : never;

/**
 * One version of the stored data. A fork shares the maps of its parent and copies a map the first
 * time it writes to it (copy on write), so a fork can be thrown away (rollback) or put in place of
 * its parent (commit) without touching the parent. Records in the maps are frozen and replaced,
 * never changed in place, so sharing them between versions is safe.
 */
export class MemoryState {
  readonly #tables: Tables;
  readonly #owned = new Set<TableName>();

  private constructor(tables: Tables, owned: boolean) {
    this.#tables = tables;
    if (owned) for (const name of TABLE_NAMES) this.#owned.add(name);
  }

  /** The names of every table. */
  static readonly tableNames: readonly TableName[] = TABLE_NAMES;

  /** An empty state. */
  static empty(): MemoryState {
    const tables = {} as Record<TableName, Map<string, unknown>>;
    for (const name of TABLE_NAMES) tables[name] = new Map();
    return new MemoryState(tables as unknown as Tables, true);
  }

  /** A new version on top of this one; this one is left as it is. */
  fork(): MemoryState {
    return new MemoryState({ ...this.#tables }, false);
  }

  /** A table to read. Do not keep it across a `write` of the same table. */
  read<K extends TableName>(name: K): ReadonlyTables[K] {
    return this.#tables[name] as unknown as ReadonlyTables[K];
  }

  /** A table to write, copied first if this version still shares it with its parent. */
  write<K extends TableName>(name: K): Tables[K] {
    if (!this.#owned.has(name)) {
      this.#tables[name] = new Map(this.#tables[name] as Map<string, never>) as unknown as Tables[K];
      this.#owned.add(name);
    }
    return this.#tables[name];
  }
}
