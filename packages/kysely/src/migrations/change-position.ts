import type { Kysely } from "kysely";
import { strategyFor } from "../dialects/detect";
import type { DialectKind } from "../dialects/types";
import type { HireportMigration } from "./migration-types";

// biome-ignore lint/suspicious/noExplicitAny: migrations never see the app's types.
type AnyDb = Kysely<any>;

/**
 * `change_position`: where the change detector (`api.changes` over declared tables) is in each kind
 * of record, one row per kind (`job`, `application`): the change time and id of the last record it
 * read, and the time of its first pass. Its row is locked by each pass, so that detectors in several
 * processes take turns.
 */
export function changePositionMigration(prefix: string, dialect: DialectKind | undefined): HireportMigration {
  const table = `${prefix}change_position`;
  return {
    async up(db: AnyDb) {
      const strategy = strategyFor(db, dialect);
      const ty = strategy.columnTypes;
      await strategy
        .tableOptions(
          db.schema
            .createTable(table)
            .addColumn("kind", ty.id(32), (c) => c.primaryKey())
            .addColumn("started_at", ty.date(), (c) => c.notNull())
            .addColumn("at", ty.date(), (c) => c.notNull())
            .addColumn("last_id", ty.id(), (c) => c.notNull()),
        )
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable(table).execute();
    },
  };
}
