/**
 * The events feed of `EventStore.feed` (GET /events), and why it has no gaps.
 *
 * The problem. Events are written by the transactions of the changes they report, and a
 * transaction that started first may commit last. Neither `created_at` (taken when the change
 * started) nor an id, an auto-increment or a database sequence drawn at insert follows commit
 * order: a reader that served events up to one of them could later see an event with a smaller
 * value commit, behind its cursor, and never serve it.
 *
 * The design: a position given after the commit, by one sequencer per company. An event is
 * inserted with `feed_position` null (by every insert, the Postgres routines' too).
 * Before reading, the feed numbers the company's events that are committed and still null, in a
 * transaction that first locks the company's `event_feed` row of the `sequence` table (adding 0
 * to it with `nextSequence`, an upsert that holds the row until the end; on SQLite the transaction's
 * `BEGIN IMMEDIATE` is the lock) and reads the last position given there, gives the events found the next ones (oldest `created_at` first),
 * and stores the new last position. So:
 * - only committed events get a position: the statement that picks them runs under READ COMMITTED
 *   (Postgres, MySQL/MariaDB; a serialized writer on SQLite) after the lock is taken, and sees what
 *   was committed by then, never a transaction in flight (it does not wait for one either);
 * - numberings run one at a time per company and each commits before the next starts, so every
 *   position given later is greater than every position given before, and all the positions of
 *   one numbering become visible together;
 * - a page reads events with a position after the cursor's, by position. An event committed after
 *   a page was read is numbered by a later numbering, after every position that page could hold.
 * A client following the positions therefore never skips an event. The cost: the feed's reads
 * write (at most `NUMBER_BATCH` rows a numbering, and only when events wait for a position), on
 * the primary; an event waits for its position until the next read of the feed.
 *
 * The same code runs on every dialect (the database's own commit order is never needed); the
 * `append_event` and `create_application` routines of Postgres insert the null like any insert.
 */
import type { EventFeedQuery, FeedEvent } from "@hireport/core/storage";
import { sql } from "kysely";
import type { StoreContext } from "../context";
import type { EventTable } from "../schema";
import { toEvent } from "./event-rows";
import { selectAll } from "./rows";

/** The `kind` of the company's row in the `sequence` table that holds the last feed position given. */
export const FEED_SEQUENCE_KIND = "event_feed";

/** The most events one numbering gives positions to; the rest wait for the next read. */
export const NUMBER_BATCH = 500;

/**
 * Gives feed positions to the company's committed events that have none (see above). Returns how
 * many were numbered.
 */
export async function numberFeedEvents(ctx: StoreContext, companyId: string): Promise<number> {
  // Most reads find nothing to number: then they take no lock and write nothing.
  const waiting = await ctx.db
    .selectFrom(ctx.table("event"))
    .select("id")
    .where("company_id", "=", companyId)
    .where("feed_position", "is", null)
    .limit(1)
    .execute();
  if (waiting.length === 0) return 0;
  return ctx.atomic(async (tx) => {
    // Adding 0 to the company's counter (made at 0 when missing) locks its row until the end of
    // the transaction and gives the last position: numberings take turns, one at a time per company.
    const last = await tx.strategy.nextSequence(tx, companyId, FEED_SEQUENCE_KIND, 0);
    // A statement of its own, after the lock: it sees every event committed by now.
    const picked = await tx.db
      .selectFrom(tx.table("event"))
      .select("id")
      .where("company_id", "=", companyId)
      .where("feed_position", "is", null)
      .orderBy("created_at", "asc")
      .orderBy("id", "asc")
      .limit(NUMBER_BATCH)
      .execute();
    if (picked.length === 0) return 0;
    const positions = sql<number>`case ${sql.ref("id")} ${sql.join(
      picked.map((row, i) => sql`when ${row.id} then ${sql.lit(last + i + 1)}`),
      sql` `,
    )} end`;
    await tx.db
      .updateTable(tx.table("event"))
      .set({ feed_position: positions })
      .where(
        "id",
        "in",
        picked.map((row) => row.id),
      )
      .execute();
    await tx.strategy.nextSequence(tx, companyId, FEED_SEQUENCE_KIND, picked.length);
    return picked.length;
  });
}

/** `events.feed`: numbers what waits (see above), then reads the page by position. */
export async function readFeed(ctx: StoreContext, companyId: string, query: EventFeedQuery): Promise<FeedEvent[]> {
  if (query.types.length === 0 || query.take <= 0) return [];
  await numberFeedEvents(ctx, companyId);
  let select = selectAll(ctx, "event", "e", "company_feed")
    .where("e.company_id", "=", companyId)
    .where("e.feed_position", "is not", null)
    .where("e.type", "in", [...query.types])
    .where("e.created_at", ">=", ctx.toDb(query.createdSince));
  if (query.after !== undefined) select = select.where("e.feed_position", ">", Number(query.after));
  const rows = await select.orderBy("e.feed_position", "asc").limit(query.take).$castTo<EventTable>().execute();
  return rows.map((row) => ({ ...toEvent(row), position: String(row.feed_position) }));
}
