/**
 * The declaration of a host's own tables: what `declaredDomain` builds the domain stores from.
 * Every name is checked against the host's Kysely table types when they are given
 * (`declaredDomain<HostDatabase>({…})`): a table or column that does not exist fails to compile.
 */
import type { ApplicationStage, JobRecord, JobStatus } from "@hireport/core";
import type { ApplicationFields, CandidateFields } from "@hireport/core/storage";
import type { DialectKind } from "../dialects/types";

/** A table name of `DB`. */
export type TableOf<DB> = keyof DB & string;
/** A column name of the table `T` of `DB`. */
export type ColumnOf<DB, T extends TableOf<DB>> = keyof DB[T] & string;

/**
 * How one column holds its value, when the default for its field's kind does not fit (a Postgres
 * `text[]` of tags, a `timestamp without time zone`, a status kept as a number…). The default: text
 * as is; numbers as numbers; booleans as the dialect's (`boolean` on Postgres, 0 or 1 elsewhere);
 * moments as `timestamptz` on Postgres, `datetime(3)` in UTC on MySQL/MariaDB and ISO 8601 text on
 * SQLite; lists and structured values as JSON text (a driver that already parses a `json` column is
 * read as parsed).
 */
export interface ColumnCodec {
  /** The stored value of a record's value (the API's word, before any word map). */
  write(value: unknown, dialect: DialectKind): unknown;
  /** The record's value of a stored one. */
  read(stored: unknown, dialect: DialectKind): unknown;
}

/** A column, or a column with its own {@link ColumnCodec}. */
export type ColumnSpec<C extends string> = C | { column: C; codec: ColumnCodec };

/**
 * A column of words: the product's words for the API's values (job statuses, application stages),
 * both ways. Several words may stand for one API value; a write stores the first one declared for
 * it, unless the row already holds a word for that value, which is kept (so a round trip through
 * the API loses nothing).
 */
export interface WordColumn<C extends string, V extends string> {
  column: C;
  /** The product's word → the API's value. @default none: the column holds the API's own words */
  words?: Readonly<Record<string, V>>;
  /**
   * What a word not in `words` reads as; it stays stored as it was until the API moves the row to
   * another value. @default none: reading an unknown word throws an error naming the table, column and word
   */
  otherwise?: V;
}

/** How ids are stored: whole (`job_01J…`, the default), or without the API's kind prefix (`01J…`). */
export type IdStyle = "whole" | "unprefixed";

/** What every declared table has: its name, its id and its company. */
interface TableBase<T extends string, C extends string> {
  table: T;
  /** The id column. @default "id" */
  id?: C;
  /** How ids are stored. @default "whole" */
  ids?: IdStyle;
  /** The company column; left out when the declaration names one `company` for every row. @default none */
  company?: C;
  /**
   * Values for the product's other columns that a new row needs (a creation time of its own, a
   * default the product's schema lacks), from the record being inserted. @default none
   */
  onInsert?: (record: Record<string, unknown>) => Readonly<Record<string, unknown>>;
}

/** Job fields that may have a column; the rest live in `extras`. */
export type JobColumnField = Exclude<keyof JobRecord, "id" | "companyId" | "status" | "applicationsCount">;

export interface JobTableDeclaration<T extends string, C extends string> extends TableBase<T, C> {
  /** The status column, with the product's words. */
  status: C | WordColumn<C, JobStatus>;
  /**
   * The applications count: a column the store keeps exact (`+ 1` with each application), or
   * `"computed"` to count the job's application rows at each read.
   */
  applicationsCount: C | "computed";
  /**
   * The columns of the job's fields (`title`, `createdAt`, `updatedAt`, `hidden` and `closingDate`
   * must have one: applications read the title, the lists filter and order by the others); every
   * field without one is kept in `extras`.
   */
  columns: { [F in JobColumnField]?: ColumnSpec<C> } & {
    title: ColumnSpec<C>;
    createdAt: ColumnSpec<C>;
    updatedAt: ColumnSpec<C>;
    hidden: ColumnSpec<C>;
    closingDate: ColumnSpec<C>;
  };
  /** A text column holding, as one JSON object, every field without a column of its own. @default none: every field needs a column */
  extras?: C;
}

/** Application fields that may have a column (the candidate's are declared with the candidate). */
export type ApplicationColumnField = Exclude<keyof ApplicationFields, "stage"> | "reference";

export interface ApplicationTableDeclaration<T extends string, C extends string> extends TableBase<T, C> {
  /** The column naming the application's job. */
  job: C;
  /** The stage column, with the product's words. */
  stage: C | WordColumn<C, ApplicationStage>;
  /**
   * The columns of the application's fields. `appliedAt`, `updatedAt`, `erasedAt` and
   * `resumeFileId` must have one (lists, retention and file clean-up read them), and
   * `emailNormalized` one here or on the candidate table (the duplicate rule reads it); every other
   * field without one is kept in `extras`.
   */
  columns: { [F in ApplicationColumnField]?: ColumnSpec<C> } & {
    appliedAt: ColumnSpec<C>;
    updatedAt: ColumnSpec<C>;
    erasedAt: ColumnSpec<C>;
    resumeFileId: ColumnSpec<C>;
  };
  /** A text column holding, as one JSON object, every field without a column (the candidate's too). @default none */
  extras?: C;
}

/** The candidate fields, and the normalized e-mail of the duplicate rule, where the person lives in a table of its own. */
export type CandidateColumnField = keyof CandidateFields | "emailNormalized";

export interface CandidateTableDeclaration<T extends string, C extends string, AC extends string>
  extends TableBase<T, C> {
  /** The column of the application table naming its person row. */
  from: AC;
  /** The columns of the candidate's fields; a field without one is kept in the application's `extras`. */
  columns: { [F in CandidateColumnField]?: ColumnSpec<C> };
  /**
   * One person row for every application with the same normalized e-mail in the company (`true`),
   * or a row of its own for each application, which keeps the details sent with it (`false`). A
   * shared row is erased when the last application naming it is erased; until then an erased
   * application reads as erased and the row keeps the details the others still need.
   * @default false
   */
  shared?: boolean;
  /**
   * The person row's other personal columns, those no candidate field is kept in (a birth date, a
   * second address), with the value each is set to when the person is erased (`null`, `""`): erasure
   * clears them with the declared columns, at once for a row of its own, with the last application
   * for a shared one. @default none
   */
  erase?: { readonly [K in C]?: unknown };
}

/** Who made a change, in three columns. */
export interface ActorColumns<C extends string> {
  /** `api_key` or `host`. */
  type: C;
  /** The key's id, or the host's label (nullable). */
  id: C;
  /** The name shown in the history. */
  name: C;
}

interface HistoryTableBase<T extends string, C extends string> extends TableBase<T, C> {
  /** The column naming the application. */
  application: C;
  /** When it was written. */
  at: ColumnSpec<C>;
  actor: ActorColumns<C>;
  /** A column that orders rows written in one millisecond (an identity or autoincrement column). @default the id */
  order?: C;
}

export interface StageChangeTableDeclaration<T extends string, C extends string> extends HistoryTableBase<T, C> {
  /** The stage before (null for the first entry), in the application's stage words. */
  from: C;
  /** The stage after, in the application's stage words. */
  to: C;
}

export interface NoteTableDeclaration<T extends string, C extends string> extends HistoryTableBase<T, C> {
  body: C;
}

/** One of `DB`'s tables, with its columns, as a `Kind` table is declared. */
type OnTable<DB, Kind extends "jobs" | "applications" | "stageChanges" | "notes"> = {
  [T in TableOf<DB>]: Kind extends "jobs"
    ? JobTableDeclaration<T, ColumnOf<DB, T>>
    : Kind extends "applications"
      ? ApplicationTableDeclaration<T, ColumnOf<DB, T>>
      : Kind extends "stageChanges"
        ? StageChangeTableDeclaration<T, ColumnOf<DB, T>>
        : NoteTableDeclaration<T, ColumnOf<DB, T>>;
}[TableOf<DB>];

/** The candidate's table, whose `from` is a column of the application table `AT`. */
type CandidateOnTable<DB, AT extends TableOf<DB>> = {
  [T in TableOf<DB>]: CandidateTableDeclaration<T, ColumnOf<DB, T>, ColumnOf<DB, AT>>;
}[TableOf<DB>];

/** The application table with its candidate: in a table of its own, or columns of the application row. */
type ApplicationsWithCandidate<DB> = {
  [AT in TableOf<DB>]: ApplicationTableDeclaration<AT, ColumnOf<DB, AT>> & {
    /**
     * Where the candidate's details are: a table of their own (`{ table, from, columns, shared }`),
     * or `{ columns }` of the application row itself.
     */
    candidate:
      | CandidateOnTable<DB, AT>
      | {
          columns: { [F in CandidateColumnField]?: ColumnSpec<ColumnOf<DB, AT>> };
          /** The application row's other personal columns, with the value erasure sets each to. @default none */
          erase?: { readonly [K in ColumnOf<DB, AT>]?: unknown };
        };
  };
}[TableOf<DB>];

/**
 * A host's tables, declared: `declaredDomain<HostDatabase>(declaration)` builds `kyselyStorage`'s
 * `domain` from it.
 */
export interface DomainDeclaration<DB> {
  /**
   * One company for every row, for a product with a single company and no company column: requests
   * of any other company read nothing and write nothing. @default none: each table names its `company` column
   */
  company?: string;
  jobs: OnTable<DB, "jobs">;
  applications: ApplicationsWithCandidate<DB>;
  /** The stage history: a table of the product's, or `"hireport"` for hireport's own table. */
  stageChanges: OnTable<DB, "stageChanges"> | "hireport";
  /** The notes: a table of the product's, or `"hireport"` for hireport's own table. */
  notes: OnTable<DB, "notes"> | "hireport";
}

/** Tables of any names and columns: the declaration's names are then plain strings. */
export type UntypedTables = Record<string, Record<string, unknown>>;

/** A declaration with its names as plain strings: what the stores are built from. */
export type AnyDomainDeclaration = DomainDeclaration<UntypedTables>;
