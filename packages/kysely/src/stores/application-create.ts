/** `applications.create` as one transaction of plain statements: the portable way (MySQL/MariaDB, SQLite). */
import {
  type CreateApplicationResult,
  createApplicationInSteps as createInSteps,
  type NewApplicationWrite,
} from "@hireport/core/storage";
import { sql } from "kysely";
import type { StoreContext } from "../context";
import { fromDb } from "../values";
import { stageChangeRow } from "./application-rows";
import { applicationRow } from "./generated/application-rows";

/**
 * Adds a candidate in one transaction (this one when called on a `tx`), with core's
 * `createApplicationInSteps` on these statements:
 * 1. the job's row is locked (`FOR UPDATE`; on SQLite the transaction holds the write lock from
 *    `BEGIN IMMEDIATE`) and checked against the company, `jobTitle` and `jobUpdatedAt`, else
 *    `job_changed`;
 * 2. the duplicate check, after the lock: identical writes for one job queue on it, so the check
 *    sees what the one before committed (a locking read on MySQL/MariaDB, so that it also does in
 *    a caller's REPEATABLE READ transaction). It names no `company_id`: the job, just checked to be
 *    the company's, names it, and with that condition the planner could walk the
 *    `(company_id, applied_at)` index and read every application of the company in the window;
 * 3. `applications_count + 1`, the application, its first stage change, and the event with its
 *    fan-out (`appendEvent` of the dialect, on the same transaction).
 * Nothing is written when it answers `job_changed` or `duplicate`.
 */
export function createApplicationInSteps(
  ctx: StoreContext,
  write: NewApplicationWrite,
): Promise<CreateApplicationResult> {
  return ctx.atomic((tx) =>
    createInSteps(
      {
        lockJob: (companyId, jobId) =>
          tx.strategy
            .forUpdate(
              tx.db
                .selectFrom(tx.tableAs("job", "j"))
                // The date as text on MySQL/MariaDB (`selectColumns`), UTC whatever the driver's time zone.
                .select(tx.strategy.selectColumns("j", ["title", "updated_at"], new Set(["updated_at"])))
                .where("j.id", "=", jobId)
                .where("j.company_id", "=", companyId),
            )
            .$castTo<{ title: string; updated_at: string | Date }>()
            .executeTakeFirst()
            .then((job) => (job ? { title: job.title, updatedAt: fromDb(job.updated_at) } : null)),
        async findRecent(_companyId, jobId, emailNormalized, since) {
          const duplicate = tx.db
            .selectFrom(tx.tableAs("application", "a"))
            .select("a.id")
            .where("a.job_id", "=", jobId)
            .where("a.email_normalized", "=", emailNormalized)
            .where("a.applied_at", ">=", tx.toDb(since))
            .orderBy("a.applied_at", "desc")
            .limit(1);
          return (await tx.strategy.currentRead(duplicate).executeTakeFirst())?.id ?? null;
        },
        async countApplication(_companyId, jobId) {
          await tx.db
            .updateTable(tx.table("job"))
            .set({ applications_count: sql<number>`${sql.ref("applications_count")} + 1` })
            .where("id", "=", jobId)
            .execute();
        },
        async insertApplication(record) {
          await tx.db.insertInto(tx.table("application")).values(applicationRow(tx, record)).execute();
        },
        async insertStageChange(record) {
          await tx.db.insertInto(tx.table("stage_change")).values(stageChangeRow(tx, record)).execute();
        },
        appendEvent: (event) => tx.strategy.appendEvent(tx, event),
      },
      write,
    ),
  );
}
