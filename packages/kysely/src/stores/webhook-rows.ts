/** Webhook endpoints, deliveries and attempts: rows to records, records to rows, and endpoint reads by id. */
import type { EventType } from "@hireport/core";
import type { AnyEventType, DeliveryStatus } from "@hireport/core/schemas";
import type { EventDelivery } from "@hireport/core/storage";
import type { DeliveryAttemptRecord, DeliveryRecord, WebhookEndpointRecord, WebhookSecret } from "@hireport/webhooks";
import type { StoreContext } from "../context";
import type { WebhookAttemptTable, WebhookDeliveryTable, WebhookEndpointTable } from "../schema";
import { fromDb, readBool, readJson, readNumber } from "../values";
import { selectAll } from "./rows";

interface StoredSecret {
  secret: string;
  expiresAt: string | null;
}

export function toEndpoint(row: WebhookEndpointTable): WebhookEndpointRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    url: row.url,
    description: row.description,
    events: readJson<EventType[]>(row.events, []),
    status: row.status as WebhookEndpointRecord["status"],
    pausedReason: row.paused_reason as WebhookEndpointRecord["pausedReason"],
    signatureScheme: row.signature_scheme as WebhookEndpointRecord["signatureScheme"],
    ordered: readBool(row.ordered),
    maxPerSecond: row.max_per_second === null ? null : readNumber(row.max_per_second),
    secrets: readJson<StoredSecret[]>(row.secrets, []).map(
      (secret): WebhookSecret => ({
        secret: secret.secret,
        expiresAt: secret.expiresAt === null ? null : new Date(secret.expiresAt),
      }),
    ),
    consecutiveFailures: readNumber(row.consecutive_failures),
    createdAt: fromDb(row.created_at),
    updatedAt: fromDb(row.updated_at),
  };
}

export function secretsJson(secrets: readonly WebhookSecret[]): string {
  return JSON.stringify(
    secrets.map(
      (secret): StoredSecret => ({ secret: secret.secret, expiresAt: secret.expiresAt?.toISOString() ?? null }),
    ),
  );
}

/** The columns of an endpoint row. */
export function endpointRow(ctx: StoreContext, record: WebhookEndpointRecord) {
  const row = {
    id: record.id,
    company_id: record.companyId,
    url: record.url,
    description: record.description,
    events: JSON.stringify(record.events),
    status: record.status,
    paused_reason: record.pausedReason,
    signature_scheme: record.signatureScheme,
    secrets: secretsJson(record.secrets),
    consecutive_failures: record.consecutiveFailures,
    created_at: ctx.toDb(record.createdAt),
    updated_at: ctx.toDb(record.updatedAt),
    ordered: ctx.bool(record.ordered),
    max_per_second: record.maxPerSecond,
    throttle_window_at: null,
    throttle_count: 0,
  } satisfies Record<keyof WebhookEndpointTable, unknown>;
  return row;
}

export function toDelivery(row: WebhookDeliveryTable): DeliveryRecord {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    companyId: row.company_id,
    eventId: row.event_id,
    eventType: row.event_type as AnyEventType,
    status: row.status as DeliveryStatus,
    attempts: readNumber(row.attempts),
    nextAttemptAt: fromDb(row.next_attempt_at),
    leaseExpiresAt: fromDb(row.lease_expires_at),
    leaseToken: row.lease_token,
    createdAt: fromDb(row.created_at),
    updatedAt: fromDb(row.updated_at),
  };
}

/** The columns of a delivery row: core's `EventDelivery`, which the outbox's fan-out writes. */
export function deliveryRow(ctx: StoreContext, record: EventDelivery) {
  const row = {
    id: record.id,
    endpoint_id: record.endpointId,
    company_id: record.companyId,
    event_id: record.eventId,
    event_type: record.eventType,
    status: record.status,
    attempts: record.attempts,
    next_attempt_at: ctx.toDb(record.nextAttemptAt),
    lease_expires_at: ctx.toDb(record.leaseExpiresAt),
    lease_token: record.leaseToken,
    created_at: ctx.toDb(record.createdAt),
    updated_at: ctx.toDb(record.updatedAt),
  } satisfies Record<keyof WebhookDeliveryTable, unknown>;
  return row;
}

export function toAttempt(row: WebhookAttemptTable): DeliveryAttemptRecord {
  return {
    id: row.id,
    deliveryId: row.delivery_id,
    endpointId: row.endpoint_id,
    attemptedAt: fromDb(row.attempted_at),
    statusCode: readNumber(row.status_code),
    durationMs: readNumber(row.duration_ms),
    responseBody: row.response_body,
    error: row.error,
    succeeded: readBool(row.succeeded),
  };
}

/** The endpoints with these ids (any company), by id. */
export async function endpointsById(
  ctx: StoreContext,
  ids: readonly string[],
): Promise<Map<string, WebhookEndpointRecord>> {
  if (ids.length === 0) return new Map();
  const rows = await selectAll(ctx, "webhook_endpoint", "e")
    .where("e.id", "in", [...new Set(ids)])
    .$castTo<WebhookEndpointTable>()
    .execute();
  return new Map(rows.map((row) => [row.id, toEndpoint(row)]));
}
