/**
 * The storage contract. `@hireport/core` never talks to a database: it calls these interfaces.
 * `@hireport/kysely` implements them on SQLite, Postgres and MySQL/MariaDB; `@hireport/core/memory`
 * implements them in memory for tests; a host may implement them over its own tables and prove it
 * with the conformance suite of `@hireport/core/testing`.
 *
 * Rules written MUST are checked by that suite. Unless a method says otherwise:
 * - every method that takes a `companyId` MUST scope reads and writes to it: a record of another
 *   company is treated exactly like a missing one (methods keyed by a globally unique id alone,
 *   such as `events.get`, `keys.touch` or `webhooks.recordAttempt`, serve the dispatcher and hosts);
 * - ids compare in binary (code-unit) order wherever they break ties, whatever the collation;
 * - times compare as instants: a key is expired when `expiresAt <= now`, a window has ended when
 *   `resetAt <= now`, a lock or a record has passed when its time `<= now`;
 * - batch methods (`appendMany`, `insertDeliveries`) MUST accept an empty list;
 * - `Date` values MUST round-trip with millisecond precision, in UTC, on every database;
 * - arrays of strings MUST round-trip exactly (order, duplicates, non-ASCII text);
 * - methods called on the `tx` of {@link Storage.transaction} MUST run inside that transaction.
 */
import type {
  ApiKeyRecord,
  ApiKeyWithCompany,
  ApplicationRecord,
  ApplicationStage,
  ClaimedDelivery,
  CompanyRecord,
  DeliveryAttemptRecord,
  DeliveryRecord,
  DeliveryStatus,
  EventRecord,
  EventType,
  JobFields,
  JobRecord,
  JobStatus,
  NoteRecord,
  StageChangeRecord,
  StoredResponse,
  UsageRecord,
  WebhookEndpointRecord,
} from "./domain";

/** A keyset position: rows strictly after it in the list's order (newest first). */
export interface KeysetPosition {
  /** The sort time of the last row of the previous page (`createdAt` for jobs, `appliedAt` for applications). */
  at: Date;
  /** The id of that row: ties on time are broken by id, descending. */
  id: string;
}

export interface JobListQuery {
  companyId: string;
  /** Only these statuses; undefined means every status, an empty array matches nothing. */
  statuses?: readonly JobStatus[];
  /** Only jobs with `updatedAt >= updatedSince`. */
  updatedSince?: Date;
  after?: KeysetPosition;
  /** How many rows to return at most. Core asks for one more than the page size to learn `has_more`. */
  take: number;
}

export interface ApplicationListQuery {
  companyId: string;
  jobId?: string;
  stage?: ApplicationStage;
  /** Only applications with `updatedAt >= updatedSince`. */
  updatedSince?: Date;
  after?: KeysetPosition;
  take: number;
}

export interface UsageListQuery {
  companyId: string;
  keyId?: string;
  /** Only entries with `createdAt >= since`. */
  since?: Date;
  /** Entries strictly older than this position (`at` is `createdAt`). */
  after?: KeysetPosition;
  take: number;
}

export interface CompanyStore {
  /** MUST insert the company, or change the name of an existing one keeping its `createdAt`. */
  upsert(company: CompanyRecord): Promise<CompanyRecord>;
  get(id: string): Promise<CompanyRecord | null>;
  /**
   * The next number of a per-company sequence (`job`, `application`), starting at 1.
   * MUST never hand out the same number twice for a company and kind, also under concurrent calls
   * from several processes; inside a transaction, a rolled-back number MAY be reused. Core calls it
   * on the storage, before the change's transaction, so that the counter is not held until that
   * transaction commits: numbers of changes that fail are skipped, never reused.
   */
  nextSequence(companyId: string, kind: "job" | "application"): Promise<number>;
}

export interface KeyInsertOptions {
  /** Active keys allowed per company (not revoked, not expired at `now`). */
  maxActive: number;
  now: Date;
}

/** A rate-limit window of the key being looked up: its bucket is `key.id + suffix`. */
export interface KeyRateWindow {
  /** Appended to the key's id to name the bucket, for example `:m:29012345`. */
  suffix: string;
  limit: number;
  /** When the window ends. */
  resetAt: Date;
}

/** What {@link KeyStore.findByHashAndConsume} answers. */
export interface KeyWithCounts {
  /** As `findByHash`: the key and its company, or null. */
  found: ApiKeyWithCompany | null;
  /** The counts after this request, one per window, when it was counted; null when nothing was. */
  counts: number[] | null;
}

export interface KeyStore {
  /**
   * MUST insert the key only while the company has fewer than `maxActive` active keys, and MUST
   * keep that true when several inserts for one company run at once (lock the company's row or
   * equivalent). Returns `"limit_reached"` without inserting otherwise.
   */
  insert(record: ApiKeyRecord, options: KeyInsertOptions): Promise<"inserted" | "limit_reached">;
  /** The key with this hash and its company, revoked and expired keys included; null if none. */
  findByHash(hash: string): Promise<ApiKeyWithCompany | null>;
  /**
   * Optional: the key lookup and the rate-limit count of a request in one step (one round trip
   * on Postgres). Core uses it when present; without it, core calls `findByHash` and then
   * `rateLimits.consume`, with the same results.
   *
   * MUST return as `found` what `findByHash(hash)` returns. MUST count, with the rules of
   * `rateLimits.consume` (all buckets or none, atomic across calls and processes), the buckets
   * `found.key.id + window.suffix` only when the key exists, is not revoked and is not expired at
   * `now`, and every bucket is below its limit; it then returns the counts after this request,
   * in the order of `windows`. In every other case (unknown, revoked or expired key, a bucket at
   * its limit) it MUST change no counter and return `counts: null`: core then answers 401 itself,
   * or calls `rateLimits.consume`, which decides. It MAY also return `counts: null`, counting
   * nothing, when a bucket has no counter yet (the first request of a window), leaving its creation
   * to `consume`. Concurrent calls MUST each be counted at most once, as if made one at a time.
   */
  findByHashAndConsume?(hash: string, windows: readonly KeyRateWindow[], now: Date): Promise<KeyWithCounts>;
  get(companyId: string, id: string): Promise<ApiKeyRecord | null>;
  /** Every key of the company, revoked ones included, newest first. */
  list(companyId: string): Promise<ApiKeyRecord[]>;
  /**
   * MUST set `revokedAt` if it is null (a second revoke keeps the first time) and return the key;
   * null when the company has no such key. Effective for the very next `findByHash`.
   */
  revoke(companyId: string, id: string, at: Date): Promise<ApiKeyRecord | null>;
  /** Sets `lastUsedAt`. Best effort: core calls it at most about once a minute per key. */
  touch(id: string, at: Date): Promise<void>;
}

/** Columns of a job that a change may set. `applicationsCount` is never among them. */
export type JobPatch = Partial<JobFields> & {
  status?: JobStatus;
  hidden?: boolean;
  closedAt?: Date | null;
  updatedAt: Date;
};

export interface GetOptions {
  /**
   * Lock the row until the transaction ends (`FOR UPDATE` where the database has it), so that two
   * concurrent changes of one record run one after the other. Only meaningful inside a transaction.
   */
  lock?: boolean;
}

export interface JobStore {
  /** MUST store every field of the record, `applicationsCount` included. */
  insert(record: JobRecord): Promise<void>;
  get(companyId: string, id: string, options?: GetOptions): Promise<JobRecord | null>;
  /**
   * MUST write only the columns present in `patch` and return the whole record after the change;
   * null when the company has no such job.
   */
  update(companyId: string, id: string, patch: JobPatch): Promise<JobRecord | null>;
  /**
   * MUST return at most `take` jobs matching the query, ordered by `createdAt` descending then `id`
   * descending, strictly after `after` in that order. MUST NOT use OFFSET; the cost of a page MUST
   * not grow with its depth.
   */
  list(query: JobListQuery): Promise<JobRecord[]>;
}

/** An application to insert: `jobTitle` is read from the job, never stored. */
export type NewApplication = Omit<ApplicationRecord, "jobTitle">;

export type ApplicationPatch = {
  stage?: ApplicationStage;
  tags?: string[];
  starred?: boolean;
  overallScore?: number | null;
  updatedAt: Date;
};

export type InsertApplicationResult =
  | {
      inserted: true;
      /**
       * The job's title, read in the insert's transaction (as `get` would join it). Optional: when
       * given, core builds the stored application from what it inserted instead of reading it back.
       */
      jobTitle?: string;
      /**
       * True when the storage stored `options.initialStageChange` with the application (optional:
       * core adds it with `addStageChange` otherwise).
       */
      stageChangeStored?: boolean;
    }
  | { inserted: false; existingId: string };

export interface InsertApplicationOptions {
  /** Applications of the same job and e-mail at or after this time are duplicates. */
  duplicateSince: Date;
  /**
   * The application's first stage-history entry, which core records right after the insert.
   * Optional to honour: a storage that stores it with the application (only when the application
   * is inserted, exactly as `addStageChange` would) says so with `stageChangeStored: true`, and
   * saves a round trip.
   */
  initialStageChange?: StageChangeRecord;
}

/** What {@link ApplicationStore.insertWithEvent} writes: the whole of one new application. */
export interface InsertWithEventInput {
  record: NewApplication;
  /** Applications of the same job and e-mail at or after this time are duplicates. */
  duplicateSince: Date;
  /** The application's first stage-history entry, stored exactly as `addStageChange` would. */
  initialStageChange: StageChangeRecord;
  /** `application.created`, stored exactly as `events.append` would. */
  event: EventRecord;
  /**
   * The job's title as core read it before the call, and as the event's payload says it. The job's
   * row, once locked, MUST still have this title (and belong to `record.companyId`): otherwise the
   * storage MUST write nothing and return `job_changed`.
   */
  jobTitle: string;
}

export type InsertWithEventResult =
  | { outcome: "inserted" }
  | { outcome: "duplicate"; existingId: string }
  /** The job is gone, or its title is no longer `jobTitle`: nothing was written. */
  | { outcome: "job_changed" };

export interface ApplicationStore {
  /**
   * The duplicate rule of spec 4.8. MUST refuse (returning the id of the earlier application) when
   * the company already has an application for the same `jobId` and `emailNormalized` with
   * `appliedAt >= duplicateSince`, whatever its stage; otherwise MUST insert it and add 1 to the
   * job's `applicationsCount` in the same transaction. When two identical inserts run at once, in
   * one process or several, exactly one MUST be inserted. Core checks that the job exists first;
   * an insert for a missing job MAY throw.
   */
  insertUnlessDuplicate(record: NewApplication, options: InsertApplicationOptions): Promise<InsertApplicationResult>;
  /**
   * Optional: all that POST /applications writes, in one atomic call (`@hireport/kysely` makes it
   * one statement on Postgres, with no `BEGIN` and `COMMIT` round trips). When present, core calls
   * it on the storage (never on a `tx`) instead of a transaction of `insertUnlessDuplicate`,
   * `addStageChange`, `events.append` and `webhooks.insertDeliveries`. It MUST, all or nothing:
   * lock the job's row and check `input.jobTitle` against it; apply the duplicate rule of
   * `insertUnlessDuplicate` (concurrent identical calls included); insert the application, add 1
   * to the job's `applicationsCount`, store `initialStageChange` and `event`; and add one pending
   * delivery of the event per endpoint that `webhooks.listSubscribedEndpoints(companyId, event.type)`
   * returns at that moment, with a new unique id starting `dlv_`, `attempts` 0, no lease, and
   * `nextAttemptAt`, `createdAt` and `updatedAt` equal to `event.createdAt`.
   */
  insertWithEvent?(input: InsertWithEventInput): Promise<InsertWithEventResult>;
  get(companyId: string, id: string, options?: GetOptions): Promise<ApplicationRecord | null>;
  /** MUST write only the columns present and return the record after the change; null if none. */
  update(companyId: string, id: string, patch: ApplicationPatch): Promise<ApplicationRecord | null>;
  /**
   * MUST return at most `take` applications matching the query, ordered by `appliedAt` descending
   * then `id` descending, strictly after `after`. No OFFSET; no query per row (`jobTitle` joined).
   */
  list(query: ApplicationListQuery): Promise<ApplicationRecord[]>;
  addStageChange(record: StageChangeRecord): Promise<void>;
  /** Oldest first. */
  listStageChanges(companyId: string, applicationId: string): Promise<StageChangeRecord[]>;
  addNote(record: NoteRecord): Promise<void>;
  /** Oldest first. */
  listNotes(companyId: string, applicationId: string): Promise<NoteRecord[]>;
}

export interface EventStore {
  /** The outbox. Called inside the transaction of the change it reports. */
  append(event: EventRecord): Promise<void>;
  /**
   * Optional: `append(event)`, then `webhooks.listSubscribedEndpoints(event.companyId, event.type)`
   * in the same transaction, in one call (`@hireport/kysely` makes it one statement on Postgres).
   * MUST store the event exactly as `append` does and return exactly what that list returns.
   * Core uses it, when present, to write each event of a change.
   */
  appendAndListSubscribers?(event: EventRecord): Promise<WebhookEndpointRecord[]>;
  get(id: string): Promise<EventRecord | null>;
  /** Events of a company, newest first (for hosts and tests). */
  list(companyId: string, options: { after?: KeysetPosition; take: number }): Promise<EventRecord[]>;
  /**
   * MUST delete events created before `before` whose deliveries are all finished (so a foreign key
   * from deliveries to events needs `ON DELETE SET NULL`, or none). Returns how many.
   */
  purge(before: Date): Promise<number>;
}

export interface RateLimitBucket {
  /** Identifies the counter and its window, for example `key_123:minute:29012345`. */
  key: string;
  limit: number;
  /** When the window ends; the counter MAY be deleted after that. */
  resetAt: Date;
}

export interface RateLimitResult {
  allowed: boolean;
  /** Per bucket, in order: the count after this request if allowed, else the current count. */
  counts: number[];
  /** Index of the first bucket that was at its limit, or null when allowed. */
  refusedBucket: number | null;
}

export interface RateLimitStore {
  /**
   * MUST add one to every bucket when all are below their limit, and change nothing otherwise
   * (a refused request does not count). MUST be atomic across concurrent calls and processes:
   * N parallel calls against a limit L admit exactly min(N, L).
   */
  consume(buckets: readonly RateLimitBucket[], now: Date): Promise<RateLimitResult>;
  /** Deletes counters whose window ended before `now`. Returns how many. */
  purgeExpired(now: Date): Promise<number>;
}

export interface UsageStore {
  /** MUST store every entry (core batches them). */
  appendMany(entries: readonly UsageRecord[]): Promise<void>;
  /** Newest first (`createdAt` then `id`, descending). */
  list(query: UsageListQuery): Promise<UsageRecord[]>;
  purge(before: Date): Promise<number>;
}

export type IdempotencyClaim =
  | { state: "claimed" }
  | { state: "in_progress"; requestHash: string }
  | { state: "completed"; requestHash: string; response: StoredResponse };

export interface IdempotencyClaimInput {
  keyId: string;
  idempotencyKey: string;
  /** Hash of method, path and body: the same key with another request is refused by core. */
  requestHash: string;
  now: Date;
  /** When a completed record may be forgotten (24 h after the first request). */
  expiresAt: Date;
  /** When an unfinished claim may be taken over by a retry (the first request died). */
  lockedUntil: Date;
}

export interface IdempotencyStore {
  /**
   * MUST, atomically: claim the key when no record exists or the record expired, or when it is
   * unfinished and `lockedUntil` has passed; otherwise return its state. Two concurrent claims of
   * one key MUST NOT both get `"claimed"`. `release` keeps a completed record.
   */
  claim(input: IdempotencyClaimInput): Promise<IdempotencyClaim>;
  /** Stores the answer of a claimed key. */
  complete(keyId: string, idempotencyKey: string, response: StoredResponse): Promise<void>;
  /** Forgets an unfinished claim (the request failed with a 5xx), so that a retry runs again. */
  release(keyId: string, idempotencyKey: string): Promise<void>;
  purgeExpired(now: Date): Promise<number>;
}

export interface EndpointPatch {
  url?: string;
  description?: string;
  events?: EventType[];
  status?: "active" | "paused";
  pausedReason?: "failures" | "manual" | null;
  secrets?: WebhookEndpointRecord["secrets"];
  consecutiveFailures?: number;
  updatedAt: Date;
}

export interface DeliveryListQuery {
  /** The company of the endpoint: another company's endpoint lists nothing. */
  companyId: string;
  endpointId: string;
  status?: DeliveryStatus;
  /** `at` is `createdAt`. */
  after?: KeysetPosition;
  take: number;
}

export interface ClaimOptions {
  now: Date;
  /** Most deliveries to return. */
  limit: number;
  /** The lease each claimed delivery gets; another dispatcher may claim it once it has passed. */
  leaseUntil: Date;
  /** A new random token per claim, written to every claimed delivery. */
  leaseToken: string;
  /** Deliveries of endpoints to leave out (they are at their concurrency limit in this dispatcher). */
  excludeEndpointIds?: readonly string[];
  /**
   * Most deliveries of any one endpoint to return from this call (the dispatcher passes its free
   * slots per endpoint), so that one claim never over-fills one endpoint. A limit per call: what
   * this or another dispatcher already holds does not count. Undefined: no limit per endpoint.
   */
  maxPerEndpoint?: number;
}

export interface AttemptOutcome {
  attempt: DeliveryAttemptRecord;
  /** The delivery's state after the attempt. */
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  /** `reset` after a success, `increment` after a failure, `none` for test sends. */
  failureCount: "reset" | "increment" | "none";
  /** Pause the endpoint when its consecutive failures reach this number. */
  pauseAfter: number;
}

/** One attempt for {@link WebhookStore.recordAttempts}: the arguments of `recordAttempt`. */
export interface AttemptToRecord {
  deliveryId: string;
  leaseToken: string;
  outcome: AttemptOutcome;
}

/** What {@link WebhookStore.recordAttempt} did. */
export interface RecordAttemptResult {
  /** False when the caller no longer held the lease: nothing was written. */
  recorded: boolean;
  /** The endpoint after the change (for a stale token: as it is, or null when it was deleted). */
  endpoint: WebhookEndpointRecord | null;
  /**
   * True when this attempt paused the endpoint (it was active and its failure count reached
   * `pauseAfter`); false otherwise, also when it was paused already. At most one attempt gets true
   * per pause, also when several are recorded at once.
   */
  paused: boolean;
}

export interface WebhookStore {
  insertEndpoint(record: WebhookEndpointRecord): Promise<void>;
  getEndpoint(companyId: string, id: string): Promise<WebhookEndpointRecord | null>;
  /** Newest first. */
  listEndpoints(companyId: string): Promise<WebhookEndpointRecord[]>;
  updateEndpoint(companyId: string, id: string, patch: EndpointPatch): Promise<WebhookEndpointRecord | null>;
  /** MUST delete the endpoint with its deliveries and attempts. */
  deleteEndpoint(companyId: string, id: string): Promise<boolean>;
  /** Active and paused endpoints of the company subscribed to `type` (paused ones queue events), newest first. */
  listSubscribedEndpoints(companyId: string, type: EventType): Promise<WebhookEndpointRecord[]>;
  /**
   * Called in the transaction of the event: one pending delivery per subscribed endpoint. MUST
   * store every field as given, the lease fields included: a delivery inserted with a
   * `leaseToken` and a `leaseExpiresAt` is held under that token (no claim returns it before the
   * lease passes, and `recordAttempt` and `releaseDeliveries` accept the token), as `sendTest` needs.
   */
  insertDeliveries(records: readonly DeliveryRecord[]): Promise<void>;
  /**
   * MUST return pending deliveries due at `now` (`nextAttemptAt <= now`) of active endpoints whose
   * lease is empty or has passed, by `nextAttemptAt` then `createdAt` ascending, and set their
   * lease (`leaseToken`, `leaseExpiresAt: leaseUntil`). Two concurrent claims MUST NOT return the
   * same delivery (`FOR UPDATE SKIP LOCKED` or a compare-and-set on the lease). MUST return at most
   * `limit` deliveries and, when `maxPerEndpoint` is given, at most that many of any one endpoint
   * (per call, whatever other claims run at the same time); the deliveries of an endpoint left out
   * for that reason MUST NOT be leased, and the claim goes on with other endpoints' deliveries.
   * A claim MAY return fewer than it could while other claims hold rows.
   */
  claimDueDeliveries(options: ClaimOptions): Promise<ClaimedDelivery[]>;
  /**
   * Gives deliveries back without an attempt: MUST clear the lease (`leaseToken` and
   * `leaseExpiresAt` become null) of those of `deliveryIds` still held under `leaseToken`, so that
   * the next claim may return them at once, and MUST leave every other field as it was (they stay
   * pending and due as they were). Deliveries held under another token, finished or missing ones
   * are left alone. Returns how many were released. MUST accept an empty list.
   */
  releaseDeliveries(deliveryIds: readonly string[], leaseToken: string): Promise<number>;
  /**
   * Records an attempt and moves the delivery to its next state, clearing the lease, only while the
   * caller still holds the lease (`leaseToken` matches); returns `recorded: false` otherwise
   * (nothing written). When recorded: MUST store the attempt, MUST add 1 to the delivery's
   * `attempts`, MUST set its `status` and `nextAttemptAt` from `outcome`, and MUST update the
   * endpoint's failure count (`increment`: + 1, `reset`: 0, `none`: unchanged), pausing it
   * (`status: "paused"`, `pausedReason: "failures"`) when an increment makes the count reach
   * `pauseAfter` while it is active, all in one transaction. The delivery's and the endpoint's
   * `updatedAt` become `attempt.attemptedAt`. See {@link RecordAttemptResult} for what it returns.
   */
  recordAttempt(deliveryId: string, leaseToken: string, outcome: AttemptOutcome): Promise<RecordAttemptResult>;
  /**
   * Records several attempts at once (the dispatcher flushes finished attempts in small batches).
   * MUST have, for every item, exactly the effects and the result {@link recordAttempt} would have
   * if the items were recorded one after another in the order given, and MUST return one result
   * per item in that order (`endpoint` as that item left it). MUST write all of them in one transaction: all commit or none (it
   * rejects then). An item whose lease is no longer held gets `recorded: false` and writes nothing,
   * without affecting the others; a delivery given twice is recorded once (the later items of it
   * get `recorded: false`, its lease having been cleared by the first). Failure counts follow the
   * order of the items, so a batch that takes an endpoint to `pauseAfter` pauses it once and
   * exactly one item gets `paused: true`. SHOULD use a few statements for the whole batch rather
   * than a few per item. MUST accept an empty list.
   */
  recordAttempts(items: readonly AttemptToRecord[]): Promise<RecordAttemptResult[]>;
  getDelivery(companyId: string, id: string): Promise<DeliveryRecord | null>;
  /** An endpoint's deliveries, newest first (`createdAt`, then id). MUST be scoped to `companyId`. */
  listDeliveries(query: DeliveryListQuery): Promise<DeliveryRecord[]>;
  /** A delivery's attempts, oldest first. MUST be scoped to the company: another company's delivery has none. */
  listAttempts(companyId: string, deliveryId: string): Promise<DeliveryAttemptRecord[]>;
  /**
   * Makes a delivery pending again, due at `now`, whatever its state; keeps `attempts`. MUST clear
   * the lease (`leaseToken` and `leaseExpiresAt` null): a dispatcher still sending it can no longer
   * record its attempt, and the next claim returns it.
   */
  resendDelivery(companyId: string, id: string, now: Date): Promise<DeliveryRecord | null>;
  /** Deletes finished deliveries and their attempts created before `before`. Returns how many. */
  purgeDeliveries(before: Date): Promise<number>;
}

/** The stores, as seen outside and inside a transaction. */
export interface StorageStores {
  companies: CompanyStore;
  keys: KeyStore;
  jobs: JobStore;
  applications: ApplicationStore;
  events: EventStore;
  rateLimits: RateLimitStore;
  usage: UsageStore;
  idempotency: IdempotencyStore;
  webhooks: WebhookStore;
}

export interface Storage extends StorageStores {
  /**
   * Runs `fn` in one transaction. Everything done through `tx` MUST commit together when `fn`
   * resolves, and MUST roll back entirely when it rejects (the error is rethrown unchanged).
   * Inside `fn`, use only `tx`: calling the storage itself may wait for the transaction forever.
   */
  transaction<T>(fn: (tx: StorageStores) => Promise<T>): Promise<T>;
}
