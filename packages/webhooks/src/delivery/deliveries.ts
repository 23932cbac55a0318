import { type ChangeOptions, HireportError, type Page } from "@hireport/core";
import {
  CursorCodec,
  cursorScope,
  hostActor,
  notFound,
  pageRequest,
  recordAudit,
  sentPayload,
  toPage,
} from "@hireport/core/extend";
import { DELIVERY_STATUSES, type DeliveryStatus } from "@hireport/core/schemas";
import type { KeysetPosition } from "@hireport/core/storage";
import type { ResolvedDispatcherOptions } from "../dispatcher/options";
import type { DeliveryAttemptRecord, DeliveryRecord } from "../store/webhook-records";

/** A delivery as the host sees it (the lease columns are the dispatcher's business). */
export interface WebhookDelivery {
  /** `dlv_…`, also sent in the `…-Delivery` header. */
  id: string;
  endpointId: string;
  companyId: string;
  eventId: string;
  eventType: DeliveryRecord["eventType"];
  status: DeliveryStatus;
  attempts: number;
  /** When the next attempt is due (pending only). */
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A delivery with every attempt, oldest first. */
export interface WebhookDeliveryWithAttempts extends WebhookDelivery {
  attemptLog: DeliveryAttemptRecord[];
}

/** A delivery with its attempts and the exact payload that is sent. */
export interface WebhookDeliveryDetails extends WebhookDeliveryWithAttempts {
  /** The envelope text, or null when the event was purged. */
  payload: string | null;
}

export interface DeliveryListOptions {
  /** Only deliveries in this state. @default every state */
  status?: DeliveryStatus;
  /**
   * The `nextCursor` of the previous page, passed unchanged with the same endpoint and `status`
   * (a cursor of another list is refused with `bad_request`). @default null (the first page)
   */
  cursor?: string | null;
  /** Page size, 1 to 100. @default 25 */
  limit?: number;
}

export interface RecoverOptions extends ChangeOptions {
  /** Recover the failed deliveries created at or after this time. */
  since: Date;
  /**
   * Most deliveries this call queues: a larger backlog is left for the next call (`more: true`),
   * which starts where this one stopped, since what it queued is no longer failed. @default 10000
   */
  limit?: number;
}

/** What `deliveries.recover` did. */
export interface RecoverResult {
  /** Failed deliveries made pending again, due now. */
  queued: number;
  /** True when it stopped at `limit`: call it again to queue the rest. */
  more: boolean;
}

/** Deliveries one storage call of a recovery makes pending. */
const RECOVER_BATCH = 500;

/** One page of an endpoint's deliveries, newest first: core's {@link Page} shape, as every hireport list. */
export type DeliveryPage = Page<WebhookDeliveryWithAttempts>;

/** The delivery log. Every method is scoped to a company: another company's record is not found. */
export interface DeliveryLog {
  /**
   * One page of an endpoint's deliveries, newest first, each with its attempts.
   * @throws `not_found` for an endpoint the company does not have, `invalid` for a page size or
   * status out of range, `bad_request` for a cursor of another list
   */
  list(companyId: string, endpointId: string, options?: DeliveryListOptions): Promise<DeliveryPage>;
  get(companyId: string, id: string): Promise<WebhookDeliveryDetails>;
  attempts(companyId: string, id: string): Promise<DeliveryAttemptRecord[]>;
  /**
   * Sends a delivery again, whatever its state: it becomes pending and due now (after the endpoint
   * is resumed, if it is paused). A delivery whose retries were used up gets one more attempt.
   * Audit: `webhook_delivery.resent` with `options.actor` (@default "host").
   */
  resend(companyId: string, id: string, options?: ChangeOptions): Promise<WebhookDelivery>;
  /**
   * Sends again every failed delivery of the endpoint created since `options.since`: a bounded
   * batch job (batches of 500 in the storage, at most `limit` in all) that makes them pending and
   * due now, oldest first. Safe to run twice, and beside the dispatcher: a delivery is recovered
   * only while it is failed, once per run. Audit: `webhook_endpoint.deliveries_recovered` with the
   * count and `since`, when it queued any.
   * @throws `not_found` for an endpoint the company does not have, `invalid` for a bad `since` or `limit`
   */
  recover(companyId: string, endpointId: string, options: RecoverOptions): Promise<RecoverResult>;
}

export function toDeliveryView(record: DeliveryRecord): WebhookDelivery {
  return {
    id: record.id,
    endpointId: record.endpointId,
    companyId: record.companyId,
    eventId: record.eventId,
    eventType: record.eventType,
    status: record.status,
    attempts: record.attempts,
    nextAttemptAt: record.nextAttemptAt,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/**
 * Delivery log cursors: core's codec, unsigned (every read is scoped to the caller's company
 * anyway), each naming its list: the company, the endpoint and the status filter.
 */
const cursors = new CursorCodec(null);

function deliveryListScope(companyId: string, endpointId: string, status: DeliveryStatus | undefined): string {
  return cursorScope("webhook_deliveries", companyId, { endpoint: endpointId, status });
}

export interface DeliveryLogContext {
  options: ResolvedDispatcherOptions;
  wake: () => void;
}

export function createDeliveryLog({ options, wake }: DeliveryLogContext): DeliveryLog {
  const { storage, clock } = options;
  const webhooks = storage.webhooks;

  async function load(companyId: string, id: string): Promise<DeliveryRecord> {
    const record = await webhooks.getDelivery(companyId, id);
    if (!record) throw notFound("webhook delivery");
    return record;
  }

  return {
    async list(companyId, endpointId, listOptions = {}) {
      if (!(await webhooks.getEndpoint(companyId, endpointId))) throw notFound("webhook endpoint");
      if (listOptions.status !== undefined && !DELIVERY_STATUSES.includes(listOptions.status)) {
        throw new HireportError("invalid", "The status filter is not valid.", {
          fields: [{ field: "status", message: `one of ${DELIVERY_STATUSES.join(", ")}` }],
        });
      }
      const request = await pageRequest(cursors, deliveryListScope(companyId, endpointId, listOptions.status), {
        limit: listOptions.limit,
        cursor: listOptions.cursor ?? undefined,
      });
      const rows = await webhooks.listDeliveries({
        companyId,
        endpointId,
        ...(listOptions.status ? { status: listOptions.status } : {}),
        ...(request.after ? { after: request.after } : {}),
        take: request.limit + 1,
      });
      const page = await toPage(cursors, request, rows, (record) => record.createdAt);
      // The page's attempts in one read, not one per delivery.
      const attempts = await webhooks.listAttemptsOf(
        companyId,
        page.data.map((record) => record.id),
      );
      const byDelivery = new Map<string, DeliveryAttemptRecord[]>();
      for (const attempt of attempts) {
        const list = byDelivery.get(attempt.deliveryId);
        if (list) list.push(attempt);
        else byDelivery.set(attempt.deliveryId, [attempt]);
      }
      const data = page.data.map((record) => ({
        ...toDeliveryView(record),
        attemptLog: byDelivery.get(record.id) ?? [],
      }));
      return { ...page, data };
    },

    async get(companyId, id) {
      const record = await load(companyId, id);
      const [attemptLog, event] = await Promise.all([
        webhooks.listAttempts(companyId, id),
        storage.events.get(record.eventId),
      ]);
      return {
        ...toDeliveryView(record),
        attemptLog,
        payload: event && event.companyId === companyId ? sentPayload(event.payload) : null,
      };
    },

    async attempts(companyId, id) {
      await load(companyId, id);
      return webhooks.listAttempts(companyId, id);
    },

    async resend(companyId, id, changeOptions) {
      await load(companyId, id);
      const now = clock.now();
      const record = await storage.transaction(async (tx) => {
        const resent = await tx.webhooks.resendDelivery(companyId, id, now);
        if (resent) {
          const target = { type: "webhook_delivery", id };
          const details = { endpoint_id: resent.endpointId };
          const entry = {
            companyId,
            actor: hostActor(changeOptions),
            action: "webhook_delivery.resent",
            target,
            details,
          };
          await recordAudit(tx, entry, now);
        }
        return resent;
      });
      if (!record) throw notFound("webhook delivery");
      wake();
      return toDeliveryView(record);
    },

    async recover(companyId, endpointId, recoverOptions) {
      const since = recoverOptions?.since;
      if (!(since instanceof Date) || Number.isNaN(since.getTime())) {
        throw new HireportError("invalid", "Say since when to recover failed deliveries.", {
          fields: [{ field: "since", message: "Must be a valid Date." }],
        });
      }
      const limit = recoverOptions.limit ?? 10_000;
      if (!Number.isInteger(limit) || limit < 1) {
        throw new HireportError("invalid", "The recovery limit is not valid.", {
          fields: [{ field: "limit", message: "Must be a positive whole number." }],
        });
      }
      if (!(await webhooks.getEndpoint(companyId, endpointId))) throw notFound("webhook endpoint");
      const now = clock.now();
      let queued = 0;
      let after: KeysetPosition | undefined;
      let more = false;
      while (queued < limit) {
        const take = Math.min(RECOVER_BATCH, limit - queued);
        const batch = await webhooks.recoverFailedDeliveries({
          companyId,
          endpointId,
          since,
          now,
          limit: take,
          ...(after ? { after } : {}),
        });
        queued += batch.length;
        if (batch.length > 0) wake();
        const last = batch.at(-1);
        if (!last || batch.length < take) break;
        after = { at: last.createdAt, id: last.id };
        more = queued >= limit;
      }
      if (queued > 0) {
        await recordAudit(
          storage,
          {
            companyId,
            actor: hostActor(recoverOptions),
            action: "webhook_endpoint.deliveries_recovered",
            target: { type: "webhook_endpoint", id: endpointId },
            details: { count: queued, since: since.toISOString() },
          },
          now,
        );
      }
      return { queued, more };
    },
  };
}
