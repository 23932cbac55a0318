/**
 * The dialect strategy: everything that differs between Postgres, MySQL/MariaDB and SQLite, in one
 * object per dialect, as Kysely's own `DialectAdapter` holds what differs for Kysely. The stores,
 * the context, the transactions and the migrations ask it; none of them compares dialect names.
 * One is chosen per storage (and per migration run) by `strategyFor` in `detect.ts`.
 */
import type {
  CreateApplicationResult,
  EventRecord,
  KeyStore,
  NewApplicationWrite,
  RateLimitBucket,
  RateLimitResult,
  StorageStores,
  UsageRecord,
} from "@hireport/core/storage";
import type { AttemptToRecord, ClaimedDelivery, ClaimOptions, RecordAttemptResult } from "@hireport/webhooks";
import type {
  AliasedRawBuilder,
  ColumnDataType,
  CreateTableBuilder,
  Dialect,
  DropIndexBuilder,
  Expression,
  InsertQueryBuilder,
  Kysely,
  RawBuilder,
  SelectQueryBuilder,
  SqlBool,
} from "kysely";
import type { Db, StoreContext } from "../context";
import type { DbBool } from "../schema";

/** The SQL dialects hireport knows how to store on. */
export type DialectKind = "postgres" | "mysql" | "sqlite";

/** A column type of the DDL: a Kysely data type or a raw one (`varchar(64) collate "C"`). */
export type DataType = ColumnDataType | Expression<unknown>;

/** A select list: aliased columns, or one pre-compiled raw fragment typed as such. */
export type Selection = readonly AliasedRawBuilder<unknown, string>[];

/** A Kysely instance of any schema: routines and DDL are plain SQL. */
export type AnyKysely = Kysely<unknown>;

/** What `DialectStrategy.claimDeliveries` claimed, and what its statements saw of the other endpoints. */
export interface PlainClaim {
  claimed: ClaimedDelivery[];
  /**
   * Whether an active endpoint was ordered or throttled when the claim's statement ran (in its
   * snapshot): the claim left such endpoints out, and only the serialized claim takes them.
   */
  serializedActive: boolean;
}

/** The column types hireport's tables use, as one dialect spells them. */
export interface ColumnTypes {
  /** Identifiers: compared and ordered by code point on every dialect. */
  id(length?: number): DataType;
  /** Short text of at most `length` characters. */
  text(length: number): DataType;
  /** Long text (JSON arrays, descriptions, payloads). */
  long(): DataType;
  /** A point in time, to the millisecond. */
  date(): DataType;
  bool(): DataType;
  double(): DataType;
  int(): DataType;
  /** Bytes: a chunk of a stored file, up to 256 KiB. */
  bytes(): DataType;
}

/** What `keys.admit` may build on: the portable steps of `admitInSteps`. */
export type AdmissionSteps = Pick<StorageStores, "keys" | "rateLimits">;

export interface DialectStrategy {
  readonly kind: DialectKind;
  /**
   * Whether a transaction locks rows (Postgres, MySQL/MariaDB: `FOR UPDATE` waits for the rows it
   * reads, several transactions write at once) rather than the whole database (SQLite: `BEGIN
   * IMMEDIATE` holds the one write lock, so rows may be created and read under it at no risk).
   */
  readonly rowLocks: boolean;

  // Values.

  /** A `Date` as the dialect stores it: ISO text, or `YYYY-MM-DD HH:MM:SS.mmm` (UTC) on MySQL. */
  toDb(date: Date): string;
  /** A boolean as the dialect stores it. */
  bool(value: boolean): DbBool;
  /** A date parameter typed as the column is, where an untyped one would not do (in a `CASE`). */
  dateParam(date: Date | null): RawBuilder<unknown>;
  /**
   * `alias.column as name` for each column (`name` is `rename(column)`), dates read back as UTC
   * text on MySQL. Postgres and SQLite get one pre-compiled raw fragment.
   */
  selectColumns(
    alias: string,
    columns: readonly string[],
    dates: ReadonlySet<string>,
    rename?: (column: string) => string,
  ): Selection;

  // Reads and locks.

  /** `FOR UPDATE` (of the table `of` on Postgres); nothing on SQLite, whose transaction holds the write lock. */
  forUpdate<DB, TB extends keyof DB, O>(
    query: SelectQueryBuilder<DB, TB, O>,
    of?: TB & string,
  ): SelectQueryBuilder<DB, TB, O>;
  /** `FOR UPDATE SKIP LOCKED` (of the table `of` on Postgres); nothing on SQLite. */
  forUpdateSkipLocked<DB, TB extends keyof DB, O>(
    query: SelectQueryBuilder<DB, TB, O>,
    of?: TB & string,
  ): SelectQueryBuilder<DB, TB, O>;
  /**
   * A read that sees the latest committed rows even in a caller's `REPEATABLE READ` transaction:
   * a locking read on MySQL/MariaDB; the query unchanged elsewhere (Postgres statements take a
   * fresh snapshot under READ COMMITTED; SQLite writers run one at a time).
   */
  currentRead<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /**
   * The FROM item (or UPDATE target, `alias` null) of `table` read through the index named
   * `index`. MySQL/MariaDB get `FORCE INDEX (…)`: MariaDB otherwise reads a `(company_id, …)` index
   * by its equality prefix only and filters the keyset bound, so a deep page costs as much as all
   * the pages before it; and it walks a whole small table for `UPDATE … WHERE id IN (…)`. Elsewhere
   * the plain `table as alias`, which Kysely parses as usual.
   */
  fromIndex(table: string, alias: string | null, index: string): string | RawBuilder<unknown>;
  /**
   * Whether the text of the column `column` (a reference, `i.response_body`) contains `text`,
   * compared exactly: `strpos` on Postgres, `instr` on MySQL/MariaDB and SQLite (a `LIKE` pattern
   * would need its `_` and `%` escaped, which each dialect spells differently).
   */
  textContains(column: string, text: string): RawBuilder<SqlBool>;

  // Writes.

  /** The insert, skipping rows whose `conflict` columns exist already (`ON CONFLICT DO NOTHING`, `INSERT IGNORE`). */
  insertIgnore<DB, TB extends keyof DB, O>(
    insert: InsertQueryBuilder<DB, TB, O>,
    conflict: readonly string[],
  ): InsertQueryBuilder<DB, TB, O>;
  /** The insert, or on a conflict of `conflict` an update of `set` (`ON CONFLICT DO UPDATE`, `ON DUPLICATE KEY UPDATE`). */
  upsert<DB, TB extends keyof DB, O>(
    insert: InsertQueryBuilder<DB, TB, O>,
    conflict: readonly string[],
    set: Readonly<Record<string, unknown>>,
  ): InsertQueryBuilder<DB, TB, O>;

  // Transactions.

  /**
   * Runs `fn` in a new transaction on `db`: READ COMMITTED on Postgres and MySQL/MariaDB, `BEGIN
   * IMMEDIATE` on SQLite. Committed when `fn` resolves, rolled back when it rejects.
   */
  beginTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T>;

  // The business writes of the contract and the hot paths, each in the dialect's fewest round trips.

  /** `keys.admit` of a store, built on `steps` (its own key store and rate-limit store). */
  keyAdmission(ctx: StoreContext, steps: AdmissionSteps): KeyStore["admit"];
  /** `applications.create`, all or nothing. */
  createApplication(ctx: StoreContext, write: NewApplicationWrite): Promise<CreateApplicationResult>;
  /** `events.append`: the event and its fan-out, all or nothing. */
  appendEvent(ctx: StoreContext, event: EventRecord): Promise<void>;
  /** `rateLimits.consume` of distinct buckets with positive limits. */
  consumeRateLimit(ctx: StoreContext, buckets: readonly RateLimitBucket[], now: Date): Promise<RateLimitResult>;
  /**
   * One write of at most 500 usage entries with their counts in the daily roll-up
   * (`dailyIncrements`), all or nothing (`usage.appendMany`).
   */
  insertUsage(ctx: StoreContext, entries: readonly UsageRecord[]): Promise<void>;
  /**
   * Adds `count` to a per-company counter and returns its new value (the last of the numbers
   * reserved), in one statement; inside a transaction it locks the row until the end. A `count` of
   * 0 locks the counter (made at 0 when missing) and reads it.
   */
  nextSequence(ctx: StoreContext, companyId: string, kind: string, count: number): Promise<number>;
  /**
   * `webhooks.recordAttempts` of a batch that counts no failure and changes no endpoint's status
   * (`recordsInOneStatement`), on hireport's own tables, in one statement; absent where the
   * portable transaction is all there is.
   */
  readonly recordAttempts?: (ctx: StoreContext, items: readonly AttemptToRecord[]) => Promise<RecordAttemptResult[]>;
  /**
   * `webhooks.claimDueDeliveries` for the endpoints neither ordered nor throttled, each claimed
   * delivery with its endpoint and payload, in a statement per round; absent where the portable
   * transaction is all there is.
   */
  readonly claimDeliveries?: (ctx: StoreContext, options: ClaimOptions) => Promise<PlainClaim>;

  // Schema.

  /** The column types of the initial migration. Part of the released schema: change them only with a new migration. */
  readonly columnTypes: ColumnTypes;
  /** What every table gets after its columns (MySQL: InnoDB, utf8mb4, binary collation). */
  tableOptions<T extends string, C extends string>(builder: CreateTableBuilder<T, C>): CreateTableBuilder<T, C>;
  /** Adds the `seq` column: an auto-incremented primary key giving insertion order. */
  sequenceColumn<T extends string, C extends string>(
    builder: CreateTableBuilder<T, C>,
  ): CreateTableBuilder<T, C | "seq">;
  /** `DROP INDEX` of the index `builder` names, which belongs to `table` (MySQL/MariaDB name the table). */
  dropIndexOf(builder: DropIndexBuilder, table: string): DropIndexBuilder;
  /** A dialect that compiles this dialect's SQL without connecting (for `migrationSql`). */
  compileOnly(): Dialect;
  /**
   * Takes the migration lock on the transaction of a migration run, held until it ends: the lock
   * Kysely's `Migrator` of every version in the peer range also takes, so that the two exclude each
   * other. Absent: the run holds the dialect adapter's own migration lock on its connection
   * (`acquireMigrationLock`), which is the same in every version (MySQL's `GET_LOCK`; none on SQLite).
   */
  readonly lockMigrations?: (trx: AnyKysely) => Promise<void>;

  // Routines (stored functions the storage calls; none outside Postgres).

  /** Creates the routines of this version under `prefix` (in `schema`, when not null) where missing. */
  installRoutines(db: AnyKysely, prefix: string, schema: string | null): Promise<void>;
  /** The statements creating (`up`) or dropping (`down`) the routines of this version, for review. */
  routineStatements(prefix: string, direction: "up" | "down", schema: string | null): string[];
}
