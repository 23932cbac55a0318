import type { ClaimedDelivery, DeliveryAttemptRecord, WebhookEndpointRecord } from "@hireport/core";
import { createAttemptRecorder } from "./attempt-recorder";
import { toEndpointView } from "./endpoint-view";
import { newId, newLeaseToken } from "./ids";
import type { ResolvedDispatcherOptions } from "./options";
import { attemptOutcome } from "./retry-policy";
import type { Sender, SendResult } from "./sender";
import { buildSignatureHeader } from "./signature";

/**
 * Retries a storage write that failed for a passing reason (a deadlock, a dropped connection), so
 * that an attempt that went out is also recorded. Bounded: 3 retries, 50 to 400 ms apart (under a
 * second in all), well inside the lease. p-retry is ESM-only, so it is imported lazily, which works
 * from the CJS build too.
 */
async function withWriteRetries<T>(write: () => Promise<T>): Promise<T> {
  const { default: pRetry } = await import("p-retry");
  return pRetry(write, { retries: 3, minTimeout: 50, maxTimeout: 800, randomize: true });
}

/** What became of one delivery this dispatcher held. */
export type DeliveryResult =
  /** 2xx: done. */
  | "succeeded"
  /** Failed; pending again with a retry due later. */
  | "retrying"
  /** Failed and the retry schedule is used up (or a test event failed). */
  | "failed"
  /**
   * Not sent: given back to the storage unsent (`releaseDeliveries`), because `stop()` came before a
   * slot to its endpoint freed, or its lease would have ended first. Any dispatcher may claim it at once.
   */
  | "released"
  /** Sent, but the lease had passed to another dispatcher, so this attempt was not recorded. */
  | "lost";

/** A delivery this dispatcher holds, with the lease it holds it under. */
export interface HeldDelivery {
  claimed: ClaimedDelivery;
  leaseToken: string;
  leaseUntil: Date;
}

/** Counts of one claim pass (`runOnce`). */
export interface RunResult {
  /** Deliveries claimed. */
  claimed: number;
  succeeded: number;
  retrying: number;
  failed: number;
  released: number;
  lost: number;
}

export interface DeliveryRunnerContext {
  options: ResolvedDispatcherOptions;
  sender: () => Sender;
  /** Called when a slot frees while more work may be due. */
  onCapacity: () => void;
}

/** The result of one attempt, as `sendTest` returns it. */
export interface AttemptReport {
  result: DeliveryResult;
  attempt: DeliveryAttemptRecord;
}

/**
 * Claims due deliveries and sends them, keeping at most `concurrency` requests in flight and at
 * most `perEndpointConcurrency` per endpoint. A claim asks for at most `perEndpointConcurrency`
 * deliveries of one endpoint and leaves out endpoints at their limit, so it never over-fills an
 * endpoint; what it brings beyond the free slots of an endpoint already partly busy (fewer than
 * `perEndpointConcurrency`) waits in a queue of that endpoint, inside its lease. A storage that
 * ignores `maxPerEndpoint` still works: the excess queues the same way.
 */
export interface DeliveryRunner {
  /**
   * One claim, as many deliveries as there are free slots. Resolves once claimed (sending has begun)
   * with the number claimed and `done`, which resolves when every one of them is done.
   */
  claim(): Promise<{ claimed: number; done: Promise<RunResult> }>;
  /** Sends one delivery already held (a test event inserted with its lease). */
  sendHeld(held: HeldDelivery): Promise<AttemptReport>;
  /**
   * Gives the deliveries waiting for a slot back to the storage (`releaseDeliveries`: any
   * dispatcher may claim them at once) and waits for those in flight. Returns how many it released.
   */
  drain(): Promise<number>;
  /** True when more may be due than the last claim took (it was cut by capacity or per endpoint). */
  readonly backlog: boolean;
}

interface QueuedDelivery {
  held: HeldDelivery;
  settle: (result: DeliveryResult) => void;
}

/** Attempts written by one `recordAttempts` at least (at most `concurrency` otherwise). */
const RECORD_BATCH_MIN = 16;

/** Minimum lease left, beyond the timeout, for a queued delivery to still be sent. */
const LEASE_MARGIN_MS = 2_000;

export function createDeliveryRunner({ options, sender, onCapacity }: DeliveryRunnerContext): DeliveryRunner {
  const { storage, clock, logger } = options;
  const queues = new Map<string, QueuedDelivery[]>();
  const inFlightByEndpoint = new Map<string, number>();
  const inFlightPromises = new Set<Promise<unknown>>();
  let inFlight = 0;
  let queued = 0;
  /** Requests over whose attempts are being recorded: still held, no longer in flight. */
  let recording = 0;
  /**
   * Deliveries a claim may bring now: free request slots, while everything held (in flight,
   * waiting for a slot, being recorded) stays within twice `concurrency`.
   */
  const heldFree = (): number =>
    Math.min(options.concurrency - inFlight, 2 * options.concurrency - inFlight - queued - recording);
  const releasing = new Set<Promise<unknown>>();
  let backlog = false;
  /** Endpoints whose last claim was cut at `perEndpointConcurrency`, or left out: more may be due. */
  const endpointBacklog = new Set<string>();
  const refillAt = Math.max(1, Math.ceil(options.concurrency / 4));
  /** An endpoint with more due is claimed for again once this many of its slots are free. */
  const endpointRefillAt = Math.max(1, Math.ceil(options.perEndpointConcurrency / 2));

  // Finished attempts are recorded in batches: one transaction for all that finish during a write.
  const recorder = createAttemptRecorder({
    store: () => storage.webhooks,
    maxBatch: Math.max(RECORD_BATCH_MIN, options.concurrency),
    retry: withWriteRetries,
  });

  const headerNames = {
    event: `${options.headerPrefix}-Event`,
    delivery: `${options.headerPrefix}-Delivery`,
    signature: `${options.headerPrefix}-Signature`,
  };

  function endpointLoad(endpointId: string): number {
    return (inFlightByEndpoint.get(endpointId) ?? 0) + (queues.get(endpointId)?.length ?? 0);
  }

  /** Called for the attempt that paused the endpoint (the storage reports it once per pause). */
  async function notifyPaused(after: WebhookEndpointRecord): Promise<void> {
    logger.warn("hireport webhooks: endpoint paused after failed attempts in a row", {
      endpointId: after.id,
      companyId: after.companyId,
      consecutiveFailures: after.consecutiveFailures,
    });
    if (!options.onEndpointPaused) return;
    try {
      await options.onEndpointPaused(toEndpointView(after, clock.now()));
    } catch (error) {
      logger.error("hireport webhooks: onEndpointPaused threw", { endpointId: after.id, error: String(error) });
    }
  }

  /**
   * Sends one delivery and records its attempt. `sent` is called once the request is over (before
   * the attempt is recorded): the request's slot is free then.
   */
  async function deliver(held: HeldDelivery, sent?: () => void): Promise<AttemptReport> {
    const { delivery, endpoint, payload } = held.claimed;
    const attemptedAt = clock.now();
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": options.userAgent,
      [headerNames.event]: delivery.eventType,
      [headerNames.delivery]: delivery.id,
      [headerNames.signature]: buildSignatureHeader(payload, endpoint.secrets, attemptedAt),
    };
    let result: SendResult;
    try {
      result = await sender().send({ url: endpoint.url, payload, headers });
    } catch (error) {
      result = { succeeded: false, statusCode: null, durationMs: 0, responseBody: "", error: String(error) };
    }
    sent?.();
    const attempt: DeliveryAttemptRecord = {
      id: newId("att", attemptedAt),
      deliveryId: delivery.id,
      endpointId: endpoint.id,
      attemptedAt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      responseBody: result.responseBody,
      error: result.error,
      succeeded: result.succeeded,
    };
    const outcome = attemptOutcome({
      delivery,
      attempt,
      now: clock.now(),
      retrySchedule: options.retrySchedule,
      pauseAfter: options.pauseAfterFailures,
    });
    let report: AttemptReport;
    try {
      const { recorded, endpoint: after, paused } = await recorder.record(delivery.id, held.leaseToken, outcome);
      if (!recorded) {
        logger.warn("hireport webhooks: attempt not recorded, the lease had passed to another dispatcher", {
          deliveryId: delivery.id,
        });
        return { result: "lost", attempt };
      }
      if (paused && after) await notifyPaused(after);
      report = {
        result: outcome.status === "succeeded" ? "succeeded" : outcome.status === "pending" ? "retrying" : "failed",
        attempt,
      };
    } catch (error) {
      logger.error("hireport webhooks: recording an attempt failed; the delivery is retried when its lease ends", {
        deliveryId: delivery.id,
        error: String(error),
      });
      report = { result: "lost", attempt };
    }
    return report;
  }

  function pump(): void {
    for (const [endpointId, queue] of queues) {
      while (queue.length > 0 && inFlight < options.concurrency) {
        const running = inFlightByEndpoint.get(endpointId) ?? 0;
        if (running >= options.perEndpointConcurrency) break;
        const next = queue.shift();
        if (!next) break;
        queued--;
        const leaseLeft = next.held.leaseUntil.getTime() - clock.now().getTime();
        if (leaseLeft < options.timeoutMs + LEASE_MARGIN_MS) {
          release([next]);
          continue;
        }
        start(endpointId, next);
      }
      if (queue.length === 0) queues.delete(endpointId);
    }
  }

  /**
   * Gives unsent deliveries back to the storage at once, then settles them as released. Should the
   * storage fail, their leases run out as before (logged).
   */
  function release(items: readonly QueuedDelivery[]): Promise<void> {
    const byToken = new Map<string, string[]>();
    for (const item of items) {
      const ids = byToken.get(item.held.leaseToken) ?? [];
      ids.push(item.held.claimed.delivery.id);
      byToken.set(item.held.leaseToken, ids);
    }
    const task = Promise.all(
      [...byToken].map(([leaseToken, ids]) =>
        withWriteRetries(() => storage.webhooks.releaseDeliveries(ids, leaseToken)).catch((error: unknown) => {
          logger.error("hireport webhooks: releasing deliveries failed; they are claimed again when their lease ends", {
            deliveryIds: ids,
            error: String(error),
          });
        }),
      ),
    ).then(() => {
      releasing.delete(task);
      for (const item of items) item.settle("released");
    });
    releasing.add(task);
    return task;
  }

  /** Claims again when enough slots are free: a claim per finished request would cost a query per delivery. */
  function wantMore(endpointId: string): void {
    // More may be due: claim again once a quarter of the slots are free, or half the slots of an
    // endpoint that has more due.
    if (backlog && heldFree() >= refillAt) onCapacity();
    else if (
      endpointBacklog.has(endpointId) &&
      options.perEndpointConcurrency - endpointLoad(endpointId) >= endpointRefillAt
    ) {
      onCapacity();
    }
  }

  function start(endpointId: string, item: QueuedDelivery): void {
    inFlight++;
    inFlightByEndpoint.set(endpointId, (inFlightByEndpoint.get(endpointId) ?? 0) + 1);
    let requestOver = false;
    // The request is over: its slot (global and of its endpoint) is free while the attempt is
    // being recorded; the delivery stays held (leased, counted in `recording`) until then.
    const sent = (): void => {
      if (requestOver) return;
      requestOver = true;
      inFlight--;
      recording++;
      const left = (inFlightByEndpoint.get(endpointId) ?? 1) - 1;
      if (left > 0) inFlightByEndpoint.set(endpointId, left);
      else inFlightByEndpoint.delete(endpointId);
      pump();
      wantMore(endpointId);
    };
    const task = deliver(item.held, sent)
      .then((report) => report.result)
      .catch((error: unknown) => {
        logger.error("hireport webhooks: delivery failed unexpectedly", { error: String(error) });
        return "lost" as const;
      })
      .then((result) => {
        sent();
        recording--;
        inFlightPromises.delete(task);
        item.settle(result);
        wantMore(endpointId);
      });
    inFlightPromises.add(task);
  }

  return {
    get backlog() {
      return backlog || endpointBacklog.size > 0;
    },

    async claim() {
      const counts: RunResult = { claimed: 0, succeeded: 0, retrying: 0, failed: 0, released: 0, lost: 0 };
      // Deliveries waiting for their endpoint's slot do not take global slots (the endpoint is
      // left out of the next claim instead), so a slow endpoint's queue never holds back others.
      // Held deliveries stay bounded: at most twice `concurrency`.
      const free = heldFree();
      if (free <= 0) {
        backlog = true;
        return { claimed: 0, done: Promise.resolve(counts) };
      }
      const excludeEndpointIds = [...new Set([...inFlightByEndpoint.keys(), ...queues.keys()])].filter(
        (endpointId) => endpointLoad(endpointId) >= options.perEndpointConcurrency,
      );
      const now = clock.now();
      const leaseToken = newLeaseToken();
      const leaseUntil = new Date(now.getTime() + options.leaseMs);
      const maxPerEndpoint = options.perEndpointConcurrency;
      const claimed = await storage.webhooks.claimDueDeliveries({
        now,
        limit: free,
        leaseUntil,
        leaseToken,
        excludeEndpointIds,
        maxPerEndpoint,
      });
      backlog = claimed.length >= free;
      const perEndpoint = new Map<string, number>();
      for (const item of claimed) perEndpoint.set(item.endpoint.id, (perEndpoint.get(item.endpoint.id) ?? 0) + 1);
      // An endpoint cut at its share may have more due; one that got less (and was not left out)
      // has nothing more due, unless the claim was cut by the global limit.
      for (const endpointId of [...endpointBacklog]) {
        if (!backlog && !excludeEndpointIds.includes(endpointId) && !perEndpoint.has(endpointId)) {
          endpointBacklog.delete(endpointId);
        }
      }
      for (const [endpointId, count] of perEndpoint) {
        if (count >= maxPerEndpoint) endpointBacklog.add(endpointId);
        else if (!backlog) endpointBacklog.delete(endpointId);
      }
      counts.claimed = claimed.length;
      const done = claimed.map(
        (item) =>
          new Promise<void>((resolve) => {
            const queue = queues.get(item.endpoint.id) ?? [];
            queues.set(item.endpoint.id, queue);
            queued++;
            queue.push({
              held: { claimed: item, leaseToken, leaseUntil },
              settle: (result) => {
                counts[result]++;
                resolve();
              },
            });
          }),
      );
      pump();
      return { claimed: claimed.length, done: Promise.all(done).then(() => counts) };
    },

    sendHeld(held) {
      return deliver(held);
    },

    async drain() {
      const waiting = [...queues.values()].flatMap((queue) => queue.splice(0));
      queues.clear();
      queued = 0;
      endpointBacklog.clear();
      backlog = false;
      if (waiting.length > 0) release(waiting);
      while (inFlightPromises.size > 0 || releasing.size > 0) {
        await Promise.all([...inFlightPromises, ...releasing]);
      }
      return waiting.length;
    },
  };
}
