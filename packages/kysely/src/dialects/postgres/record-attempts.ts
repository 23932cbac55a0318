/**
 * `recordAttempts` on Postgres in one statement, for the batches a dispatcher records nearly always:
 * attempts that move no endpoint's status and count no failure (successes, which reset the count,
 * and test sends). One data-modifying `WITH` locks the held delivery rows in id order, moves them
 * on, stores their attempts (an erased application's answer left out: see below), resets the
 * endpoints' failure counts where they are not 0 (their rows locked in id order after the
 * deliveries', as every writer of both locks them), and reads the endpoints back: one round trip
 * and no `BEGIN`/`COMMIT`, where the portable transaction takes seven. Its text is the same for
 * every batch size (one array parameter per column), so it is prepared once per connection.
 *
 * The locked rows carry their item's columns (`held`), and every later step reads them alone: the
 * generic plan expects a handful of items and joins two lists by rescanning one for each row of the
 * other, a cost that grows with the square of the batch (what joining `input` with `held` again
 * cost: bench/RESULTS.md, "Claims").
 *
 * Whether an attempt's application is erased is asked of the `application_erased` routine, after
 * the delivery's row is locked, and not read by the statement itself: the statement reads every
 * table as of its start, so an erasure that held the delivery's row and committed while the
 * statement waited for it would look not done, and the receiver's answer (which may echo the
 * candidate's data) would be kept. The routine's query takes a snapshot of its own and sees it
 * (tested in test/suites/race-tests.ts).
 *
 * A batch with a failure, or a status change, takes the portable path: those lock the endpoints
 * and decide each attempt's effect in order.
 */
import { REDACTED_RESPONSE_BODY } from "@hireport/core/storage";
import type { AttemptToRecord, RecordAttemptResult } from "@hireport/webhooks";
import { sql } from "kysely";
import { runCompiled } from "../../compiled-queries";
import type { StoreContext } from "../../context";
import type { WebhookEndpointTable } from "../../schema";
import { toEndpoint } from "../../stores/webhook-rows";
import { fromDb } from "../../values";
import { routineRef, withRoutine } from "./routines";

type RecordedRow = WebhookEndpointTable & {
  item_ord: number;
  item_recorded: boolean;
  item_found: string | null;
  item_reset_at: WebhookEndpointTable["updated_at"] | null;
};

/** See the module's comment. Call only for batches `recordsInOneStatement` (stores/webhook-attempts.ts) accepts. */
export async function recordAttemptsInOneStatement(
  ctx: StoreContext,
  items: readonly AttemptToRecord[],
): Promise<RecordAttemptResult[]> {
  const column = <T>(value: (item: AttemptToRecord) => T): T[] => items.map(value);
  const args = {
    deliveryIds: column((item) => item.deliveryId),
    leaseTokens: column((item) => item.leaseToken),
    statuses: column((item) => item.outcome.status),
    nextAttempts: column((item) => (item.outcome.nextAttemptAt === null ? null : ctx.toDb(item.outcome.nextAttemptAt))),
    attemptedAts: column((item) => ctx.toDb(item.outcome.attempt.attemptedAt)),
    attemptIds: column((item) => item.outcome.attempt.id),
    statusCodes: column((item) => item.outcome.attempt.statusCode),
    durations: column((item) => item.outcome.attempt.durationMs),
    bodies: column((item) => item.outcome.attempt.responseBody),
    errors: column((item) => item.outcome.attempt.error),
    // As text: postgres-js sends an array of booleans as one boolean (its type is read from the first item).
    succeeded: column((item) => String(item.outcome.attempt.succeeded)),
    resets: column((item) => String(item.outcome.endpoint.failureCount === "reset")),
    redacted: REDACTED_RESPONSE_BODY,
  };
  const delivery = sql.table(ctx.table("webhook_delivery"));
  const attempt = sql.table(ctx.table("webhook_attempt"));
  const endpoint = sql.table(ctx.table("webhook_endpoint"));
  const erased = routineRef(ctx, "application_erased");
  const rows = await withRoutine(ctx, "application_erased", () =>
    runCompiled(
      ctx,
      "webhooks.recordAttempts:one-statement",
      args,
      (p) => sql<RecordedRow>`
    with input as (
      select * from unnest(
        ${p.deliveryIds}::text[], ${p.leaseTokens}::text[], ${p.statuses}::text[],
        ${p.nextAttempts}::timestamptz[], ${p.attemptedAts}::timestamptz[], ${p.attemptIds}::text[],
        ${p.statusCodes}::integer[], ${p.durations}::double precision[], ${p.bodies}::text[],
        ${p.errors}::text[], ${p.succeeded}::text[]::boolean[], ${p.resets}::text[]::boolean[]
      ) with ordinality as i(
        delivery_id, lease_token, status, next_attempt_at, attempted_at, attempt_id,
        status_code, duration_ms, response_body, error, succeeded, reset, ord
      )
    ),
    held as (
      select d.id, d.endpoint_id, d.event_id, d.event_type, i.*
      from ${delivery} as d inner join input as i on i.delivery_id = d.id
      where d.lease_token = i.lease_token
      order by d.id
      for update of d
    ),
    moved as (
      update ${delivery} as d
      set status = h.status, attempts = d.attempts + 1, next_attempt_at = h.next_attempt_at,
        lease_token = null, lease_expires_at = null, updated_at = h.attempted_at
      from held as h
      where d.id = h.id
      returning d.id
    ),
    stored as (
      insert into ${attempt}
        (id, delivery_id, endpoint_id, attempted_at, status_code, duration_ms, response_body, error, succeeded)
      select h.attempt_id, h.delivery_id, h.endpoint_id, h.attempted_at, h.status_code, h.duration_ms,
        case when h.event_type like 'application.%' and ${erased}(h.event_id)
        then ${p.redacted} else h.response_body end,
        h.error, h.succeeded
      from held as h
      returning id
    ),
    reset_at as (
      select distinct on (h.endpoint_id) h.endpoint_id, h.attempted_at
      from held as h
      where h.reset
      order by h.endpoint_id, h.ord
    ),
    reset_locked as (
      select e.id from ${endpoint} as e
      where e.id in (select endpoint_id from reset_at) and e.consecutive_failures <> 0
      order by e.id
      for update of e
    ),
    reset as (
      update ${endpoint} as e set consecutive_failures = 0, updated_at = r.attempted_at
      from reset_at as r
      where e.id = r.endpoint_id and e.id in (select id from reset_locked)
      returning e.id, e.updated_at
    )
    select i.ord as item_ord, (i.delivery_id = any(array(select h.id from held as h))) as item_recorded,
      d.endpoint_id as item_found, r.updated_at as item_reset_at, e.*
    from input as i
    left join ${delivery} as d on d.id = i.delivery_id
    left join ${endpoint} as e on e.id = d.endpoint_id
    left join reset as r on r.id = e.id
    order by i.ord`,
    ),
  );
  // The main query reads the tables as they were before the statement; a reset is applied here.
  const endpoints = new Map<string, ReturnType<typeof toEndpoint>>();
  const results: RecordAttemptResult[] = [];
  for (const row of rows) {
    let record = null;
    if (row.item_found !== null && row.id !== null && row.id !== undefined) {
      record = endpoints.get(row.id) ?? null;
      if (!record) {
        record = toEndpoint(row);
        if (row.item_reset_at !== null) {
          record = { ...record, consecutiveFailures: 0, updatedAt: fromDb(row.item_reset_at) };
        }
        endpoints.set(row.id, record);
      }
    }
    results.push({ recorded: row.item_recorded === true, endpoint: record, paused: false, disabled: false });
  }
  if (results.length !== items.length) throw new Error("Postgres recorded a different number of attempts than sent.");
  return results;
}
