import type { Clock } from "../base/clock";
import type { Logger } from "../base/logger";
import type { Telemetry } from "../base/telemetry";
import { newEvent } from "../events/events";
import type { CursorCodec } from "../model/cursor";
import type { EventType } from "../model/domain";
import type { PublicJobRules } from "../model/public-jobs";
import type { FileStore, Storage, StorageStores } from "../storage";
import type { FileTokens } from "../wire/file-tokens";
import type { Serializer } from "../wire/serialize";
import type { ResumeSource, ScoringFunction } from "./host-functions";
import type { RecentJobs } from "./recent-jobs";
import type { ReferenceNumbers } from "./reference-numbers";

/** Limits with their defaults applied. */
export interface ResolvedLimits {
  perMinute: number;
  perDay: number;
  activeKeysPerCompany: number;
  maxBodyBytes: number;
  duplicateWindowDays: number;
}

/** What a write returns: the record as stored and the wire object it emitted (built once, for the event and the answer). */
export interface Written<R, W> {
  record: R;
  wire: W;
}

/** Emits an event on the transaction of the change it reports. */
export type Emit = (type: EventType, companyId: string, data: unknown) => Promise<void>;

/** What every part of one `createPublicApi` instance shares. Frozen at creation. */
export interface Runtime {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly limits: ResolvedLimits;
  readonly serializer: Serializer;
  /** The public-job rule now, and where each company's careers site lives. */
  readonly publicJobs: PublicJobRules;
  readonly cursors: CursorCodec;
  readonly fileTokens: FileTokens;
  readonly scoring: ScoringFunction;
  readonly basePath: string;
  readonly filesPath: string;
  readonly resolveResume:
    | ((application: {
        id: string;
        companyId: string;
        resumeSourceUrl: string | null;
      }) => ResumeSource | Promise<ResumeSource>)
    | undefined;
  readonly fileStore: FileStore | undefined;
  readonly onEvent: ((event: { id: string; type: string; companyId: string }) => void) | undefined;
  /** Traces and metrics, when the host asked for them. */
  readonly telemetry: Telemetry | undefined;
  /** Numbers the references of new jobs and applications. */
  readonly referenceNumbers: ReferenceNumbers;
  /** The jobs read for the applications added in the last two seconds. */
  readonly recentJobs: RecentJobs;
}

/**
 * Runs a change in one storage transaction. Events emitted through `emit` are appended (with their
 * fan-out) on the same transaction, and a job's events mark the job in `jobIndex` there too; after the commit, `onEvent` hears of each (it wakes an in-process dispatcher).
 */
export async function runChange<T>(
  runtime: Runtime,
  fn: (tx: StorageStores, emit: Emit, now: Date) => Promise<T>,
): Promise<T> {
  const emitted: { id: string; type: string; companyId: string }[] = [];
  const now = runtime.clock.now();
  const result = await runtime.storage.transaction(async (tx) => {
    emitted.length = 0;
    const emit: Emit = async (type, companyId, data) => {
      // The span active now (the request's, or the host's own): the event's deliveries link to it.
      const traceparent = runtime.telemetry?.traceparent();
      const event = newEvent({ type, companyId, data, now, traceparent });
      await tx.events.append(event);
      // A job's change also marks it for the search engines' notices (docs/careers.md, Search engine indexing).
      if (event.subjectId !== null && type.startsWith("job.")) await tx.jobIndex.mark(companyId, event.subjectId, now);
      emitted.push({ id: event.id, type, companyId });
    };
    return fn(tx, emit, now);
  });
  announceEvents(runtime, emitted);
  return result;
}

/** Tells `onEvent` of events just committed (it wakes an in-process dispatcher); never throws. */
export function announceEvents(
  runtime: Runtime,
  events: readonly { id: string; type: string; companyId: string }[],
): void {
  if (!runtime.onEvent) return;
  for (const event of events) {
    try {
      runtime.onEvent({ id: event.id, type: event.type, companyId: event.companyId });
    } catch (error) {
      runtime.logger.error("hireport: onEvent threw", { error: String(error), eventId: event.id });
    }
  }
}
