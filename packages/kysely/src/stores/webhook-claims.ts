import type { ClaimedDelivery, DeliveryRecord } from "@hireport/core";
import type { ClaimOptions, WebhookStore } from "@hireport/webhooks";
import { PRIMARY_KEY, type StoreContext } from "../context";
import type { WebhookDeliveryTable } from "../schema";
import { fromDb } from "../values";
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

/**
 * Due, unleased deliveries of active endpoints, in claim order, leaving out the endpoints and the
 * deliveries given. Select the columns and set the limit on the result.
 */
function dueQuery(
  ctx: StoreContext,
  options: Pick<ClaimOptions, "now" | "excludeEndpointIds">,
  skipEndpointIds: readonly string[] = options.excludeEndpointIds ?? [],
  skipIds: readonly string[] = [],
) {
  const now = ctx.toDb(options.now);
  let query = ctx.db
    .selectFrom(ctx.tableAs("webhook_delivery", "d"))
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
      ctx.db.selectFrom(ctx.tableAs("webhook_endpoint", "e")).select("e.id").where("e.status", "<>", "active"),
    );
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
    const ids = withinLimits(locked, options.limit, perEndpoint).map((row) => row.id);
    if (ids.length === 0) return [];
    const lease = { lease_token: options.leaseToken, lease_expires_at: tx.toDb(options.leaseUntil) };
    const update = tx.db.updateTable(tx.byPrimaryKey("webhook_delivery")).set(lease).where("id", "in", ids);
    if (tx.returning) return (await update.returningAll().execute()).map(toDelivery);
    await update.execute();
    const rows = await tx.db
      .selectFrom(tx.tableAs("webhook_delivery", "d"))
      .select(tx.columns("webhook_delivery", "d"))
      .where("d.id", "in", ids)
      .$castTo<WebhookDeliveryTable>()
      .execute();
    return rows.map(toDelivery);
  });
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

/** The dispatcher's leases: claims of due deliveries, their heartbeat, and their release unsent. */
export function createClaimMethods(ctx: StoreContext): ClaimMethods {
  return {
    async claimDueDeliveries(options) {
      if (options.limit <= 0 || (options.maxPerEndpoint !== undefined && options.maxPerEndpoint <= 0)) return [];
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
        return withPayloads(ctx, rows.map(toDelivery));
      }
      // MySQL/MariaDB lock every row a locking read touches, the endpoint rows of the join
      // included, and a limit per endpoint cannot go into a locking read (no window functions
      // there): candidates first, then the delivery rows alone.
      return withPayloads(ctx, await claimInTransaction(ctx, options));
    },

    async dueDeliveryStats({ now, countLimit }) {
      const limit = Math.max(0, Math.floor(countLimit));
      const [oldest, counted] = await Promise.all([
        // Dates as UTC text on MySQL, as every whole-row read takes them.
        dueQuery(ctx, { now })
          .select(ctx.strategy.selectColumns("d", ["next_attempt_at"], new Set(["next_attempt_at"])))
          .limit(1)
          .executeTakeFirst() as Promise<{ next_attempt_at: WebhookDeliveryTable["next_attempt_at"] } | undefined>,
        limit === 0
          ? Promise.resolve({ n: 0 })
          : ctx.db
              .selectFrom(dueQuery(ctx, { now }).select("d.id").limit(limit).as("due"))
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
