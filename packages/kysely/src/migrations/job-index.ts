import type { Kysely } from "kysely";
import { strategyFor } from "../dialects/detect";
import type { DialectKind } from "../dialects/types";
import type { HireportMigration } from "./migration-types";

// biome-ignore lint/suspicious/noExplicitAny: migrations never see the app's types.
type AnyDb = Kysely<any>;

/**
 * The job-indexing outbox (docs/careers.md, Search engine indexing): `job_index_mark`, one row per
 * job with its change count (written in the transaction of each change), and `job_index_notice`,
 * one row per job and search-engine service with its last notice and the count it covers.
 */
export function jobIndexMigration(prefix: string, dialect: DialectKind | undefined): HireportMigration {
  const t = (name: string) => `${prefix}${name}`;
  return {
    async up(db: AnyDb) {
      const strategy = strategyFor(db, dialect);
      const ty = strategy.columnTypes;
      await strategy
        .tableOptions(
          db.schema
            .createTable(t("job_index_mark"))
            .addColumn("company_id", ty.id(128), (c) => c.notNull())
            .addColumn("job_id", ty.id(), (c) => c.notNull())
            .addColumn("seq", ty.int(), (c) => c.notNull())
            .addColumn("changed_at", ty.date(), (c) => c.notNull())
            .addPrimaryKeyConstraint(t("job_index_mark_pk"), ["company_id", "job_id"]),
        )
        .execute();
      // `pending` reads the least recently changed first.
      await db.schema
        .createIndex(t("job_index_mark_changed"))
        .on(t("job_index_mark"))
        .columns(["changed_at", "company_id", "job_id"])
        .execute();
      await strategy
        .tableOptions(
          db.schema
            .createTable(t("job_index_notice"))
            .addColumn("company_id", ty.id(128), (c) => c.notNull())
            .addColumn("job_id", ty.id(), (c) => c.notNull())
            .addColumn("service", ty.id(16), (c) => c.notNull())
            .addColumn("seq", ty.int(), (c) => c.notNull())
            .addColumn("action", ty.id(16))
            .addColumn("notified_at", ty.date())
            .addColumn("status", ty.int())
            .addColumn("error", ty.long())
            .addColumn("closes_at", ty.date())
            .addPrimaryKeyConstraint(t("job_index_notice_pk"), ["company_id", "job_id", "service"]),
        )
        .execute();
      // The closing-date sweep.
      await db.schema
        .createIndex(t("job_index_notice_closes"))
        .on(t("job_index_notice"))
        .columns(["closes_at"])
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable(t("job_index_notice")).execute();
      await db.schema.dropTable(t("job_index_mark")).execute();
    },
  };
}
