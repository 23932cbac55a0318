import type { Kysely } from "kysely";
import { strategyFor } from "../dialects/detect";
import type { DialectKind } from "../dialects/types";
import type { HireportMigration } from "./migration-types";

// biome-ignore lint/suspicious/noExplicitAny: migrations never see the app's types.
type AnyDb = Kysely<any>;

/**
 * The events feed (GET /events): `event.feed_position`, null until the feed's sequencer numbers
 * the event after its commit (`stores/event-feed.ts` says how and why), and the index
 * `(company_id, feed_position)` a page of the feed reads, which also finds the events not yet
 * numbered. Events already there are numbered by the first read of the feed, oldest first.
 * Every insert writes it null (the plain insert and the Postgres routines alike, from `COLUMNS`).
 */
export function eventFeedPositionMigration(prefix: string, dialect: DialectKind | undefined): HireportMigration {
  const table = `${prefix}event`;
  const index = `${prefix}event_company_feed`;
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable(table).addColumn("feed_position", "bigint").execute();
      await db.schema.createIndex(index).on(table).columns(["company_id", "feed_position"]).execute();
    },
    async down(db: AnyDb) {
      await strategyFor(db, dialect).dropIndexOf(db.schema.dropIndex(index), table).execute();
      await db.schema.alterTable(table).dropColumn("feed_position").execute();
    },
  };
}
