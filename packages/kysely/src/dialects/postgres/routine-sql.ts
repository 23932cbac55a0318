/**
 * The SQL of hireport's Postgres routines (PL/pgSQL functions). They are not migrations: they hold
 * no data, so they are replaced with each version of the package (see `routines.ts` for how they
 * are named and installed). Their column lists come from `COLUMNS` in `schema.ts` and their
 * fan-out restates core's `fanOut` and `deliveryId`; the tests compare both.
 *
 * PL/pgSQL keeps the plan of each statement of a function for the life of the connection, so a
 * call does not pay for planning its statements on every request; called as a statement of its
 * own, a function is its own transaction (no `BEGIN` and `COMMIT` round trips).
 */
import { COLUMNS, type TableName, type WebhookDeliveryTable } from "../../schema";

/** How a definition names things: the routine itself, and hireport's tables (both quoted). */
export interface RoutineNaming {
  /** The routine's own name, quoted. */
  name: string;
  /** A table's prefixed name, quoted. */
  table(name: TableName): string;
}

/** A routine of this version: its argument types and its `create or replace function` statement. */
export interface RoutineDefinition {
  /** Argument types, as `drop function` names them. */
  args: string;
  create(naming: RoutineNaming): string;
}

/** The part of an id after its prefix, as core's `idBody`: everything after the first `_` (all of it without one). */
function idBodySql(id: string): string {
  return `substr(${id}, strpos(${id}, '_') + 1)`;
}

/** Core's `deliveryId(eventId, endpointId)` as a SQL expression: `dlv_`, the event id's body, the endpoint id's body. */
export function deliveryIdSql(eventId: string, endpointId: string): string {
  return `'dlv_' || ${idBodySql(eventId)} || ${idBodySql(endpointId)}`;
}

/** The columns a routine inserts into a table from a JSON object keyed by column (all but the generated `seq`). */
export function insertedColumns(table: "application" | "stage_change" | "event"): string[] {
  return COLUMNS[table].filter((column) => column !== "seq");
}

/** `insert into t (columns) select columns from jsonb_populate_record(null::t, json)`. */
function insertFromJson(naming: RoutineNaming, table: "application" | "stage_change" | "event", json: string): string {
  const columns = insertedColumns(table).join(", ");
  return `insert into ${naming.table(table)} (${columns})
  select ${columns} from jsonb_populate_record(null::${naming.table(table)}, ${json});`;
}

/** The value of each delivery column in the fan-out, given the event's variables. */
export function fanOutValues(event: { id: string; company: string; type: string; at: string }): {
  readonly [C in keyof WebhookDeliveryTable]: string;
} {
  return {
    id: deliveryIdSql(event.id, "e.id"),
    endpoint_id: "e.id",
    company_id: event.company,
    event_id: event.id,
    event_type: event.type,
    status: "'pending'",
    attempts: "0",
    next_attempt_at: event.at,
    lease_expires_at: "null",
    lease_token: "null",
    created_at: event.at,
    updated_at: event.at,
  };
}

/**
 * Core's `fanOut` in SQL: one pending delivery per endpoint of the event's company that is active
 * or paused and subscribed to its type, due at the event's time, without a lease, with the id of
 * core's `deliveryId`. Reads the PL/pgSQL variables `v_event_id`, `v_company`, `v_event_type`, `v_at`.
 */
function fanOutSql(naming: RoutineNaming): string {
  const values = fanOutValues({ id: "v_event_id", company: "v_company", type: "v_event_type", at: "v_at" });
  const columns = COLUMNS.webhook_delivery;
  return `insert into ${naming.table("webhook_delivery")} (${columns.join(", ")})
  select ${columns.map((column) => values[column]).join(", ")}
  from ${naming.table("webhook_endpoint")} as e
  where e.company_id = v_company and e.status in ('active', 'paused') and e.events::jsonb ? v_event_type;`;
}

/** The variables `fanOutSql` reads, declared from the event's JSON object `p_event`. */
const EVENT_VARIABLES = `v_event_id text := p_event->>'id';
  v_company text := p_event->>'company_id';
  v_event_type text := p_event->>'type';
  v_at timestamptz := (p_event->>'created_at')::timestamptz;`;

/**
 * `count_requests`: counts up to `p_requests` requests against the buckets `p_prefix ||
 * p_suffixes[i]` (limit `p_limits[i]`, window end `p_resets[i]`; the names must differ) and
 * returns one row per bucket, with its count after the change and `taken`: as many requests as
 * every bucket still had room for. It returns no row, and changes nothing, when a bucket is full
 * or has no row yet, or when `p_prefix` is null. Rows are locked in key order, so concurrent counts
 * never deadlock. A count whose window ended starts again from zero with the new window end.
 * `p_relaxed` commits the calling statement's own transaction with `synchronous_commit` off.
 */
const countRequests: RoutineDefinition = {
  args: "text, text[], integer[], timestamptz[], timestamptz, integer, boolean",
  create: (naming) => `create or replace function ${naming.name}(
  p_prefix text, p_suffixes text[], p_limits integer[], p_resets timestamptz[],
  p_now timestamptz, p_requests integer, p_relaxed boolean
) returns table (counted_key text, counted_hits integer, counted_taken integer)
language plpgsql volatile as $body$
#variable_conflict use_column
begin
  if p_prefix is null then return; end if;
  if p_relaxed then perform set_config('synchronous_commit', 'off', true); end if;
  return query
    with v as (
      select p_prefix || w.suffix as bucket_key, w.lim, w.reset_at
      from unnest(p_suffixes, p_limits, p_resets) as w (suffix, lim, reset_at)
    ),
    locked as (
      select r.bucket_key, case when r.reset_at <= p_now then 0 else r.hits end as hits
      from ${naming.table("rate_limit")} as r
      where r.bucket_key in (select v.bucket_key from v)
      order by r.bucket_key
      for update
    ),
    ok as (
      select case when count(*) = cardinality(p_suffixes)
        then greatest(least(p_requests, min(v.lim - l.hits)), 0) else 0 end as taken
      from locked as l join v on v.bucket_key = l.bucket_key
    ),
    counted as (
      update ${naming.table("rate_limit")} as r
      set hits = case when r.reset_at <= p_now then ok.taken else r.hits + ok.taken end,
          reset_at = case when r.reset_at <= p_now then v.reset_at else r.reset_at end
      from v, ok
      where r.bucket_key = v.bucket_key and ok.taken > 0
      returning r.bucket_key::text, r.hits, ok.taken
    )
    select * from counted;
end
$body$`,
};

/** `append_event`: `events.append`, the event (a JSON object keyed by column) and its fan-out. */
const appendEvent: RoutineDefinition = {
  args: "jsonb",
  create: (naming) => `create or replace function ${naming.name}(p_event jsonb) returns void
language plpgsql volatile as $body$
declare
  ${EVENT_VARIABLES}
begin
  ${insertFromJson(naming, "event", "p_event")}
  ${fanOutSql(naming)}
end
$body$`,
};

/**
 * `create_application`: `applications.create`, core's `createApplicationInSteps` restated in SQL,
 * the rule's one declared fast path (the conformance suite runs the same table of cases,
 * `APPLICATION_CREATE_CASES`, on this routine and on the steps). The rows come as JSON objects
 * keyed by column. It locks the job's row and checks it, then (each statement of a volatile
 * function takes a fresh snapshot under READ COMMITTED) checks for a duplicate, so it sees what an
 * earlier call for the job committed. It returns one row: `job_changed` (the job is gone from the
 * company, or its title is no longer `p_job_title` or its `updated_at` no longer
 * `p_job_updated_at`), `duplicate` with `existing_id`, or `created`; only `created` writes
 * anything: the count, the application, its first stage change, the event and its fan-out.
 */
const createApplication: RoutineDefinition = {
  args: "jsonb, jsonb, jsonb, text, timestamptz, timestamptz",
  create: (naming) => `create or replace function ${naming.name}(
  p_application jsonb, p_stage_change jsonb, p_event jsonb, p_job_title text, p_job_updated_at timestamptz,
  p_duplicate_since timestamptz
) returns table (outcome text, existing_id text)
language plpgsql volatile as $body$
declare
  v_job text := p_application->>'job_id';
  v_job_company text := p_application->>'company_id';
  v_email text := p_application->>'email_normalized';
  ${EVENT_VARIABLES}
  v_title text;
  v_updated_at timestamptz;
  v_existing text;
begin
  select j.title, j.updated_at into v_title, v_updated_at from ${naming.table("job")} as j
  where j.id = v_job and j.company_id = v_job_company
  for update;
  if not found or v_title is distinct from p_job_title or v_updated_at is distinct from p_job_updated_at then
    return query select 'job_changed'::text, null::text;
    return;
  end if;
  select a.id into v_existing from ${naming.table("application")} as a
  where a.job_id = v_job and a.email_normalized = v_email and a.applied_at >= p_duplicate_since
  order by a.applied_at desc
  limit 1;
  if found then
    return query select 'duplicate'::text, v_existing;
    return;
  end if;
  update ${naming.table("job")} set applications_count = applications_count + 1 where id = v_job;
  ${insertFromJson(naming, "application", "p_application")}
  ${insertFromJson(naming, "stage_change", "p_stage_change")}
  ${insertFromJson(naming, "event", "p_event")}
  ${fanOutSql(naming)}
  return query select 'created'::text, null::text;
end
$body$`,
};

/**
 * `application_erased`: whether the subject of event `p_event_id` is an erased application, as the
 * database is now. `recordAttempts` calls it for each attempt of an `application.*` event after
 * locking the delivery's row: a volatile function's query takes a fresh snapshot under READ
 * COMMITTED, so it sees an erasure that held that row and committed while the statement waited,
 * which the statement's own snapshot (taken at its start) does not. Under another isolation level
 * no fresh snapshot is to be had, and it answers true: the answer is left out rather than risked.
 */
const applicationErased: RoutineDefinition = {
  args: "text",
  create: (naming) => `create or replace function ${naming.name}(p_event_id text) returns boolean
language plpgsql volatile as $body$
begin
  if current_setting('transaction_isolation') <> 'read committed' then
    return true;
  end if;
  return exists (
    select 1 from ${naming.table("event")} as ev
    inner join ${naming.table("application")} as a on a.id = ev.subject_id
    where ev.id = p_event_id and a.erased_at is not null
  );
end
$body$`,
};

/** The routines of this version, by their base name. */
export const ROUTINE_DEFINITIONS = {
  count_requests: countRequests,
  append_event: appendEvent,
  create_application: createApplication,
  application_erased: applicationErased,
} as const satisfies Record<string, RoutineDefinition>;

export type RoutineBase = keyof typeof ROUTINE_DEFINITIONS;
