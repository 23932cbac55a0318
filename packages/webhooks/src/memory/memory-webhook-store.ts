import {
  copy,
  createdList,
  createdPage,
  createEventDeliveryStore,
  deleteDeliveries,
  insertNew,
  type MemoryState,
  newestCreatedFirst,
  oldestFirst,
  ownRow,
  patchOwnRow,
  type StateAccess,
  toStored,
} from "@hireport/core/memory";
import { REDACTED_RESPONSE_BODY } from "@hireport/core/storage";
import type { AttemptStatsBucket } from "../store/attempt-stats";
import { THROTTLE_WINDOW_MS, type ThrottleCount, throttleAfter, throttleAllowance } from "../store/endpoint-throttle";
import { applyEndpointUpdate } from "../store/endpoint-update";
import type {
  ClaimedDelivery,
  DeliveryAttemptRecord,
  DeliveryRecord,
  WebhookEndpointRecord,
  WebhookSecret,
} from "../store/webhook-records";
import type { AttemptOutcome, EndpointPatch, RecordAttemptResult, WebhookStore } from "../store/webhook-store";

/** The columns an endpoint patch may write. */
const ENDPOINT_PATCH_KEYS = [
  "url",
  "description",
  "events",
  "status",
  "pausedReason",
  "signatureScheme",
  "ordered",
  "maxPerSecond",
  "secrets",
  "consecutiveFailures",
  "updatedAt",
] as const satisfies readonly (keyof EndpointPatch)[];

/*
 * The endpoint and attempt tables of core's memory state, read and written as whole records. Core
 * types them by what its own stores read (`WebhookSubscription`, `StoredAttempt`); this store is
 * the only one that writes them, always whole records.
 */
function endpointsOf(state: MemoryState): ReadonlyMap<string, WebhookEndpointRecord> {
  return state.read("endpoints") as ReadonlyMap<string, WebhookEndpointRecord>;
}

function writeEndpoints(state: MemoryState): Map<string, WebhookEndpointRecord> {
  return state.write("endpoints") as Map<string, WebhookEndpointRecord>;
}

function attemptsOf(state: MemoryState): ReadonlyMap<string, DeliveryAttemptRecord> {
  return state.read("attempts") as ReadonlyMap<string, DeliveryAttemptRecord>;
}

function writeAttempts(state: MemoryState): Map<string, DeliveryAttemptRecord> {
  return state.write("attempts") as Map<string, DeliveryAttemptRecord>;
}

function ownEndpoint(state: MemoryState, companyId: string, id: string): WebhookEndpointRecord | null {
  return ownRow(endpointsOf(state), companyId, id);
}

/** Whether two secret lists hold the same strings and expiry times, in the same order. */
function sameSecrets(a: readonly WebhookSecret[], b: readonly WebhookSecret[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (secret, index) =>
        secret.secret === b[index]?.secret &&
        (secret.expiresAt?.getTime() ?? null) === (b[index]?.expiresAt?.getTime() ?? null),
    )
  );
}

/** `recordAttempt` on the state (inside one write: a batch applies entirely or not at all). */
function recordOne(
  state: MemoryState,
  deliveryId: string,
  leaseToken: string,
  outcome: AttemptOutcome,
): RecordAttemptResult {
  const delivery = state.read("deliveries").get(deliveryId);
  if (!delivery || delivery.leaseToken === null || delivery.leaseToken !== leaseToken) {
    const endpoint = delivery ? endpointsOf(state).get(delivery.endpointId) : undefined;
    return { recorded: false, endpoint: copy(endpoint ?? null), paused: false, disabled: false };
  }
  const at = outcome.attempt.attemptedAt;
  const attempts = writeAttempts(state);
  if (attempts.has(outcome.attempt.id)) {
    throw new Error(`The memory storage already has an attempt ${outcome.attempt.id}.`);
  }
  const responseBody = concernsErased(state, delivery) ? REDACTED_RESPONSE_BODY : outcome.attempt.responseBody;
  attempts.set(
    outcome.attempt.id,
    toStored({ ...outcome.attempt, deliveryId, endpointId: delivery.endpointId, responseBody }),
  );
  state.write("deliveries").set(
    deliveryId,
    toStored({
      ...delivery,
      status: outcome.status,
      attempts: delivery.attempts + 1,
      nextAttemptAt: outcome.nextAttemptAt,
      leaseExpiresAt: null,
      leaseToken: null,
      updatedAt: at,
    }),
  );
  const endpoint = endpointsOf(state).get(delivery.endpointId);
  if (!endpoint) return { recorded: true, endpoint: null, paused: false, disabled: false };
  const { state: next, paused, disabled } = applyEndpointUpdate(endpoint, outcome.endpoint, at);
  if (next !== endpoint) writeEndpoints(state).set(endpoint.id, toStored(next));
  return { recorded: true, endpoint: copy(next), paused, disabled };
}

/** A delivery made pending again, due at `now`, without a lease (`resendDelivery`, `recoverFailedDeliveries`). */
function resent(delivery: DeliveryRecord, now: Date): DeliveryRecord {
  return { ...delivery, status: "pending", nextAttemptAt: now, leaseExpiresAt: null, leaseToken: null, updatedAt: now };
}

/** Whether `delivery` comes strictly after the position `(at, id)` in oldest-first order. */
function comesAfter(at: Date, id: string, delivery: DeliveryRecord): boolean {
  const time = delivery.createdAt.getTime();
  return time > at.getTime() || (time === at.getTime() && delivery.id > id);
}

/** Whether a delivery's event concerns an erased application (its attempts store no answer). */
function concernsErased(state: MemoryState, delivery: DeliveryRecord): boolean {
  const subject = state.read("events").get(delivery.eventId)?.subjectId;
  if (subject === undefined || subject === null) return false;
  return (state.read("applications").get(subject)?.erasedAt ?? null) !== null;
}

/** A filter that keeps, in order, at most `max(endpointId)` deliveries of each endpoint. */
function withinEndpointLimit(max: (endpointId: string) => number): (delivery: DeliveryRecord) => boolean {
  const taken = new Map<string, number>();
  return (delivery) => {
    const count = taken.get(delivery.endpointId) ?? 0;
    if (count >= max(delivery.endpointId)) return false;
    taken.set(delivery.endpointId, count + 1);
    return true;
  };
}

/** The key of an endpoint's throttle count in the memory storage's rate-limit counters. */
function throttleKey(endpointId: string): string {
  return `webhook-endpoint-throttle\u0000${endpointId}`;
}

/**
 * The ordered endpoints' heads a claim at `now` may take: per ordered endpoint, the id of its
 * oldest pending delivery, unless another of its pending deliveries holds a live lease.
 */
function claimableHeads(state: MemoryState, now: number): Map<string, string> {
  const endpoints = endpointsOf(state);
  const heads = new Map<string, DeliveryRecord>();
  const busy = new Set<string>();
  for (const delivery of state.read("deliveries").values()) {
    if (delivery.status !== "pending" || endpoints.get(delivery.endpointId)?.ordered !== true) continue;
    const head = heads.get(delivery.endpointId);
    if (!head || comesAfter(delivery.createdAt, delivery.id, head)) heads.set(delivery.endpointId, delivery);
    if (delivery.leaseExpiresAt !== null && delivery.leaseExpiresAt.getTime() > now) busy.add(delivery.endpointId);
  }
  return new Map([...heads].filter(([endpointId]) => !busy.has(endpointId)).map(([id, head]) => [id, head.id]));
}

/** An endpoint's throttle count, kept as a rate-limit counter that resets at the window's end. */
function storedThrottle(state: MemoryState, endpointId: string): ThrottleCount {
  const counter = state.read("rateLimits").get(throttleKey(endpointId));
  if (!counter) return { windowStart: null, count: 0 };
  return { windowStart: new Date(counter.resetAt.getTime() - THROTTLE_WINDOW_MS), count: counter.count };
}

/** Adds `taken` to the endpoint's throttle count as a claim at `now` leaves it. */
function countThrottled(state: MemoryState, endpointId: string, taken: number, now: Date): void {
  const next = throttleAfter(storedThrottle(state, endpointId), taken, now);
  const key = throttleKey(endpointId);
  const resetAt = new Date((next.windowStart ?? now).getTime() + THROTTLE_WINDOW_MS);
  state.write("rateLimits").set(key, Object.freeze({ key, count: next.count, resetAt }));
}

/** The webhook store over the memory storage's tables (see `memoryWebhookStorage`). */
export function createMemoryWebhookStore(access: StateAccess): WebhookStore {
  return {
    ...createEventDeliveryStore(access),

    insertEndpoint: (record) => access.write((state) => insertNew(writeEndpoints(state), record, "an endpoint")),

    getEndpoint: (companyId, id) => access.read((state) => copy(ownEndpoint(state, companyId, id))),

    listEndpoints: (companyId) =>
      access.read((state) => createdList(endpointsOf(state).values(), (endpoint) => endpoint.companyId === companyId)),

    updateEndpoint: (companyId, id, patch) =>
      access.write((state) => copy(patchOwnRow(writeEndpoints(state), companyId, id, patch, ENDPOINT_PATCH_KEYS))),

    listEndpointsAfter: (afterId, limit) =>
      access.read((state) =>
        [...endpointsOf(state).values()]
          .filter((endpoint) => afterId === null || endpoint.id > afterId)
          .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
          .slice(0, Math.max(0, limit))
          .map((endpoint) => copy(endpoint)),
      ),

    replaceEndpointSecrets: (companyId, id, expected, secrets) =>
      access.write((state) => {
        const endpoint = ownEndpoint(state, companyId, id);
        if (!endpoint || !sameSecrets(endpoint.secrets, expected)) return false;
        writeEndpoints(state).set(id, toStored({ ...endpoint, secrets: [...secrets] }));
        return true;
      }),

    deleteEndpoint: (companyId, id) =>
      access.write((state) => {
        if (!ownEndpoint(state, companyId, id)) return false;
        writeEndpoints(state).delete(id);
        state.write("rateLimits").delete(throttleKey(id));
        deleteDeliveries(state, (delivery) => delivery.endpointId === id);
        return true;
      }),

    dueDeliveryStats: ({ now, countLimit }) =>
      access.read((state) => {
        const at = now.getTime();
        const endpoints = endpointsOf(state);
        const events = state.read("events");
        let due = 0;
        let oldest: Date | null = null;
        for (const delivery of state.read("deliveries").values()) {
          if (delivery.status !== "pending" || delivery.nextAttemptAt === null) continue;
          if (delivery.nextAttemptAt.getTime() > at) continue;
          if (delivery.leaseExpiresAt !== null && delivery.leaseExpiresAt.getTime() > at) continue;
          if (!events.has(delivery.eventId) || endpoints.get(delivery.endpointId)?.status !== "active") continue;
          due += 1;
          if (oldest === null || delivery.nextAttemptAt < oldest) oldest = delivery.nextAttemptAt;
        }
        return { due: Math.min(due, Math.max(0, countLimit)), oldestDueAt: oldest === null ? null : new Date(oldest) };
      }),

    claimDueDeliveries: (options) =>
      access.write((state) => {
        const now = options.now.getTime();
        const excluded = new Set(options.excludeEndpointIds ?? []);
        const endpoints = endpointsOf(state);
        const events = state.read("events");
        const heads = claimableHeads(state, now);
        const perEndpoint = options.maxPerEndpoint ?? Number.POSITIVE_INFINITY;
        const allowance = (endpointId: string): number => {
          const { maxPerSecond } = endpoints.get(endpointId) as WebhookEndpointRecord;
          return Math.min(perEndpoint, throttleAllowance(maxPerSecond, storedThrottle(state, endpointId), options.now));
        };
        const due = [...state.read("deliveries").values()]
          .filter((delivery) => {
            if (delivery.status !== "pending" || delivery.nextAttemptAt === null) return false;
            if (delivery.nextAttemptAt.getTime() > now) return false;
            if (delivery.leaseExpiresAt !== null && delivery.leaseExpiresAt.getTime() > now) return false;
            if (excluded.has(delivery.endpointId)) return false;
            if (!events.has(delivery.eventId)) return false;
            const endpoint = endpoints.get(delivery.endpointId);
            if (endpoint?.status !== "active") return false;
            return !endpoint.ordered || heads.get(endpoint.id) === delivery.id;
          })
          .sort((a, b) => {
            const byDue = oldestFirst((delivery: DeliveryRecord) => delivery.nextAttemptAt ?? delivery.createdAt)(a, b);
            return byDue !== 0 ? byDue : oldestFirst((delivery: DeliveryRecord) => delivery.createdAt)(a, b);
          })
          .filter(withinEndpointLimit(allowance))
          .slice(0, Math.max(0, options.limit));
        const taken = new Map<string, number>();
        for (const delivery of due) taken.set(delivery.endpointId, (taken.get(delivery.endpointId) ?? 0) + 1);
        for (const [endpointId, count] of taken) {
          if (endpoints.get(endpointId)?.maxPerSecond != null) countThrottled(state, endpointId, count, options.now);
        }
        const deliveries = state.write("deliveries");
        return due.map((delivery): ClaimedDelivery => {
          const leased: DeliveryRecord = toStored({
            ...delivery,
            leaseExpiresAt: options.leaseUntil,
            leaseToken: options.leaseToken,
          });
          deliveries.set(delivery.id, leased);
          const endpoint = endpoints.get(delivery.endpointId) as WebhookEndpointRecord;
          const payload = events.get(delivery.eventId)?.payload ?? "";
          return { delivery: copy(leased), endpoint: copy(endpoint), payload };
        });
      }),

    releaseDeliveries: (deliveryIds, leaseToken) =>
      access.write((state) => {
        let released = 0;
        for (const id of new Set(deliveryIds)) {
          const delivery = state.read("deliveries").get(id);
          if (!delivery || delivery.leaseToken === null || delivery.leaseToken !== leaseToken) continue;
          state.write("deliveries").set(id, toStored({ ...delivery, leaseToken: null, leaseExpiresAt: null }));
          released += 1;
        }
        return released;
      }),

    extendLeases: (deliveryIds, leaseToken, leaseUntil) =>
      access.write((state) => {
        let extended = 0;
        for (const id of new Set(deliveryIds)) {
          const delivery = state.read("deliveries").get(id);
          if (delivery?.status !== "pending" || delivery.leaseToken === null || delivery.leaseToken !== leaseToken) {
            continue;
          }
          state.write("deliveries").set(id, toStored({ ...delivery, leaseExpiresAt: leaseUntil }));
          extended += 1;
        }
        return extended;
      }),

    recordAttempt: (deliveryId, leaseToken, outcome) =>
      access.write((state) => recordOne(state, deliveryId, leaseToken, outcome)),

    recordAttempts: (items) =>
      access.write((state) => items.map((item) => recordOne(state, item.deliveryId, item.leaseToken, item.outcome))),

    getDelivery: (companyId, id) => access.read((state) => copy(ownRow(state.read("deliveries"), companyId, id))),

    listDeliveries: (query) =>
      access.read((state) =>
        createdPage(
          [...state.read("deliveries").values()].filter(
            (delivery) =>
              delivery.companyId === query.companyId &&
              delivery.endpointId === query.endpointId &&
              (query.status === undefined || delivery.status === query.status),
          ),
          query,
        ),
      ),

    listAttempts: (companyId, deliveryId) =>
      access.read((state) => {
        if (state.read("deliveries").get(deliveryId)?.companyId !== companyId) return [];
        return [...attemptsOf(state).values()]
          .filter((attempt) => attempt.deliveryId === deliveryId)
          .sort(oldestFirst((attempt) => attempt.attemptedAt))
          .map((attempt) => copy(attempt));
      }),

    listAttemptsOf: (companyId, deliveryIds) =>
      access.read((state) => {
        const wanted = new Set(deliveryIds.filter((id) => state.read("deliveries").get(id)?.companyId === companyId));
        return [...attemptsOf(state).values()]
          .filter((attempt) => wanted.has(attempt.deliveryId))
          .sort(oldestFirst((attempt) => attempt.attemptedAt))
          .map((attempt) => copy(attempt));
      }),

    attemptStats: (query) =>
      access.read((state) => {
        if (!ownEndpoint(state, query.companyId, query.endpointId)) return [];
        const since = query.since.getTime();
        const until = since + query.buckets * query.bucketMs;
        const buckets = new Map<number, AttemptStatsBucket>();
        for (const attempt of attemptsOf(state).values()) {
          const at = attempt.attemptedAt.getTime();
          if (attempt.endpointId !== query.endpointId || at < since || at >= until) continue;
          const index = Math.floor((at - since) / query.bucketMs);
          const bucket = buckets.get(index) ?? {
            index,
            attempts: 0,
            succeeded: 0,
            totalDurationMs: 0,
            maxDurationMs: 0,
          };
          bucket.attempts += 1;
          if (attempt.succeeded) bucket.succeeded += 1;
          bucket.totalDurationMs += attempt.durationMs;
          bucket.maxDurationMs = Math.max(bucket.maxDurationMs, attempt.durationMs);
          buckets.set(index, bucket);
        }
        return [...buckets.values()].sort((a, b) => a.index - b.index);
      }),

    recoverFailedDeliveries: (query) =>
      access.write((state) => {
        const since = query.since.getTime();
        const picked = [...state.read("deliveries").values()]
          .filter(
            (delivery) =>
              delivery.companyId === query.companyId &&
              delivery.endpointId === query.endpointId &&
              delivery.status === "failed" &&
              delivery.createdAt.getTime() >= since &&
              (query.after === undefined || comesAfter(query.after.at, query.after.id, delivery)),
          )
          .sort(newestCreatedFirst)
          .reverse()
          .slice(0, Math.max(0, query.limit));
        const deliveries = state.write("deliveries");
        return picked.map((delivery) => {
          const recovered = toStored(resent(delivery, query.now));
          deliveries.set(delivery.id, recovered);
          return copy(recovered);
        });
      }),

    resendDelivery: (companyId, id, now) =>
      access.write((state) => {
        const delivery = ownRow(state.read("deliveries"), companyId, id);
        if (!delivery) return null;
        const record = toStored(resent(delivery, now));
        state.write("deliveries").set(id, record);
        return copy(record);
      }),
  };
}
