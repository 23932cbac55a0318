/**
 * The events feed (GET /events, docs/api-reference.md#get-events): the envelopes the webhooks
 * carry, oldest first, for a company's system that cannot take inbound HTTPS.
 *
 * No gaps. The feed is read by position, not by time: the storage numbers events in commit order
 * (`EventStore.feed`), so an event that commits after a page was read always gets a position after
 * that page's, even when its transaction started first (its `created_at`, taken when it started, is
 * then earlier than events already served). A client that passes `next_cursor` back therefore sees
 * every event of the window exactly once, in the order they became visible.
 *
 * The window. Events are served for `eventFeedDays` (default 30) from their creation, and
 * retention never purges an event inside the window (`RetentionService`), delivered or not. A
 * cursor is good for as long: one from a page read more than the window ago answers 410
 * `cursor_expired` (events after it may be gone); the client resyncs as its message says.
 */
import { eventReadScope, readableEventTypes } from "../access/scopes";
import { HireportError } from "../base/errors";
import { sentPayload } from "../base/telemetry";
import { cursorScope } from "../model/cursor";
import type { EventType, Scope } from "../model/domain";
import { type Page, pageRequest } from "../model/paging";
import type { Runtime } from "../runtime/runtime";
import type { EventListParams } from "../schemas/query";

const DAY_MS = 86_400_000;

/** The feed's window when `createPublicApi` is given no `eventFeedDays`. */
export const DEFAULT_EVENT_FEED_DAYS = 30;

/** One envelope of the feed, as the webhooks send it (docs/api-reference.md, The envelope). */
export type EventEnvelope = Record<string, unknown> & { id: string; type: EventType; created_at: string };

/**
 * Checks `eventFeedDays`: a whole number of days from 1 to 3650.
 * @throws TypeError naming the option
 */
export function resolveEventFeedDays(value: number | undefined): number {
  const days = value ?? DEFAULT_EVENT_FEED_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > 3650) {
    throw new TypeError(`hireport: option eventFeedDays must be a whole number of days from 1 to 3650, got ${value}.`);
  }
  return days;
}

/** `api.events` and GET /events: the company's events, oldest first, by position. */
export class EventFeedService {
  readonly #runtime: Runtime;
  /** The window, in days. */
  readonly windowDays: number;

  constructor(runtime: Runtime, windowDays: number) {
    this.#runtime = runtime;
    this.windowDays = windowDays;
  }

  /**
   * A page of the company's events that `scopes` may read, oldest first.
   * @throws HireportError `missing_scope` (403) when the scopes read no event type, or a `type` asked for;
   * `bad_request` (400) for a cursor of another list; `cursor_expired` (410) for a cursor older than the window.
   */
  async list(
    companyId: string,
    scopes: readonly Scope[],
    params: Omit<EventListParams, "limit"> & { limit?: number | undefined },
  ): Promise<Page<EventEnvelope>> {
    const { storage, cursors, clock } = this.#runtime;
    const readable = readableEventTypes(scopes);
    if (readable.length === 0) {
      throw new HireportError(
        "missing_scope",
        "This API key lacks the permissions jobs:read and applications:read: GET /events needs at least one (jobs:read for job events, applications:read for application events).",
        { requiredScope: "jobs:read" },
      );
    }
    const types = params.types ?? readable;
    const refused = types.find((type) => !readable.includes(type));
    if (refused !== undefined) {
      const scope = eventReadScope(refused);
      throw new HireportError(
        "missing_scope",
        `This API key lacks the permission ${scope}, which events of type ${refused} need. Leave ${refused} out of type, or leave type out for every type the key may read.`,
        { requiredScope: scope },
      );
    }
    const now = clock.now();
    const windowStart = new Date(now.getTime() - this.windowDays * DAY_MS);
    const scope = cursorScope("events", companyId, {
      type: params.types === undefined ? undefined : [...types].sort().join(","),
      created_since: params.createdSince?.toISOString(),
    });
    const request = await pageRequest(cursors, scope, params);
    if (request.after && request.after.at.getTime() < windowStart.getTime()) {
      throw new HireportError(
        "cursor_expired",
        `This cursor is from a page read more than ${this.windowDays} days ago, the time events are kept in the feed: events after it may be gone. Resync: read your copy again with GET /jobs and GET /applications and updated_since, then list events again without cursor from created_since=${windowStart.toISOString()} (or later) and follow next_cursor from there.`,
      );
    }
    const since = params.createdSince && params.createdSince > windowStart ? params.createdSince : windowStart;
    const rows = await storage.events.feed(companyId, {
      types,
      createdSince: since,
      ...(request.after ? { after: request.after.id } : {}),
      take: request.limit + 1,
    });
    const hasMore = rows.length > request.limit;
    const page = hasMore ? rows.slice(0, request.limit) : rows;
    const last = page.at(-1);
    // The cursor's time is when its page was read (see above: the window of a cursor); with no
    // event in the page, it goes on from where the request's own cursor stood.
    const position = last?.position ?? request.after?.id;
    const nextCursor = position === undefined ? null : await cursors.encode(scope, { at: now, id: position });
    return {
      data: page.map((event) => JSON.parse(sentPayload(event.payload)) as EventEnvelope),
      hasMore,
      nextCursor,
    };
  }
}
