/**
 * Health reports for readiness probes: named checks run side by side, each with a time limit, a
 * status, a duration and (when it failed) an error message cleaned of anything that could be a
 * secret. `api.health()` and the webhook dispatcher's `health()` build their reports here, and
 * `healthResponse` turns reports into the answer adapters serve.
 */

import { KEY_PREFIX } from "../access/key-hash";
import type { ApiResponse } from "../base/http-types";
import type { Logger } from "../base/logger";

/** Numbers and short facts a check reports besides its status (a lag, a backlog, a migration name). */
export type HealthCheckDetails = Readonly<Record<string, string | number | boolean | null>>;

/**
 * One readiness check. `run` resolves when the check passes (with details to report, or nothing)
 * and rejects when it fails: the rejection's message, cleaned of addresses and credentials, is the
 * check's `error` in the report. A check should be cheap: probes call it every few seconds.
 */
export interface HealthCheck {
  /** The check's name in the report, such as `storage` or `migrations`. */
  readonly name: string;
  // biome-ignore lint/suspicious/noConfusingVoidType: `async () => { await ping(); }` must fit.
  run(): Promise<HealthCheckDetails | undefined | void>;
}

/** Something that reports its health: the public API, the webhook dispatcher. */
export interface HealthSource {
  health(): Promise<HealthReport>;
}

/** What one check found. */
export interface HealthCheckResult {
  name: string;
  status: "pass" | "fail";
  /** How long the check took, in whole milliseconds (the time limit when it timed out). */
  durationMs: number;
  /** Why it failed, without addresses, connection strings or credentials. Absent when it passed. */
  error?: string;
  /** What the check reported (its measures), when it reported anything. */
  details?: HealthCheckDetails;
}

/** A health report: `ok` when every check passed. */
export interface HealthReport {
  ok: boolean;
  /** When the checks started, ISO 8601 UTC. */
  checkedAt: string;
  checks: HealthCheckResult[];
}

/** How {@link runHealthChecks} runs the checks. */
export interface HealthRunOptions {
  /** Longest wait for one check, in milliseconds; a slower check fails as timed out. */
  timeoutMs: number;
  /** Where the full error of a failed check is logged (the report carries a cleaned message). */
  logger?: Pick<Logger, "warn">;
  /** The time of `checkedAt`. @default the system clock */
  now?: () => Date;
}

/** The options of `createPublicApi` about `api.health()`. */
export interface HealthOptions {
  /**
   * More checks to run after the storage's, such as `kyselyHealthChecks(db)` of `@hireport/kysely`
   * (the database's migrations are current).
   * @default none
   */
  checks?: readonly HealthCheck[];
  /**
   * Longest wait for one check, in milliseconds: a database that does not answer fails its check
   * after this long instead of holding the probe.
   * @default 5000
   */
  timeoutMs?: number;
}

/** The default of {@link HealthOptions.timeoutMs}. */
export const DEFAULT_HEALTH_TIMEOUT_MS = 5_000;

/** Longest error message a report carries. */
const MAX_ERROR_LENGTH = 300;

/** A URL of any scheme (`postgres://user:secret@db:5432/app`, `redis://…`, `https://…`). */
const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]*/gi;
/** `password=…`, `user: …`, `token=…` as connection strings and driver messages write them. */
const CREDENTIAL_PATTERN =
  /\b(password|passwd|pwd|pass|secret|token|api[_-]?key|apikey|auth|user(?:name)?|uid)\b(\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s;,&]+)/gi;
/** An API key of hireport. */
const KEY_PATTERN = new RegExp(`${KEY_PREFIX}[A-Za-z0-9_-]+`, "g");

/**
 * The message of a failed check as a report may show it: URLs (connection strings among them),
 * credential pairs and API keys replaced, one line, at most 300 characters.
 */
export function sanitizeHealthError(error: unknown): string {
  const raw = error instanceof Error ? error.message : typeof error === "string" ? error : "The check failed.";
  const cleaned = raw
    .replace(URL_PATTERN, "[address]")
    .replace(CREDENTIAL_PATTERN, (_match, name: string, separator: string) => `${name}${separator}[redacted]`)
    .replace(KEY_PATTERN, "[key]")
    .replace(/\s+/g, " ")
    .trim();
  const message = cleaned === "" ? (error instanceof Error ? error.name : "The check failed.") : cleaned;
  return message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH - 1)}…` : message;
}

class HealthTimeout extends Error {
  constructor(ms: number) {
    super(`Did not answer within ${ms} ms.`);
  }
}

async function runOne(check: HealthCheck, options: HealthRunOptions): Promise<HealthCheckResult> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new HealthTimeout(options.timeoutMs)), options.timeoutMs);
  });
  try {
    const details = await Promise.race([Promise.resolve().then(() => check.run()), timeout]);
    return {
      name: check.name,
      status: "pass",
      durationMs: Math.round(performance.now() - started),
      ...(details ? { details } : {}),
    };
  } catch (error) {
    options.logger?.warn("hireport: health check failed", { check: check.name, error });
    const details = error instanceof HealthCheckFailure ? error.details : undefined;
    return {
      name: check.name,
      status: "fail",
      durationMs: Math.round(performance.now() - started),
      error: sanitizeHealthError(error),
      ...(details ? { details } : {}),
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A failed check that still reports its measures (a dispatcher whose lag is over its limit reports
 * the lag): throw it from {@link HealthCheck.run}.
 */
export class HealthCheckFailure extends Error {
  override readonly name = "HealthCheckFailure";
  readonly details: HealthCheckDetails | undefined;
  constructor(message: string, details?: HealthCheckDetails) {
    super(message);
    this.details = details;
  }
}

/** Runs the checks side by side, each within `timeoutMs`; never rejects. */
export async function runHealthChecks(
  checks: readonly HealthCheck[],
  options: HealthRunOptions,
): Promise<HealthReport> {
  const checkedAt = (options.now?.() ?? new Date()).toISOString();
  const results = await Promise.all(checks.map((check) => runOne(check, options)));
  return { ok: results.every((result) => result.status === "pass"), checkedAt, checks: results };
}

/**
 * The answer of a health route: 200 when every report is `ok`, 503 otherwise, the report as JSON
 * (several reports merged into one: their checks in order, the earliest `checkedAt`), never cached.
 */
export function healthResponse(reports: HealthReport | readonly HealthReport[]): ApiResponse {
  const list: readonly HealthReport[] = Array.isArray(reports) ? reports : [reports as HealthReport];
  const merged: HealthReport = {
    ok: list.every((report) => report.ok),
    checkedAt: list.map((report) => report.checkedAt).sort()[0] ?? new Date().toISOString(),
    checks: list.flatMap((report) => report.checks),
  };
  return {
    status: merged.ok ? 200 : 503,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
    body: JSON.stringify(merged),
  };
}

/**
 * What adapters serve on a health route: the reports of `sources` (the API, the dispatcher)
 * merged by {@link healthResponse}. Never rejects: a source that throws is a failed check.
 */
export async function answerHealth(sources: HealthSource | readonly HealthSource[]): Promise<ApiResponse> {
  const list: readonly HealthSource[] = Array.isArray(sources) ? sources : [sources as HealthSource];
  const reports = await Promise.all(
    list.map(async (source, index): Promise<HealthReport> => {
      try {
        return await source.health();
      } catch (error) {
        return {
          ok: false,
          checkedAt: new Date().toISOString(),
          checks: [{ name: `source-${index + 1}`, status: "fail", durationMs: 0, error: sanitizeHealthError(error) }],
        };
      }
    }),
  );
  return healthResponse(reports);
}
