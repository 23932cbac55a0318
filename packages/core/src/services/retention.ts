import { type Actor, APPLICATION_STAGES, type ApplicationStage } from "../model/domain";
import type { Runtime } from "../runtime/runtime";
import type { CandidateService } from "./candidates";

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/**
 * How long hireport keeps each kind of data, in days (CV files no application names: minutes),
 * set by `createPublicApi({ retention })`. A period left out (or null) keeps that kind until you
 * set one, except where the default says otherwise.
 */
export interface RetentionOptions {
  /**
   * Applications, per stage group, counted from their last change (`updated_at`): past its period
   * an application is erased as `api.candidates.erase` erases it (the candidate's data goes, the
   * anonymous record stays so counts and reports stay true). `other` is every stage but `rejected`
   * and `withdrawn`. @default {} (no application is erased)
   */
  applications?: { rejected?: number | null; withdrawn?: number | null; other?: number | null };
  /** Usage-log entries (every request: key, route, status, IP). @default null (kept) */
  usageDays?: number | null;
  /**
   * Outbox events and finished webhook deliveries with their attempts. An event is kept while one
   * of its deliveries is pending, and for the events feed's window (`eventFeedDays` of
   * `createPublicApi`) when that is longer. @default 30 (what the webhook dispatcher's own purge keeps)
   */
  eventDays?: number | null;
  /**
   * CV files that no application names (the process stopped between putting the file and writing
   * its application, or deleting a refused or erased application's file failed) are deleted once
   * they are older than this, on every run. A file is put just before the application that names
   * it is written: keep this longer than your slowest upload plus that write, or a file could be
   * deleted just before its application names it. @default 60 (an hour)
   */
  orphanFileGraceMinutes?: number;
  /** Rows per statement (a bounded batch): each kind is purged in as many batches as it takes. @default 500 */
  batchSize?: number;
}

/** The periods in force, defaults applied: null keeps the kind. */
export interface ResolvedRetention {
  readonly applications: Readonly<{ rejected: number | null; withdrawn: number | null; other: number | null }>;
  readonly usageDays: number | null;
  readonly eventDays: number | null;
  readonly orphanFileGraceMinutes: number;
  readonly batchSize: number;
}

/** What one `api.retention.purge()` removed, per kind. */
export interface RetentionCounts {
  /** Applications erased (kept as anonymous records). */
  applicationsErased: number;
  usageEntries: number;
  /** Finished deliveries deleted, with their attempts. */
  deliveries: number;
  events: number;
  /** Expired `Idempotency-Key` records (24 hours; always purged). */
  idempotencyRecords: number;
  /** Rate-limit counters whose window ended (always purged). */
  rateLimitCounters: number;
  /** CV files no application names, older than `orphanFileGraceMinutes`, deleted (always purged). */
  orphanFiles: number;
  /**
   * What uploads that never finished left in the file store (temporary files, chunk rows),
   * removed when they started more than `orphanFileGraceMinutes` ago (always purged).
   */
  unfinishedUploads: number;
}

/** One part of a purge that failed; `purge()` went on with the rest (see {@link RetentionError}). */
export interface RetentionFailure {
  /** The kind that was being purged, named as its count in {@link RetentionCounts}. */
  kind: keyof RetentionCounts;
  /** The company of the applications or the file; null for the kinds purged across companies. */
  companyId: string | null;
  /** The applications (`applicationsErased`) or the file (`orphanFiles`) concerned; empty for the other kinds. */
  ids: string[];
  /** What was thrown. */
  error: unknown;
}

/**
 * Thrown by `api.retention.purge()` once every kind has run, when a part of the run failed (a CV
 * file the file store would not delete, say): the rest was purged all the same. `counts` is what
 * went, `failures` what did not; each failure was logged too. A failed application stays as it was,
 * its data included, and the next run tries it again.
 */
export class RetentionError extends Error {
  readonly counts: RetentionCounts;
  readonly failures: readonly RetentionFailure[];

  constructor(counts: RetentionCounts, failures: readonly RetentionFailure[]) {
    const first = failures[0];
    const what = first
      ? `${first.kind}${first.companyId ? ` of company ${first.companyId}` : ""}${first.ids.length > 0 ? ` (${first.ids.join(", ")})` : ""}: ${first.error instanceof Error ? first.error.message : String(first.error)}`
      : "";
    super(
      `hireport: retention purged what it could, but ${failures.length} part${failures.length === 1 ? "" : "s"} failed; the first: ${what}. Run it again once the cause is fixed.`,
    );
    this.name = "RetentionError";
    this.counts = counts;
    this.failures = failures;
  }
}

function period(name: string, value: number | null | undefined, fallback: number | null): number | null {
  if (value === undefined) return fallback;
  if (value === null) return null;
  if (!Number.isFinite(value) || value <= 0) {
    throw new TypeError(`hireport: option retention.${name} must be a positive number of days or null, got ${value}.`);
  }
  return value;
}

/** Checks the retention options and applies the defaults. Throws a TypeError naming a bad one. */
export function resolveRetention(options: RetentionOptions | undefined): ResolvedRetention {
  const input = options ?? {};
  const applications = input.applications ?? {};
  const batchSize = input.batchSize ?? 500;
  const orphanFileGraceMinutes = input.orphanFileGraceMinutes ?? 60;
  if (!Number.isFinite(orphanFileGraceMinutes) || orphanFileGraceMinutes <= 0) {
    throw new TypeError(
      `hireport: option retention.orphanFileGraceMinutes must be a positive number of minutes, got ${orphanFileGraceMinutes}.`,
    );
  }
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) {
    throw new TypeError(
      `hireport: option retention.batchSize must be a whole number from 1 to 10000, got ${batchSize}.`,
    );
  }
  return Object.freeze({
    applications: Object.freeze({
      rejected: period("applications.rejected", applications.rejected, null),
      withdrawn: period("applications.withdrawn", applications.withdrawn, null),
      other: period("applications.other", applications.other, null),
    }),
    usageDays: period("usageDays", input.usageDays, null),
    eventDays: period("eventDays", input.eventDays, 30),
    orphanFileGraceMinutes,
    batchSize,
  });
}

/** Who erases in a retention run, in the audit list. */
const RETENTION_ACTOR: Actor = { type: "host", id: null, name: "retention" };

const GROUPS: Record<"rejected" | "withdrawn" | "other", readonly ApplicationStage[]> = {
  rejected: ["rejected"],
  withdrawn: ["withdrawn"],
  other: APPLICATION_STAGES.filter((stage) => stage !== "rejected" && stage !== "withdrawn"),
};

/** Runs `batch` until it removes fewer than `limit` rows; the total removed. */
async function drain(limit: number, batch: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const removed = await batch(limit);
    total += removed;
    if (removed < limit) return total;
  }
}

/** `api.retention`: keeps data no longer than the company decides (docs/personal-data.md). */
export class RetentionService {
  readonly #runtime: Runtime;
  readonly #candidates: CandidateService;
  /** The periods in force. */
  readonly settings: ResolvedRetention;

  readonly #eventFeedDays: number;

  /** `eventFeedDays`: the events feed's window, which no purge of events cuts into. */
  constructor(runtime: Runtime, candidates: CandidateService, settings: ResolvedRetention, eventFeedDays: number) {
    this.#runtime = runtime;
    this.#candidates = candidates;
    this.settings = settings;
    this.#eventFeedDays = eventFeedDays;
  }

  /**
   * Removes what is older than its period, each kind in batches of `batchSize` rows (one statement
   * or transaction each), and returns how many went per kind; with a `fileStore`, also the CV files
   * no application names and what unfinished uploads left, once older than the grace period. Safe
   * to run from several processes at once, and to run again after a failure: each batch stands on
   * its own.
   */
  async purge(): Promise<RetentionCounts> {
    const { storage, clock } = this.#runtime;
    const { batchSize, usageDays, eventDays } = this.settings;
    const now = clock.now();
    const before = (days: number) => new Date(now.getTime() - days * DAY_MS);
    const failures: RetentionFailure[] = [];
    const counts: RetentionCounts = {
      applicationsErased: 0,
      usageEntries: 0,
      deliveries: 0,
      events: 0,
      idempotencyRecords: 0,
      rateLimitCounters: 0,
      orphanFiles: 0,
      unfinishedUploads: 0,
    };
    // Each kind on its own: one that fails is reported, and the others are purged all the same.
    const run = async (kind: keyof RetentionCounts, purge: () => Promise<number>) => {
      try {
        counts[kind] = await purge();
      } catch (error) {
        this.#failed(failures, { kind, companyId: null, ids: [], error });
      }
    };
    try {
      await this.#eraseApplications(now, counts, failures);
    } catch (error) {
      this.#failed(failures, { kind: "applicationsErased", companyId: null, ids: [], error });
    }
    if (eventDays !== null) {
      await run("deliveries", () =>
        drain(batchSize, (limit) => storage.eventDeliveries.purgeDeliveries(before(eventDays), limit)),
      );
      // Events stay for the feed's window (GET /events) even when every delivery is finished.
      const eventsBefore = before(Math.max(eventDays, this.#eventFeedDays));
      await run("events", () => drain(batchSize, (limit) => storage.events.purge(eventsBefore, limit)));
    }
    if (usageDays !== null) {
      await run("usageEntries", () => drain(batchSize, (limit) => storage.usage.purge(before(usageDays), limit)));
    }
    await run("idempotencyRecords", () => storage.idempotency.purgeExpired(now));
    await run("rateLimitCounters", () => storage.rateLimits.purgeExpired(now));
    await this.#purgeFiles(now, counts, failures);
    if (failures.length > 0) throw new RetentionError(counts, failures);
    return counts;
  }

  /** Logs a failed part of the run (ids only: no personal data) and keeps it for the `RetentionError`. */
  #failed(failures: RetentionFailure[], failure: RetentionFailure): void {
    failures.push(failure);
    this.#runtime.logger.error("hireport: retention could not purge a part; the rest goes on", {
      kind: failure.kind,
      companyId: failure.companyId,
      ids: failure.ids,
      error: String(failure.error),
    });
  }

  /**
   * Deletes the CV files older than the grace period that no application names, a page of
   * `batchSize` files at a time (one question to the storage per page), then what unfinished
   * uploads of that age left, into `counts`. A file the store fails to delete is a failure, and the
   * others go on. Needs the API's `fileStore`; without one there is nothing to do.
   */
  async #purgeFiles(now: Date, counts: RetentionCounts, failures: RetentionFailure[]): Promise<void> {
    const { storage, fileStore } = this.#runtime;
    if (!fileStore) return;
    const { batchSize, orphanFileGraceMinutes } = this.settings;
    const createdBefore = new Date(now.getTime() - orphanFileGraceMinutes * MINUTE_MS);
    try {
      let after: { createdAt: Date; id: string } | undefined;
      for (;;) {
        const page = await fileStore.listCreatedBefore({
          createdBefore,
          limit: batchSize,
          ...(after ? { after } : {}),
        });
        const last = page.at(-1);
        if (!last) break;
        const inUse = new Set(await storage.candidates.resumeFilesInUse(page.map((file) => file.id)));
        for (const file of page) {
          if (inUse.has(file.id)) continue;
          try {
            // Another run may have deleted it first: only this run's deletes count.
            if (await fileStore.delete(file.companyId, file.id)) counts.orphanFiles += 1;
          } catch (error) {
            this.#failed(failures, { kind: "orphanFiles", companyId: file.companyId, ids: [file.id], error });
          }
        }
        after = { createdAt: last.createdAt, id: last.id };
      }
    } catch (error) {
      this.#failed(failures, { kind: "orphanFiles", companyId: null, ids: [], error });
    }
    try {
      counts.unfinishedUploads = await fileStore.purgeUnfinished(createdBefore);
    } catch (error) {
      this.#failed(failures, { kind: "unfinishedUploads", companyId: null, ids: [], error });
    }
  }

  /**
   * Erases the applications past their group's period, a batch at a time, per company, counting
   * them into `counts`. When a company's erasure fails, its applications are tried one by one, so
   * that one that cannot be erased (its CV file will not go, say) holds back none of the others: it
   * is a failure, is not tried again in this run, and the run goes on.
   */
  async #eraseApplications(now: Date, counts: RetentionCounts, failures: RetentionFailure[]): Promise<void> {
    const { storage } = this.#runtime;
    const { applications, batchSize } = this.settings;
    const failed = new Set<string>();
    const erase = async (companyId: string, ids: string[], updatedBefore: Date): Promise<number> => {
      const result = await this.#candidates.eraseForRetention(companyId, ids, updatedBefore, RETENTION_ACTOR);
      counts.applicationsErased += result.applicationIds.length;
      return result.applicationIds.length + result.alreadyErased.length;
    };
    for (const group of ["rejected", "withdrawn", "other"] as const) {
      const days = applications[group];
      if (days === null) continue;
      const updatedBefore = new Date(now.getTime() - days * DAY_MS);
      for (;;) {
        const batch = await storage.candidates.listForRetention({
          stages: GROUPS[group],
          updatedBefore,
          take: batchSize,
        });
        const byCompany = new Map<string, string[]>();
        for (const row of batch) {
          if (!failed.has(row.id)) byCompany.set(row.companyId, [...(byCompany.get(row.companyId) ?? []), row.id]);
        }
        let progress = 0;
        for (const [companyId, ids] of byCompany) {
          try {
            progress += await erase(companyId, ids, updatedBefore);
          } catch (error) {
            if (ids.length === 1) {
              failed.add(ids[0] as string);
              this.#failed(failures, { kind: "applicationsErased", companyId, ids, error });
              continue;
            }
            for (const id of ids) {
              try {
                progress += await erase(companyId, [id], updatedBefore);
              } catch (alone) {
                failed.add(id);
                this.#failed(failures, { kind: "applicationsErased", companyId, ids: [id], error: alone });
              }
            }
          }
        }
        // Fewer than a batch: the group is done. No progress: nothing more this run can erase.
        if (batch.length < batchSize || progress === 0) break;
      }
    }
  }
}
