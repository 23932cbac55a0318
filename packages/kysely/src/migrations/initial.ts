import type { CreateTableBuilder, Kysely } from "kysely";
import { strategyFor } from "../dialects/detect";
import type { DialectKind } from "../dialects/types";
import type { HireportMigration } from "./migration-types";

// biome-ignore lint/suspicious/noExplicitAny: migrations never see the app's types.
type AnyDb = Kysely<any>;

/**
 * The initial migration: every table and index of hireport. Its DDL is written here, once; the
 * column types per dialect are the strategy's `columnTypes` (part of the released schema: a later
 * change of the schema is a new migration, never a change of this one or of those types).
 */
export function initialMigration(
  prefix: string,
  dialect: DialectKind | undefined,
  domainTables = true,
): HireportMigration {
  const t = (name: string) => `${prefix}${name}`;
  const tables = [
    "file_chunk",
    "file",
    "audit",
    "webhook_attempt",
    "webhook_delivery",
    "webhook_endpoint",
    "idempotency",
    "usage_daily",
    "usage",
    "rate_limit",
    "event",
    "note",
    "stage_change",
    "application",
    "job",
    "api_key",
    "sequence",
    "company",
  ];
  return {
    async up(db: AnyDb) {
      const strategy = strategyFor(db, dialect);
      const ty = strategy.columnTypes;
      const tableEnd = <T extends string, C extends string>(builder: CreateTableBuilder<T, C>) =>
        strategy.tableOptions(builder);
      const create = (name: string) => db.schema.createTable(t(name));
      const index = (table: string, name: string, columns: string[], unique = false) => {
        let builder = db.schema
          .createIndex(t(`${table}_${name}`))
          .on(t(table))
          .columns(columns);
        if (unique) builder = builder.unique();
        return builder.execute();
      };

      await tableEnd(
        create("company")
          .addColumn("id", ty.id(128), (c) => c.primaryKey())
          .addColumn("name", ty.text(200), (c) => c.notNull())
          .addColumn("created_at", ty.date(), (c) => c.notNull()),
      ).execute();

      await tableEnd(
        create("sequence")
          .addColumn("company_id", ty.id(128), (c) => c.notNull())
          .addColumn("kind", ty.id(32), (c) => c.notNull())
          .addColumn("value", ty.int(), (c) => c.notNull())
          .addPrimaryKeyConstraint(t("sequence_pk"), ["company_id", "kind"]),
      ).execute();

      await tableEnd(
        create("api_key")
          .addColumn("id", ty.id(), (c) => c.primaryKey())
          .addColumn("company_id", ty.id(128), (c) => c.notNull())
          .addColumn("name", ty.text(200), (c) => c.notNull())
          .addColumn("scopes", ty.long(), (c) => c.notNull())
          .addColumn("hash", ty.id(), (c) => c.notNull())
          .addColumn("prefix", ty.text(64), (c) => c.notNull())
          .addColumn("suffix", ty.text(16), (c) => c.notNull())
          .addColumn("created_at", ty.date(), (c) => c.notNull())
          .addColumn("expires_at", ty.date())
          .addColumn("revoked_at", ty.date())
          .addColumn("last_used_at", ty.date()),
      ).execute();
      await index("api_key", "hash", ["hash"], true);
      await index("api_key", "company", ["company_id", "created_at", "id"]);

      // Not with `domainTables: false`: the host's own tables hold jobs and applications.
      if (domainTables) {
        await tableEnd(
          create("job")
            .addColumn("id", ty.id(), (c) => c.primaryKey())
            .addColumn("company_id", ty.id(128), (c) => c.notNull())
            .addColumn("reference", ty.text(64), (c) => c.notNull())
            .addColumn("title", ty.long(), (c) => c.notNull())
            .addColumn("description", ty.long(), (c) => c.notNull())
            .addColumn("short_description", ty.long(), (c) => c.notNull())
            .addColumn("department", ty.long(), (c) => c.notNull())
            .addColumn("location", ty.long(), (c) => c.notNull())
            .addColumn("employment_type", ty.long(), (c) => c.notNull())
            .addColumn("experience_level", ty.long(), (c) => c.notNull())
            .addColumn("salary_min", ty.double())
            .addColumn("salary_max", ty.double())
            .addColumn("salary_currency", ty.text(16), (c) => c.notNull())
            .addColumn("salary_period", ty.text(32), (c) => c.notNull())
            .addColumn("required_skills", ty.long(), (c) => c.notNull())
            .addColumn("preferred_skills", ty.long(), (c) => c.notNull())
            .addColumn("qualifications", ty.long(), (c) => c.notNull())
            .addColumn("responsibilities", ty.long(), (c) => c.notNull())
            .addColumn("benefits", ty.long(), (c) => c.notNull())
            .addColumn("closing_date", ty.text(10))
            .addColumn("start_date", ty.text(10))
            .addColumn("positions", ty.int())
            .addColumn("status", ty.id(16), (c) => c.notNull())
            .addColumn("hidden", ty.bool(), (c) => c.notNull())
            .addColumn("applications_count", ty.int(), (c) => c.notNull().defaultTo(0))
            .addColumn("created_at", ty.date(), (c) => c.notNull())
            .addColumn("updated_at", ty.date(), (c) => c.notNull())
            .addColumn("closed_at", ty.date())
            .addColumn("published_at", ty.date()),
        ).execute();
        await index("job", "company_created", ["company_id", "created_at", "id"]);
        await index("job", "company_status_created", ["company_id", "status", "created_at", "id"]);
        await index("job", "company_updated", ["company_id", "updated_at"]);

        await tableEnd(
          create("application")
            .addColumn("id", ty.id(), (c) => c.primaryKey())
            .addColumn("company_id", ty.id(128), (c) => c.notNull())
            .addColumn("job_id", ty.id(), (c) => c.notNull())
            .addColumn("reference", ty.text(64), (c) => c.notNull())
            .addColumn("candidate_name", ty.long(), (c) => c.notNull())
            .addColumn("candidate_email", ty.long(), (c) => c.notNull())
            .addColumn("candidate_phone", ty.long(), (c) => c.notNull())
            .addColumn("candidate_location", ty.long(), (c) => c.notNull())
            .addColumn("candidate_linkedin_url", ty.long(), (c) => c.notNull())
            .addColumn("candidate_current_title", ty.long(), (c) => c.notNull())
            .addColumn("candidate_skills", ty.long(), (c) => c.notNull())
            .addColumn("email_normalized", ty.id(254), (c) => c.notNull())
            .addColumn("cover_letter", ty.long(), (c) => c.notNull())
            .addColumn("resume_source_url", ty.long())
            .addColumn("resume_file_id", ty.id())
            .addColumn("source", ty.long(), (c) => c.notNull())
            .addColumn("consent", ty.bool())
            .addColumn("consent_at", ty.date())
            .addColumn("stage", ty.id(32), (c) => c.notNull())
            .addColumn("ai_match", ty.double(), (c) => c.notNull())
            .addColumn("overall_score", ty.double())
            .addColumn("tags", ty.long(), (c) => c.notNull())
            .addColumn("starred", ty.bool(), (c) => c.notNull())
            .addColumn("human_review_requested_at", ty.date())
            .addColumn("applied_at", ty.date(), (c) => c.notNull())
            .addColumn("updated_at", ty.date(), (c) => c.notNull())
            .addColumn("erased_at", ty.date()),
        ).execute();
        await index("application", "company_applied", ["company_id", "applied_at", "id"]);
        await index("application", "company_job_applied", ["company_id", "job_id", "applied_at", "id"]);
        await index("application", "company_stage_applied", ["company_id", "stage", "applied_at", "id"]);
        await index("application", "company_updated", ["company_id", "updated_at"]);
        await index("application", "duplicate", ["job_id", "email_normalized", "applied_at"]);
        // Personal data: one person's applications by address (export, erasure), and retention's scan.
        await index("application", "company_email", ["company_id", "email_normalized"]);
        await index("application", "retention", ["erased_at", "stage", "updated_at"]);
        // Retention's question of a page of old files: which of them applications still name.
        await index("application", "resume_file", ["resume_file_id"]);
      }

      for (const name of ["stage_change", "note"]) {
        let builder = strategy
          .sequenceColumn(create(name))
          .addColumn("id", ty.id(), (c) => c.notNull().unique())
          .addColumn("application_id", ty.id(), (c) => c.notNull())
          .addColumn("company_id", ty.id(128), (c) => c.notNull());
        builder =
          name === "note"
            ? builder.addColumn("body", ty.long(), (c) => c.notNull())
            : builder.addColumn("from_stage", ty.id(32)).addColumn("to_stage", ty.id(32), (c) => c.notNull());
        await tableEnd(
          builder
            .addColumn("actor_type", ty.id(16), (c) => c.notNull())
            .addColumn("actor_id", ty.long())
            .addColumn("actor_name", ty.long(), (c) => c.notNull())
            .addColumn("created_at", ty.date(), (c) => c.notNull()),
        ).execute();
        await index(name, "application", ["application_id", "seq"]);
      }

      await tableEnd(
        create("event")
          .addColumn("id", ty.id(), (c) => c.primaryKey())
          .addColumn("company_id", ty.id(128), (c) => c.notNull())
          .addColumn("type", ty.id(), (c) => c.notNull())
          .addColumn("payload", ty.long(), (c) => c.notNull())
          .addColumn("created_at", ty.date(), (c) => c.notNull())
          .addColumn("subject_id", ty.id()),
      ).execute();
      await index("event", "company_created", ["company_id", "created_at", "id"]);
      await index("event", "company_subject", ["company_id", "subject_id"]);
      await index("event", "created", ["created_at"]);

      await tableEnd(
        create("rate_limit")
          .addColumn("bucket_key", ty.id(255), (c) => c.primaryKey())
          .addColumn("hits", ty.int(), (c) => c.notNull())
          .addColumn("reset_at", ty.date(), (c) => c.notNull()),
      ).execute();
      await index("rate_limit", "reset", ["reset_at"]);

      await tableEnd(
        create("usage")
          .addColumn("id", ty.id(), (c) => c.primaryKey())
          .addColumn("company_id", ty.id(128))
          .addColumn("key_id", ty.id())
          .addColumn("method", ty.text(16), (c) => c.notNull())
          .addColumn("route", ty.long(), (c) => c.notNull())
          .addColumn("status", ty.int(), (c) => c.notNull())
          .addColumn("duration_ms", ty.double(), (c) => c.notNull())
          .addColumn("request_id", ty.long(), (c) => c.notNull())
          .addColumn("ip", ty.long())
          .addColumn("created_at", ty.date(), (c) => c.notNull()),
      ).execute();
      await index("usage", "company_created", ["company_id", "created_at", "id"]);
      await index("usage", "company_key_created", ["company_id", "key_id", "created_at", "id"]);
      await index("usage", "created", ["created_at"]);

      // The usage chart reads this roll-up (a few rows a day per company), never the usage rows:
      // usage.appendMany adds to it in the statement or transaction that stores the entries.
      await tableEnd(
        create("usage_daily")
          .addColumn("company_id", ty.id(128), (c) => c.notNull())
          .addColumn("day", ty.id(10), (c) => c.notNull())
          .addColumn("status_class", ty.int(), (c) => c.notNull())
          .addColumn("requests", ty.int(), (c) => c.notNull())
          .addPrimaryKeyConstraint(t("usage_daily_pk"), ["company_id", "day", "status_class"]),
      ).execute();

      await tableEnd(
        create("idempotency")
          .addColumn("key_id", ty.id(), (c) => c.notNull())
          .addColumn("idempotency_key", ty.id(255), (c) => c.notNull())
          .addColumn("request_hash", ty.long(), (c) => c.notNull())
          .addColumn("state", ty.id(16), (c) => c.notNull())
          .addColumn("response_status", ty.int())
          .addColumn("response_headers", ty.long())
          .addColumn("response_body", ty.long())
          .addColumn("created_at", ty.date(), (c) => c.notNull())
          .addColumn("expires_at", ty.date(), (c) => c.notNull())
          .addColumn("locked_until", ty.date(), (c) => c.notNull())
          .addPrimaryKeyConstraint(t("idempotency_pk"), ["key_id", "idempotency_key"]),
      ).execute();
      await index("idempotency", "expires", ["expires_at"]);

      await tableEnd(
        create("webhook_endpoint")
          .addColumn("id", ty.id(), (c) => c.primaryKey())
          .addColumn("company_id", ty.id(128), (c) => c.notNull())
          .addColumn("url", ty.long(), (c) => c.notNull())
          .addColumn("description", ty.long(), (c) => c.notNull())
          .addColumn("events", ty.long(), (c) => c.notNull())
          .addColumn("status", ty.id(16), (c) => c.notNull())
          .addColumn("paused_reason", ty.id(16))
          .addColumn("secrets", ty.long(), (c) => c.notNull())
          .addColumn("consecutive_failures", ty.int(), (c) => c.notNull().defaultTo(0))
          .addColumn("created_at", ty.date(), (c) => c.notNull())
          .addColumn("updated_at", ty.date(), (c) => c.notNull()),
      ).execute();
      await index("webhook_endpoint", "company", ["company_id", "created_at", "id"]);

      await tableEnd(
        create("webhook_delivery")
          .addColumn("id", ty.id(), (c) => c.primaryKey())
          .addColumn("endpoint_id", ty.id(), (c) => c.notNull())
          .addColumn("company_id", ty.id(128), (c) => c.notNull())
          .addColumn("event_id", ty.id(), (c) => c.notNull())
          .addColumn("event_type", ty.id(), (c) => c.notNull())
          .addColumn("status", ty.id(16), (c) => c.notNull())
          .addColumn("attempts", ty.int(), (c) => c.notNull().defaultTo(0))
          .addColumn("next_attempt_at", ty.date())
          .addColumn("lease_expires_at", ty.date())
          .addColumn("lease_token", ty.id())
          .addColumn("created_at", ty.date(), (c) => c.notNull())
          .addColumn("updated_at", ty.date(), (c) => c.notNull()),
      ).execute();
      await index("webhook_delivery", "due", ["status", "next_attempt_at", "id"]);
      await index("webhook_delivery", "endpoint_created", ["endpoint_id", "created_at", "id"]);
      await index("webhook_delivery", "endpoint_status_created", ["endpoint_id", "status", "created_at", "id"]);
      await index("webhook_delivery", "event", ["event_id"]);
      await index("webhook_delivery", "created", ["created_at"]);

      await tableEnd(
        strategy
          .sequenceColumn(create("webhook_attempt"))
          .addColumn("id", ty.id(), (c) => c.notNull().unique())
          .addColumn("delivery_id", ty.id(), (c) => c.notNull())
          .addColumn("endpoint_id", ty.id(), (c) => c.notNull())
          .addColumn("attempted_at", ty.date(), (c) => c.notNull())
          .addColumn("status_code", ty.int())
          .addColumn("duration_ms", ty.double(), (c) => c.notNull())
          .addColumn("response_body", ty.long(), (c) => c.notNull())
          .addColumn("error", ty.long())
          .addColumn("succeeded", ty.bool(), (c) => c.notNull()),
      ).execute();
      await index("webhook_attempt", "delivery", ["delivery_id", "seq"]);
      await index("webhook_attempt", "endpoint", ["endpoint_id"]);

      await tableEnd(
        create("audit")
          .addColumn("id", ty.id(), (c) => c.primaryKey())
          .addColumn("company_id", ty.id(128), (c) => c.notNull())
          .addColumn("actor_type", ty.id(16), (c) => c.notNull())
          .addColumn("actor_id", ty.long())
          .addColumn("actor_name", ty.long(), (c) => c.notNull())
          .addColumn("action", ty.id(64), (c) => c.notNull())
          .addColumn("target_type", ty.id(64), (c) => c.notNull())
          .addColumn("target_id", ty.id())
          .addColumn("details", ty.long(), (c) => c.notNull())
          .addColumn("created_at", ty.date(), (c) => c.notNull()),
      ).execute();
      await index("audit", "company_created", ["company_id", "created_at", "id"]);
      await index("audit", "created", ["created_at"]);

      // The file store (`kyselyFileStore`): a file's row is written after its last chunk.
      await tableEnd(
        create("file")
          .addColumn("id", ty.id(), (c) => c.primaryKey())
          .addColumn("company_id", ty.id(128), (c) => c.notNull())
          .addColumn("filename", ty.text(255), (c) => c.notNull())
          .addColumn("content_type", ty.text(255), (c) => c.notNull())
          .addColumn("size", ty.int(), (c) => c.notNull())
          .addColumn("chunk_count", ty.int(), (c) => c.notNull())
          .addColumn("created_at", ty.date(), (c) => c.notNull()),
      ).execute();
      await index("file", "company_created", ["company_id", "created_at"]);
      // Retention pages through the old files of every company (`listCreatedBefore`).
      await index("file", "created", ["created_at", "id"]);
      await tableEnd(
        create("file_chunk")
          .addColumn("file_id", ty.id(), (c) => c.notNull())
          .addColumn("seq", ty.int(), (c) => c.notNull())
          .addColumn("data", ty.bytes(), (c) => c.notNull())
          .addPrimaryKeyConstraint(t("file_chunk_pk"), ["file_id", "seq"]),
      ).execute();
    },

    async down(db: AnyDb) {
      for (const name of tables) await db.schema.dropTable(t(name)).ifExists().execute();
    },
  };
}
