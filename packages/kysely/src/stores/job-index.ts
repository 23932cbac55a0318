import type { IndexingService } from "@hireport/core/extend";
import type { IndexingAction, JobIndexNotice, JobIndexStore } from "@hireport/core/storage";
import { sql } from "kysely";
import type { StoreContext } from "../context";
import type { JobIndexMarkTable, JobIndexNoticeTable } from "../schema";
import { fromDb, readNumber } from "../values";
import { selectAll } from "./rows";

function toNotice(row: JobIndexNoticeTable): JobIndexNotice {
  return {
    companyId: row.company_id,
    jobId: row.job_id,
    service: row.service as IndexingService,
    seq: readNumber(row.seq),
    action: row.action as IndexingAction | null,
    notifiedAt: fromDb(row.notified_at),
    status: readNumber(row.status),
    error: row.error,
    closesAt: fromDb(row.closes_at),
  };
}

/** Adds one to the job's change count (1 for a new row) in one upsert. */
async function markJob(ctx: StoreContext, companyId: string, jobId: string, at: Date): Promise<void> {
  const table = ctx.table("job_index_mark");
  const insert = ctx.db
    .insertInto(table)
    .values({ company_id: companyId, job_id: jobId, seq: 1, changed_at: ctx.toDb(at) });
  await ctx.strategy
    .upsert(insert, ["company_id", "job_id"], {
      seq: sql<number>`${sql.ref(`${table}.seq`)} + 1`,
      changed_at: ctx.toDb(at),
    })
    .execute();
}

/** The job-indexing outbox: `job_index_mark` (a job's change count) and `job_index_notice` (per service). */
export function createJobIndexStore(ctx: StoreContext): JobIndexStore {
  return {
    mark: (companyId, jobId, at) => markJob(ctx, companyId, jobId, at),

    async pending(service, limit) {
      const marks = (await selectAll(ctx, "job_index_mark", "m")
        .leftJoin(ctx.tableAs("job_index_notice", "n"), (join) =>
          join
            .onRef("n.company_id", "=", "m.company_id")
            .onRef("n.job_id", "=", "m.job_id")
            .on("n.service", "=", service),
        )
        .where((eb) => eb.or([eb("n.seq", "is", null), eb("n.seq", "<", eb.ref("m.seq"))]))
        .orderBy("m.changed_at")
        .orderBy("m.company_id")
        .orderBy("m.job_id")
        .limit(limit)
        .execute()) as unknown as JobIndexMarkTable[];
      if (marks.length === 0) return [];
      const notices = (await selectAll(ctx, "job_index_notice", "n")
        .where("n.service", "=", service)
        .where(
          "n.job_id",
          "in",
          marks.map((mark) => mark.job_id),
        )
        .execute()) as unknown as JobIndexNoticeTable[];
      const byJob = new Map(notices.map((row) => [`${row.company_id}\u0000${row.job_id}`, toNotice(row)]));
      return marks.map((mark) => ({
        companyId: mark.company_id,
        jobId: mark.job_id,
        seq: readNumber(mark.seq),
        changedAt: fromDb(mark.changed_at),
        notice: byJob.get(`${mark.company_id}\u0000${mark.job_id}`) ?? null,
      }));
    },

    record: (notice) =>
      ctx.atomic(async (tx) => {
        const table = tx.table("job_index_notice");
        const values = {
          seq: notice.seq,
          action: notice.action,
          notified_at: tx.toDb(notice.notifiedAt),
          status: notice.status,
          error: notice.error,
          closes_at: tx.toDb(notice.closesAt),
        };
        const key = { company_id: notice.companyId, job_id: notice.jobId, service: notice.service };
        await tx.strategy
          .insertIgnore(tx.db.insertInto(table).values({ ...key, ...values }), ["company_id", "job_id", "service"])
          .execute();
        // A notice that is there already is replaced unless it covers more changes.
        await tx.db
          .updateTable(table)
          .set(values)
          .where("company_id", "=", key.company_id)
          .where("job_id", "=", key.job_id)
          .where("service", "=", key.service)
          .where("seq", "<=", notice.seq)
          .execute();
      }),

    async notices(companyId, jobIds) {
      if (jobIds.length === 0) return [];
      const rows = (await selectAll(ctx, "job_index_notice", "n")
        .where("n.company_id", "=", companyId)
        .where("n.job_id", "in", [...jobIds])
        .execute()) as unknown as JobIndexNoticeTable[];
      return rows.map(toNotice);
    },

    sweep: (now, limit) =>
      ctx.atomic(async (tx) => {
        const rows = (await selectAll(tx, "job_index_notice", "n")
          .where("n.closes_at", "is not", null)
          .where("n.closes_at", "<=", tx.toDb(now))
          .orderBy("n.closes_at")
          .limit(limit)
          .execute()) as unknown as JobIndexNoticeTable[];
        const jobs = new Set<string>();
        for (const row of rows) {
          await tx.db
            .updateTable(tx.table("job_index_notice"))
            .set({ closes_at: null })
            .where("company_id", "=", row.company_id)
            .where("job_id", "=", row.job_id)
            .where("service", "=", row.service)
            .execute();
          const job = `${row.company_id}\u0000${row.job_id}`;
          if (jobs.has(job)) continue;
          jobs.add(job);
          await markJob(tx, row.company_id, row.job_id, now);
        }
        return jobs.size;
      }),
  };
}
