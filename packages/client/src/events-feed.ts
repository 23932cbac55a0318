/**
 * The events feed (GET /events, docs/receiver-guide.md, When you cannot receive webhooks): a run
 * that reads every event after a cursor, oldest first, and the cursor to keep for the next run.
 */
import type { PageAnswer } from "./paging";
import type { EventEnvelope } from "./types";

/** Options of `events.read`. */
export interface EventFeedOptions {
  /**
   * The `cursor` of the previous run: the events after it are read. Leave it out for the first
   * run: every event of the feed's window is read (from `created_since` when given). @default none
   */
  cursor?: string | undefined;
  /** Only these event types (sent comma-separated); each needs its read permission. @default every type the key reads */
  type?: readonly EventEnvelope["type"][] | EventEnvelope["type"] | undefined;
  /** Only events created at or after this time. Keep it the same from run to run: a cursor is tied to its filters. @default none */
  created_since?: string | Date | undefined;
  /** Page size, 1 to 100. @default 100 */
  limit?: number | undefined;
}

/** The query of one page of the feed. */
export interface EventFeedQuery {
  type?: string | undefined;
  created_since?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

/**
 * One run of the feed: iterate it with `for await`, then store `cursor` and pass it to the next
 * run. Pages are read one after the other, following `next_cursor` until `has_more` is false.
 * `cursor` moves past a page only once every event of it was yielded: leave the loop early (or
 * let it throw) and the next run starts again at the page it was in, so an event is read at
 * least once; drop repeats by `id`. A 410 `cursor_expired` means the cursor is older than the
 * feed's window: resync as its message says.
 */
export class EventFeedRun implements AsyncIterable<EventEnvelope> {
  readonly #read: (query: EventFeedQuery) => Promise<PageAnswer<EventEnvelope>>;
  readonly #query: Omit<EventFeedQuery, "cursor">;
  #cursor: string | undefined;

  constructor(read: (query: EventFeedQuery) => Promise<PageAnswer<EventEnvelope>>, options: EventFeedOptions = {}) {
    this.#read = read;
    const types = options.type === undefined ? undefined : [options.type].flat();
    const since = options.created_since;
    this.#query = {
      limit: options.limit ?? 100,
      ...(types && types.length > 0 ? { type: types.join(",") } : {}),
      ...(since !== undefined ? { created_since: since instanceof Date ? since.toISOString() : since } : {}),
    };
    this.#cursor = options.cursor;
  }

  /** The cursor to store: after the last event yielded of a whole page (the one given when nothing was read yet). */
  get cursor(): string | undefined {
    return this.#cursor;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<EventEnvelope, void, undefined> {
    for (;;) {
      const { page } = await this.#read({ ...this.#query, ...(this.#cursor ? { cursor: this.#cursor } : {}) });
      yield* page.data;
      // The feed gives a cursor on its last page too: the place to ask again later.
      if (page.next_cursor) this.#cursor = page.next_cursor;
      if (!page.has_more || !page.next_cursor) return;
    }
  }
}
