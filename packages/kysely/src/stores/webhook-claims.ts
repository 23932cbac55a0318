import type { ClaimedDelivery, DeliveryRecord } from "@hireport/webhooks";
import {
  type ClaimOptions,
  throttleAfter,
  throttleAllowance,
  throttleWindowStart,
  type WebhookStore,
} from "@hireport/webhooks";
import { sql } from "kysely";
import { PRIMARY_KEY, type StoreContext } from "../context";
import type { WebhookDeliveryTable, WebhookEndpointTable } from "../schema";
import { fromDb, readBool, readNumber } from "../values";
import { endpointsById, toDelivery } from "./webhook-rows";

export type ClaimMethods = Pick<
  WebhookStore,
  "claimDueDeliveries" | "releaseDeliveries" | "extendLeases" | "dueDeliveryStats"
>;

/** Reads of candidates a claim makes at most; each leaves out the endpoints already at their share. */
const CANDIDATE_ROUNDS = 4;
/** How many times its limit a claim reads as candidates where transactions lock rows. */
const CANDIDATE_SPREAD = 4;
/** Deliveries released or extended per statement. */
const RELEASE_CHUNK = 500;
/**
 * `pending` as a literal in the SQL, not a parameter: Postgres's `due_pending` index holds the
 * pending deliveries alone, and a plan uses it only when the query states that predicate.
 */
const PENDING = sql.lit("pending");

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

/** Due first, then by id: the order deliveries are claimed in. */
function byDue(a: DeliveryRecord, b: DeliveryRecord): number {
  const diff = (a.nextAttemptAt?.getTime() ?? 0) - (b.nextAttemptAt?.getTime() ?? 0);
  if (diff !== 0) return diff;
  return a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Due (`next_attempt_at <= now`) and unleased (no lease, or one that has passed) deliveries, alias `d`. */
function dueAndFree(now: string) {
  // biome-ignore lint/suspicious/noExplicitAny: one filter for queries over `d` of any shape.
  return (eb: any) =>
    eb.and([
      eb("d.status", "=", PENDING),
      eb("d.next_attempt_at", "<=", now),
      eb.or([eb("d.lease_expires_at", "is", null), eb("d.lease_expires_at", "<=", now)]),
    ]);
}

/**
 * Due, unleased deliveries of active endpoints, in claim order, leaving out the endpoints and the
 * deliveries given. Select the columns and set the limit on the result. `serialized: "leave out"`
 * also leaves out the ordered and throttled endpoints, which {@link claimSerialized} claims.
 */
function dueQuery(
  ctx: StoreContext,
  options: Pick<ClaimOptions, "now" | "excludeEndpointIds">,
  skipEndpointIds: readonly string[] = options.excludeEndpointIds ?? [],
  skipIds: readonly string[] = [],
  serialized: "leave out" | "count" = "leave out",
) {
  const now = ctx.toDb(options.now);
  const notClaimedHere = ctx.db
    .selectFrom(ctx.tableAs("webhook_endpoint", "e"))
    .select("e.id")
    .where((eb) =>
      serialized === "count"
        ? eb("e.status", "<>", "active")
        : eb.or([
            eb("e.status", "<>", "active"),
            eb("e.ordered", "=", ctx.bool(true)),
            eb("e.max_per_second", "is not", null),
          ]),
    );
  let query = ctx.db
    .selectFrom(ctx.tableAs("webhook_delivery", "d"))
    .where("d.status", "=", PENDING)
    .where("d.next_attempt_at", "<=", now)
    .where((eb) => eb.or([eb("d.lease_expires_at", "is", null), eb("d.lease_expires_at", "<=", now)]))
    // `not in` the (few) endpoints not active, not `exists` an active one: Postgres turns the
    // `exists` into a join that reads every pending delivery of every endpoint and sorts them
    // (tens of ms under a backlog), where this keeps one ordered walk of the `due` index, cut by
    // the limit, with the subquery run once and hashed.
    .where("d.endpoint_id", "not in", notClaimedHere);
  if (skipEndpointIds.length > 0) query = query.where("d.endpoint_id", "not in", [...skipEndpointIds]);
  if (skipIds.length > 0) query = query.where("d.id", "not in", [...skipIds]);
  return query.orderBy("d.next_attempt_at", "asc").orderBy("d.id", "asc");
}

/**
 * Candidates of a claim by plain reads, in claim order: at most `limit`, at most `perEndpoint` of
 * one endpoint. When the first rows are mostly one endpoint's, the next read leaves that endpoint
 * out, so the claim fills up with other endpoints' deliveries (a few reads at most).
 */
async function pickCandidates(ctx: StoreContext, options: ClaimOptions, limit: number, perEndpoint: number) {
  const picked: DueRow[] = [];
  const counts = new Map<string, number>();
  const skip = new Set(options.excludeEndpointIds ?? []);
  for (let round = 0; round < CANDIDATE_ROUNDS && picked.length < limit; round += 1) {
    const take = limit - picked.length;
    const skipped = picked.map((row) => row.id);
    const rows = await dueQuery(ctx, options, [...skip], skipped)
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
 * primary key (`FOR UPDATE SKIP LOCKED` where transactions lock rows; SQLite's holds the write
 * lock), due and unleased checked again, cut to `limit` and `maxPerEndpoint`, leased. Locking only
 * delivery rows by primary key keeps MySQL/MariaDB from locking endpoint rows or gaps that outbox
 * inserts and other claims need: on a small table MariaDB otherwise walks the whole primary key
 * for `UPDATE … WHERE id IN (…)` (and the `due` index for the locking read), waiting on rows
 * outside the list, such as the one an outbox transaction has just inserted, whose next insert then
 * waits on the claim (a deadlock in which MariaDB rolls back the outbox write).
 */
function claimInTransaction(ctx: StoreContext, options: ClaimOptions): Promise<DeliveryRecord[]> {
  return ctx.atomic(async (tx) => {
    const perEndpoint = options.maxPerEndpoint ?? Number.POSITIVE_INFINITY;
    // Reading more candidates than it takes lets concurrent claims, which read the same first
    // rows, each find rows the others have not locked. SQLite runs one claim at a time.
    const spread = tx.strategy.rowLocks ? CANDIDATE_SPREAD : 1;
    const candidates = await pickCandidates(tx, options, options.limit * spread, perEndpoint * spread);
    if (candidates.length === 0) return [];
    const now = tx.toDb(options.now);
    let lock = tx.db
      .selectFrom(tx.from("webhook_delivery", "d", PRIMARY_KEY))
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
    const locked = await tx.strategy.forUpdateSkipLocked(lock).execute();
    return leaseRows(
      tx,
      withinLimits(locked, options.limit, perEndpoint).map((row) => row.id),
      options,
    );
  });
}

/**
 * The ordered and throttled ("serialized") active endpoints a claim may take something of now, by
 * a plain read: the candidates of {@link claimSerialized}. Left out: an ordered endpoint whose head
 * (its oldest pending delivery) is not due or is leased (being sent, or waiting for a retry), and
 * a throttled one whose count of the current second is full, so that endpoints with nothing to
 * give never crowd out the others.
 */
async function serializedCandidates(ctx: StoreContext, options: ClaimOptions, limit: number): Promise<string[]> {
  const now = ctx.toDb(options.now);
  const window = ctx.toDb(throttleWindowStart(options.now));
  let query = ctx.db
    .selectFrom(ctx.tableAs("webhook_endpoint", "e"))
    .select("e.id")
    .where("e.status", "=", "active")
    .where((eb) => eb.or([eb("e.ordered", "=", ctx.bool(true)), eb("e.max_per_second", "is not", null)]))
    .where((eb) =>
      eb.or([
        eb("e.max_per_second", "is", null),
        eb("e.throttle_window_at", "is", null),
        eb("e.throttle_window_at", "<>", window),
        eb("e.throttle_count", "<", eb.ref("e.max_per_second")),
      ]),
    )
    .where((eb) => {
      const due = eb.selectFrom(ctx.tableAs("webhook_delivery", "d")).select("d.id").where(dueAndFree(now));
      const head = eb
        .selectFrom(ctx.tableAs("webhook_delivery", "h"))
        .select("h.id")
        .whereRef("h.endpoint_id", "=", "e.id")
        .where("h.status", "=", "pending")
        .orderBy("h.created_at")
        .orderBy("h.id")
        .limit(1);
      return eb.or([
        eb.and([eb("e.ordered", "=", ctx.bool(false)), eb.exists(due.whereRef("d.endpoint_id", "=", "e.id"))]),
        eb.and([eb("e.ordered", "=", ctx.bool(true)), eb.exists(due.where("d.id", "=", head))]),
      ]);
    });
  const excluded = options.excludeEndpointIds ?? [];
  if (excluded.length > 0) query = query.where("e.id", "not in", [...excluded]);
  const rows = await query.orderBy("e.id").limit(limit).execute();
  return rows.map((row) => row.id);
}

/**
 * What one serialized endpoint offers a claim, read under the lock on its row: for an ordered
 * endpoint its head (the oldest pending delivery) when no delivery of it holds a live lease, for
 * another its due, unleased deliveries in claim order; at most `take`. The lease is checked again
 * when the rows are locked.
 */
async function offeredBy(tx: StoreContext, endpoint: WebhookEndpointTable, now: string, take: number) {
  const ofEndpoint = tx.db
    .selectFrom(tx.from("webhook_delivery", "d", "endpoint_status_created"))
    .select("d.id")
    .where("d.endpoint_id", "=", endpoint.id)
    .where("d.status", "=", "pending");
  if (!readBool(endpoint.ordered)) {
    const rows = await ofEndpoint
      .where(dueAndFree(now))
      .orderBy("d.next_attempt_at")
      .orderBy("d.id")
      .limit(take)
      .execute();
    return rows.map((row) => row.id);
  }
  const busy = await ofEndpoint.where("d.lease_expires_at", ">", now).limit(1).executeTakeFirst();
  if (busy) return [];
  const head = await ofEndpoint.orderBy("d.created_at").orderBy("d.id").limit(1).executeTakeFirst();
  return head ? [head.id] : [];
}

/**
 * Claims of ordered and throttled endpoints, in one transaction: their rows locked first (`FOR
 * UPDATE SKIP LOCKED`, by primary key; SQLite's write lock), so that claims of one such endpoint
 * run one after another, each seeing what the one before it leased and counted; then, per
 * endpoint, what it offers (its head when ordered), cut by the throttle's allowance, the rows
 * locked by primary key and checked again, leased, and the throttle's count written on the
 * endpoint's row. A claim that finds an endpoint's row locked leaves that endpoint to the claim
 * holding it. The lock is the transaction's first statement, so its reads see every claim and
 * attempt committed before it.
 */
async function claimSerialized(ctx: StoreContext, options: ClaimOptions, limit: number): Promise<DeliveryRecord[]> {
  if (limit <= 0) return [];
  const candidates = await serializedCandidates(ctx, options, limit * CANDIDATE_SPREAD);
  if (candidates.length === 0) return [];
  return ctx.atomic(async (tx) => {
    const now = tx.toDb(options.now);
    const endpoints = await tx.strategy
      .forUpdateSkipLocked(
        tx.db
          .selectFrom(tx.from("webhook_endpoint", "e", PRIMARY_KEY))
          .select(tx.columns("webhook_endpoint", "e"))
          .where("e.id", "in", candidates)
          .where("e.status", "=", "active")
          .orderBy("e.id"),
      )
      .$castTo<WebhookEndpointTable>()
      .execute();
    const perEndpoint = options.maxPerEndpoint ?? Number.POSITIVE_INFINITY;
    const leased: string[] = [];
    for (const endpoint of endpoints) {
      if (leased.length >= limit) break;
      const maxPerSecond = endpoint.max_per_second === null ? null : readNumber(endpoint.max_per_second);
      const counted = {
        windowStart: endpoint.throttle_window_at === null ? null : fromDb(endpoint.throttle_window_at),
        count: readNumber(endpoint.throttle_count),
      };
      const take = Math.min(limit - leased.length, perEndpoint, throttleAllowance(maxPerSecond, counted, options.now));
      if (take <= 0) continue;
      const offered = await offeredBy(tx, endpoint, now, take);
      if (offered.length === 0) continue;
      const locked = await tx.strategy
        .forUpdateSkipLocked(
          tx.db
            .selectFrom(tx.from("webhook_delivery", "d", PRIMARY_KEY))
            .select("d.id")
            .where("d.id", "in", offered)
            .where(dueAndFree(now)),
        )
        .execute();
      if (locked.length === 0) continue;
      leased.push(...locked.map((row) => row.id));
      if (maxPerSecond === null) continue;
      const next = throttleAfter(counted, locked.length, options.now);
      await tx.db
        .updateTable(tx.byPrimaryKey("webhook_endpoint"))
        .set({ throttle_window_at: tx.toDb(next.windowStart ?? options.now), throttle_count: next.count })
        .where("id", "=", endpoint.id)
        .execute();
    }
    return leaseRows(tx, leased, options);
  });
}

/** Sets the claim's lease on the delivery rows `ids` (locked by the caller) and returns them. */
async function leaseRows(tx: StoreContext, ids: readonly string[], options: ClaimOptions): Promise<DeliveryRecord[]> {
  if (ids.length === 0) return [];
  const lease = { lease_token: options.leaseToken, lease_expires_at: tx.toDb(options.leaseUntil) };
  const update = tx.db
    .updateTable(tx.byPrimaryKey("webhook_delivery"))
    .set(lease)
    .where("id", "in", [...ids]);
  if (tx.returning) return (await update.returningAll().execute()).map(toDelivery);
  await update.execute();
  const rows = await tx.db
    .selectFrom(tx.tableAs("webhook_delivery", "d"))
    .select(tx.columns("webhook_delivery", "d"))
    .where("d.id", "in", [...ids])
    .$castTo<WebhookDeliveryTable>()
    .execute();
  return rows.map(toDelivery);
}

/** The claimed deliveries with their endpoint and the event's payload, in claim order. */
async function withPayloads(ctx: StoreContext, deliveries: DeliveryRecord[]): Promise<ClaimedDelivery[]> {
  if (deliveries.length === 0) return [];
  // Two reads at once (on two connections of a pool): the claim waits for one round trip, not two.
  const [endpoints, events] = await Promise.all([
    endpointsById(
      ctx,
      deliveries.map((delivery) => delivery.endpointId),
    ),
    ctx.db
      .selectFrom(ctx.tableAs("event", "ev"))
      .select(["ev.id", "ev.payload"])
      .where("ev.id", "in", [...new Set(deliveries.map((delivery) => delivery.eventId))])
      .execute(),
  ]);
  const payloads = new Map(events.map((event) => [event.id, event.payload]));
  const claimed: ClaimedDelivery[] = [];
  for (const delivery of deliveries.sort(byDue)) {
    const endpoint = endpoints.get(delivery.endpointId);
    const payload = payloads.get(delivery.eventId);
    if (endpoint && payload !== undefined) claimed.push({ delivery, endpoint, payload });
  }
  return claimed;
}

/**
 * Sets the lease columns of the pending deliveries among `deliveryIds` still held under
 * `leaseToken`, by primary key (`FORCE INDEX (PRIMARY)` on MySQL), a chunk per statement. Returns
 * how many rows it changed.
 */
async function updateHeld(
  ctx: StoreContext,
  deliveryIds: readonly string[],
  leaseToken: string,
  lease: { lease_token?: null; lease_expires_at: string | null },
): Promise<number> {
  const ids = [...new Set(deliveryIds)];
  let updated = 0;
  for (let start = 0; start < ids.length; start += RELEASE_CHUNK) {
    const result = await ctx.db
      .updateTable(ctx.byPrimaryKey("webhook_delivery"))
      .set(lease)
      .where("id", "in", ids.slice(start, start + RELEASE_CHUNK))
      .where("lease_token", "=", leaseToken)
      .where("status", "=", "pending")
      .executeTakeFirst();
    updated += Number(result.numUpdatedRows);
  }
  return updated;
}

/** Claims of the endpoints neither ordered nor throttled, leased by delivery row alone. */
async function claimPlain(ctx: StoreContext, options: ClaimOptions): Promise<DeliveryRecord[]> {
  if (ctx.returning && options.maxPerEndpoint === undefined) {
    // One statement. Postgres: skip rows another claim holds (`FOR UPDATE OF d SKIP LOCKED`);
    // SQLite: a compare-and-set under the database's write lock.
    const candidates = dueQuery(ctx, options).select("d.id").limit(options.limit);
    const rows = await ctx.db
      .updateTable(ctx.table("webhook_delivery"))
      .set({ lease_token: options.leaseToken, lease_expires_at: ctx.toDb(options.leaseUntil) })
      .where("id", "in", ctx.strategy.forUpdateSkipLocked(candidates, "d"))
      .returningAll()
      .execute();
    return rows.map(toDelivery);
  }
  // MySQL/MariaDB lock every row a locking read touches, the endpoint rows of the join
  // included, and a limit per endpoint cannot go into a locking read (no window functions
  // there): candidates first, then the delivery rows alone.
  return claimInTransaction(ctx, options);
}

/** The dispatcher's leases: claims of due deliveries, their heartbeat, and their release unsent. */
export function createClaimMethods(ctx: StoreContext): ClaimMethods {
  /**
   * Postgres: whether the last plain claim's statement saw an active ordered or throttled endpoint
   * (true until one has run). While it saw none, a claim skips their read and claims the others
   * first; should that claim's statement see one (an endpoint made ordered or throttled meanwhile,
   * which the statement itself left out), the same claim then takes theirs with what is left.
   */
  let serializedSeen = true;

  /** Postgres: the plain claim first, then the serialized endpoints' only if its statement saw one. */
  async function claimPlainFirst(
    claimPlainRows: NonNullable<StoreContext["strategy"]["claimDeliveries"]>,
    options: ClaimOptions,
  ): Promise<ClaimedDelivery[]> {
    const plain = await claimPlainRows(ctx, options);
    serializedSeen = plain.serializedActive;
    if (!plain.serializedActive) return plain.claimed;
    const serialized = await claimSerialized(ctx, options, options.limit - plain.claimed.length);
    return [...(await withPayloads(ctx, serialized)), ...plain.claimed].sort((a, b) => byDue(a.delivery, b.delivery));
  }

  return {
    async claimDueDeliveries(options) {
      if (options.limit <= 0 || (options.maxPerEndpoint !== undefined && options.maxPerEndpoint <= 0)) return [];
      const oneStatement = ctx.strategy.claimDeliveries;
      if (oneStatement && !serializedSeen) return claimPlainFirst(oneStatement, options);
      // Ordered and throttled endpoints first (a few rows each), then the others with what is left.
      const serialized = await claimSerialized(ctx, options, options.limit);
      const left = options.limit - serialized.length;
      if (left <= 0) return withPayloads(ctx, serialized);
      if (oneStatement) {
        // Postgres: the rest with their endpoints and payloads, in a statement a round.
        const [first, rest] = await Promise.all([
          withPayloads(ctx, serialized),
          oneStatement(ctx, { ...options, limit: left }),
        ]);
        serializedSeen = rest.serializedActive;
        return [...first, ...rest.claimed].sort((a, b) => byDue(a.delivery, b.delivery));
      }
      const rest = await claimPlain(ctx, { ...options, limit: left });
      return withPayloads(ctx, [...serialized, ...rest]);
    },

    async dueDeliveryStats({ now, countLimit }) {
      const limit = Math.max(0, Math.floor(countLimit));
      const [oldest, counted] = await Promise.all([
        // Dates as UTC text on MySQL, as every whole-row read takes them.
        dueQuery(ctx, { now }, [], [], "count")
          .select(ctx.strategy.selectColumns("d", ["next_attempt_at"], new Set(["next_attempt_at"])))
          .limit(1)
          .executeTakeFirst() as Promise<{ next_attempt_at: WebhookDeliveryTable["next_attempt_at"] } | undefined>,
        limit === 0
          ? Promise.resolve({ n: 0 })
          : ctx.db
              .selectFrom(dueQuery(ctx, { now }, [], [], "count").select("d.id").limit(limit).as("due"))
              .select((eb) => eb.fn.countAll().as("n"))
              .executeTakeFirstOrThrow(),
      ]);
      return {
        due: Number(counted.n),
        oldestDueAt: oldest?.next_attempt_at == null ? null : fromDb(oldest.next_attempt_at),
      };
    },

    releaseDeliveries: (deliveryIds, leaseToken) =>
      updateHeld(ctx, deliveryIds, leaseToken, { lease_token: null, lease_expires_at: null }),

    extendLeases: (deliveryIds, leaseToken, leaseUntil) =>
      updateHeld(ctx, deliveryIds, leaseToken, { lease_expires_at: ctx.toDb(leaseUntil) }),
  };
}
