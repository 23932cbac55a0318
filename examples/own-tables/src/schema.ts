/**
 * The host's tables, as its product had them before hireport: its own names, camelCase columns, its
 * own status and stage words. `migrateHostTables` is the host's migration (Kysely's schema
 * builder); hireport's infrastructure tables sit beside them through `migrateToLatest`.
 */
import { type ColumnDataType, type Generated, type Kysely, type RawBuilder, sql } from "kysely";

/** A time: `timestamptz` on Postgres (read back as a `Date`), ISO text on SQLite. */
type Time = Date | string;
/** A flag: `boolean` on Postgres, 0 or 1 on SQLite. */
type Flag = boolean | number;

export interface OpeningsTable {
  id: string;
  orgId: string;
  ref: string;
  headline: string;
  /** `open`, `on_hold`, `filled` or `draft`. */
  state: string;
  unlisted: Flag;
  /** `YYYY-MM-DD` or null. */
  closesOn: string | null;
  /** Every other field of the listing, as JSON. */
  details: string;
  applicantCount: number;
  firstListedAt: Time | null;
  filledAt: Time | null;
  createdAt: Time;
  updatedAt: Time;
}

/** One row per candidacy: the person as they applied, so that each application keeps its own data. */
export interface CandidatesTable {
  id: string;
  orgId: string;
  fullName: string;
  email: string;
  /** Trimmed, lower-cased e-mail: the duplicate rule's key. */
  emailKey: string;
  phone: string;
  city: string;
  linkedin: string;
  headline: string;
  /** JSON array. */
  skills: string;
  createdAt: Time;
}

export interface CandidaciesTable {
  id: string;
  orgId: string;
  openingId: string;
  candidateId: string;
  ref: string;
  coverNote: string;
  cvLink: string | null;
  cvFileId: string | null;
  channel: string;
  consentGiven: Flag | null;
  consentAt: Time | null;
  /** The host's pipeline word, see `mapping.ts`. */
  pipelineStage: string;
  fitScore: number;
  rating: number | null;
  /** JSON array. */
  labels: string;
  flagged: Flag;
  reviewRequestedAt: Time | null;
  /** JSON array: the answers to the opening's questions (hireport's `AnswerRecord`s). */
  screeningAnswers: string;
  screenedOut: Flag;
  appliedAt: Time;
  updatedAt: Time;
  anonymizedAt: Time | null;
}

/** Stage history and notes: `seq` keeps the order of rows written in one millisecond. */
interface ActorColumns {
  seq: Generated<number>;
  id: string;
  orgId: string;
  candidacyId: string;
  byType: string;
  byId: string | null;
  byName: string;
}

export interface PipelineMovesTable extends ActorColumns {
  fromStage: string | null;
  toStage: string;
  movedAt: Time;
}

export interface RecruiterNotesTable extends ActorColumns {
  body: string;
  writtenAt: Time;
}

export interface HostDatabase {
  openings: OpeningsTable;
  candidates: CandidatesTable;
  candidacies: CandidaciesTable;
  pipeline_moves: PipelineMovesTable;
  recruiter_notes: RecruiterNotesTable;
}

/** The host's tables, children first (the order to drop them in). */
export const HOST_TABLES = ["recruiter_notes", "pipeline_moves", "candidacies", "candidates", "openings"] as const;

/** Creates the host's tables and indexes where missing. */
export async function migrateHostTables(db: Kysely<unknown>, dialect: "postgres" | "sqlite"): Promise<void> {
  const pg = dialect === "postgres";
  // Ids compare byte by byte on Postgres too (the API's pages are ordered by them).
  const id: RawBuilder<unknown> | ColumnDataType = pg ? sql`varchar(64) collate "C"` : "text";
  const time: ColumnDataType = pg ? "timestamptz" : "text";
  const flag: ColumnDataType = pg ? "boolean" : "integer";
  const seq = pg ? sql`integer generated always as identity` : sql`integer`;
  const schema = db.schema;

  await schema
    .createTable("openings")
    .ifNotExists()
    .addColumn("id", id, (c) => c.primaryKey())
    .addColumn("orgId", id, (c) => c.notNull())
    .addColumn("ref", "text", (c) => c.notNull())
    .addColumn("headline", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("unlisted", flag, (c) => c.notNull())
    .addColumn("closesOn", "text")
    .addColumn("details", "text", (c) => c.notNull())
    .addColumn("applicantCount", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("firstListedAt", time)
    .addColumn("filledAt", time)
    .addColumn("createdAt", time, (c) => c.notNull())
    .addColumn("updatedAt", time, (c) => c.notNull())
    .execute();
  await schema
    .createTable("candidates")
    .ifNotExists()
    .addColumn("id", id, (c) => c.primaryKey())
    .addColumn("orgId", id, (c) => c.notNull())
    .addColumn("fullName", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("emailKey", "text", (c) => c.notNull())
    .addColumn("phone", "text", (c) => c.notNull())
    .addColumn("city", "text", (c) => c.notNull())
    .addColumn("linkedin", "text", (c) => c.notNull())
    .addColumn("headline", "text", (c) => c.notNull())
    .addColumn("skills", "text", (c) => c.notNull())
    .addColumn("createdAt", time, (c) => c.notNull())
    .execute();
  await schema
    .createTable("candidacies")
    .ifNotExists()
    .addColumn("id", id, (c) => c.primaryKey())
    .addColumn("orgId", id, (c) => c.notNull())
    .addColumn("openingId", id, (c) => c.notNull().references("openings.id"))
    .addColumn("candidateId", id, (c) => c.notNull().references("candidates.id"))
    .addColumn("ref", "text", (c) => c.notNull())
    .addColumn("coverNote", "text", (c) => c.notNull())
    .addColumn("cvLink", "text")
    .addColumn("cvFileId", "text")
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("consentGiven", flag)
    .addColumn("consentAt", time)
    .addColumn("pipelineStage", "text", (c) => c.notNull())
    .addColumn("fitScore", "double precision", (c) => c.notNull())
    .addColumn("rating", "double precision")
    .addColumn("labels", "text", (c) => c.notNull())
    .addColumn("flagged", flag, (c) => c.notNull())
    .addColumn("reviewRequestedAt", time)
    .addColumn("screeningAnswers", "text", (c) => c.notNull())
    .addColumn("screenedOut", flag, (c) => c.notNull())
    .addColumn("appliedAt", time, (c) => c.notNull())
    .addColumn("updatedAt", time, (c) => c.notNull())
    .addColumn("anonymizedAt", time)
    .execute();
  for (const table of ["pipeline_moves", "recruiter_notes"] as const) {
    let create = schema
      .createTable(table)
      .ifNotExists()
      .addColumn("seq", seq, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn("id", id, (c) => c.notNull().unique())
      .addColumn("orgId", id, (c) => c.notNull())
      .addColumn("candidacyId", id, (c) => c.notNull().references("candidacies.id"))
      .addColumn("byType", "text", (c) => c.notNull())
      .addColumn("byId", "text")
      .addColumn("byName", "text", (c) => c.notNull());
    create =
      table === "pipeline_moves"
        ? create
            .addColumn("fromStage", "text")
            .addColumn("toStage", "text", (c) => c.notNull())
            .addColumn("movedAt", time, (c) => c.notNull())
        : create.addColumn("body", "text", (c) => c.notNull()).addColumn("writtenAt", time, (c) => c.notNull());
    await create.execute();
  }

  const indexes: [string, string, string[]][] = [
    ["openings_org_created", "openings", ["orgId", "createdAt", "id"]],
    ["openings_org_updated", "openings", ["orgId", "updatedAt"]],
    ["candidacies_org_applied", "candidacies", ["orgId", "appliedAt", "id"]],
    ["candidacies_opening_applied", "candidacies", ["openingId", "appliedAt"]],
    ["candidacies_org_stage", "candidacies", ["orgId", "pipelineStage", "appliedAt", "id"]],
    ["candidacies_retention", "candidacies", ["anonymizedAt", "pipelineStage", "updatedAt"]],
    ["candidacies_cv_file", "candidacies", ["cvFileId"]],
    ["candidates_org_email", "candidates", ["orgId", "emailKey"]],
    ["pipeline_moves_candidacy", "pipeline_moves", ["candidacyId"]],
    ["recruiter_notes_candidacy", "recruiter_notes", ["candidacyId"]],
  ];
  for (const [name, table, columns] of indexes) {
    await schema.createIndex(name).ifNotExists().on(table).columns(columns).execute();
  }
}
