/**
 * The gauge `hireport.outbox.backlog` of a started dispatcher: how many deliveries are due and not
 * claimed, as `dispatcher.health()` counts them (`dueDeliveryStats`, cut at `health.maxBacklog + 1`).
 * Metrics systems read gauges synchronously, so the gauge reports the last count read; the count
 * is read again on the dispatcher's polls, at most once every {@link BACKLOG_READ_INTERVAL_MS} by
 * its clock and one read at a time, so that collecting metrics never queries the storage.
 */
import { backlogCountLimit } from "./health";
import type { ResolvedDispatcherOptions } from "./options";

/** Least time, by the dispatcher's clock, between two reads of the count. */
export const BACKLOG_READ_INTERVAL_MS = 10_000;

export interface BacklogTelemetry {
  /** Called on each poll of the loop: reads the count again when the last read is old enough. */
  poll(): void;
  /** Stops the gauge and waits for a read under way: no read starts after. */
  stop(): Promise<void>;
}

/** Reports the gauge while the dispatcher runs; null without `telemetry`. */
export function startBacklogTelemetry(options: ResolvedDispatcherOptions): BacklogTelemetry | null {
  const { telemetry, storage, clock, logger, health } = options;
  if (telemetry === undefined) return null;
  /** The last count read; undefined before the first read and after a failed one (no value is reported). */
  let backlog: number | undefined;
  let readAt: number | null = null;
  let reading: Promise<void> | null = null;
  let failing = false;
  let stopped = false;
  const stopGauge = telemetry.observe("hireport.outbox.backlog", () => backlog);

  function read(now: Date): Promise<void> {
    return storage.webhooks.dueDeliveryStats({ now, countLimit: backlogCountLimit(health) }).then(
      (stats) => {
        backlog = stats.due;
        failing = false;
      },
      (error: unknown) => {
        backlog = undefined;
        // Once per run of failures: the claim loop logs the storage's trouble too.
        if (!failing) logger.warn("hireport webhooks: counting the backlog failed", { error: String(error) });
        failing = true;
      },
    );
  }

  return {
    poll() {
      if (stopped || reading) return;
      const now = clock.now();
      const since = readAt === null ? Number.POSITIVE_INFINITY : now.getTime() - readAt;
      if (since >= 0 && since < BACKLOG_READ_INTERVAL_MS) return;
      readAt = now.getTime();
      reading = read(now).finally(() => {
        reading = null;
      });
    },
    async stop() {
      stopped = true;
      stopGauge();
      await reading;
    },
  };
}
