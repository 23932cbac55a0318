/**
 * The webhook store: endpoints, deliveries, attempts, the dispatcher's claims and leases, recovery,
 * purge and stats. `@hireport/kysely` implements it on its tables, `@hireport/webhooks/memory` in
 * memory; a host may implement it over its own tables and prove it with the conformance suite of
 * `@hireport/webhooks/testing`. It extends core's `EventDeliveryStore` (the outbox's fan-out and
 * retention's purge, on core's `WebhookSubscription` and `EventDelivery`, which the records of
 * `webhook-records.ts` extend), which a storage implements over the same tables. The rules of core's storage
 * contract (`Storage` of `@hireport/core`: company scoping, binary id order, times as instants,
 * `Date` round trips) hold here too.
 */
import type { EventType } from "@hireport/core";
import type { DeliveryStatus, WebhookEndpointStatus } from "@hireport/core/schemas";
import type { EventDeliveryStore, KeysetPosition } from "@hireport/core/storage";
import type { AttemptStatsBucket, AttemptStatsQuery } from "./attempt-stats";
import type {
  ClaimedDelivery,
  DeliveryAttemptRecord,
  DeliveryRecord,
  WebhookEndpointRecord,
  WebhookSecret,
  WebhookStopReason,
} from "./webhook-records";

export interface EndpointPatch {
  url?: string;
  description?: string;
  events?: EventType[];
  status?: WebhookEndpointStatus;
  pausedReason?: WebhookStopReason | null;
  signatureScheme?: WebhookEndpointRecord["signatureScheme"];
  ordered?: boolean;
  maxPerSecond?: number | null;
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
   * Most deliveries of any one endpoint to return from this call (the dispatcher passes what it may
   * hold of one endpoint: its slots per endpoint, and its share of `prefetch` when it claims ahead),
   * so that one claim never over-fills one endpoint. A limit per call: what this or another
   * dispatcher already holds does not count. Undefined: no limit per endpoint.
   */
  maxPerEndpoint?: number;
}

/**
 * A change of the endpoint's status that an attempt makes when its conditions hold on the endpoint
 * (as the attempt's failure count change, and the changes before it, left it).
 */
export interface EndpointStatusChange {
  status: WebhookEndpointStatus;
  pausedReason: WebhookStopReason | null;
  /** Applies only while the endpoint's status is one of these. */
  whenStatusIn: readonly WebhookEndpointStatus[];
  /** Applies only when the endpoint's failure count is at least this. @default no condition on the count */
  whenFailuresAtLeast?: number;
}

/**
 * What an attempt does to its endpoint: a conditional update the dispatcher decides
 * (`endpointUpdate` of `@hireport/webhooks`: when to pause, when to disable) and the store applies
 * on the endpoint's row in the attempt's transaction. The store holds no rule of its own.
 */
export interface EndpointUpdate {
  /** `reset` after a success (to 0), `increment` after a failure (+ 1), `none` for test sends. */
  failureCount: "reset" | "increment" | "none";
  /** Tried in order after the count change. */
  statusChanges: readonly EndpointStatusChange[];
}

export interface AttemptOutcome {
  attempt: DeliveryAttemptRecord;
  /** The delivery's state after the attempt. */
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  /** What the attempt does to its endpoint. */
  endpoint: EndpointUpdate;
}

/** What {@link WebhookStore.recoverFailedDeliveries} picks: failed deliveries of one endpoint. */
export interface RecoverQuery {
  /** The company of the endpoint: another company's deliveries are never touched. */
  companyId: string;
  endpointId: string;
  /** Only deliveries with `createdAt >= since`. */
  since: Date;
  /** Only deliveries strictly after this position in oldest-first order (`createdAt`, then `id`, ascending). */
  after?: KeysetPosition;
  /** The time they become due at (and their `updatedAt`). */
  now: Date;
  /** Most deliveries to recover in this call. */
  limit: number;
}

/** What {@link WebhookStore.dueDeliveryStats} measures. */
export interface DueDeliveryStatsQuery {
  now: Date;
  /** Count at most this many: the count stops there, so that a large backlog stays a cheap read. */
  countLimit: number;
}

/** The dispatcher's queue as a health check sees it. */
export interface DueDeliveryStats {
  /** The deliveries a claim at `now` could return (see {@link WebhookStore.dueDeliveryStats}), at most `countLimit`. */
  due: number;
  /** The `nextAttemptAt` of the one due longest; null when none is due. */
  oldestDueAt: Date | null;
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
   * True when this attempt moved the endpoint's status to `paused` (it was not paused before the
   * attempt and is after it); false otherwise, also when it was paused already. At most one attempt
   * gets true per pause, also when several are recorded at once.
   */
  paused: boolean;
  /**
   * True when this attempt moved the endpoint's status to `disabled`; at most one attempt gets true
   * per disabling, also when several are recorded at once.
   */
  disabled: boolean;
}

export interface WebhookStore extends EventDeliveryStore {
  insertEndpoint(record: WebhookEndpointRecord): Promise<void>;
  getEndpoint(companyId: string, id: string): Promise<WebhookEndpointRecord | null>;
  /** Newest first. */
  listEndpoints(companyId: string): Promise<WebhookEndpointRecord[]>;
  updateEndpoint(companyId: string, id: string, patch: EndpointPatch): Promise<WebhookEndpointRecord | null>;
  /**
   * Every company's endpoints, for host-wide upkeep (re-encrypting their secrets): those whose id
   * is greater than `afterId` (all when null), by id ascending in binary order, at most `limit`.
   */
  listEndpointsAfter(afterId: string | null, limit: number): Promise<WebhookEndpointRecord[]>;
  /**
   * Replaces the endpoint's secrets with `secrets` only while they are still exactly `expected`
   * (the same strings and expiry times, in the same order), in one statement or transaction: a
   * compare-and-set, so that a rotation made meanwhile is never overwritten. MUST leave every
   * other field, `updatedAt` included, as it was. Returns whether it wrote; another company's
   * endpoint is never written.
   */
  replaceEndpointSecrets(
    companyId: string,
    id: string,
    expected: readonly WebhookSecret[],
    secrets: readonly WebhookSecret[],
  ): Promise<boolean>;
  /** MUST delete the endpoint with its deliveries and attempts. */
  deleteEndpoint(companyId: string, id: string): Promise<boolean>;
  /**
   * MUST return pending deliveries due at `now` (`nextAttemptAt <= now`) of active endpoints whose
   * lease is empty or has passed, by `nextAttemptAt` then `createdAt` ascending, and set their
   * lease (`leaseToken`, `leaseExpiresAt: leaseUntil`). Two concurrent claims MUST NOT return the
   * same delivery (`FOR UPDATE SKIP LOCKED` or a compare-and-set on the lease). MUST return at most
   * `limit` deliveries and, when `maxPerEndpoint` is given, at most that many of any one endpoint
   * (per call, whatever other claims run at the same time); the deliveries of an endpoint left out
   * for that reason MUST NOT be leased, and the claim goes on with other endpoints' deliveries.
   * A claim MAY return fewer than it could while other claims hold rows.
   *
   * Ordered endpoints (`ordered` true): a claim MUST return, of such an endpoint, only its head, the
   * oldest of its pending deliveries (`createdAt`, then `id`, ascending) whether due or not, and
   * only while the head is due and unleased and no other pending delivery of the endpoint holds a
   * lease that has not passed; so at most one per call, and none while a retry of the head waits.
   * Two concurrent claims MUST NOT both return a delivery of one ordered endpoint (serialize them
   * on the endpoint, e.g. a lock on its row that the other claim skips): with the lease check, no
   * two deliveries of an ordered endpoint are ever held at once.
   *
   * Throttled endpoints (`maxPerSecond` set): the deliveries of such an endpoint returned by all
   * claims whose `now` falls in one second of the clock (`throttleWindowStart`) MUST NOT number
   * more than `maxPerSecond`, however many claims run at once: the store keeps a count per endpoint
   * and window and adds what a claim returns, in the claim's transaction, serialized per endpoint
   * as for ordered ones. Only what is returned counts.
   */
  claimDueDeliveries(options: ClaimOptions): Promise<ClaimedDelivery[]>;
  /**
   * The backlog and lag of the dispatchers, for `dispatcher.health()`: of the deliveries that
   * `claimDueDeliveries` at `now` could return (pending, `nextAttemptAt <= now`, endpoint active,
   * lease empty or passed; no endpoint left out), how many there are, counted up to `countLimit`,
   * and the earliest `nextAttemptAt`. Deliveries waiting behind the head of an ordered endpoint,
   * or for a throttle's next window, count as due: they are part of the lag. MUST only read (no lease is taken, nothing locked), and SHOULD
   * cost no more than a claim's read (the claim's index, cut by `countLimit`).
   */
  dueDeliveryStats(query: DueDeliveryStatsQuery): Promise<DueDeliveryStats>;
  /**
   * Gives deliveries back without an attempt: MUST clear the lease (`leaseToken` and
   * `leaseExpiresAt` become null) of those of `deliveryIds` still held under `leaseToken`, so that
   * the next claim may return them at once, and MUST leave every other field as it was (they stay
   * pending and due as they were). Deliveries held under another token, finished or missing ones
   * are left alone. Returns how many were released. MUST accept an empty list.
   */
  releaseDeliveries(deliveryIds: readonly string[], leaseToken: string): Promise<number>;
  /**
   * The dispatcher's heartbeat for the deliveries it still holds: MUST set `leaseExpiresAt` to
   * `leaseUntil` on those of `deliveryIds` that are pending and still held under `leaseToken`, and
   * MUST leave every other field, and every other delivery (held under another token, released,
   * finished, missing), as it was. Returns how many were extended. MUST accept an empty list.
   */
  extendLeases(deliveryIds: readonly string[], leaseToken: string, leaseUntil: Date): Promise<number>;
  /**
   * Records an attempt and moves the delivery to its next state, clearing the lease, only while the
   * caller still holds the lease (`leaseToken` matches); returns `recorded: false` otherwise
   * (nothing written). When recorded: MUST store the attempt, MUST add 1 to the delivery's
   * `attempts`, MUST set its `status` and `nextAttemptAt` from `outcome`, and MUST apply
   * `outcome.endpoint` to the endpoint, all in one transaction: its failure count first
   * (`increment`: + 1, `reset`: 0, `none`: unchanged), then each of `statusChanges` in order whose
   * conditions hold on the endpoint as the previous steps left it (`status` and `pausedReason`
   * set). The endpoint's row MUST be read for this under a lock (or by a compare-and-set) that
   * concurrent attempts of the same endpoint wait for, so that counts add up exactly and exactly one
   * attempt sees a status change apply. The delivery's `updatedAt` becomes `attempt.attemptedAt`,
   * and so does the endpoint's when anything of it changed. A `reset` with no status change MAY be
   * written as one conditional update (`consecutiveFailures = 0` where it is not 0) without the
   * lock. When the delivery's event concerns an erased application (its
   * `subjectId` names an application with `erasedAt` set, read after the delivery's row is locked),
   * MUST store the attempt's `responseBody` as `REDACTED_RESPONSE_BODY`: the receiver may have
   * echoed the candidate's data, sent before the erasure. See {@link RecordAttemptResult} for
   * what it returns.
   */
  recordAttempt(deliveryId: string, leaseToken: string, outcome: AttemptOutcome): Promise<RecordAttemptResult>;
  /**
   * Records several attempts at once (the dispatcher writes together the attempts that finished
   * during its previous write: up to twice `concurrency` plus `prefetch` of them, 192 with the defaults).
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
   * The attempts of several deliveries in one read (a page of the delivery log): for each of
   * `deliveryIds`, exactly what {@link listAttempts} returns for it, in the same order (oldest
   * first); the deliveries follow one another in any order. MUST be scoped to the company: another
   * company's deliveries, and unknown ids, contribute nothing. MUST accept an empty list, and ids
   * given twice (their attempts are returned once).
   */
  listAttemptsOf(companyId: string, deliveryIds: readonly string[]): Promise<DeliveryAttemptRecord[]>;
  /**
   * An endpoint's attempts summed per bucket (see {@link AttemptStatsQuery}): for each bucket that
   * holds at least one attempt of the endpoint (`attemptedAt` in `[since + index × bucketMs,
   * since + (index + 1) × bucketMs)`), one {@link AttemptStatsBucket}, by `index` ascending;
   * buckets without attempts are left out. MUST only read, MUST be scoped to the company (another
   * company's endpoint has none), and MUST read only the attempts of the range, through an index of
   * the endpoint and the attempt time (a range read, never a scan of all the endpoint's attempts).
   */
  attemptStats(query: AttemptStatsQuery): Promise<AttemptStatsBucket[]>;
  /**
   * Makes a delivery pending again, due at `now`, whatever its state; keeps `attempts`. MUST clear
   * the lease (`leaseToken` and `leaseExpiresAt` null): a dispatcher still sending it can no longer
   * record its attempt, and the next claim returns it.
   */
  resendDelivery(companyId: string, id: string, now: Date): Promise<DeliveryRecord | null>;
  /**
   * One batch of a recovery: the first `limit` deliveries, in oldest-first order (`createdAt`,
   * then `id`, ascending), of the company's endpoint `endpointId` whose status is `failed`,
   * created at or after `since` and after `after`, each made pending again as
   * {@link resendDelivery} does (due at `now`, lease cleared, `updatedAt` now, `attempts` kept),
   * all in one transaction. Returns them as changed, in that order. Concurrent calls MUST never
   * both recover one delivery (a delivery is failed when it is picked), and a delivery that is no
   * longer failed is left alone, so a second run over the same range finds nothing to do. MUST
   * touch nothing of another company or endpoint.
   */
  recoverFailedDeliveries(query: RecoverQuery): Promise<DeliveryRecord[]>;
}
