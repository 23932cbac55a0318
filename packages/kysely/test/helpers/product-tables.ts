/**
 * A product's own tables for the declared-domain tests, made as a product's migration would: its
 * own names (snake case, under the test file's prefix), ids stored without the API's kind prefix,
 * its own status and stage words (several for one API value), candidates either on the
 * application row or in a person table shared by applications, and one company for a
 * single-company product. Made per dialect with Kysely's schema builder.
 */
import { APPLICATION_STAGES } from "@hireport/core/schemas";
import { type ColumnDataType, type Kysely, sql } from "kysely";
import type { DomainDeclaration } from "../../src/index";
import type { TestDialect } from "./databases";

/** The names of one product's tables under `prefix`. */
export function productTables(prefix: string) {
  return {
    jobs: `${prefix}p_job`,
    applications: `${prefix}p_application`,
    people: `${prefix}p_person`,
    moves: `${prefix}p_move`,
    notes: `${prefix}p_note`,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: the product's tables are named at run time.
type AnyDb = Kysely<any>;

export async function createProductTables(db: AnyDb, dialect: TestDialect, prefix: string): Promise<void> {
  const t = productTables(prefix);
  const pg = dialect === "postgres";
  const my = dialect === "mysql";
  const id: ColumnDataType = "varchar(64)";
  const time = pg ? "timestamptz" : my ? "datetime(3)" : "text";
  const flag: ColumnDataType = pg ? "boolean" : "integer";
  const long = my ? sql`longtext` : sql`text`;
  const options = <B extends { modifyEnd: (e: ReturnType<typeof sql>) => B }>(builder: B): B =>
    my ? builder.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`) : builder;

  await options(
    db.schema
      .createTable(t.jobs)
      .addColumn("id", id, (c) => c.primaryKey())
      .addColumn("company_id", id, (c) => c.notNull())
      .addColumn("title", "varchar(300)", (c) => c.notNull())
      .addColumn("status", "varchar(32)", (c) => c.notNull())
      .addColumn("unlisted", flag, (c) => c.notNull())
      .addColumn("closes_on", "varchar(10)")
      .addColumn("applications_count", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("data", long, (c) => c.notNull())
      .addColumn("created_at", sql.raw(time), (c) => c.notNull())
      .addColumn("updated_at", sql.raw(time), (c) => c.notNull()),
  ).execute();
  await options(
    db.schema
      .createTable(t.people)
      .addColumn("id", id, (c) => c.primaryKey())
      .addColumn("company_id", id, (c) => c.notNull())
      .addColumn("full_name", long, (c) => c.notNull())
      .addColumn("email", long, (c) => c.notNull())
      .addColumn("email_key", "varchar(320)", (c) => c.notNull())
      .addColumn("private_notes", long),
  ).execute();
  await options(
    db.schema
      .createTable(t.applications)
      .addColumn("id", id, (c) => c.primaryKey())
      .addColumn("company_id", id, (c) => c.notNull())
      .addColumn("job_id", id, (c) => c.notNull())
      .addColumn("person_id", id)
      .addColumn("stage", "varchar(32)", (c) => c.notNull())
      .addColumn("name", long)
      .addColumn("email", long)
      .addColumn("email_key", "varchar(320)")
      .addColumn("tags", long, (c) => c.notNull())
      .addColumn("cv_file", id)
      .addColumn("data", long, (c) => c.notNull())
      .addColumn("applied_at", sql.raw(time), (c) => c.notNull())
      .addColumn("updated_at", sql.raw(time), (c) => c.notNull())
      .addColumn("erased_at", sql.raw(time)),
  ).execute();
  for (const table of [t.moves, t.notes]) {
    let create = db.schema
      .createTable(table)
      .addColumn("id", id, (c) => c.primaryKey())
      .addColumn("company_id", id, (c) => c.notNull())
      .addColumn("application_id", id, (c) => c.notNull())
      .addColumn("by_type", "varchar(16)", (c) => c.notNull())
      .addColumn("by_id", "varchar(200)")
      .addColumn("by_name", "varchar(200)", (c) => c.notNull())
      .addColumn("at", sql.raw(time), (c) => c.notNull());
    create =
      table === t.moves
        ? create.addColumn("from_stage", "varchar(32)").addColumn("to_stage", "varchar(32)", (c) => c.notNull())
        : create.addColumn("body", long, (c) => c.notNull());
    await options(create).execute();
  }
  await db.schema
    .createIndex(`${t.jobs}_company_created`)
    .on(t.jobs)
    .columns(["company_id", "created_at", "id"])
    .execute();
  await db.schema
    .createIndex(`${t.applications}_company_applied`)
    .on(t.applications)
    .columns(["company_id", "applied_at", "id"])
    .execute();
  await db.schema.createIndex(`${t.applications}_job`).on(t.applications).columns(["job_id", "applied_at"]).execute();
}

export async function dropProductTables(db: AnyDb, prefix: string): Promise<void> {
  const t = productTables(prefix);
  for (const table of [t.notes, t.moves, t.applications, t.people, t.jobs])
    await db.schema.dropTable(table).ifExists().execute();
}

// biome-ignore lint/suspicious/noExplicitAny: the product's tables are named at run time (under the test's prefix).
type Names = any;

/** The product's words: several for one status, one per stage plus an old one for `rejected`. */
export const STATUS_WORDS = {
  open: "active",
  live: "active",
  paused: "paused",
  closed: "closed",
  draft: "draft",
} as const;
export const STAGE_WORDS = {
  ...Object.fromEntries(APPLICATION_STAGES.map((stage) => [`s_${stage}`, stage])),
  declined_old: "rejected",
} as Record<string, (typeof APPLICATION_STAGES)[number]>;
const actor = { type: "by_type", id: "by_id", name: "by_name" };

/** The candidate on the application row; ids without their kind prefix; the product's history tables. */
export function inlineDeclaration(prefix: string): DomainDeclaration<Names> {
  const t = productTables(prefix);
  return {
    jobs: {
      table: t.jobs,
      ids: "unprefixed",
      company: "company_id",
      status: { column: "status", words: STATUS_WORDS, otherwise: "draft" },
      applicationsCount: "applications_count",
      columns: {
        title: "title",
        hidden: "unlisted",
        closingDate: "closes_on",
        createdAt: "created_at",
        updatedAt: "updated_at",
      },
      extras: "data",
    },
    applications: {
      table: t.applications,
      ids: "unprefixed",
      company: "company_id",
      job: "job_id",
      stage: { column: "stage", words: STAGE_WORDS },
      columns: {
        tags: "tags",
        resumeFileId: "cv_file",
        appliedAt: "applied_at",
        updatedAt: "updated_at",
        erasedAt: "erased_at",
      },
      extras: "data",
      candidate: { columns: { name: "name", email: "email", emailNormalized: "email_key" } },
    },
    stageChanges: {
      table: t.moves,
      ids: "unprefixed",
      company: "company_id",
      application: "application_id",
      from: "from_stage",
      to: "to_stage",
      at: "at",
      actor,
    },
    notes: {
      table: t.notes,
      ids: "unprefixed",
      company: "company_id",
      application: "application_id",
      body: "body",
      at: "at",
      actor,
    },
  };
}
