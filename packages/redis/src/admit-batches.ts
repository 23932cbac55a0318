/**
 * The admission script calls of one process, batched per key like the Postgres admission: calls for
 * the same key and windows that arrive while a script call for them is under way wait, and the next
 * call counts all of them (up to {@link MAX_BATCH}) in one script run, in the order they came. Each
 * waiter arrived before the call that counts it was sent, so a revocation that completed before a
 * request started is seen by it; the script is atomic and admits as many as every window has room
 * for, so N parallel requests against a limit L still admit exactly min(N, L).
 */
import type { ApiKeyWithCompany, KeyRateWindow, RateLimitResult } from "@hireport/core/storage";
import { type CircuitBreaker, RedisUnavailable } from "./circuit-breaker";
import type { ParsedRecord, ParsedRecords } from "./parsed-records";
import type { RedisKeys } from "./redis-keys";
import { countArgs } from "./redis-rate-limits";
import type { Scripts } from "./scripts";

/** Requests of one key counted by one script call at most; more wait for the next one. */
export const MAX_BATCH = 64;

/**
 * What the script answered for one request: no record cached (or too old to trust), a tombstone
 * without a record, or the record with this request's count (null: nothing counted, the key being
 * revoked or expired at the batch's time).
 */
export type AdmitAnswer =
  | { kind: "miss" }
  | { kind: "revoked"; at: string }
  | { kind: "found"; found: ApiKeyWithCompany; rate: RateLimitResult | null };

interface Waiter {
  now: Date;
  resolve(answer: AdmitAnswer): void;
  reject(error: unknown): void;
}

/** The calls of one key and one set of windows: those waiting for the next script call. */
interface Group {
  keyId: string;
  windows: readonly KeyRateWindow[];
  waiting: Waiter[];
  running: boolean;
}

export interface AdmitBatchesDeps {
  keys: RedisKeys;
  scripts: Scripts;
  breaker: CircuitBreaker;
  records: ParsedRecords;
}

export class AdmitBatches {
  private readonly groups = new Map<string, Group>();

  constructor(private readonly deps: AdmitBatchesDeps) {}

  /** One request, counted with the others of its key and windows waiting at the next script call. */
  admit(keyId: string, windows: readonly KeyRateWindow[], now: Date): Promise<AdmitAnswer> {
    let id = keyId;
    for (const window of windows) id += `\u0001${window.suffix}\u0000${window.limit}\u0000${window.resetAt.getTime()}`;
    let group = this.groups.get(id);
    if (!group) {
      group = { keyId, windows, waiting: [], running: false };
      this.groups.set(id, group);
    }
    const joined = group;
    return new Promise<AdmitAnswer>((resolve, reject) => {
      joined.waiting.push({ now, resolve, reject });
      this.pump(id, joined);
    });
  }

  /**
   * One request alone, now, trusting records filled from `trustFrom` (ms) on (0: every record; see
   * {@link CircuitBreaker.trustFrom}).
   */
  async once(keyId: string, windows: readonly KeyRateWindow[], now: Date, trustFrom: number): Promise<AdmitAnswer> {
    const [answer] = await this.run(keyId, windows, now, trustFrom, 1);
    return answer as AdmitAnswer;
  }

  /**
   * Sends the next batch of the group unless its call is under way; forgets an idle group. When
   * Redis failed meanwhile (the breaker is open), the requests waiting go to the database at once:
   * no call is sent to a Redis that just failed, where it could also run late.
   */
  private pump(id: string, group: Group): void {
    if (group.running) return;
    if (group.waiting.length > 0 && !this.deps.breaker.closed) {
      const unavailable = new RedisUnavailable("Redis admission is on the database for now.");
      for (const waiter of group.waiting.splice(0)) waiter.reject(unavailable);
    }
    if (group.waiting.length === 0) {
      this.groups.delete(id);
      return;
    }
    const batch = group.waiting.splice(0, MAX_BATCH);
    group.running = true;
    let now = (batch[0] as Waiter).now;
    for (const waiter of batch) if (waiter.now > now) now = waiter.now;
    this.run(group.keyId, group.windows, now, this.deps.breaker.trustFrom, batch.length)
      .then(
        (answers) => {
          for (const [i, waiter] of batch.entries()) waiter.resolve(answers[i] as AdmitAnswer);
        },
        (error: unknown) => {
          for (const waiter of batch) waiter.reject(error);
        },
      )
      .finally(() => {
        group.running = false;
        this.pump(id, group);
      });
  }

  /** One script call counting `requests` requests; the answers in their order. */
  private async run(
    keyId: string,
    windows: readonly KeyRateWindow[],
    now: Date,
    trustFrom: number,
    requests: number,
  ): Promise<AdmitAnswer[]> {
    const { keys, scripts, breaker, records } = this.deps;
    const counters = windows.map((window) => keys.counter(`${keyId}${window.suffix}`));
    const known: ParsedRecord | undefined = records.known(keyId);
    const reply = (await breaker.call(() =>
      scripts.hireportAdmitV2(
        2 + counters.length,
        keys.record(keyId),
        keys.tombstone(keyId),
        ...counters,
        ...countArgs(windows, now),
        trustFrom,
        requests,
        known?.version ?? "",
      ),
    )) as unknown[];
    const kind = String(reply[0]);
    if (kind === "miss") return Array.from({ length: requests }, () => ({ kind }));
    if (kind === "revoked") {
      const at = String(reply[1]);
      return Array.from({ length: requests }, () => ({ kind, at }));
    }
    const counted = kind === "counted";
    const found = records.record(
      keyId,
      known,
      String(reply[1]),
      String(reply[2]),
      String(reply[3]),
      counted ? "" : String(reply[4]),
    );
    if (!counted) return Array.from({ length: requests }, () => ({ kind: "found", found, rate: null }));
    const taken = Number(reply[4]);
    const refusedBucket = Number(reply[5]);
    const after = reply.slice(6).map(Number);
    return Array.from({ length: requests }, (_, i): AdmitAnswer => {
      // The i-th request taken is the i-th counted: its counts are those before the batch + i + 1.
      if (i < taken) {
        return {
          kind: "found",
          found,
          rate: { allowed: true, counts: after.map((count) => count - taken + i + 1), refusedBucket: null },
        };
      }
      return { kind: "found", found, rate: { allowed: false, counts: [...after], refusedBucket } };
    });
  }
}
