import type { Kysely } from "kysely";
import { strategyFor } from "../dialects/detect";
import type { DialectKind } from "../dialects/types";
import type { HireportMigration } from "./migration-types";

// biome-ignore lint/suspicious/noExplicitAny: migrations never see the app's types.
type AnyDb = Kysely<any>;

/**
 * Adds `webhook_endpoint.signature_scheme`: how an endpoint's deliveries are signed (`service`,
 * `standard-v1` or `standard-v1a`). Existing endpoints keep `service`, the signature they had.
 */
export function endpointSignatureSchemeMigration(prefix: string, dialect: DialectKind | undefined): HireportMigration {
  const table = `${prefix}webhook_endpoint`;
  return {
    async up(db: AnyDb) {
      const ty = strategyFor(db, dialect).columnTypes;
      await db.schema
        .alterTable(table)
        .addColumn("signature_scheme", ty.id(16), (c) => c.notNull().defaultTo("service"))
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.alterTable(table).dropColumn("signature_scheme").execute();
    },
  };
}
