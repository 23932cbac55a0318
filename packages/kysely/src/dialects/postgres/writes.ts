/** The business writes and hot-path inserts of Postgres, each in one statement. */
import type { CreateApplicationResult, EventRecord, NewApplicationWrite, UsageRecord } from "@hireport/core/storage";
import { sql } from "kysely";
import { runCompiled } from "../../compiled-queries";
import type { StoreContext } from "../../context";
import { stageChangeRow } from "../../stores/application-rows";
import { eventRow } from "../../stores/events";
import { applicationRow } from "../../stores/generated/application-rows";
import { dailyIncrements } from "../../stores/usage";
import { readNumber } from "../../values";
import { upsertReturningSequence } from "../shared";
import { routineRef, withRoutine } from "./routines";

/**
 * `applications.create`: one call of the `create_application` routine. Called on the storage it is
 * its own transaction: one round trip instead of `BEGIN`, the statements and `COMMIT`. Compiled
 * once (`runCompiled`), so on a pool wrapped by `hardenPgPool` the call is a named prepared
 * statement: Postgres does not parse and plan it again on every POST.
 */
export async function createApplicationByRoutine(
  ctx: StoreContext,
  write: NewApplicationWrite,
): Promise<CreateApplicationResult> {
  const args = {
    application: JSON.stringify(applicationRow(ctx, write.record)),
    stageChange: JSON.stringify(stageChangeRow(ctx, write.initialStageChange)),
    event: JSON.stringify(eventRow(ctx, write.event)),
    jobTitle: write.jobTitle,
    jobUpdatedAt: ctx.toDb(write.jobUpdatedAt),
    duplicateSince: ctx.toDb(write.duplicateSince),
  };
  const rows = await withRoutine(ctx, "create_application", () =>
    runCompiled(
      ctx,
      "applications.create",
      args,
      (p) => sql<{ outcome: string; existing_id: string | null }>`select outcome, existing_id from ${routineRef(
        ctx,
        "create_application",
      )}(
        ${p.application}::text::jsonb, ${p.stageChange}::text::jsonb, ${p.event}::text::jsonb, ${p.jobTitle}::text,
        ${p.jobUpdatedAt}::timestamptz, ${p.duplicateSince}::timestamptz
      )`,
    ),
  );
  const row = rows[0];
  if (row?.outcome === "created") return { outcome: "created" };
  if (row?.outcome === "job_changed") return { outcome: "job_changed" };
  if (row?.outcome === "duplicate" && row.existing_id !== null) {
    return { outcome: "duplicate", existingId: row.existing_id };
  }
  throw new Error(`hireport: create_application answered ${JSON.stringify(row ?? null)}.`);
}

/** `events.append`: one call of the `append_event` routine (the event and its fan-out, its own transaction). */
export async function appendEventByRoutine(ctx: StoreContext, event: EventRecord): Promise<void> {
  await withRoutine(ctx, "append_event", () =>
    sql`select ${routineRef(ctx, "append_event")}(${JSON.stringify(eventRow(ctx, event))}::text::jsonb)`.execute(
      ctx.db,
    ),
  );
}

/**
 * Usage entries as one row per array element, ten array parameters whatever the batch size, and
 * their counts added to the daily roll-up, in one statement (a data-modifying `WITH`): both or
 * neither, without a `BEGIN` and a `COMMIT`. Kysely's multi-row `VALUES` binds ten parameters per
 * row, 1,000 parameters to build, send, parse and plan for a batch of 100 entries, which took more
 * server CPU and more time than `unnest` (bench/RESULTS.md, "Claims"). The roll-up rows come
 * sorted by key, so concurrent batches lock them in one order.
 */
export async function insertUsageUnnested(ctx: StoreContext, entries: readonly UsageRecord[]): Promise<void> {
  const column = <T>(value: (entry: UsageRecord) => T): T[] => entries.map(value);
  const daily = dailyIncrements(entries);
  const dailyTable = ctx.table("usage_daily");
  await sql`
    with stored as (
      insert into ${sql.table(ctx.table("usage"))}
        (id, company_id, key_id, method, route, status, duration_ms, request_id, ip, created_at)
      select * from unnest(
        ${column((e) => e.id)}::text[], ${column((e) => e.companyId)}::text[], ${column((e) => e.keyId)}::text[],
        ${column((e) => e.method)}::text[], ${column((e) => e.route)}::text[], ${column((e) => e.status)}::integer[],
        ${column((e) => e.durationMs)}::double precision[], ${column((e) => e.requestId)}::text[],
        ${column((e) => e.ip)}::text[], ${column((e) => ctx.toDb(e.createdAt))}::timestamptz[]
      )
    )
    insert into ${sql.table(dailyTable)} (company_id, day, status_class, requests)
    select * from unnest(
      ${daily.map((row) => row.companyId)}::text[], ${daily.map((row) => row.day)}::text[],
      ${daily.map((row) => row.statusClass)}::integer[], ${daily.map((row) => row.requests)}::integer[]
    )
    on conflict (company_id, day, status_class)
    do update set requests = ${sql.ref(`${dailyTable}.requests`)} + excluded.requests`.execute(ctx.db);
}

/**
 * The next value of a per-company counter. Alone in its own statement (core numbers a change
 * before its transaction) it commits with `synchronous_commit` off, so the counter row is free
 * again without waiting for the WAL flush. Safe: a change that stores this number commits durably
 * later, and flushing its commit writes every earlier WAL record to disk, this one included; a
 * crash can only lose a number that nothing stored. Inside a transaction, a plain upsert.
 */
export async function nextSequenceRelaxed(
  ctx: StoreContext,
  companyId: string,
  kind: string,
  count: number,
): Promise<number> {
  if (ctx.inTransaction) return upsertReturningSequence(ctx, companyId, kind, count);
  const table = ctx.table("sequence");
  const { rows } = await sql<{ value: number | string }>`
    with cfg as (select set_config('synchronous_commit', 'off', true))
    insert into ${sql.table(table)} (company_id, kind, value) select ${companyId}, ${kind}, ${count}::integer from cfg
    on conflict (company_id, kind) do update set value = ${sql.ref(`${table}.value`)} + ${count}::integer
    returning value`.execute(ctx.db);
  if (!rows[0]) throw new Error("Postgres returned no sequence value.");
  return readNumber(rows[0].value);
}
