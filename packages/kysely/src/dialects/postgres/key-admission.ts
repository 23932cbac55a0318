/** `keys.admit` on Postgres: the key lookup and the request's count in one statement per batch. */
import { isKeyUsable } from "@hireport/core";
import {
  type ApiKeyWithCompany,
  admitInSteps,
  type KeyAdmission,
  type KeyRateWindow,
  type KeyStore,
  type RateLimitResult,
} from "@hireport/core/storage";
import { sql } from "kysely";
import { runCompiled } from "../../compiled-queries";
import type { StoreContext } from "../../context";
import { type KeyWithCompanyRow, selectKeysWithCompany, toKeyWithCompany } from "../../stores/keys";
import { readNumber } from "../../values";
import type { AdmissionSteps } from "../types";
import { countArgs, countRequests } from "./count-requests";
import { withRoutine } from "./routines";

/** Requests of one key counted by one statement at most; more wait for the next one. */
const MAX_BATCH = 64;
/**
 * Statements of one key under way at once; calls that arrive meanwhile wait for one to end. One
 * measured fastest, against two or three (bench/RESULTS.md, "Claims"): more statements then queue
 * on the same two rows.
 */
const IN_FLIGHT = 1;

type AdmissionRow = KeyWithCompanyRow & {
  counted_key: string | null;
  counted_hits: number | string | null;
  counted_taken: number | string | null;
};

interface Waiter {
  now: Date;
  resolve(result: KeyAdmission | null): void;
  reject(error: unknown): void;
}

/** The calls of one key and one set of windows: the batch being counted and those waiting for the next. */
interface Group {
  hash: string;
  windows: readonly KeyRateWindow[];
  waiting: Waiter[];
  /** Statements of the group under way. */
  running: number;
}

/** What the statement decided for one call: its admission, or nothing counted (null counts). */
type Counted = { kind: "missing" } | { kind: "found"; found: ApiKeyWithCompany; counts: number[] | null };

/**
 * `keys.admit` on Postgres: the key (joined to its company) is read by hash and, only when it is
 * neither revoked nor expired, its buckets (`key.id || suffix`) are counted by `count_requests`,
 * in one statement: one round trip before the request's own query instead of two.
 *
 * Calls for the same key and windows that arrive while its statement runs are counted together by
 * the next one (up to 64): each of them is looked up after it arrived, so a revocation is seen at
 * once, and the statement admits as many as every window has room for, in the order they came.
 * One busy key therefore costs one statement per batch on its counter rows instead of one per
 * request, which keeps those rows (every request of a key updates the same two, and Postgres
 * serializes updates of a row) from becoming the bottleneck.
 *
 * A call the statement counted nothing for, its key being usable (the first request of a window,
 * whose counter rows do not exist yet, or a full window), falls back to `rateLimits.consume`,
 * which creates the rows, or reads the counts of a refusal.
 */
export function postgresKeyAdmission(ctx: StoreContext, steps: AdmissionSteps): KeyStore["admit"] {
  const groups = new Map<string, Group>();

  async function count(group: Group, batch: readonly Waiter[]): Promise<Counted[]> {
    const { hash, windows } = group;
    const now = new Date(Math.max(...batch.map((waiter) => waiter.now.getTime())));
    const args = { ...countArgs(ctx, windows, now, batch.length), hash };
    const rows = await withRoutine(ctx, "count_requests", () =>
      runCompiled(ctx, `keys.admit:${windows.length}`, args, (p) => {
        // Only a key neither revoked nor expired is counted: `count_requests` counts nothing for null.
        const usable = sql<string | null>`case when k.revoked_at is null
          and (k.expires_at is null or k.expires_at > ${p.now}::timestamptz) then k.id end`;
        return selectKeysWithCompany(ctx)
          .leftJoinLateral(countRequests(ctx, usable, p).as("counted"), (join) => join.onTrue())
          .select(["counted.counted_key", "counted.counted_hits", "counted.counted_taken"])
          .where("k.hash", "=", p.hash)
          .$castTo<AdmissionRow>();
      }),
    );
    const row = rows[0];
    if (!row) return batch.map(() => ({ kind: "missing" }));
    const after = new Map<string, number>();
    for (const r of rows) if (r.counted_key !== null) after.set(r.counted_key, readNumber(r.counted_hits ?? 0));
    const taken = after.size === windows.length ? readNumber(row.counted_taken ?? 0) : 0;
    // One record for the whole batch: every call of it read the same row.
    const found = toKeyWithCompany(row);
    // The i-th admitted call is the i-th request counted: its counts are those before the batch + i + 1.
    return batch.map((_, i) => ({
      kind: "found",
      found,
      counts: i < taken ? windows.map((window) => (after.get(`${row.id}${window.suffix}`) ?? 0) - taken + i + 1) : null,
    }));
  }

  /**
   * One call's admission from what the statement decided, at once; through `rateLimits.consume`
   * (a promise) where it counted nothing.
   */
  function admission(
    counted: Counted,
    windows: readonly KeyRateWindow[],
    now: Date,
  ): KeyAdmission | null | Promise<KeyAdmission> {
    if (counted.kind === "missing") return null;
    const { found } = counted;
    if (!isKeyUsable(found.key, now)) return { found, rate: null };
    if (counted.counts) return { found, rate: { allowed: true, counts: counted.counts, refusedBucket: null } };
    const buckets = windows.map((window) => ({
      key: `${found.key.id}${window.suffix}`,
      limit: window.limit,
      resetAt: window.resetAt,
    }));
    return steps.rateLimits.consume(buckets, now).then((rate: RateLimitResult) => ({ found, rate }));
  }

  /** Sends batches while fewer than `IN_FLIGHT` statements of the group run; forgets an idle group. */
  function pump(id: string, group: Group): void {
    while (group.running < IN_FLIGHT && group.waiting.length > 0) {
      const batch = group.waiting.splice(0, MAX_BATCH);
      group.running += 1;
      count(group, batch)
        .then(
          (results) => {
            for (const [i, waiter] of batch.entries()) {
              const decided = admission(results[i] as Counted, group.windows, waiter.now);
              if (decided instanceof Promise) decided.then(waiter.resolve, waiter.reject);
              else waiter.resolve(decided);
            }
          },
          (error: unknown) => {
            for (const waiter of batch) waiter.reject(error);
          },
        )
        .finally(() => {
          group.running -= 1;
          pump(id, group);
        });
    }
    if (group.running === 0 && group.waiting.length === 0) groups.delete(id);
  }

  return (hash, windows, now) => {
    // Nothing to count, or two windows naming one bucket: the portable steps.
    if (windows.length === 0 || new Set(windows.map((window) => window.suffix)).size !== windows.length) {
      return admitInSteps(steps, hash, windows, now);
    }
    const id = [hash, ...windows.map((w) => `${w.suffix}\u0000${w.limit}\u0000${w.resetAt.getTime()}`)].join("\u0001");
    let group = groups.get(id);
    if (!group) {
      group = { hash, windows, waiting: [], running: 0 };
      groups.set(id, group);
    }
    const joined = group;
    return new Promise<KeyAdmission | null>((resolve, reject) => {
      joined.waiting.push({ now, resolve, reject });
      pump(id, joined);
    });
  };
}
