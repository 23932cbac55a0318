import { type Kysely, sql } from "kysely";
import { strategyFor } from "../dialects/detect";
import type { DialectKind } from "../dialects/types";
import type { HireportMigration } from "./migration-types";

// biome-ignore lint/suspicious/noExplicitAny: migrations never see the app's types.
type AnyDb = Kysely<any>;

/**
 * Postgres: the `due` index of `webhook_delivery` (`status, next_attempt_at, id`, every delivery)
 * becomes `due_pending` (`next_attempt_at, id` of the pending deliveries alone), the index every
 * claim walks. Recording an attempt that ends a delivery then adds no entry to it, and a claim's
 * walk meets no finished delivery. Every query that read `due` asks for `status = 'pending'` as a
 * literal (`dueQuery`, `dueAndFree`, the one-statement claim), so the planner proves the predicate.
 * Building it reads the whole table and blocks writes to it until done (the migration's
 * transaction).
 *
 * MySQL/MariaDB have no partial indexes, and SQLite (one writer at a time) keeps `due` as it is.
 */
export function deliveryDuePendingMigration(prefix: string, dialect: DialectKind | undefined): HireportMigration {
  const table = `${prefix}webhook_delivery`;
  const oldIndex = `${prefix}webhook_delivery_due`;
  const newIndex = `${prefix}webhook_delivery_due_pending`;
  return {
    async up(db: AnyDb) {
      const strategy = strategyFor(db, dialect);
      if (strategy.kind !== "postgres") return;
      await db.schema
        .createIndex(newIndex)
        .on(table)
        .columns(["next_attempt_at", "id"])
        .where(sql.ref("status"), "=", sql.lit("pending"))
        .execute();
      await strategy.dropIndexOf(db.schema.dropIndex(oldIndex), table).execute();
    },
    async down(db: AnyDb) {
      const strategy = strategyFor(db, dialect);
      if (strategy.kind !== "postgres") return;
      await db.schema.createIndex(oldIndex).on(table).columns(["status", "next_attempt_at", "id"]).execute();
      await strategy.dropIndexOf(db.schema.dropIndex(newIndex), table).execute();
    },
  };
}
