/**
 * Every page of a list (`listAll`) and the `updated_since` loop of docs/api-reference.md, Paging and sync (`sync`).
 */
import type { Page } from "./types";

/** One page and the headers of its answer. */
export interface PageAnswer<T> {
  page: Page<T>;
  headers: Headers;
}

/** Reads the page after `cursor` (the first page when undefined). */
export type PageReader<T> = (cursor: string | undefined) => Promise<PageAnswer<T>>;

/** Yields every item of every page, following `next_cursor` until `has_more` is false. */
export async function* allItems<T>(read: PageReader<T>, cursor?: string): AsyncGenerator<T, void, undefined> {
  let next = cursor;
  for (;;) {
    const { page } = await read(next);
    yield* page.data;
    if (!page.has_more || !page.next_cursor) return;
    next = page.next_cursor;
  }
}

/** Options of `jobs.sync` and `applications.sync`, beside the list's own filters. */
export interface SyncOptions {
  /**
   * The `nextSince` of the previous sync (or any date or date-time): records changed at or after
   * it are read. Leave it out for the first sync: every record is read. @default none
   */
  since?: string | Date | undefined;
  /**
   * How far before the server's time at the start of this sync the next one starts, in
   * milliseconds: room for changes that were being written while this sync began (a record's
   * `updated_at` is taken when its write starts, it shows once committed) and for clock
   * differences between the API's processes. Larger: more records read twice; smaller: a slow
   * write may be missed. @default 60000
   */
  safetyMarginMs?: number | undefined;
  /** Page size, 1 to 100. @default 100 */
  limit?: number | undefined;
}

/**
 * One run of the `updated_since` loop: iterate it with `for await`, then store `nextSince` and pass
 * it as `since` to the next run.
 *
 * The algorithm: every page is read with `updated_since = since`, the first without a cursor and
 * each next one with the previous page's `next_cursor`, until `has_more` is false. The API lists newest first by creation, filtered on
 * `updated_at >= since`; a record that changes while the run pages on keeps its place (it is read,
 * in one version or the other) and a record created meanwhile goes to the front, before the pages
 * already read, and is not yielded by this run. So `nextSince` is not the newest `updated_at` seen
 * (records written meanwhile may be older than it and would be missed for good) but the server's
 * time when the first page was answered (its `Date` header; your own clock when an answer has
 * none), less `safetyMarginMs`. Every change committed after the run began has an `updated_at`
 * at or after `nextSince` and is yielded by the next run. The cost: records changed within the
 * margin before the run are yielded again next time; store records by `id` and keep the one with
 * the newest `updated_at` (webhooks need the same).
 */
export class SyncRun<T> implements AsyncIterable<T> {
  readonly #read: (updatedSince: string | undefined, cursor: string | undefined) => Promise<PageAnswer<T>>;
  readonly #since: string | undefined;
  readonly #marginMs: number;
  #nextSince: string | null = null;

  constructor(
    read: (updatedSince: string | undefined, cursor: string | undefined) => Promise<PageAnswer<T>>,
    options: SyncOptions,
  ) {
    this.#read = read;
    this.#since = options.since instanceof Date ? options.since.toISOString() : options.since;
    const margin = options.safetyMarginMs ?? 60_000;
    if (!Number.isFinite(margin) || margin < 0) throw new TypeError("sync: safetyMarginMs must be 0 or more.");
    this.#marginMs = margin;
  }

  /**
   * The `since` of the next sync, an ISO date-time: set when every page was read; null before
   * that, and after a run that failed or was left early (then run again with the same `since`).
   */
  get nextSince(): string | null {
    return this.#nextSince;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    this.#nextSince = null;
    const asked = Date.now();
    const first = await this.#read(this.#since, undefined);
    const serverTime = Date.parse(first.headers.get("date") ?? "");
    const start = Number.isNaN(serverTime) ? asked : serverTime;
    const nextSince = new Date(start - this.#marginMs).toISOString();
    let answer = first;
    for (;;) {
      yield* answer.page.data;
      if (!answer.page.has_more || !answer.page.next_cursor) break;
      // A cursor is valid only with the filters it came from: updated_since is sent again.
      answer = await this.#read(this.#since, answer.page.next_cursor);
    }
    this.#nextSince = nextSince;
  }
}
