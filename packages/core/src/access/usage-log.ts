import { HireportError } from "../base/errors";
import { cursorScope } from "../model/cursor";
import { type ApiKeyWithCompany, type UsageRecord, utcDay } from "../model/domain";
import { newId } from "../model/ids";
import { type Page, pageRequest, toPage } from "../model/paging";
import type { Runtime } from "../runtime/runtime";
import type { UsageListQuery } from "../storage";

/**
 * How the usage log is written: `"batched"` off the request path, or `"durable"`, each request's
 * entry before its answer leaves (see `CreatePublicApiOptions.usageLog`).
 */
export type UsageLogMode = "batched" | "durable";

/** Entries kept in memory at most while the storage refuses writes; older ones are dropped, loudly. */
const MAX_BUFFERED = 50_000;

/** Filters of the usage log (`api.usage.list`, `api.usage.entries`); every one given applies. */
export interface UsageFilters {
  /** Only entries at or after this time. @default no bound */
  since?: Date;
  /** Only entries before this time. @default no bound */
  until?: Date;
  /** Only the requests of this key. @default every key */
  keyId?: string;
  /** Only answers with exactly this status, 100 to 599. @default every status */
  status?: number;
  /** Only answers of this class, 1 to 5 (4 is 400 to 499). @default every class */
  statusClass?: number;
  /** Only requests of this route, as logged (`/jobs/{id}`). @default every route */
  route?: string;
}

export interface UsageListOptions extends UsageFilters {
  /** The `nextCursor` of the previous page. */
  cursor?: string;
  /** Page size, 1 to 100. @default 25 */
  limit?: number;
}

/** One page of the usage log. */
export type UsagePage = Page<UsageRecord>;

/** Requests of one UTC day by status class (`"2xx"`: 200 to 299). */
export interface UsageDay {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  total: number;
  byClass: Record<"1xx" | "2xx" | "3xx" | "4xx" | "5xx", number>;
}

export interface UsageDailyOptions {
  /** How many days, today (UTC) the last of them. 1 to 366. @default 30 */
  days?: number;
}

/** Entries the export reads per storage call. */
const EXPORT_BATCH = 500;

function invalidFilter(field: string, message: string): HireportError {
  return new HireportError("invalid", "The usage filters are not valid.", { fields: [{ field, message }] });
}

/** The storage query of the filters, checked (a host caller may send anything). */
function filterQuery(companyId: string, filters: UsageFilters): Omit<UsageListQuery, "take" | "after"> {
  const { since, until, keyId, status, statusClass, route } = filters;
  for (const [field, value] of [
    ["since", since],
    ["until", until],
  ] as const) {
    if (value !== undefined && (!(value instanceof Date) || Number.isNaN(value.getTime()))) {
      throw invalidFilter(field, "Must be a valid Date.");
    }
  }
  if (status !== undefined && !(Number.isInteger(status) && status >= 100 && status <= 599)) {
    throw invalidFilter("status", "Must be a whole number from 100 to 599.");
  }
  if (statusClass !== undefined && !(Number.isInteger(statusClass) && statusClass >= 1 && statusClass <= 5)) {
    throw invalidFilter("statusClass", "Must be a whole number from 1 to 5.");
  }
  for (const [field, value] of [
    ["keyId", keyId],
    ["route", route],
  ] as const) {
    if (value !== undefined && (typeof value !== "string" || value === "")) {
      throw invalidFilter(field, "Must be a non-empty string.");
    }
  }
  return {
    companyId,
    ...(keyId !== undefined ? { keyId } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(until !== undefined ? { until } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(statusClass !== undefined ? { statusClass } : {}),
    ...(route !== undefined ? { route } : {}),
  };
}

/** A request waiting for the durable write of its entry (or `flush()`, with no entry of its own). */
interface Committing {
  entry: UsageRecord | null;
  done: () => void;
}

/** What {@link UsageLog.recordRequest} records of one answered request. */
export interface RequestUsage {
  /** The admitted key with its company; null when none was (401, 429 before admission, …). */
  auth: ApiKeyWithCompany | null;
  method: unknown;
  route: string;
  status: number;
  requestId: string;
  /** `performance.now()` when the request arrived. */
  started: number;
  ip?: string | null | undefined;
}

/**
 * The usage log: every request is logged. Entries are written in batches, off the
 * request path; `flush()` and `close()` write what is pending, so a graceful shutdown loses none.
 * In `durable` mode `record` resolves once the entry is stored, and the pipeline waits for it.
 */
export class UsageLog {
  readonly #runtime: Runtime;
  readonly #batchSize: number;
  readonly #flushMs: number;
  readonly #durable: boolean;
  #buffer: UsageRecord[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> = Promise.resolve();
  /** The write queued behind `#writing` that has not started yet, if any. */
  #queued: { all: boolean } | undefined;
  /** Durable mode: entries waiting for the next group commit, and the commit loop under way. */
  #committing: Committing[] = [];
  #commitLoop: Promise<void> | undefined;

  constructor(runtime: Runtime, batchSize: number, flushMs: number, mode: UsageLogMode = "batched") {
    this.#runtime = runtime;
    this.#batchSize = batchSize;
    this.#flushMs = flushMs;
    this.#durable = mode === "durable";
  }

  /**
   * Records one entry. Batched: buffers it; a full batch is written at once, what is left waits for
   * the timer, which runs whenever entries are pending, so none waits much longer than `flushMs`.
   * Durable: resolves once the entry is written, in the next group commit (at once when none is
   * under way; after it, with every entry that arrived meanwhile, when one is). A failed write
   * hands its entries to the batched path, which tries again, and resolves all the same: the
   * answer is not held back by a storage that refuses the log.
   */
  record(entry: UsageRecord): Promise<void> | undefined {
    if (this.#durable) {
      return new Promise<void>((done) => {
        this.#committing.push({ entry, done });
        this.#commitLoop ??= this.#commit();
      });
    }
    this.#buffer.push(entry);
    if (this.#buffer.length >= this.#batchSize) void this.#schedule(false);
    if (this.#timer === undefined) this.#flushIn(this.#flushMs);
    return undefined;
  }

  /**
   * Records the entry of one answered request (the pipeline's, and a handler's served beside the
   * API through `apiAccess`): its key and company when admitted, the method and route cut to their
   * columns, the duration since `started` (`performance.now()`). Durable mode waits for the write.
   * Never rejects: a failure is logged.
   */
  async recordRequest(request: RequestUsage): Promise<void> {
    const { clock, logger } = this.#runtime;
    try {
      const logged = this.record({
        id: newId("use"),
        companyId: request.auth?.company.id ?? null,
        keyId: request.auth?.key.id ?? null,
        method: String(request.method ?? "")
          .toUpperCase()
          .slice(0, 10),
        route: request.route.slice(0, 200),
        status: request.status,
        durationMs: Math.round((performance.now() - request.started) * 1000) / 1000,
        requestId: request.requestId,
        ip: request.ip ?? null,
        createdAt: clock.now(),
      });
      if (logged) await logged;
    } catch (error) {
      logger.error("hireport: could not record usage", { error: String(error) });
    }
  }

  /** Group commits until no entry waits: each write takes every waiting entry (a batch at most). */
  async #commit(): Promise<void> {
    try {
      while (this.#committing.length > 0) {
        const batch = this.#committing.splice(0, this.#batchSize);
        const entries = batch.flatMap((waiting) => (waiting.entry ? [waiting.entry] : []));
        try {
          if (entries.length > 0) await this.#runtime.storage.usage.appendMany(entries);
        } catch (error) {
          this.#runtime.logger.error("hireport: writing the usage log failed; will retry", { error: String(error) });
          this.#buffer.push(...entries);
          if (this.#timer === undefined) this.#flushIn(Math.max(this.#flushMs, 1000));
        }
        for (const waiting of batch) waiting.done();
      }
    } finally {
      this.#commitLoop = undefined;
    }
  }

  /**
   * Writes every entry pending now (in durable mode, after the group commits of the entries
   * recorded before it). Failed writes stay pending and are tried again later.
   */
  flush(): Promise<void> {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (!this.#commitLoop) return this.#schedule(true);
    const committed = new Promise<void>((done) => this.#committing.push({ entry: null, done }));
    return committed.then(() => this.#schedule(true));
  }

  /** Entries recorded and not written yet. */
  get pending(): number {
    return this.#buffer.length + this.#committing.filter((waiting) => waiting.entry !== null).length;
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

  /** The company's usage, newest first, pending entries included. @throws `invalid` for a bad filter */
  async list(companyId: string, options: UsageListOptions = {}): Promise<UsagePage> {
    const { storage, cursors } = this.#runtime;
    const query = filterQuery(companyId, options);
    const scope = cursorScope("usage", companyId, {
      key_id: query.keyId,
      since: query.since?.toISOString(),
      until: query.until?.toISOString(),
      status: query.status?.toString(),
      status_class: query.statusClass?.toString(),
      route: query.route,
    });
    const request = await pageRequest(cursors, scope, options);
    await this.flush();
    const rows = await storage.usage.list({
      ...query,
      take: request.limit + 1,
      ...(request.after ? { after: request.after } : {}),
    });
    return toPage(cursors, request, rows, (entry) => entry.createdAt);
  }

  /**
   * Every entry that matches the filters, newest first, read from the storage in batches of 500
   * as the caller consumes them (the console's CSV export streams it). Pending entries included.
   */
  async *entries(companyId: string, filters: UsageFilters = {}): AsyncGenerator<UsageRecord> {
    const query = filterQuery(companyId, filters);
    await this.flush();
    let after: UsageListQuery["after"];
    for (;;) {
      const rows = await this.#runtime.storage.usage.list({
        ...query,
        take: EXPORT_BATCH,
        ...(after ? { after } : {}),
      });
      yield* rows;
      const last = rows.at(-1);
      if (!last || rows.length < EXPORT_BATCH) return;
      after = { at: last.createdAt, id: last.id };
    }
  }

  /**
   * Requests per UTC day by status class, oldest day first, one entry per day (days without
   * requests hold zeros), read from the storage's daily roll-up: the cost does not grow with the
   * number of requests. Pending entries included.
   */
  async daily(companyId: string, options: UsageDailyOptions = {}): Promise<UsageDay[]> {
    const days = options.days ?? 30;
    if (!Number.isInteger(days) || days < 1 || days > 366) {
      throw invalidFilter("days", "Must be a whole number from 1 to 366.");
    }
    await this.flush();
    const today = Date.parse(utcDay(this.#runtime.clock.now()));
    const list: UsageDay[] = [];
    for (let i = days - 1; i >= 0; i--) {
      list.push({
        day: utcDay(new Date(today - i * 86_400_000)),
        total: 0,
        byClass: { "1xx": 0, "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0 },
      });
    }
    const byDay = new Map(list.map((entry) => [entry.day, entry]));
    const rows = await this.#runtime.storage.usage.daily({
      companyId,
      from: list[0]?.day ?? "",
      to: list.at(-1)?.day ?? "",
    });
    for (const row of rows) {
      const entry = byDay.get(row.day);
      const label = `${row.statusClass}xx` as keyof UsageDay["byClass"];
      if (!entry || !(label in entry.byClass)) continue;
      entry.byClass[label] += row.count;
      entry.total += row.count;
    }
    return list;
  }
}
