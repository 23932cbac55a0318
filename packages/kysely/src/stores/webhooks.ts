import type {
  AnyEventType,
  AttemptToRecord,
  ClaimedDelivery,
  ClaimOptions,
  DeliveryAttemptRecord,
  DeliveryRecord,
  DeliveryStatus,
  EndpointPatch,
  EventType,
  WebhookEndpointRecord,
  WebhookSecret,
  WebhookStore,
} from "@hireport/core";
import { type Compilable, type QueryCreator, type QueryResult, type RawBuilder, sql, type Updateable } from "kysely";
import type { StoreContext } from "../context";
import type { HireportDatabase, WebhookAttemptTable, WebhookDeliveryTable, WebhookEndpointTable } from "../schema";
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

/** Reads of candidates a claim makes at most; each leaves out the endpoints already at their share. */
const CANDIDATE_ROUNDS = 4;
/** How many times its limit a claim reads as candidates on Postgres and MySQL/MariaDB. */
const CANDIDATE_SPREAD = 4;
/** Deliveries released per statement. */
const RELEASE_CHUNK = 500;
/** Attempts recorded per statement by `recordAttempts` (all of them in one transaction). */
const RECORD_CHUNK = 200;

interface DueRow {
  id: string;
  endpoint_id: string;
}

/** The rows, in order, that fit in `limit` with at most `perEndpoint` of one endpoint. */
function withinLimits<R extends DueRow>(rows: readonly R[], limit: number, perEndpoint: number): R[] {
  const counts = new Map<string, number>();
  const kept: R[] = [];
  for (const row of rows) {
    if (kept.length >= limit) break;
    const count = counts.get(row.endpoint_id) ?? 0;
    if (count >= perEndpoint) continue;
    counts.set(row.endpoint_id, count + 1);
    kept.push(row);
  }
  return kept;
}

/**
 * Runs a statement on delivery rows picked by primary key (`id IN (…)`). On MySQL/MariaDB it
 * carries `FORCE INDEX (PRIMARY)`: on a small table MariaDB otherwise walks the whole primary key
 * for an `UPDATE … WHERE id IN (…)` (and the `due` index for the locking read), waiting on rows
 * outside the list, such as the one an outbox transaction has just inserted; that transaction's
 * next insert then waits on the claim, a deadlock in which MariaDB rolls back the outbox write.
 * `alias` names the table of a `select … from`; null for an `update`.
 */
function byPrimaryKey<R>(c: StoreContext, query: Compilable<R>, alias: string | null): Promise<QueryResult<R>> {
  const compiled = query.compile();
  if (c.dialect !== "mysql") return c.db.executeQuery(compiled);
  const table = `\`${c.table("webhook_delivery")}\``;
  const target = alias === null ? `update ${table}` : `from ${table} as \`${alias}\``;
  if (!compiled.sql.includes(target)) throw new Error(`Cannot place an index hint in: ${compiled.sql}`);
  return c.db.executeQuery<R>({ ...compiled, sql: compiled.sql.replace(target, `${target} force index (PRIMARY)`) });
}

/** Due first, then by id: the order deliveries are claimed in. */
function byDue(a: DeliveryRecord, b: DeliveryRecord): number {
  const diff = (a.nextAttemptAt?.getTime() ?? 0) - (b.nextAttemptAt?.getTime() ?? 0);
  if (diff !== 0) return diff;
  return a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** A date parameter typed as the column's type, where an untyped parameter would not do (in a `case`). */
function dateValue(c: StoreContext, value: Date | null) {
  const param = c.toDb(value);
  if (c.dialect === "postgres") return sql`cast(${param} as timestamptz)`;
  if (c.dialect === "mysql") return sql`cast(${param} as datetime(3))`;
  return sql`${param}`;
}

/** `case id when … then … end`: one value per row of a multi-row update. */
function byId<T>(rows: ReadonlyArray<readonly [string, RawBuilder<unknown> | string | number | null]>) {
  return sql<T>`case ${sql.ref("id")} ${sql.join(
    rows.map(([id, value]) => sql`when ${id} then ${value}`),
    sql` `,
  )} end`;
}

interface HeldAttempt {
  index: number;
  item: AttemptToRecord;
  endpointId: string;
}

/** An endpoint's failure state as one attempt of a batch left it. */
interface FailureState {
  status: string;
  pausedReason: string | null;
  failures: number;
  updatedAt: Date;
}

/**
 * The failure counts of one endpoint after the attempts of a batch, in order, like one
 * `recordAttempt` after another: the state each attempt left (`states`), which one paused it, and
 * what to write (null: nothing changes).
 */
function endpointAfter(
  current: FailureState,
  held: readonly HeldAttempt[],
  paused: Set<number>,
  states: Map<number, FailureState>,
  toDb: (date: Date) => string,
): Updateable<WebhookEndpointTable> | null {
  let state = current;
  let changed = false;
  for (const { index, item } of held) {
    const { outcome } = item;
    const at = outcome.attempt.attemptedAt;
    if (outcome.failureCount === "increment") {
      state = { ...state, failures: state.failures + 1, updatedAt: at };
      changed = true;
      if (state.status === "active" && state.failures >= outcome.pauseAfter) {
        state = { ...state, status: "paused", pausedReason: "failures" };
        paused.add(index);
      }
    } else if (outcome.failureCount === "reset" && state.failures !== 0) {
      state = { ...state, failures: 0, updatedAt: at };
      changed = true;
    }
    states.set(index, state);
  }
  if (!changed) return null;
  const set: Updateable<WebhookEndpointTable> = {
    consecutive_failures: state.failures,
    updated_at: toDb(state.updatedAt),
  };
  if (state.status !== current.status) {
    set.status = state.status;
    set.paused_reason = state.pausedReason;
  }
  return set;
}

/**
 * The company's endpoints that may be subscribed to an event (active and paused: paused ones queue
 * events), oldest first; `subscribedOf` keeps those whose event list names the type. `db` may carry
 * a `WITH` (the event's insert, in `appendAndListSubscribers`).
 */
export function subscribedEndpointsQuery(ctx: StoreContext, db: QueryCreator<HireportDatabase>, companyId: string) {
  return db
    .selectFrom(ctx.tableAs("webhook_endpoint", "e"))
    .select(ctx.columns("webhook_endpoint", "e"))
    .where("e.company_id", "=", companyId)
    .where("e.status", "in", ["active", "paused"])
    .orderBy("e.created_at", "asc")
    .orderBy("e.id", "asc")
    .$castTo<WebhookEndpointTable>();
}

export function subscribedOf(rows: readonly WebhookEndpointTable[], type: EventType): WebhookEndpointRecord[] {
  return rows.map(toEndpoint).filter((endpoint) => endpoint.events.includes(type));
}

export function createWebhookStore(ctx: StoreContext): WebhookStore {
  const endpointsOf = async (c: StoreContext, ids: readonly string[]): Promise<Map<string, WebhookEndpointRecord>> => {
    if (ids.length === 0) return new Map();
    const rows = await c.db
      .selectFrom(c.tableAs("webhook_endpoint", "e"))
      .select(c.columns("webhook_endpoint", "e"))
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

  /**
   * Due, unleased deliveries of active endpoints, in claim order, leaving out the endpoints and the
   * deliveries given. Select the columns and set the limit on the result.
   */
  const dueQuery = (
    c: StoreContext,
    options: ClaimOptions,
    skipEndpointIds: readonly string[] = options.excludeEndpointIds ?? [],
    skipIds: readonly string[] = [],
  ) => {
    const now = c.toDb(options.now);
    let query = c.db
      .selectFrom(c.tableAs("webhook_delivery", "d"))
      .where("d.status", "=", "pending")
      .where("d.next_attempt_at", "<=", now)
      .where((eb) => eb.or([eb("d.lease_expires_at", "is", null), eb("d.lease_expires_at", "<=", now)]))
      // `not in` the (few) endpoints not active, not `exists` an active one: Postgres turns the
      // `exists` into a join that reads every pending delivery of every endpoint and sorts them
      // (tens of ms under a backlog), where this keeps one ordered walk of the `due` index, cut by
      // the limit, with the subquery run once and hashed.
      .where(
        "d.endpoint_id",
        "not in",
        c.db.selectFrom(c.tableAs("webhook_endpoint", "e")).select("e.id").where("e.status", "<>", "active"),
      );
    if (skipEndpointIds.length > 0) query = query.where("d.endpoint_id", "not in", [...skipEndpointIds]);
    if (skipIds.length > 0) query = query.where("d.id", "not in", [...skipIds]);
    return query.orderBy("d.next_attempt_at", "asc").orderBy("d.id", "asc");
  };

  /**
   * Candidates of a claim by plain reads, in claim order: at most `limit`, at most `perEndpoint` of
   * one endpoint. When the first rows are mostly one endpoint's, the next read leaves that endpoint
   * out, so the claim fills up with other endpoints' deliveries (a few reads at most).
   */
  async function pickCandidates(c: StoreContext, options: ClaimOptions, limit: number, perEndpoint: number) {
    const picked: DueRow[] = [];
    const counts = new Map<string, number>();
    const skip = new Set(options.excludeEndpointIds ?? []);
    for (let round = 0; round < CANDIDATE_ROUNDS && picked.length < limit; round += 1) {
      const take = limit - picked.length;
      const rows = await dueQuery(
        c,
        options,
        [...skip],
        picked.map((row) => row.id),
      )
        .select(["d.id", "d.endpoint_id"])
        .limit(take)
        .execute();
      for (const row of rows) {
        const count = counts.get(row.endpoint_id) ?? 0;
        if (count >= perEndpoint) continue;
        counts.set(row.endpoint_id, count + 1);
        picked.push(row);
        if (count + 1 >= perEndpoint) skip.add(row.endpoint_id);
      }
      if (rows.length < take) break;
    }
    return picked;
  }

  /**
   * A claim in one transaction: candidates by plain reads, then the delivery rows alone locked by
   * primary key (`FOR UPDATE SKIP LOCKED` on Postgres and MySQL/MariaDB; SQLite's transaction holds
   * the write lock), due and unleased checked again, cut to `limit` and `maxPerEndpoint`, leased.
   * Locking only delivery rows by primary key keeps MySQL/MariaDB from locking endpoint rows or
   * gaps that outbox inserts and other claims need.
   */
  const claimInTransaction = (options: ClaimOptions) =>
    ctx.atomic(async (tx) => {
      const perEndpoint = options.maxPerEndpoint ?? Number.POSITIVE_INFINITY;
      // Reading more candidates than it takes lets concurrent claims, which read the same first
      // rows, each find rows the others have not locked. SQLite runs one claim at a time.
      const spread = tx.dialect === "sqlite" ? 1 : CANDIDATE_SPREAD;
      const candidates = await pickCandidates(tx, options, options.limit * spread, perEndpoint * spread);
      if (candidates.length === 0) return [];
      const now = tx.toDb(options.now);
      let lock = tx.db
        .selectFrom(tx.tableAs("webhook_delivery", "d"))
        .select(["d.id", "d.endpoint_id"])
        .where(
          "d.id",
          "in",
          candidates.map((row) => row.id),
        )
        .where("d.status", "=", "pending")
        .where("d.next_attempt_at", "<=", now)
        .where((eb) => eb.or([eb("d.lease_expires_at", "is", null), eb("d.lease_expires_at", "<=", now)]))
        .orderBy("d.next_attempt_at", "asc")
        .orderBy("d.id", "asc");
      // Without a limit per endpoint the database may cut the locked rows; with one, rows beyond an
      // endpoint's share are locked until the commit but not leased.
      if (options.maxPerEndpoint === undefined) lock = lock.limit(options.limit);
      const locked = (await byPrimaryKey(tx, tx.dialect === "sqlite" ? lock : lock.forUpdate().skipLocked(), "d")).rows;
      const ids = withinLimits(locked, options.limit, perEndpoint).map((row) => row.id);
      if (ids.length === 0) return [];
      const lease = { lease_token: options.leaseToken, lease_expires_at: tx.toDb(options.leaseUntil) };
      const update = tx.db.updateTable(tx.table("webhook_delivery")).set(lease).where("id", "in", ids);
      if (tx.returning) return (await update.returningAll().execute()).map(toDelivery);
      await byPrimaryKey(tx, update, null);
      const rows = await tx.db
        .selectFrom(tx.tableAs("webhook_delivery", "d"))
        .select(tx.columns("webhook_delivery", "d"))
        .where("d.id", "in", ids)
        .$castTo<WebhookDeliveryTable>()
        .execute();
      return rows.map(toDelivery);
    });

  /**
   * `recordAttempts` in a transaction, in a few statements whatever the size of the batch: the
   * delivery rows locked and read at once (by primary key, in id order), one multi-row update of
   * them (`case id when …`), one multi-row insert of the attempts, the endpoints' failure counts
   * (a conditional reset in one statement; endpoint rows locked, after the delivery rows like every
   * writer of both, only where a failure may pause them), and one read of the endpoints.
   */
  async function recordBatch(tx: StoreContext, items: readonly AttemptToRecord[]) {
    const ids = [...new Set(items.map((item) => item.deliveryId))];
    const rows: { id: string; endpoint_id: string; lease_token: string | null }[] = [];
    for (let start = 0; start < ids.length; start += RECORD_CHUNK) {
      const read = tx.db
        .selectFrom(tx.tableAs("webhook_delivery", "d"))
        .select(["d.id", "d.endpoint_id", "d.lease_token"])
        .where("d.id", "in", ids.slice(start, start + RECORD_CHUNK))
        .orderBy("d.id", "asc");
      rows.push(...(await byPrimaryKey(tx, tx.dialect === "sqlite" ? read : read.forUpdate(), "d")).rows);
    }
    const byDelivery = new Map(rows.map((row) => [row.id, row]));
    const held: HeldAttempt[] = [];
    const taken = new Set<string>();
    items.forEach((item, index) => {
      const row = byDelivery.get(item.deliveryId);
      if (!row || taken.has(item.deliveryId) || row.lease_token === null || row.lease_token !== item.leaseToken) return;
      taken.add(item.deliveryId);
      held.push({ index, item, endpointId: row.endpoint_id });
    });

    for (let start = 0; start < held.length; start += RECORD_CHUNK) {
      const chunk = held.slice(start, start + RECORD_CHUNK);
      const update = tx.db
        .updateTable(tx.table("webhook_delivery"))
        .set({
          status: byId<string>(chunk.map(({ item }) => [item.deliveryId, item.outcome.status])),
          attempts: sql<number>`${sql.ref("attempts")} + 1`,
          next_attempt_at: byId<string>(
            chunk.map(({ item }) => [item.deliveryId, dateValue(tx, item.outcome.nextAttemptAt)]),
          ),
          lease_token: null,
          lease_expires_at: null,
          updated_at: byId<string>(
            chunk.map(({ item }) => [item.deliveryId, dateValue(tx, item.outcome.attempt.attemptedAt)]),
          ),
        })
        .where(
          "id",
          "in",
          chunk.map(({ item }) => item.deliveryId),
        );
      await byPrimaryKey(tx, update, null);
      await tx.db
        .insertInto(tx.table("webhook_attempt"))
        .values(
          chunk.map(({ item, endpointId }) => {
            const attempt = item.outcome.attempt;
            return {
              id: attempt.id,
              delivery_id: item.deliveryId,
              endpoint_id: endpointId,
              attempted_at: tx.toDb(attempt.attemptedAt),
              status_code: attempt.statusCode,
              duration_ms: attempt.durationMs,
              response_body: attempt.responseBody,
              error: attempt.error,
              succeeded: tx.bool(attempt.succeeded),
            };
          }),
        )
        .execute();
    }

    // Failure counts, endpoint by endpoint, in the order of the items.
    const perEndpoint = new Map<string, HeldAttempt[]>();
    for (const entry of held) {
      if (entry.item.outcome.failureCount === "none") continue;
      const list = perEndpoint.get(entry.endpointId) ?? [];
      list.push(entry);
      perEndpoint.set(entry.endpointId, list);
    }
    const paused = new Set<number>();
    const states = new Map<number, FailureState>();
    const failing = [...perEndpoint].filter(([, list]) =>
      list.some(({ item }) => item.outcome.failureCount === "increment"),
    );
    const resetOnly = [...perEndpoint].filter(
      ([, list]) => !list.some(({ item }) => item.outcome.failureCount === "increment"),
    );
    if (resetOnly.length > 0) {
      // A success resets the count; where it is 0 already nothing is written (nor locked).
      await tx.db
        .updateTable(tx.table("webhook_endpoint"))
        .set({
          consecutive_failures: 0,
          updated_at: byId<string>(
            resetOnly.map(([endpointId, list]) => [
              endpointId,
              dateValue(tx, list[0]?.item.outcome.attempt.attemptedAt ?? null),
            ]),
          ),
        })
        .where(
          "id",
          "in",
          resetOnly.map(([endpointId]) => endpointId),
        )
        .where("consecutive_failures", "<>", 0)
        .execute();
    }
    if (failing.length > 0) {
      // Lock the endpoint rows and decide here: concurrent batches of one endpoint queue on the
      // lock, so exactly one attempt sees the count reach the threshold and reports the pause.
      const read = tx.db
        .selectFrom(tx.tableAs("webhook_endpoint", "e"))
        .select(["e.id", "e.status", "e.paused_reason", "e.consecutive_failures", "e.updated_at"])
        .where(
          "e.id",
          "in",
          failing.map(([endpointId]) => endpointId),
        )
        .orderBy("e.id", "asc");
      const current = await (tx.dialect === "sqlite" ? read : read.forUpdate()).execute();
      for (const row of current) {
        const list = perEndpoint.get(row.id) ?? [];
        const current: FailureState = {
          status: row.status,
          pausedReason: row.paused_reason,
          failures: readNumber(row.consecutive_failures) ?? 0,
          updatedAt: fromDb(row.updated_at) ?? new Date(0),
        };
        const set = endpointAfter(current, list, paused, states, (date) => tx.toDb(date));
        if (set) await tx.db.updateTable(tx.table("webhook_endpoint")).set(set).where("id", "=", row.id).execute();
      }
    }

    const endpoints = await endpointsOf(
      tx,
      rows.map((row) => row.endpoint_id),
    );
    const recorded = new Map(held.map((entry) => [entry.index, entry]));
    return items.map((item, index) => {
      const endpointId = byDelivery.get(item.deliveryId)?.endpoint_id;
      const endpoint = (endpointId === undefined ? undefined : endpoints.get(endpointId)) ?? null;
      // Where a failure was counted, the endpoint as this attempt left it (`recordAttempt` one
      // after another); elsewhere nothing changed it after this attempt but a reset to 0, done.
      const state = states.get(index);
      return {
        recorded: recorded.has(index),
        endpoint:
          endpoint && state
            ? {
                ...endpoint,
                status: state.status as WebhookEndpointRecord["status"],
                pausedReason: state.pausedReason as WebhookEndpointRecord["pausedReason"],
                consecutiveFailures: state.failures,
                updatedAt: state.updatedAt,
              }
            : endpoint,
        paused: paused.has(index),
      };
    });
  }

  async function withPayloads(deliveries: DeliveryRecord[]): Promise<ClaimedDelivery[]> {
    if (deliveries.length === 0) return [];
    const endpoints = await endpointsOf(
      ctx,
      deliveries.map((delivery) => delivery.endpointId),
    );
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
      return subscribedOf(await subscribedEndpointsQuery(ctx, ctx.db, companyId).execute(), type);
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
      if (options.limit <= 0 || (options.maxPerEndpoint !== undefined && options.maxPerEndpoint <= 0)) return [];
      if (ctx.returning && options.maxPerEndpoint === undefined) {
        // One statement. Postgres: skip rows another claim holds; SQLite: a compare-and-set under
        // the database's write lock.
        const candidates = dueQuery(ctx, options).select("d.id").limit(options.limit);
        const rows = await ctx.db
          .updateTable(ctx.table("webhook_delivery"))
          .set({ lease_token: options.leaseToken, lease_expires_at: ctx.toDb(options.leaseUntil) })
          .where("id", "in", ctx.dialect === "postgres" ? candidates.forUpdate("d").skipLocked() : candidates)
          .returningAll()
          .execute();
        return withPayloads(rows.map(toDelivery));
      }
      // MySQL/MariaDB lock every row a locking read touches, the endpoint rows of the join
      // included, and a limit per endpoint cannot go into a locking read (no window functions
      // there): candidates first, then the delivery rows alone.
      return withPayloads(await claimInTransaction(options));
    },

    async releaseDeliveries(deliveryIds, leaseToken) {
      const ids = [...new Set(deliveryIds)];
      let released = 0;
      for (let start = 0; start < ids.length; start += RELEASE_CHUNK) {
        const update = ctx.db
          .updateTable(ctx.table("webhook_delivery"))
          .set({ lease_token: null, lease_expires_at: null })
          .where("id", "in", ids.slice(start, start + RELEASE_CHUNK))
          .where("lease_token", "=", leaseToken);
        released += Number((await byPrimaryKey(ctx, update, null)).numAffectedRows ?? 0);
      }
      return released;
    },

    recordAttempt: (deliveryId, leaseToken, outcome) =>
      ctx.atomic(async (tx) => {
        const delivery = await tx.db
          .selectFrom(tx.tableAs("webhook_delivery", "d"))
          .select(["d.endpoint_id", "d.company_id"])
          .where("d.id", "=", deliveryId)
          .executeTakeFirst();
        if (!delivery) return { recorded: false, endpoint: null, paused: false };
        const store = createWebhookStore(tx);
        const at = tx.toDb(outcome.attempt.attemptedAt);
        const held = await tx.db
          .updateTable(tx.table("webhook_delivery"))
          .set({
            status: outcome.status,
            attempts: sql<number>`${sql.ref("attempts")} + 1`,
            next_attempt_at: tx.toDb(outcome.nextAttemptAt),
            lease_token: null,
            lease_expires_at: null,
            updated_at: at,
          })
          .where("id", "=", deliveryId)
          .where("lease_token", "=", leaseToken)
          .executeTakeFirst();
        if (Number(held.numUpdatedRows) === 0) {
          return {
            recorded: false,
            endpoint: await store.getEndpoint(delivery.company_id, delivery.endpoint_id),
            paused: false,
          };
        }
        const attempt = outcome.attempt;
        await tx.db
          .insertInto(tx.table("webhook_attempt"))
          .values({
            id: attempt.id,
            delivery_id: deliveryId,
            endpoint_id: delivery.endpoint_id,
            attempted_at: at,
            status_code: attempt.statusCode,
            duration_ms: attempt.durationMs,
            response_body: attempt.responseBody,
            error: attempt.error,
            succeeded: tx.bool(attempt.succeeded),
          })
          .execute();
        let paused = false;
        if (outcome.failureCount !== "none") {
          // Lock the endpoint row (after the delivery row, like every writer of both) and decide
          // here: concurrent attempts of one endpoint queue on the lock, so exactly one of them
          // sees the count reach the threshold and reports the pause.
          const read = tx.db
            .selectFrom(tx.tableAs("webhook_endpoint", "e"))
            .select(["e.status", "e.consecutive_failures"])
            .where("e.id", "=", delivery.endpoint_id);
          const current = await (tx.dialect === "sqlite" ? read : read.forUpdate()).executeTakeFirst();
          const failures = current ? readNumber(current.consecutive_failures) : 0;
          const set: Updateable<WebhookEndpointTable> = {};
          if (outcome.failureCount === "increment") {
            set.consecutive_failures = failures + 1;
            set.updated_at = at;
            if (current?.status === "active" && failures + 1 >= outcome.pauseAfter) {
              set.status = "paused";
              set.paused_reason = "failures";
              paused = true;
            }
          } else if (failures !== 0) {
            set.consecutive_failures = 0;
            set.updated_at = at;
          }
          if (current && Object.keys(set).length > 0) {
            await tx.db
              .updateTable(tx.table("webhook_endpoint"))
              .set(set)
              .where("id", "=", delivery.endpoint_id)
              .execute();
          }
        }
        return {
          recorded: true,
          endpoint: await store.getEndpoint(delivery.company_id, delivery.endpoint_id),
          paused,
        };
      }),

    recordAttempts: (items) => {
      if (items.length === 0) return Promise.resolve([]);
      return ctx.atomic((tx) => recordBatch(tx, items));
    },

    getDelivery,

    async listDeliveries(query) {
      let select = ctx.db
        .selectFrom(ctx.tableAs("webhook_delivery", "d"))
        .select(ctx.columns("webhook_delivery", "d"))
        .where("d.endpoint_id", "=", query.endpointId)
        .where("d.company_id", "=", query.companyId);
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

    async listAttempts(companyId, deliveryId) {
      const rows = await ctx.db
        .selectFrom(ctx.tableAs("webhook_attempt", "t"))
        .select(ctx.columns("webhook_attempt", "t"))
        .where("t.delivery_id", "=", deliveryId)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom(ctx.tableAs("webhook_delivery", "d"))
              .select("d.id")
              .where("d.id", "=", deliveryId)
              .where("d.company_id", "=", companyId),
          ),
        )
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
