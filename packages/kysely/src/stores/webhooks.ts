import type {
  AnyEventType,
  ClaimedDelivery,
  DeliveryAttemptRecord,
  DeliveryRecord,
  DeliveryStatus,
  EndpointPatch,
  EventType,
  WebhookEndpointRecord,
  WebhookSecret,
  WebhookStore,
} from "@hireport/core";
import { sql, type Updateable } from "kysely";
import type { StoreContext } from "../context";
import type { WebhookAttemptTable, WebhookDeliveryTable, WebhookEndpointTable } from "../schema";
import { fromDb, readBool, readJson, readNumber } from "../values";
import { afterPosition } from "./keyset";

interface StoredSecret {
  secret: string;
  expiresAt: string | null;
}

function toEndpoint(row: WebhookEndpointTable): WebhookEndpointRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    url: row.url,
    description: row.description,
    events: readJson<EventType[]>(row.events, []),
    status: row.status as WebhookEndpointRecord["status"],
    pausedReason: row.paused_reason as WebhookEndpointRecord["pausedReason"],
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

function secretsJson(secrets: readonly WebhookSecret[]): string {
  return JSON.stringify(
    secrets.map(
      (secret): StoredSecret => ({ secret: secret.secret, expiresAt: secret.expiresAt?.toISOString() ?? null }),
    ),
  );
}

function toDelivery(row: WebhookDeliveryTable): DeliveryRecord {
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

function toAttempt(row: WebhookAttemptTable): DeliveryAttemptRecord {
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

/** Due first, then by id: the order deliveries are claimed in. */
function byDue(a: DeliveryRecord, b: DeliveryRecord): number {
  const diff = (a.nextAttemptAt?.getTime() ?? 0) - (b.nextAttemptAt?.getTime() ?? 0);
  if (diff !== 0) return diff;
  return a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function createWebhookStore(ctx: StoreContext): WebhookStore {
  const endpointsBy = async (ids: readonly string[]): Promise<Map<string, WebhookEndpointRecord>> => {
    if (ids.length === 0) return new Map();
    const rows = await ctx.db
      .selectFrom(ctx.tableAs("webhook_endpoint", "e"))
      .select(ctx.columns("webhook_endpoint", "e"))
      .where("e.id", "in", [...new Set(ids)])
      .$castTo<WebhookEndpointTable>()
      .execute();
    return new Map(rows.map((row) => [row.id, toEndpoint(row)]));
  };

  const getEndpoint: WebhookStore["getEndpoint"] = async (companyId, id) => {
    const row = await ctx.db
      .selectFrom(ctx.tableAs("webhook_endpoint", "e"))
      .select(ctx.columns("webhook_endpoint", "e"))
      .where("e.id", "=", id)
      .where("e.company_id", "=", companyId)
      .$castTo<WebhookEndpointTable>()
      .executeTakeFirst();
    return row ? toEndpoint(row) : null;
  };

  const getDelivery: WebhookStore["getDelivery"] = async (companyId, id) => {
    const row = await ctx.db
      .selectFrom(ctx.tableAs("webhook_delivery", "d"))
      .select(ctx.columns("webhook_delivery", "d"))
      .where("d.id", "=", id)
      .where("d.company_id", "=", companyId)
      .$castTo<WebhookDeliveryTable>()
      .executeTakeFirst();
    return row ? toDelivery(row) : null;
  };

  /** The ids of due, unleased deliveries of active endpoints, in claim order. */
  const dueIds = (c: StoreContext, options: Parameters<WebhookStore["claimDueDeliveries"]>[0]) => {
    const now = c.toDb(options.now);
    let query = c.db
      .selectFrom(c.tableAs("webhook_delivery", "d"))
      .select("d.id")
      .where("d.status", "=", "pending")
      .where("d.next_attempt_at", "<=", now)
      .where((eb) => eb.or([eb("d.lease_expires_at", "is", null), eb("d.lease_expires_at", "<=", now)]))
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom(c.tableAs("webhook_endpoint", "e"))
            .select("e.id")
            .whereRef("e.id", "=", "d.endpoint_id")
            .where("e.status", "=", "active"),
        ),
      );
    if (options.excludeEndpointIds && options.excludeEndpointIds.length > 0) {
      query = query.where("d.endpoint_id", "not in", [...options.excludeEndpointIds]);
    }
    return query.orderBy("d.next_attempt_at", "asc").orderBy("d.id", "asc").limit(Math.max(0, options.limit));
  };

  async function withPayloads(deliveries: DeliveryRecord[]): Promise<ClaimedDelivery[]> {
    if (deliveries.length === 0) return [];
    const endpoints = await endpointsBy(deliveries.map((delivery) => delivery.endpointId));
    const events = await ctx.db
      .selectFrom(ctx.tableAs("event", "ev"))
      .select(["ev.id", "ev.payload"])
      .where("ev.id", "in", [...new Set(deliveries.map((delivery) => delivery.eventId))])
      .execute();
    const payloads = new Map(events.map((event) => [event.id, event.payload]));
    const claimed: ClaimedDelivery[] = [];
    for (const delivery of deliveries.sort(byDue)) {
      const endpoint = endpoints.get(delivery.endpointId);
      const payload = payloads.get(delivery.eventId);
      if (endpoint && payload !== undefined) claimed.push({ delivery, endpoint, payload });
    }
    return claimed;
  }

  return {
    async insertEndpoint(record) {
      await ctx.db
        .insertInto(ctx.table("webhook_endpoint"))
        .values({
          id: record.id,
          company_id: record.companyId,
          url: record.url,
          description: record.description,
          events: JSON.stringify(record.events),
          status: record.status,
          paused_reason: record.pausedReason,
          secrets: secretsJson(record.secrets),
          consecutive_failures: record.consecutiveFailures,
          created_at: ctx.toDb(record.createdAt),
          updated_at: ctx.toDb(record.updatedAt),
        })
        .execute();
    },

    getEndpoint,

    async listEndpoints(companyId) {
      const rows = await ctx.db
        .selectFrom(ctx.tableAs("webhook_endpoint", "e"))
        .select(ctx.columns("webhook_endpoint", "e"))
        .where("e.company_id", "=", companyId)
        .orderBy("e.created_at", "asc")
        .orderBy("e.id", "asc")
        .$castTo<WebhookEndpointTable>()
        .execute();
      return rows.map(toEndpoint);
    },

    async updateEndpoint(companyId, id, patch: EndpointPatch) {
      const set: Updateable<WebhookEndpointTable> = { updated_at: ctx.toDb(patch.updatedAt) };
      if (patch.url !== undefined) set.url = patch.url;
      if (patch.description !== undefined) set.description = patch.description;
      if (patch.events !== undefined) set.events = JSON.stringify(patch.events);
      if (patch.status !== undefined) set.status = patch.status;
      if (patch.pausedReason !== undefined) set.paused_reason = patch.pausedReason;
      if (patch.secrets !== undefined) set.secrets = secretsJson(patch.secrets);
      if (patch.consecutiveFailures !== undefined) set.consecutive_failures = patch.consecutiveFailures;
      await ctx.db
        .updateTable(ctx.table("webhook_endpoint"))
        .set(set)
        .where("id", "=", id)
        .where("company_id", "=", companyId)
        .execute();
      return getEndpoint(companyId, id);
    },

    deleteEndpoint: (companyId, id) =>
      ctx.atomic(async (tx) => {
        const deleted = await tx.db
          .deleteFrom(tx.table("webhook_endpoint"))
          .where("id", "=", id)
          .where("company_id", "=", companyId)
          .executeTakeFirst();
        if (Number(deleted.numDeletedRows) === 0) return false;
        await tx.db.deleteFrom(tx.table("webhook_attempt")).where("endpoint_id", "=", id).execute();
        await tx.db.deleteFrom(tx.table("webhook_delivery")).where("endpoint_id", "=", id).execute();
        return true;
      }),

    async listSubscribedEndpoints(companyId, type) {
      const rows = await ctx.db
        .selectFrom(ctx.tableAs("webhook_endpoint", "e"))
        .select(ctx.columns("webhook_endpoint", "e"))
        .where("e.company_id", "=", companyId)
        .where("e.status", "in", ["active", "paused"])
        .orderBy("e.created_at", "asc")
        .orderBy("e.id", "asc")
        .$castTo<WebhookEndpointTable>()
        .execute();
      return rows.map(toEndpoint).filter((endpoint) => endpoint.events.includes(type));
    },

    async insertDeliveries(records) {
      if (records.length === 0) return;
      await ctx.db
        .insertInto(ctx.table("webhook_delivery"))
        .values(
          records.map((record) => ({
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
          })),
        )
        .execute();
    },

    async claimDueDeliveries(options) {
      if (options.limit <= 0) return [];
      const lease = { lease_token: options.leaseToken, lease_expires_at: ctx.toDb(options.leaseUntil) };
      if (ctx.returning) {
        // Postgres: skip rows another dispatcher holds; SQLite: one statement is a compare-and-set
        // under the database's write lock.
        const candidates =
          ctx.dialect === "postgres" ? dueIds(ctx, options).forUpdate("d").skipLocked() : dueIds(ctx, options);
        const rows = await ctx.db
          .updateTable(ctx.table("webhook_delivery"))
          .set(lease)
          .where("id", "in", candidates)
          .returningAll()
          .execute();
        return withPayloads(rows.map(toDelivery));
      }
      // MySQL/MariaDB lock every row a locking read touches, the endpoint rows of the join
      // included, which would make concurrent dispatchers skip each other's endpoints. So: pick
      // candidates with a plain read, then lock the delivery rows alone (by primary key) with
      // SKIP LOCKED, checking again that they are due and unleased, and lease them.
      const candidates = (await dueIds(ctx, { ...options, limit: options.limit * 4 }).execute()).map((row) => row.id);
      if (candidates.length === 0) return [];
      const deliveries = await ctx.atomic(async (tx) => {
        const now = tx.toDb(options.now);
        const locked = await tx.db
          .selectFrom(tx.tableAs("webhook_delivery", "d"))
          .select("d.id")
          .where("d.id", "in", candidates)
          .where("d.status", "=", "pending")
          .where("d.next_attempt_at", "<=", now)
          .where((eb) => eb.or([eb("d.lease_expires_at", "is", null), eb("d.lease_expires_at", "<=", now)]))
          .orderBy("d.next_attempt_at", "asc")
          .orderBy("d.id", "asc")
          .limit(options.limit)
          .forUpdate()
          .skipLocked()
          .execute();
        const ids = locked.map((row) => row.id);
        if (ids.length === 0) return [];
        await tx.db.updateTable(tx.table("webhook_delivery")).set(lease).where("id", "in", ids).execute();
        const rows = await tx.db
          .selectFrom(tx.tableAs("webhook_delivery", "d"))
          .select(tx.columns("webhook_delivery", "d"))
          .where("d.id", "in", ids)
          .$castTo<WebhookDeliveryTable>()
          .execute();
        return rows.map(toDelivery);
      });
      return withPayloads(deliveries);
    },

    recordAttempt: (deliveryId, leaseToken, outcome) =>
      ctx.atomic(async (tx) => {
        const delivery = await tx.db
          .selectFrom(tx.tableAs("webhook_delivery", "d"))
          .select(["d.endpoint_id", "d.company_id", "d.lease_token"])
          .where("d.id", "=", deliveryId)
          .executeTakeFirst();
        if (!delivery) return { recorded: false, endpoint: null };
        const held = await tx.db
          .updateTable(tx.table("webhook_delivery"))
          .set({
            status: outcome.status,
            attempts: sql<number>`${sql.ref("attempts")} + 1`,
            next_attempt_at: tx.toDb(outcome.nextAttemptAt),
            lease_token: null,
            lease_expires_at: null,
            updated_at: tx.toDb(outcome.attempt.attemptedAt),
          })
          .where("id", "=", deliveryId)
          .where("lease_token", "=", leaseToken)
          .executeTakeFirst();
        if (Number(held.numUpdatedRows) === 0) {
          return {
            recorded: false,
            endpoint: await createWebhookStore(tx).getEndpoint(delivery.company_id, delivery.endpoint_id),
          };
        }
        const attempt = outcome.attempt;
        await tx.db
          .insertInto(tx.table("webhook_attempt"))
          .values({
            id: attempt.id,
            delivery_id: deliveryId,
            endpoint_id: delivery.endpoint_id,
            attempted_at: tx.toDb(attempt.attemptedAt),
            status_code: attempt.statusCode,
            duration_ms: attempt.durationMs,
            response_body: attempt.responseBody,
            error: attempt.error,
            succeeded: tx.bool(attempt.succeeded),
          })
          .execute();
        const endpoints = tx.table("webhook_endpoint");
        if (outcome.failureCount === "reset") {
          await tx.db
            .updateTable(endpoints)
            .set({ consecutive_failures: 0 })
            .where("id", "=", delivery.endpoint_id)
            .execute();
        } else if (outcome.failureCount === "increment") {
          const failures = sql.ref("consecutive_failures");
          const status = sql.ref("status");
          const reaches = sql<boolean>`${status} = 'active' and ${failures} + 1 >= ${outcome.pauseAfter}`;
          // Assignment order matters on MySQL, which evaluates each with the values already set.
          await tx.db
            .updateTable(endpoints)
            .set({
              updated_at: sql<string>`case when ${reaches} then ${tx.toDb(attempt.attemptedAt)} else ${sql.ref("updated_at")} end`,
              paused_reason: sql<string>`case when ${reaches} then 'failures' else ${sql.ref("paused_reason")} end`,
              status: sql<string>`case when ${reaches} then 'paused' else ${status} end`,
              consecutive_failures: sql<number>`${failures} + 1`,
            })
            .where("id", "=", delivery.endpoint_id)
            .execute();
        }
        return {
          recorded: true,
          endpoint: await createWebhookStore(tx).getEndpoint(delivery.company_id, delivery.endpoint_id),
        };
      }),

    getDelivery,

    async listDeliveries(query) {
      let select = ctx.db
        .selectFrom(ctx.tableAs("webhook_delivery", "d"))
        .select(ctx.columns("webhook_delivery", "d"))
        .where("d.endpoint_id", "=", query.endpointId);
      if (query.status !== undefined) select = select.where("d.status", "=", query.status);
      const after = query.after;
      if (after) select = select.where((eb) => afterPosition(ctx, eb, "d.created_at", "d.id", after));
      const rows = await ctx.list(
        select
          .orderBy("d.created_at", "desc")
          .orderBy("d.id", "desc")
          .limit(Math.max(0, query.take))
          .$castTo<WebhookDeliveryTable>(),
        "webhook_delivery",
        "d",
        query.status !== undefined ? "endpoint_status_created" : "endpoint_created",
      );
      return rows.map(toDelivery);
    },

    async listAttempts(deliveryId) {
      const rows = await ctx.db
        .selectFrom(ctx.tableAs("webhook_attempt", "t"))
        .select(ctx.columns("webhook_attempt", "t"))
        .where("t.delivery_id", "=", deliveryId)
        .orderBy("t.attempted_at", "asc")
        .orderBy("t.seq", "asc")
        .$castTo<WebhookAttemptTable>()
        .execute();
      return rows.map(toAttempt);
    },

    async resendDelivery(companyId, id, now) {
      await ctx.db
        .updateTable(ctx.table("webhook_delivery"))
        .set({
          status: "pending",
          next_attempt_at: ctx.toDb(now),
          lease_token: null,
          lease_expires_at: null,
          updated_at: ctx.toDb(now),
        })
        .where("id", "=", id)
        .where("company_id", "=", companyId)
        .execute();
      return getDelivery(companyId, id);
    },

    purgeDeliveries: (before) =>
      ctx.atomic(async (tx) => {
        const finished = tx.db
          .selectFrom(tx.tableAs("webhook_delivery", "d"))
          .select("d.id")
          .where("d.status", "<>", "pending")
          .where("d.created_at", "<", tx.toDb(before));
        await tx.db.deleteFrom(tx.table("webhook_attempt")).where("delivery_id", "in", finished).execute();
        const deleted = await tx.db
          .deleteFrom(tx.table("webhook_delivery"))
          .where("status", "<>", "pending")
          .where("created_at", "<", tx.toDb(before))
          .executeTakeFirst();
        return Number(deleted.numDeletedRows);
      }),
  };
}
