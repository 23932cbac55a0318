/**
 * A claim of the endpoints neither ordered nor throttled on Postgres, one statement a round: the
 * due, unleased deliveries read in claim order along the `due` index and locked as they are read
 * (`FOR UPDATE OF d SKIP LOCKED`, so concurrent claims each find rows the others have not taken),
 * cut to `maxPerEndpoint` per endpoint by a window function and to the limit, leased, and returned
 * with their endpoint and their event's payload. The portable claim takes a transaction of five
 * to eight statements and two reads after it.
 *
 * Fairness is the portable claim's: a round reads four times what it may take, and when it comes
 * back short while an endpoint reached its share (a busy endpoint's backlog filled the rows read),
 * the next round leaves that endpoint out and counts what the others already took, up to four
 * rounds. Each round commits on its own; a delivery leased by one is not due for the next.
 *
 * Each statement also tells whether any active endpoint is ordered or throttled (in its snapshot,
 * the one its `not in` left them out by; a row of nulls carries it when the round leased nothing):
 * the claim skips the serialized endpoints' read while the last plain claim saw none.
 *
 * Planned once per connection: every value is read through `(select $n)`, an init plan the
 * executor evaluates once, so a plan made for the values cannot see them and is estimated as the
 * generic plan is. Postgres plans a prepared statement for its values five times and then keeps
 * the generic plan when it costs no more than those did with their planning, which it now always
 * does: the same walk of `due_pending`, without planning the statement again on every claim.
 * With the values in sight, the plans made for them looked cheaper (they know the limits) and
 * Postgres planned every claim, a planning that was a sizeable share of the claim's own time (the
 * figures: bench/RESULTS.md, "Claims").
 */
import type { ClaimedDelivery, ClaimOptions, WebhookEndpointRecord } from "@hireport/webhooks";
import { sql } from "kysely";
import { runCompiled } from "../../compiled-queries";
import type { StoreContext } from "../../context";
import type { WebhookEndpointTable } from "../../schema";
import { toDelivery, toEndpoint } from "../../stores/webhook-rows";
import type { PlainClaim } from "../types";

/** Rounds a claim makes at most, and how many times what it may take a round reads. */
const ROUNDS = 4;
const SPREAD = 4;
/** `maxPerEndpoint` when none is given. */
const NO_SHARE = 2_147_483_647;

/** A claimed row; or, when a round leased nothing, one row of nulls but `d_serialized`. */
type ClaimRow = WebhookEndpointTable & {
  d_id: string | null;
  d_endpoint_id: string;
  d_company_id: string;
  d_event_id: string;
  d_event_type: string;
  d_status: string;
  d_attempts: number | string;
  d_next_attempt_at: Date | string | null;
  d_lease_expires_at: Date | string | null;
  d_lease_token: string | null;
  d_created_at: Date | string;
  d_updated_at: Date | string;
  d_payload: string;
  d_scanned: number | string | null;
  d_serialized: boolean;
};

/**
 * A claimed row as a delivery with its endpoint and payload. The rows of one statement repeat their
 * endpoint's columns: `endpoints` keeps each endpoint read once, shared by its deliveries (as the
 * portable claim's read of the endpoints by id shares them).
 */
function toClaimed(row: ClaimRow & { d_id: string }, endpoints: Map<string, WebhookEndpointRecord>): ClaimedDelivery {
  const delivery = toDelivery({
    id: row.d_id,
    endpoint_id: row.d_endpoint_id,
    company_id: row.d_company_id,
    event_id: row.d_event_id,
    event_type: row.d_event_type,
    status: row.d_status,
    attempts: row.d_attempts,
    next_attempt_at: row.d_next_attempt_at,
    lease_expires_at: row.d_lease_expires_at,
    lease_token: row.d_lease_token,
    created_at: row.d_created_at,
    updated_at: row.d_updated_at,
  });
  let endpoint = endpoints.get(row.id);
  if (!endpoint) {
    endpoint = toEndpoint(row);
    endpoints.set(row.id, endpoint);
  }
  return { delivery, endpoint, payload: row.d_payload };
}

/** One round: see the module's comment. `taken` counts what earlier rounds leased per endpoint. */
function claimRound(
  ctx: StoreContext,
  options: ClaimOptions,
  limit: number,
  skip: string[],
  taken: Map<string, number>,
) {
  const delivery = sql.table(ctx.table("webhook_delivery"));
  const endpoint = sql.table(ctx.table("webhook_endpoint"));
  const event = sql.table(ctx.table("event"));
  const now = ctx.toDb(options.now);
  const args = {
    now,
    skip,
    takenIds: [...taken.keys()],
    takenCounts: [...taken.values()],
    share: options.maxPerEndpoint ?? NO_SHARE,
    scan: limit * SPREAD,
    limit,
    token: options.leaseToken,
    until: ctx.toDb(options.leaseUntil),
  };
  return runCompiled(
    ctx,
    "webhooks.claim:one-statement",
    args,
    (p) => sql<ClaimRow>`
    with due as (
      select d.id, d.endpoint_id, d.next_attempt_at
      from ${delivery} as d
      where d.status = 'pending' and d.next_attempt_at <= (select ${p.now}::timestamptz)
        and (d.lease_expires_at is null or d.lease_expires_at <= (select ${p.now}::timestamptz))
        and d.endpoint_id not in (
          select e.id from ${endpoint} as e
          where e.status <> 'active' or e.ordered or e.max_per_second is not null
        )
        and d.endpoint_id <> all((select ${p.skip}::text[])::text[])
      order by d.next_attempt_at, d.id
      limit (select ${p.scan}::integer)
      for update of d skip locked
    ),
    ranked as (
      select due.id, due.next_attempt_at,
        row_number() over (partition by due.endpoint_id order by due.next_attempt_at, due.id)
          + coalesce(t.n, 0) as place
      from due
      left join unnest((select ${p.takenIds}::text[]), (select ${p.takenCounts}::integer[])) as t(endpoint_id, n)
        on t.endpoint_id = due.endpoint_id
    ),
    chosen as (
      select ranked.id from ranked
      where ranked.place <= (select ${p.share}::integer)
      order by ranked.next_attempt_at, ranked.id
      limit (select ${p.limit}::integer)
    ),
    leased as (
      update ${delivery} as d set lease_token = (select ${p.token}::text),
        lease_expires_at = (select ${p.until}::timestamptz)
      from chosen where d.id = chosen.id
      returning d.*
    )
    select l.id as d_id, l.endpoint_id as d_endpoint_id, l.company_id as d_company_id,
      l.event_id as d_event_id, l.event_type as d_event_type, l.status as d_status,
      l.attempts as d_attempts, l.next_attempt_at as d_next_attempt_at,
      l.lease_expires_at as d_lease_expires_at, l.lease_token as d_lease_token,
      l.created_at as d_created_at, l.updated_at as d_updated_at,
      ev.payload as d_payload, (select count(*) from due) as d_scanned, s.serialized as d_serialized, e.*
    from (
      select exists (
        select 1 from ${endpoint} as x
        where x.status = 'active' and (x.ordered or x.max_per_second is not null)
      ) as serialized
    ) as s
    left join (
      leased as l
      inner join ${event} as ev on ev.id = l.event_id
      inner join ${endpoint} as e on e.id = l.endpoint_id
    ) on true`,
  );
}

/**
 * Claims up to `options.limit` deliveries of endpoints neither ordered nor throttled (see the
 * module's comment), with their endpoint and payload, in no particular order; and says whether an
 * active endpoint was ordered or throttled when one of its statements ran.
 */
export async function claimPlainInOneStatement(ctx: StoreContext, options: ClaimOptions): Promise<PlainClaim> {
  const share = options.maxPerEndpoint ?? NO_SHARE;
  const skip = [...(options.excludeEndpointIds ?? [])];
  const taken = new Map<string, number>();
  const claimed: ClaimedDelivery[] = [];
  let serializedActive = false;
  for (let round = 0; round < ROUNDS && claimed.length < options.limit; round += 1) {
    const limit = options.limit - claimed.length;
    const rows = await claimRound(ctx, options, limit, skip, taken);
    const endpoints = new Map<string, WebhookEndpointRecord>();
    let leased = 0;
    for (const row of rows) {
      if (row.d_serialized) serializedActive = true;
      if (row.d_id === null) continue;
      claimed.push(toClaimed(row as ClaimRow & { d_id: string }, endpoints));
      taken.set(row.d_endpoint_id, (taken.get(row.d_endpoint_id) ?? 0) + 1);
      leased += 1;
    }
    // Another round only helps when the rows read ran out (more may be due) and some endpoint is at
    // its share: leaving it out makes room for the others.
    const scanned = Number(rows[0]?.d_scanned ?? 0);
    const full = [...taken].filter(([endpointId, count]) => count >= share && !skip.includes(endpointId));
    if (leased === 0 || scanned < limit * SPREAD || full.length === 0) break;
    for (const [endpointId] of full) {
      skip.push(endpointId);
      taken.delete(endpointId);
    }
  }
  return { claimed, serializedActive };
}
