import type { UsageRecord } from "./domain";
import { HireportError } from "./errors";
import type { Runtime } from "./runtime";

/** Entries kept in memory at most while the storage refuses writes; older ones are dropped, loudly. */
const MAX_BUFFERED = 50_000;

export interface UsageListOptions {
  /** Only entries at or after this time. */
  since?: Date;
  /** Only the requests of this key. */
  keyId?: string;
  /** The `nextCursor` of the previous page. */
  cursor?: string;
  /** Page size, 1 to 100. @default 25 */
  limit?: number;
}

export interface UsagePage {
  data: UsageRecord[];
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * The usage log (spec section 1: every request is logged). Entries are written in batches, off the
 * request path; `flush()` and `close()` write what is pending, so a graceful shutdown loses none.
 */
export class UsageLog {
  readonly #runtime: Runtime;
  readonly #batchSize: number;
  readonly #flushMs: number;
  #buffer: UsageRecord[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> = Promise.resolve();
  /** The write queued behind `#writing` that has not started yet, if any. */
  #queued: { all: boolean } | undefined;

  constructor(runtime: Runtime, batchSize: number, flushMs: number) {
    this.#runtime = runtime;
    this.#batchSize = batchSize;
    this.#flushMs = flushMs;
  }

  /**
   * Buffers one entry. A full batch is written at once; what is left waits for the timer, which
   * runs whenever entries are pending, so none waits much longer than `flushMs`.
   */
  record(entry: UsageRecord): void {
    this.#buffer.push(entry);
    if (this.#buffer.length >= this.#batchSize) void this.#schedule(false);
    if (this.#timer === undefined) this.#flushIn(this.#flushMs);
  }

  /** Writes every entry pending now. Failed writes stay pending and are tried again later. */
  flush(): Promise<void> {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    return this.#schedule(true);
  }

  get pending(): number {
    return this.#buffer.length;
  }

  /**
   * Queues a write behind the one under way, or joins the one already queued: one queued write
   * takes everything pending when it starts, so entries recorded during a write never each queue
   * a small write of their own. `all` writes the last, partial batch too; otherwise only full
   * batches are written.
   */
  #schedule(all: boolean): Promise<void> {
    if (this.#queued) {
      this.#queued.all ||= all;
      return this.#writing;
    }
    const queued = { all };
    this.#queued = queued;
    this.#writing = this.#writing.then(() => {
      this.#queued = undefined;
      return this.#writeBuffered(queued.all);
    });
    return this.#writing;
  }

  #flushIn(ms: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.flush(), ms);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  async #writeBuffered(all: boolean): Promise<void> {
    // Entries recorded during this write wait for a full batch or the next timer: chasing them
    // would write a stream of small batches for as long as requests keep coming.
    let partial = all ? this.#buffer.length : 0;
    while (this.#buffer.length >= this.#batchSize || partial > 0) {
      const batch = this.#buffer.splice(0, this.#batchSize);
      partial -= batch.length;
      try {
        await this.#runtime.storage.usage.appendMany(batch);
      } catch (error) {
        this.#buffer.unshift(...batch);
        if (this.#buffer.length > MAX_BUFFERED) {
          const dropped = this.#buffer.splice(0, this.#buffer.length - MAX_BUFFERED);
          this.#runtime.logger.error("hireport: usage log entries dropped, storage keeps refusing them", {
            dropped: dropped.length,
          });
        }
        this.#runtime.logger.error("hireport: writing the usage log failed; will retry", { error: String(error) });
        this.#flushIn(Math.max(this.#flushMs, 1000));
        return;
      }
    }
  }

  /** The company's usage, newest first, pending entries included. */
  async list(companyId: string, options: UsageListOptions = {}): Promise<UsagePage> {
    const limit = options.limit ?? 25;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      throw new HireportError("invalid", "The page size must be an integer from 1 to 100.", {
        fields: [{ field: "limit", message: "Must be an integer from 1 to 100." }],
      });
    }
    await this.flush();
    const scope = ["usage", companyId, options.keyId ?? "", options.since?.toISOString() ?? ""].join("|");
    const after = options.cursor ? await this.#runtime.cursors.decode(scope, options.cursor) : undefined;
    const rows = await this.#runtime.storage.usage.list({
      companyId,
      take: limit + 1,
      ...(options.keyId ? { keyId: options.keyId } : {}),
      ...(options.since ? { since: options.since } : {}),
      ...(after ? { after } : {}),
    });
    const hasMore = rows.length > limit;
    const data = rows.slice(0, limit);
    const last = data[data.length - 1];
    const nextCursor =
      hasMore && last ? await this.#runtime.cursors.encode(scope, { at: last.createdAt, id: last.id }) : null;
    return { data, hasMore, nextCursor };
  }
}
