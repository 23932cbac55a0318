import type { EventRecord } from "../model/domain";
import type { KeysetPosition } from "./common";

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
   * MUST delete events created before `before` whose deliveries are all finished (so a foreign key
   * from deliveries to events needs `ON DELETE SET NULL`, or none). With `limit`, MUST delete at
   * most that many (a batch of retention; the oldest first). Returns how many.
   */
  purge(before: Date, limit?: number): Promise<number>;
}
