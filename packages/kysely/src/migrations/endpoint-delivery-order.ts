import type { Kysely } from "kysely";
import { strategyFor } from "../dialects/detect";
import type { DialectKind } from "../dialects/types";
import type { HireportMigration } from "./migration-types";

// biome-ignore lint/suspicious/noExplicitAny: migrations never see the app's types.
type AnyDb = Kysely<any>;

/**
 * Adds an endpoint's delivery settings and its throttle count to `webhook_endpoint`: `ordered`
 * (one delivery at a time, in event order; false for existing endpoints), `max_per_second` (null:
 * no throttle), and `throttle_window_at` with `throttle_count`, the deliveries claimed in the
 * current second, which every dispatcher's claim reads and adds to under the endpoint row's lock.
 */
export function endpointDeliveryOrderMigration(prefix: string, dialect: DialectKind | undefined): HireportMigration {
  const table = `${prefix}webhook_endpoint`;
  return {
    async up(db: AnyDb) {
      const ty = strategyFor(db, dialect).columnTypes;
      // One column per statement: SQLite's ALTER TABLE adds one at a time.
      await db.schema
        .alterTable(table)
        .addColumn("ordered", ty.bool(), (c) => c.notNull().defaultTo(false))
        .execute();
      await db.schema.alterTable(table).addColumn("max_per_second", ty.int()).execute();
      await db.schema.alterTable(table).addColumn("throttle_window_at", ty.date()).execute();
      await db.schema
        .alterTable(table)
        .addColumn("throttle_count", ty.int(), (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: AnyDb) {
      for (const column of ["throttle_count", "throttle_window_at", "max_per_second", "ordered"]) {
        await db.schema.alterTable(table).dropColumn(column).execute();
      }
    },
  };
}
