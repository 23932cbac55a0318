import type { JobIndexStore } from "../storage";
import type { StateAccess } from "./access";
import { copy, toStored } from "./copy";
import type { MemoryState } from "./state";

function markKey(companyId: string, jobId: string): string {
  return `${companyId}\u0000${jobId}`;
}

function noticeKey(companyId: string, jobId: string, service: string): string {
  return `${companyId}\u0000${jobId}\u0000${service}`;
}

function markJob(state: MemoryState, companyId: string, jobId: string, at: Date): void {
  const marks = state.write("jobIndexMarks");
  const key = markKey(companyId, jobId);
  const seq = (marks.get(key)?.seq ?? 0) + 1;
  marks.set(key, toStored({ companyId, jobId, seq, changedAt: at }));
}

function binary(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The job-indexing outbox in memory: one mark per job, one notice per job and service. */
export function createJobIndexStore(access: StateAccess): JobIndexStore {
  return {
    mark: (companyId, jobId, at) => access.write((state) => markJob(state, companyId, jobId, at)),

    pending: (service, limit) =>
      access.read((state) => {
        const notices = state.read("jobIndexNotices");
        const due = [];
        for (const mark of state.read("jobIndexMarks").values()) {
          const notice = notices.get(noticeKey(mark.companyId, mark.jobId, service)) ?? null;
          if (notice === null || notice.seq < mark.seq) due.push({ ...mark, notice });
        }
        due.sort(
          (a, b) =>
            a.changedAt.getTime() - b.changedAt.getTime() ||
            binary(a.companyId, b.companyId) ||
            binary(a.jobId, b.jobId),
        );
        return copy(due.slice(0, limit));
      }),

    record: (notice) =>
      access.write((state) => {
        const notices = state.write("jobIndexNotices");
        const key = noticeKey(notice.companyId, notice.jobId, notice.service);
        const stored = notices.get(key);
        if (stored && stored.seq > notice.seq) return;
        notices.set(key, toStored(notice));
      }),

    notices: (companyId, jobIds) =>
      access.read((state) => {
        const wanted = new Set(jobIds);
        return copy(
          [...state.read("jobIndexNotices").values()].filter(
            (notice) => notice.companyId === companyId && wanted.has(notice.jobId),
          ),
        );
      }),

    sweep: (now, limit) =>
      access.write((state) => {
        const passed = [...state.read("jobIndexNotices").entries()]
          .filter(([, notice]) => notice.closesAt !== null && notice.closesAt.getTime() <= now.getTime())
          .sort(([, a], [, b]) => (a.closesAt?.getTime() ?? 0) - (b.closesAt?.getTime() ?? 0))
          .slice(0, limit);
        const notices = state.write("jobIndexNotices");
        const jobs = new Set<string>();
        for (const [key, notice] of passed) {
          notices.set(key, toStored({ ...notice, closesAt: null }));
          const job = markKey(notice.companyId, notice.jobId);
          if (jobs.has(job)) continue;
          jobs.add(job);
          markJob(state, notice.companyId, notice.jobId, now);
        }
        return jobs.size;
      }),
  };
}
