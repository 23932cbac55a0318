import type { EventRecord, EventType } from "../model/domain";
import type { KeysetPosition } from "./common";

/**
 * An event as the feed (GET /events) reads it: the record and its feed position, a whole number
 * in decimal text (a 64-bit integer in a database) that the storage assigns in commit order.
 */
export interface FeedEvent extends EventRecord {
  position: string;
}

/** Which events `EventStore.feed` reads, after which position. */
export interface EventFeedQuery {
  /** Only events of these types (never empty; `webhook.test` is never asked for). */
  types: readonly EventType[];
  /** Only events created at or after this time (the feed's window, or the client's `created_since` when later). */
  createdSince: Date;
  /** Only events after this position (the `position` of the last event of the previous page). */
  after?: string;
  /** At most this many events. */
  take: number;
}

export interface EventStore {
  /**
   * The outbox, with its fan-out: MUST store the event and, in the same transaction, one pending
   * delivery of it per endpoint of `event.companyId` subscribed to `event.type` at that moment
   * (`subscribesTo` in `@hireport/core`), each exactly as `fanOut(event, endpoints)` builds it
   * (its id is `deliveryId(event.id, endpoint.id)`, due at `event.createdAt`, no lease). Called on
   * the `tx` of the change it reports, or on the storage for an event of its own.
   *
   * `appendInSteps` from `@hireport/core` builds it from an insert of the event's row,
   * `eventDeliveries.listSubscribedEndpoints` and `eventDeliveries.insertDeliveries`.
   */
  append(event: EventRecord): Promise<void>;
  get(id: string): Promise<EventRecord | null>;
  /** Events of a company, newest first (for hosts and tests). */
  list(companyId: string, options: { after?: KeysetPosition; take: number }): Promise<EventRecord[]>;
  /**
   * The events feed (GET /events): the company's committed events matching `query`, by position,
   * ascending. Called on the storage, never on a transaction's stores.
   *
   * The positions MUST follow commit order: an event that becomes visible after this call returned
   * MUST get a position greater than every position this call (or an earlier one) returned, so
   * that a client following the positions never skips one (no gaps), even when a transaction that
   * started first commits last. A position MUST never change once returned, nor be reused. How
   * is the storage's: the memory storage runs one transaction at a time and numbers events as
   * they are appended; `@hireport/kysely` numbers committed events afterwards, under one lock
   * (its `events.ts` says how).
   */
  feed(companyId: string, query: EventFeedQuery): Promise<FeedEvent[]>;
  /**
   * MUST delete events created before `before` whose deliveries are all finished (so a foreign key
   * from deliveries to events needs `ON DELETE SET NULL`, or none). With `limit`, MUST delete at
   * most that many (a batch of retention; the oldest first). Returns how many. Retention never asks
   * for events still in the feed's window (`eventFeedDays` of `createPublicApi`).
   */
  purge(before: Date, limit?: number): Promise<number>;
}
