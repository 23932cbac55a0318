import type { Kysely } from "kysely";
import { strategyFor } from "../dialects/detect";
import type { DialectKind } from "../dialects/types";
import type { HireportMigration } from "./migration-types";

// biome-ignore lint/suspicious/noExplicitAny: migrations never see the app's types.
type AnyDb = Kysely<any>;

/**
 * Replaces the `(endpoint_id)` index of `webhook_attempt` with `(endpoint_id, attempted_at)`: an
 * endpoint's attempts of a time range (`attemptStats`, the console's endpoint health) become a
 * range read of the index instead of a read of every attempt of the endpoint. The new index serves
 * what the old one did (deleting an endpoint's attempts), so the old one goes.
 */
export function attemptEndpointTimeIndexMigration(prefix: string, dialect: DialectKind | undefined): HireportMigration {
  const table = `${prefix}webhook_attempt`;
  const oldIndex = `${prefix}webhook_attempt_endpoint`;
  const newIndex = `${prefix}webhook_attempt_endpoint_attempted`;
  return {
    async up(db: AnyDb) {
      const strategy = strategyFor(db, dialect);
      await db.schema.createIndex(newIndex).on(table).columns(["endpoint_id", "attempted_at"]).execute();
      await strategy.dropIndexOf(db.schema.dropIndex(oldIndex), table).execute();
    },
    async down(db: AnyDb) {
      const strategy = strategyFor(db, dialect);
      await db.schema.createIndex(oldIndex).on(table).columns(["endpoint_id"]).execute();
      await strategy.dropIndexOf(db.schema.dropIndex(newIndex), table).execute();
    },
  };
}
