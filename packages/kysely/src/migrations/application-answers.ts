import { type Kysely, sql } from "kysely";
import { strategyFor } from "../dialects/detect";
import type { DialectKind } from "../dialects/types";
import type { HireportMigration } from "./migration-types";

// biome-ignore lint/suspicious/noExplicitAny: migrations never see the app's types.
type AnyDb = Kysely<any>;

/**
 * Adds `application.answers` (the answers to the job's questions, JSON text, `[]` for every existing
 * application) and `application.knocked_out` (whether an answer picked a knockout choice, false for
 * every existing application).
 */
export function applicationAnswersMigration(prefix: string, dialect: DialectKind | undefined): HireportMigration {
  const table = `${prefix}application`;
  return {
    async up(db: AnyDb) {
      const strategy = strategyFor(db, dialect);
      const ty = strategy.columnTypes;
      if (strategy.kind === "mysql") {
        // MySQL refuses a literal default on a text column: add it nullable, fill it, then require it.
        await db.schema.alterTable(table).addColumn("answers", ty.long()).execute();
        await db.updateTable(table).set("answers", "[]").execute();
        await db.schema
          .alterTable(table)
          .modifyColumn("answers", ty.long(), (c) => c.notNull())
          .execute();
      } else {
        await db.schema
          .alterTable(table)
          .addColumn("answers", ty.long(), (c) => c.notNull().defaultTo("[]"))
          .execute();
        if (strategy.kind === "postgres") {
          await db.schema
            .alterTable(table)
            .alterColumn("answers", (c) => c.dropDefault())
            .execute();
        }
      }
      await db.schema
        .alterTable(table)
        .addColumn("knocked_out", ty.bool(), (c) => c.notNull().defaultTo(sql`false`))
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.alterTable(table).dropColumn("knocked_out").execute();
      await db.schema.alterTable(table).dropColumn("answers").execute();
    },
  };
}
