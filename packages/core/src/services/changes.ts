/**
 * The change detector: notices the changes of jobs and applications that hireport did not make
 * (the product's own screens, scripts, plain SQL on its tables) and emits `job.created`,
 * `job.updated`, `job.closed`, `application.created` and `application.updated` for them, through the
 * same outbox and with the same envelopes as the API's own changes.
 *
 * Each pass reads each kind's records in order of their change time (`updatedAt`), from a little
 * before its stored position (`overlapMs`, so that a change whose transaction committed after the
 * position had passed its time is still read) up to `settleMs` ago, and compares each with the
 * newest event the outbox holds for it: a record whose `updatedAt` an event already carries was
 * announced (by the API's own write, or by an earlier pass) and is left alone. One page of a pass
 * locks the position, reads, appends the events and moves the position in one transaction, so
 * detectors in several processes take turns and never announce one change twice. Several edits
 * between two passes become one event with the latest state.
 */
import type { Logger } from "../base/logger";
import { createPollLoop } from "../events/poll-loop";
import type { ApplicationRecord, EventType, JobRecord } from "../model/domain";
import { type Runtime, runChange } from "../runtime/runtime";
import type { ChangeKind, ChangePosition, ChangeStore, LatestEvent } from "../storage/changes";

/** Options of the change detector (`createPublicApi`'s `changes`, and `api.changes.poll`). */
export interface ChangeDetectionOptions {
  /** The wait between two passes of `api.changes.start()`. @default 5000 */
  intervalMs?: number;
  /**
   * How old a change must be before a pass reads it, so that the writes of one moment are read
   * together. @default 2000
   */
  settleMs?: number;
  /**
   * How far before its position a pass starts reading again, to find a change whose transaction
   * committed later than the position passed its time (a long transaction of the product's).
   * @default 60000
   */
  overlapMs?: number;
  /** Records read per transaction. @default 200 */
  batchSize?: number;
}

export type ResolvedChangeDetection = Required<ChangeDetectionOptions>;

export function resolveChangeDetection(options: ChangeDetectionOptions | undefined): ResolvedChangeDetection {
  const resolved = {
    intervalMs: options?.intervalMs ?? 5_000,
    settleMs: options?.settleMs ?? 2_000,
    overlapMs: options?.overlapMs ?? 60_000,
    batchSize: options?.batchSize ?? 200,
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isInteger(value) || value < (name === "batchSize" || name === "intervalMs" ? 1 : 0)) {
      throw new TypeError(
        `changes.${name} must be a whole number of ${name === "batchSize" ? "records" : "milliseconds"}; got ${value}.`,
      );
    }
  }
  return resolved;
}

/** What one `poll()` announced: the events it appended, per kind. */
export interface ChangePollResult {
  jobs: number;
  applications: number;
}

/** What the outbox last said of a record: its `updated_at` and, for a job, its status. */
interface Announced {
  updatedAt: number;
  status: string | null;
}

function announced(events: readonly LatestEvent[]): Map<string, Announced> {
  const out = new Map<string, Announced>();
  for (const event of events) {
    try {
      const data = (JSON.parse(event.payload) as { data?: { updated_at?: unknown; status?: unknown } }).data;
      const at = typeof data?.updated_at === "string" ? Date.parse(data.updated_at) : Number.NaN;
      out.set(event.subjectId, {
        updatedAt: Number.isNaN(at) ? Number.NEGATIVE_INFINITY : at,
        status: typeof data?.status === "string" ? data.status : null,
      });
    } catch {
      out.set(event.subjectId, { updatedAt: Number.NEGATIVE_INFINITY, status: null });
    }
  }
  return out;
}

/** The event a job's change needs, or null when the outbox already carries this version. */
export function jobChangeEvent(job: JobRecord, last: Announced | undefined): EventType | null {
  if (last && last.updatedAt >= job.updatedAt.getTime()) return null;
  if (!last && job.createdAt.getTime() === job.updatedAt.getTime()) return "job.created";
  if (job.status === "closed" && last?.status !== "closed") return "job.closed";
  return "job.updated";
}

/** The event an application's change needs, or null when the outbox already carries this version. */
export function applicationChangeEvent(application: ApplicationRecord, last: Announced | undefined): EventType | null {
  if (last && last.updatedAt >= application.updatedAt.getTime()) return null;
  if (!last && application.appliedAt.getTime() === application.updatedAt.getTime()) return "application.created";
  return "application.updated";
}

/** Whether `a` is strictly after `b` in (time, id) order. */
function after_(a: ChangePosition, b: ChangePosition): boolean {
  return a.at.getTime() > b.at.getTime() || (a.at.getTime() === b.at.getTime() && a.id > b.id);
}

export class ChangeDetector {
  readonly #runtime: Runtime;
  readonly settings: ResolvedChangeDetection;

  constructor(runtime: Runtime, settings: ResolvedChangeDetection) {
    this.#runtime = runtime;
    this.settings = settings;
  }

  /** Whether the storage can tell changes (`storage.changes`). */
  get available(): boolean {
    return this.#runtime.storage.changes !== undefined;
  }

  /** One pass over jobs, then applications; resolves with the events it appended. */
  async poll(): Promise<ChangePollResult> {
    if (!this.available) {
      throw new Error(
        "hireport: this storage cannot detect changes: `api.changes` needs a storage over declared tables (declaredDomain of @hireport/kysely).",
      );
    }
    return { jobs: await this.#pollKind("job"), applications: await this.#pollKind("application") };
  }

  async #pollKind(kind: ChangeKind): Promise<number> {
    const { settleMs, overlapMs, batchSize } = this.settings;
    let events = 0;
    let start: ChangePosition | undefined;
    for (;;) {
      const page = await runChange(this.#runtime, async (tx, emit, now) => {
        const store = tx.changes as ChangeStore;
        const checkpoint = await store.lockCheckpoint(kind);
        const until = new Date(now.getTime() - settleMs);
        // The first pass ever starts now: what changed before it is not announced.
        if (checkpoint === null) {
          await store.start(kind, until);
          return { read: 0, emitted: 0, last: null, stuck: false };
        }
        const stored = checkpoint.position;
        // A poll starts `overlapMs` before the stored position, but after the first pass (a change
        // in its millisecond was before it); its later pages go on from their own.
        const from = Math.max(stored.at.getTime() - overlapMs, checkpoint.startedAt.getTime() + 1);
        const after = start === undefined ? { at: new Date(from), id: "" } : start;
        const query = { after, until, take: batchSize };
        const records = kind === "job" ? await store.changedJobs(query) : await store.changedApplications(query);
        const last = records.at(-1);
        if (!last) return { read: 0, emitted: 0, last: null, stuck: false };
        const subjects = records.map((record) => ({ companyId: record.companyId, id: record.id }));
        const latest = announced(await store.latestEvents(kind, subjects));
        let emitted = 0;
        for (const record of records) {
          if (kind === "job") {
            const job = record as JobRecord;
            const type = jobChangeEvent(job, latest.get(job.id));
            if (type === null) continue;
            await emit(type, job.companyId, this.#runtime.serializer.job(job));
          } else {
            const application = record as ApplicationRecord;
            const type = applicationChangeEvent(application, latest.get(application.id));
            if (type === null) continue;
            await emit(type, application.companyId, await this.#runtime.serializer.application(application));
          }
          emitted++;
        }
        const position = { at: last.updatedAt, id: last.id };
        if (start !== undefined && !after_(position, start)) {
          // A page that does not move past the one before it would be read forever: a change time
          // kept finer than the millisecond where the storage compares milliseconds.
          return { read: records.length, emitted, last: null, stuck: true };
        }
        // The stored position only moves forward (a poll's overlap reads behind it).
        if (after_(position, stored)) {
          await store.setPosition(kind, position);
        }
        return { read: records.length, emitted, last: position, stuck: false };
      });
      events += page.emitted;
      if (page.stuck) {
        this.#runtime.logger.error(
          `hireport: the change detector cannot page past ${kind} changes at one time: does the change time column keep more than milliseconds?`,
          { kind },
        );
        return events;
      }
      if (page.last === null || page.read < batchSize) return events;
      start = page.last;
    }
  }
}

/** `api.changes`: the change detector, run by the host (a loop in this process, or one pass at a time from a cron). */
export interface HostChanges {
  /**
   * One pass now, over jobs then applications; resolves with the events it appended.
   * @throws when the storage cannot tell changes (no `storage.changes`)
   */
  poll(): Promise<ChangePollResult>;
  /**
   * Runs a pass every `changes.intervalMs` in this process, the first at once; a failed pass is
   * logged and the loop goes on (after a longer wait while failures repeat). Does nothing when it
   * runs. `api.close()` stops it. @throws when the storage cannot tell changes
   */
  start(): void;
  /** Stops the loop: resolves when the pass under way ends. */
  stop(): Promise<void>;
  /** True from `start()` to `stop()`. */
  readonly running: boolean;
  /** Whether the storage can tell changes. */
  readonly available: boolean;
  /** The settings in force (the `changes` option with its defaults). */
  readonly settings: ResolvedChangeDetection;
}

export function hostChanges(detector: ChangeDetector, logger: Logger): HostChanges {
  const loop = createPollLoop({
    pass: async () => {
      await detector.poll();
    },
    intervalMs: detector.settings.intervalMs,
    onError: (error, failures) =>
      logger.error("hireport: a change detection pass failed", { error: String(error), failures }),
    backoffMs: (failures) => Math.min(60_000, detector.settings.intervalMs * 2 ** Math.min(failures, 6)),
  });
  return Object.freeze({
    poll: () => detector.poll(),
    start() {
      if (!detector.available) {
        throw new Error("hireport: api.changes.start(): this storage cannot detect changes (see storage.changes).");
      }
      loop.start();
    },
    stop: () => loop.stop(),
    get running() {
      return loop.running;
    },
    available: detector.available,
    settings: detector.settings,
  });
}
