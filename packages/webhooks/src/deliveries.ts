import {
  DELIVERY_STATUSES,
  type DeliveryAttemptRecord,
  type DeliveryRecord,
  type DeliveryStatus,
  HireportError,
  notFound,
} from "@hireport/core";
import { decodeCursor, encodeCursor } from "./cursor";
import type { ResolvedDispatcherOptions } from "./options";

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
  /** Only deliveries in this state. */
  status?: DeliveryStatus;
  /** The `nextCursor` of the previous page. */
  cursor?: string | null;
  /** Page size, 1 to 100. @default 25 */
  limit?: number;
}

export interface DeliveryPage {
  /** Newest first. */
  data: WebhookDeliveryWithAttempts[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** The delivery log. Every method is scoped to a company: another company's record is not found. */
export interface DeliveryLog {
  /** An endpoint's deliveries, newest first, each with its attempts. */
  list(companyId: string, endpointId: string, options?: DeliveryListOptions): Promise<DeliveryPage>;
  get(companyId: string, id: string): Promise<WebhookDeliveryDetails>;
  attempts(companyId: string, id: string): Promise<DeliveryAttemptRecord[]>;
  /**
   * Sends a delivery again, whatever its state: it becomes pending and due now (after the endpoint
   * is resumed, if it is paused). A delivery whose retries were used up gets one more attempt.
   */
  resend(companyId: string, id: string): Promise<WebhookDelivery>;
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

function checkLimit(limit: unknown): number {
  if (limit === undefined) return 25;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new HireportError("invalid", "The page size is not valid.", {
      fields: [{ field: "limit", message: "an integer from 1 to 100" }],
    });
  }
  return limit;
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
      const limit = checkLimit(listOptions.limit);
      if (listOptions.status !== undefined && !DELIVERY_STATUSES.includes(listOptions.status)) {
        throw new HireportError("invalid", "The status filter is not valid.", {
          fields: [{ field: "status", message: `one of ${DELIVERY_STATUSES.join(", ")}` }],
        });
      }
      const rows = await webhooks.listDeliveries({
        companyId,
        endpointId,
        ...(listOptions.status ? { status: listOptions.status } : {}),
        ...(listOptions.cursor ? { after: decodeCursor(listOptions.cursor) } : {}),
        take: limit + 1,
      });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const hasMore = rows.length > limit;
      const data = await Promise.all(
        page.map(async (record) => ({
          ...toDeliveryView(record),
          attemptLog: await webhooks.listAttempts(companyId, record.id),
        })),
      );
      return {
        data,
        hasMore,
        nextCursor: hasMore && last ? encodeCursor({ at: last.createdAt, id: last.id }) : null,
      };
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
        payload: event && event.companyId === companyId ? event.payload : null,
      };
    },

    async attempts(companyId, id) {
      await load(companyId, id);
      return webhooks.listAttempts(companyId, id);
    },

    async resend(companyId, id) {
      await load(companyId, id);
      const record = await webhooks.resendDelivery(companyId, id, clock.now());
      if (!record) throw notFound("webhook delivery");
      wake();
      return toDeliveryView(record);
    },
  };
}
