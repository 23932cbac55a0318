/**
 * `dispatcher.health()`: the storage answers, and the deliveries are not falling behind (how long
 * the oldest due delivery has waited, how many are due), against limits the host sets.
 */
import type { HealthReport } from "@hireport/core";
import { DEFAULT_HEALTH_TIMEOUT_MS, HealthCheckFailure, runHealthChecks } from "@hireport/core/http";
import type { HealthCheck } from "@hireport/core/storage";
import type { ResolvedDispatcherOptions } from "./options";

/** The `health` option of `createWebhookDispatcher`: when `dispatcher.health()` reports unhealthy. */
export interface DispatcherHealthOptions {
  /**
   * Longest wait, in milliseconds, of the oldest delivery that is due and not claimed (its lag)
   * before the report is unhealthy: the dispatchers are stopped, stuck or too few.
   * @default 300000 (5 minutes)
   */
  maxLagMs?: number;
  /**
   * Most deliveries due and not claimed at once (the backlog) before the report is unhealthy. The
   * count stops one past this number, so the read stays cheap under any backlog.
   * @default 10000
   */
  maxBacklog?: number;
  /** Longest wait for one check, in milliseconds. @default 5000 */
  timeoutMs?: number;
}

/** {@link DispatcherHealthOptions} with the defaults applied. */
export type ResolvedDispatcherHealth = Readonly<Required<DispatcherHealthOptions>>;

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new TypeError(`health.${name} must be a number of 0 or more`);
  return value;
}

export function resolveDispatcherHealth(input: DispatcherHealthOptions | undefined): ResolvedDispatcherHealth {
  return Object.freeze({
    maxLagMs: nonNegative("maxLagMs", input?.maxLagMs ?? 300_000),
    maxBacklog: Math.floor(nonNegative("maxBacklog", input?.maxBacklog ?? 10_000)),
    timeoutMs: nonNegative("timeoutMs", input?.timeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS),
  });
}

/**
 * How far the backlog is counted (`countLimit` of `dueDeliveryStats`): one past `maxBacklog`, enough
 * to tell "over the limit", cheap under any backlog. The health check and the backlog gauge use it.
 */
export function backlogCountLimit(health: ResolvedDispatcherHealth): number {
  return health.maxBacklog + 1;
}

/** The company id the storage check reads: no company has it. */
const HEALTH_PROBE_ID = "cmp_health_probe";

/**
 * The dispatcher's checks: `webhook-storage` (one cheap read) and `webhook-deliveries` (lag and
 * backlog, reported as `lagMs` and `backlog` details, failing past the limits).
 */
export function dispatcherHealth(options: ResolvedDispatcherOptions): () => Promise<HealthReport> {
  const { storage, clock, logger, health } = options;
  const checks: HealthCheck[] = [
    {
      name: "webhook-storage",
      run: async () => {
        await storage.companies.get(HEALTH_PROBE_ID);
      },
    },
    {
      name: "webhook-deliveries",
      run: async () => {
        const now = clock.now();
        const stats = await storage.webhooks.dueDeliveryStats({ now, countLimit: backlogCountLimit(health) });
        const lagMs = stats.oldestDueAt === null ? 0 : Math.max(0, now.getTime() - stats.oldestDueAt.getTime());
        const details = { lagMs, backlog: stats.due, maxLagMs: health.maxLagMs, maxBacklog: health.maxBacklog };
        const problems: string[] = [];
        if (lagMs > health.maxLagMs) {
          problems.push(`the oldest due delivery has waited ${lagMs} ms (limit ${health.maxLagMs} ms)`);
        }
        if (stats.due > health.maxBacklog) {
          problems.push(`more than ${health.maxBacklog} deliveries are due`);
        }
        if (problems.length > 0) throw new HealthCheckFailure(`Falling behind: ${problems.join("; ")}.`, details);
        return details;
      },
    },
  ];
  return () => runHealthChecks(checks, { timeoutMs: health.timeoutMs, logger, now: () => clock.now() });
}
