/**
 * `ChangeStore` over declared tables: each kind's records in order of their change time, the newest
 * outbox event of each, and the detector's position in hireport's `change_position` table.
 */
import type { ChangeKind, ChangeStore, LatestEvent } from "@hireport/core/storage";
import { sql } from "kysely";
import { contextOfScope } from "../domain-scope";
import { fromDb } from "../values";
import { applicationRows } from "./application-rows";
import { type AnyDb, type AnyScope, jobRows } from "./job-store";
import type { DomainPlan, FieldColumn } from "./plan";
import { ref, storedId } from "./rows";

/** Subject ids per `IN (…)` list. */
const CHUNK = 500;

export function declaredChangeStore(scope: AnyScope, plan: DomainPlan): ChangeStore {
  const { jobs, applications: apps, dialect } = plan;
  const ctx = contextOfScope(scope);
  const db = scope.db as AnyDb;
  const jobsRead = jobRows(plan);
  const appsRead = applicationRows(plan);
  const jobUpdated = jobs.columns.get("updatedAt") as FieldColumn;

  /** Rows changed after `after`, up to `until`, oldest change first, on the table `alias` of `table`. */
  const changed = <Q>(
    query: Q,
    alias: string,
    idColumn: string,
    updated: FieldColumn,
    q: Parameters<ChangeStore["changedJobs"]>[0],
    strip: (id: string) => string,
  ) => {
    const at = ref(alias, updated.column);
    const id = ref(alias, idColumn);
    // Positions are to the millisecond. A Postgres `timestamptz` keeps microseconds (a product's
    // `now()`): the rows are ordered and compared by their time truncated to the millisecond, so that
    // a page never starts again inside a millisecond it has passed. The plain bounds on the column
    // keep the index's range scan.
    const truncated = dialect === "postgres" && !updated.custom;
    const ms = truncated ? sql`date_trunc('milliseconds', ${at})` : at;
    const write = (date: Date) => updated.codec.write(date, dialect);
    // biome-ignore lint/suspicious/noExplicitAny: the query builder of a table named at run time.
    let out = (query as any).where(
      at,
      truncated ? "<" : "<=",
      write(truncated ? new Date(q.until.getTime() + 1) : q.until),
    );
    if (q.after) {
      const after = write(q.after.at);
      const afterId = q.after.id === "" ? "" : strip(q.after.id);
      out = out
        .where(at, ">=", after)
        // biome-ignore lint/suspicious/noExplicitAny: as above.
        .where((eb: any) => eb.or([eb(ms, ">", after), eb.and([eb(ms, "=", after), eb(id, ">", afterId)])]));
    }
    return out.orderBy(ms, "asc").orderBy(id, "asc").limit(Math.max(0, q.take)) as Q;
  };

  return {
    async lockCheckpoint(kind) {
      const table = ctx.table("change_position");
      const read = () =>
        ctx.strategy
          .forUpdate(
            ctx.db
              .selectFrom(table)
              .select(ctx.strategy.selectColumns(table, ["started_at", "at", "last_id"], new Set(["started_at", "at"])))
              .where("kind", "=", kind),
          )
          .executeTakeFirst() as Promise<{ started_at: string; at: string; last_id: string } | undefined>;
      // The row is read under its lock first: an `INSERT IGNORE` of an existing row takes a shared
      // lock on MySQL/MariaDB, and two of them then deadlock on the exclusive one.
      const found = await read();
      if (!found) return null;
      return { position: { at: fromDb(found.at), id: found.last_id }, startedAt: fromDb(found.started_at) };
    },

    async start(kind, at) {
      const table = ctx.table("change_position");
      const when = ctx.toDb(at);
      // Two first passes at once: the second's insert is ignored (or waits for the first's commit).
      await ctx.strategy
        .insertIgnore(ctx.db.insertInto(table).values({ kind, started_at: when, at: when, last_id: "" }), ["kind"])
        .execute();
    },

    async setPosition(kind, position) {
      await ctx.db
        .updateTable(ctx.table("change_position"))
        .set({ at: ctx.toDb(position.at), last_id: position.id })
        .where("kind", "=", kind)
        .execute();
    },

    async changedJobs(q) {
      const found = await changed(
        jobsRead.select(db),
        "j",
        jobs.idColumn,
        jobUpdated,
        q,
        (id) => storedId(jobs, id) ?? id,
      ).execute();
      return (found as Record<string, unknown>[]).map((row) => jobsRead.read(row));
    },

    async changedApplications(q) {
      const found = await changed(
        appsRead.select(db),
        "a",
        apps.idColumn,
        appsRead.column("updatedAt"),
        q,
        (id) => storedId(apps, id) ?? id,
      ).execute();
      return (found as Record<string, unknown>[]).map((row) => appsRead.read(row));
    },

    async latestEvents(kind: ChangeKind, subjects) {
      const newest = new Map<string, LatestEvent>();
      // By company, so that the `(company_id, subject_id)` index finds them.
      const byCompany = new Map<string, Set<string>>();
      for (const { companyId, id } of subjects)
        byCompany.set(companyId, (byCompany.get(companyId) ?? new Set()).add(id));
      for (const [companyId, set] of byCompany) {
        const ids = [...set];
        for (let start = 0; start < ids.length; start += CHUNK) {
          const rows = await ctx.db
            .selectFrom(ctx.table("event"))
            .select(["subject_id", "type", "payload"])
            .where("company_id", "=", companyId)
            .where("subject_id", "in", ids.slice(start, start + CHUNK))
            .where("type", "like", `${kind}.%`)
            .orderBy("created_at", "desc")
            .orderBy("id", "desc")
            .execute();
          for (const row of rows) {
            const subject = row.subject_id as string;
            if (!newest.has(subject)) newest.set(subject, { subjectId: subject, type: row.type, payload: row.payload });
          }
        }
      }
      return [...newest.values()];
    },
  };
}
