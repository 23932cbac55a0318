/** `applications.create` as one transaction of plain statements: the portable way (MySQL/MariaDB, SQLite). */
import type { CreateApplicationResult, NewApplicationWrite } from "@hireport/core";
import { sql } from "kysely";
import type { StoreContext } from "../context";
import { applicationRow, stageChangeRow } from "./application-rows";

/**
 * Adds a candidate in one transaction (this one when called on a `tx`):
 * 1. the job's row is locked (`FOR UPDATE`; on SQLite the transaction holds the write lock from
 *    `BEGIN IMMEDIATE`) and checked against the company and `jobTitle`, else `job_changed`;
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
  const { record } = write;
  return ctx.atomic(async (tx): Promise<CreateApplicationResult> => {
    const job = await tx.strategy
      .forUpdate(
        tx.db
          .selectFrom(tx.tableAs("job", "j"))
          .select("j.title")
          .where("j.id", "=", record.jobId)
          .where("j.company_id", "=", record.companyId),
      )
      .executeTakeFirst();
    if (!job || job.title !== write.jobTitle) return { outcome: "job_changed" };
    const duplicate = tx.db
      .selectFrom(tx.tableAs("application", "a"))
      .select("a.id")
      .where("a.job_id", "=", record.jobId)
      .where("a.email_normalized", "=", record.emailNormalized)
      .where("a.applied_at", ">=", tx.toDb(write.duplicateSince))
      .orderBy("a.applied_at", "desc")
      .limit(1);
    const existing = await tx.strategy.currentRead(duplicate).executeTakeFirst();
    if (existing) return { outcome: "duplicate", existingId: existing.id };
    await tx.db
      .updateTable(tx.table("job"))
      .set({ applications_count: sql<number>`${sql.ref("applications_count")} + 1` })
      .where("id", "=", record.jobId)
      .execute();
    await tx.db.insertInto(tx.table("application")).values(applicationRow(tx, record)).execute();
    await tx.db.insertInto(tx.table("stage_change")).values(stageChangeRow(tx, write.initialStageChange)).execute();
    await tx.strategy.appendEvent(tx, write.event);
    return { outcome: "created" };
  });
}
