/**
 * The attempt state machine, stated once: `recordAttempts` records a batch of attempts, and
 * `recordAttempt` is `recordAttempts` of one item.
 */
import { REDACTED_RESPONSE_BODY } from "@hireport/core/storage";
import type { AttemptToRecord, RecordAttemptResult, WebhookEndpointRecord, WebhookStore } from "@hireport/webhooks";
import { type RawBuilder, sql, type Updateable } from "kysely";
import { PRIMARY_KEY, type StoreContext } from "../context";
import type { WebhookEndpointTable } from "../schema";
import { fromDb, readNumber } from "../values";
import { erasedSubjectEvents } from "./domain-erasures";
import { endpointsById } from "./webhook-rows";

export type AttemptMethods = Pick<WebhookStore, "recordAttempt" | "recordAttempts">;

/** Attempts recorded per statement (all of a batch in one transaction). */
const RECORD_CHUNK = 200;

/** An item whose caller still held the lease: it is recorded. */
interface HeldAttempt {
  index: number;
  item: AttemptToRecord;
  endpointId: string;
  eventId: string;
  eventType: string;
}

/** An endpoint's failure state as one attempt of a batch left it. */
interface FailureState {
  status: string;
  pausedReason: string | null;
  failures: number;
  updatedAt: Date;
}

/** `case id when … then … end`: one value per row of a multi-row update. */
function byId<T>(rows: ReadonlyArray<readonly [string, RawBuilder<unknown> | string | number | null]>) {
  return sql<T>`case ${sql.ref("id")} ${sql.join(
    rows.map(([id, value]) => sql`when ${id} then ${value}`),
    sql` `,
  )} end`;
}

/** Which attempts of a batch paused or disabled their endpoint, by item index. */
interface Stops {
  paused: Set<number>;
  disabled: Set<number>;
}

/**
 * One endpoint after the attempts of a batch, in order, as if recorded one after another: the
 * state each attempt left (`states`), which one moved it to `paused` or `disabled` (`stops`), and
 * what to write (null: nothing changes). Each attempt's `outcome.endpoint` is applied as it comes:
 * the failure count (`increment`: + 1, `reset`: a count that is not 0 to 0, `none`: left), then its
 * status changes in order, each where its conditions hold. When to pause or disable is the
 * dispatcher's decision, carried by the update: no rule of it lives here.
 */
function endpointAfter(
  current: FailureState,
  held: readonly HeldAttempt[],
  stops: Stops,
  states: Map<number, FailureState>,
  toDb: (date: Date) => string,
): Updateable<WebhookEndpointTable> | null {
  let state = current;
  let changed = false;
  for (const { index, item } of held) {
    const update = item.outcome.endpoint;
    const at = item.outcome.attempt.attemptedAt;
    const before = state;
    if (update.failureCount === "increment") {
      state = { ...state, failures: state.failures + 1, updatedAt: at };
    } else if (update.failureCount === "reset" && state.failures !== 0) {
      state = { ...state, failures: 0, updatedAt: at };
    }
    for (const change of update.statusChanges) {
      if (!change.whenStatusIn.includes(state.status as WebhookEndpointRecord["status"])) continue;
      if (change.whenFailuresAtLeast !== undefined && state.failures < change.whenFailuresAtLeast) continue;
      if (state.status === change.status && state.pausedReason === change.pausedReason) continue;
      state = { ...state, status: change.status, pausedReason: change.pausedReason, updatedAt: at };
    }
    if (state !== before) changed = true;
    if (state.status !== before.status && state.status === "paused") stops.paused.add(index);
    if (state.status !== before.status && state.status === "disabled") stops.disabled.add(index);
    states.set(index, state);
  }
  if (!changed) return null;
  const set: Updateable<WebhookEndpointTable> = {
    consecutive_failures: state.failures,
    updated_at: toDb(state.updatedAt),
  };
  if (state.status !== current.status || state.pausedReason !== current.pausedReason) {
    set.status = state.status;
    set.paused_reason = state.pausedReason;
  }
  return set;
}

/** The delivery rows of the items, locked by primary key in id order; the items whose caller holds the lease. */
async function heldAttempts(tx: StoreContext, items: readonly AttemptToRecord[]) {
  const ids = [...new Set(items.map((item) => item.deliveryId))].sort();
  const rows: { id: string; endpoint_id: string; lease_token: string | null; event_id: string; event_type: string }[] =
    [];
  for (let start = 0; start < ids.length; start += RECORD_CHUNK) {
    const read = tx.db
      .selectFrom(tx.from("webhook_delivery", "d", PRIMARY_KEY))
      .select(["d.id", "d.endpoint_id", "d.lease_token", "d.event_id", "d.event_type"])
      .where("d.id", "in", ids.slice(start, start + RECORD_CHUNK))
      .orderBy("d.id", "asc");
    rows.push(...(await tx.strategy.forUpdate(read).execute()));
  }
  const byDelivery = new Map(rows.map((row) => [row.id, row]));
  const held: HeldAttempt[] = [];
  const taken = new Set<string>();
  items.forEach((item, index) => {
    const row = byDelivery.get(item.deliveryId);
    if (!row || taken.has(item.deliveryId) || row.lease_token === null || row.lease_token !== item.leaseToken) return;
    taken.add(item.deliveryId);
    held.push({ index, item, endpointId: row.endpoint_id, eventId: row.event_id, eventType: row.event_type });
  });
  return { byDelivery, held };
}

/**
 * The events, among those of the held deliveries, that concern an erased application: their
 * attempts store no answer. Read after the deliveries' rows are locked, so an erasure that locked
 * them first has committed (and is seen) by then. Only application events can concern one.
 */
async function erasedEvents(tx: StoreContext, held: readonly HeldAttempt[]): Promise<Set<string>> {
  const ids = [...new Set(held.filter((entry) => entry.eventType.startsWith("application.")).map((e) => e.eventId))];
  if (tx.domain) return erasedSubjectEvents(tx, tx.domain, ids);
  const erased = new Set<string>();
  for (let start = 0; start < ids.length; start += RECORD_CHUNK) {
    const rows = await tx.db
      .selectFrom(tx.tableAs("event", "e"))
      .innerJoin(tx.tableAs("application", "a"), "a.id", "e.subject_id")
      .select("e.id")
      .where("e.id", "in", ids.slice(start, start + RECORD_CHUNK))
      .where("a.erased_at", "is not", null)
      .execute();
    for (const row of rows) erased.add(row.id);
  }
  return erased;
}

/**
 * Moves the held deliveries to their next state (lease cleared) and stores their attempts; those of
 * `erased` events without their answer.
 */
async function writeAttempts(
  tx: StoreContext,
  held: readonly HeldAttempt[],
  erased: ReadonlySet<string>,
): Promise<void> {
  for (let start = 0; start < held.length; start += RECORD_CHUNK) {
    const chunk = held.slice(start, start + RECORD_CHUNK);
    await tx.db
      .updateTable(tx.byPrimaryKey("webhook_delivery"))
      .set({
        status: byId<string>(chunk.map(({ item }) => [item.deliveryId, item.outcome.status])),
        attempts: sql<number>`${sql.ref("attempts")} + 1`,
        next_attempt_at: byId<string>(
          chunk.map(({ item }) => [item.deliveryId, tx.strategy.dateParam(item.outcome.nextAttemptAt)]),
        ),
        lease_token: null,
        lease_expires_at: null,
        updated_at: byId<string>(
          chunk.map(({ item }) => [item.deliveryId, tx.strategy.dateParam(item.outcome.attempt.attemptedAt)]),
        ),
      })
      .where(
        "id",
        "in",
        chunk.map(({ item }) => item.deliveryId),
      )
      .execute();
    await tx.db
      .insertInto(tx.table("webhook_attempt"))
      .values(
        chunk.map(({ item, endpointId, eventId }) => {
          const attempt = item.outcome.attempt;
          return {
            id: attempt.id,
            delivery_id: item.deliveryId,
            endpoint_id: endpointId,
            attempted_at: tx.toDb(attempt.attemptedAt),
            status_code: attempt.statusCode,
            duration_ms: attempt.durationMs,
            response_body: erased.has(eventId) ? REDACTED_RESPONSE_BODY : attempt.responseBody,
            error: attempt.error,
            succeeded: tx.bool(attempt.succeeded),
          };
        }),
      )
      .execute();
  }
}

/**
 * The endpoints after the held attempts, in the order of the items. Endpoints with only resets
 * and no status change get one conditional reset for all of them (where the count is 0 already nothing
 * is written, nor locked). Endpoints with an increment or a status change have their rows locked
 * (after the delivery rows, like every writer of both, in id order) and are decided here:
 * concurrent batches of one endpoint queue on the lock, so exactly one attempt sees the count
 * see a status change apply and reports it. Returns the state each attempt of
 * a locked endpoint left and the attempts that paused or disabled one.
 */
async function countFailures(tx: StoreContext, held: readonly HeldAttempt[]) {
  const perEndpoint = new Map<string, HeldAttempt[]>();
  for (const entry of held) perEndpoint.set(entry.endpointId, [...(perEndpoint.get(entry.endpointId) ?? []), entry]);
  const counts = (list: readonly HeldAttempt[], kind: string) =>
    list.some(({ item }) => item.outcome.endpoint.failureCount === kind);
  const locks = (list: readonly HeldAttempt[]) =>
    counts(list, "increment") || list.some(({ item }) => item.outcome.endpoint.statusChanges.length > 0);
  const failing = [...perEndpoint].filter(([, list]) => locks(list));
  const resetting = [...perEndpoint].filter(([, list]) => !locks(list) && counts(list, "reset"));
  const stops: Stops = { paused: new Set(), disabled: new Set() };
  const states = new Map<number, FailureState>();
  if (resetting.length > 0) {
    const firstReset = (list: readonly HeldAttempt[]) =>
      list.find(({ item }) => item.outcome.endpoint.failureCount === "reset")?.item.outcome.attempt.attemptedAt ?? null;
    await tx.db
      .updateTable(tx.table("webhook_endpoint"))
      .set({
        consecutive_failures: 0,
        updated_at: byId<string>(
          resetting.map(([endpointId, list]) => [endpointId, tx.strategy.dateParam(firstReset(list))]),
        ),
      })
      .where(
        "id",
        "in",
        resetting.map(([endpointId]) => endpointId),
      )
      .where("consecutive_failures", "<>", 0)
      .execute();
  }
  if (failing.length > 0) {
    const read = tx.db
      .selectFrom(tx.tableAs("webhook_endpoint", "e"))
      .select(["e.id", "e.status", "e.paused_reason", "e.consecutive_failures", "e.updated_at"])
      .where(
        "e.id",
        "in",
        failing.map(([endpointId]) => endpointId),
      )
      .orderBy("e.id", "asc");
    for (const row of await tx.strategy.forUpdate(read).execute()) {
      const current: FailureState = {
        status: row.status,
        pausedReason: row.paused_reason,
        failures: readNumber(row.consecutive_failures),
        updatedAt: fromDb(row.updated_at),
      };
      const set = endpointAfter(current, perEndpoint.get(row.id) ?? [], stops, states, (date) => tx.toDb(date));
      if (set) await tx.db.updateTable(tx.table("webhook_endpoint")).set(set).where("id", "=", row.id).execute();
    }
  }
  return { stops, states };
}

/**
 * `recordAttempts` in one transaction, in a few statements whatever the size of the batch: the
 * delivery rows locked and read at once, one multi-row update of them (`case id when …`), one
 * multi-row insert of the attempts, the endpoints' failure counts, and one read of the endpoints.
 */
async function recordInTransaction(tx: StoreContext, items: readonly AttemptToRecord[]) {
  const { byDelivery, held } = await heldAttempts(tx, items);
  await writeAttempts(tx, held, await erasedEvents(tx, held));
  const { stops, states } = await countFailures(tx, held);
  const endpoints = await endpointsById(
    tx,
    [...byDelivery.values()].map((row) => row.endpoint_id),
  );
  const recorded = new Set(held.map((entry) => entry.index));
  return items.map((item, index): RecordAttemptResult => {
    const endpointId = byDelivery.get(item.deliveryId)?.endpoint_id;
    const endpoint = (endpointId === undefined ? undefined : endpoints.get(endpointId)) ?? null;
    // On an endpoint whose failures were counted here, the endpoint as this attempt left it;
    // elsewhere nothing changed it after this attempt but a reset to 0, done already.
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
      paused: stops.paused.has(index),
      disabled: stops.disabled.has(index),
    };
  });
}

/** Whether one statement records the batch: no failure counted, no status change, each delivery once. */
export function recordsInOneStatement(items: readonly AttemptToRecord[]): boolean {
  const ids = new Set<string>();
  for (const { deliveryId, outcome } of items) {
    if (ids.has(deliveryId)) return false;
    ids.add(deliveryId);
    if (outcome.endpoint.failureCount === "increment" || outcome.endpoint.statusChanges.length > 0) return false;
  }
  return true;
}

/** Attempts of the dispatcher: each recorded only while its caller holds the delivery's lease. */
export function createAttemptMethods(ctx: StoreContext): AttemptMethods {
  const recordAttempts: WebhookStore["recordAttempts"] = (items) => {
    if (items.length === 0) return Promise.resolve([]);
    const oneStatement = ctx.strategy.recordAttempts;
    // The one statement redacts by hireport's own application table: the host's tables take the portable path.
    if (oneStatement && ctx.domain === null && recordsInOneStatement(items)) return oneStatement(ctx, items);
    return ctx.atomic((tx) => recordInTransaction(tx, items));
  };
  return {
    recordAttempts,
    async recordAttempt(deliveryId, leaseToken, outcome) {
      const [result] = await recordAttempts([{ deliveryId, leaseToken, outcome }]);
      if (!result) throw new Error("recordAttempts returned no result for one attempt.");
      return result;
    },
  };
}
