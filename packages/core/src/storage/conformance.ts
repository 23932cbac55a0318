import type { Storage } from ".";

/**
 * What one run of a conformance suite wrote, for {@link ConformanceInspector.removeRows}: the ids
 * its rows are found by. Every id is one the suite made at random for the run.
 */
export interface ConformanceRows {
  /** The companies the suite made: every row of theirs, in every table, is the suite's. */
  companyIds: readonly string[];
  /**
   * API key ids the suite claimed idempotency keys or wrote usage entries for: its idempotency
   * records (which name a key, not a company, and some of these ids name no stored key) and the
   * usage entries of these keys, one of which has no company.
   */
  keyIds: readonly string[];
  /** The keys of the rate-limit counters the suite counted in (a counter names no company). */
  rateLimitKeys: readonly string[];
}

/**
 * Raw access to the database behind a storage, past the storage's own methods. The suite reads
 * through it to check a write where it matters (a counter column, a cascade, a refused write that
 * must leave no row, personal data an erasure must leave nowhere), and deletes the rows it wrote
 * with {@link removeRows} after its last test (the storage contract deletes next to nothing).
 * Every method is required: the suite refuses to start without all of them rather than pass those
 * checks unchecked, or leave its rows in the database. They run outside any transaction, after the
 * writes they check have settled.
 */
export interface ConformanceInspector {
  /** The stored `applications_count` of a job, or null when the company has no such job row. */
  jobApplicationsCount(companyId: string, jobId: string): Promise<number | null>;
  /** Application rows of the company; of one job when `jobId` is given. */
  countApplications(companyId: string, jobId?: string): Promise<number>;
  /** Event (outbox) rows of the company. */
  countEvents(companyId: string): Promise<number>;
  /** Key rows of the company, revoked and expired ones included. */
  countKeys(companyId: string): Promise<number>;
  /** The stored count of the rate-limit counter with this key, or null when there is no row. */
  rateLimitCount(key: string): Promise<number | null>;
  /** Usage-log rows of the company. */
  countUsage(companyId: string): Promise<number>;
  /** The stored count of the usage roll-up row of a company, UTC day and status class, or null when there is no row. */
  usageDayCount(companyId: string, day: string, statusClass: number): Promise<number | null>;
  /** Idempotency rows of the API key, finished or not. */
  countIdempotencyRecords(keyId: string): Promise<number>;
  /** Delivery rows that reference the endpoint. */
  countDeliveries(endpointId: string): Promise<number>;
  /** Attempt rows that reference the delivery. */
  countAttempts(deliveryId: string): Promise<number>;
  /** Note rows of the application. */
  countNotes(companyId: string, applicationId: string): Promise<number>;
  /**
   * Where `text` occurs, compared case-insensitively, in any text column of any of the storage's
   * tables (every table and column the database's catalog lists, not a hand-kept list): one
   * `table.column` entry for each column holding it, sorted. Empty when it is nowhere.
   */
  findText(text: string): Promise<string[]>;
  /**
   * Deletes every row the suite wrote, and nothing else: called once after the last test of a run
   * (also when tests failed), then checked through the reads above and `companies.get`. MUST delete
   * - every row of the companies of `rows.companyIds`, in every table that names a company: the
   *   company, its reference sequences, keys, jobs, applications with their stage changes and notes,
   *   events, usage entries and their daily counts, audit entries, job-index marks and notices,
   *   webhook endpoints and deliveries, the attempts of those deliveries, and the rows of a host's
   *   own tables that a domain store keeps for these companies;
   * - the idempotency records and the usage entries of the API key ids of `rows.keyIds`;
   * - the rate-limit counters whose key is one of `rows.rateLimitKeys`.
   * Ids without rows are not an error. It must not touch any other row: the database may hold a
   * host's data.
   */
  removeRows(rows: ConformanceRows): Promise<void>;
}

/** What `setup` hands to the suite: the storage under test and how to clean up. */
export interface ConformanceInstance {
  storage: Storage;
  /**
   * Raw reads of the same database, past `storage`, and the delete of the suite's own rows; see
   * {@link ConformanceInspector}. Required: the suite checks counters, cascades and the erasure of
   * personal data with them, and removes what it wrote with `removeRows`; it fails before its
   * first test when any of them is missing.
   */
  inspect: ConformanceInspector;
  /** Called once after the last test, after `removeRows` (close pools, drop a temporary database). */
  teardown(): Promise<void>;
}

/** A storage implementation to check with {@link runStorageConformance}. */
export interface ConformanceTarget {
  /** Shown in the name of the outer `describe` block. */
  name: string;
  /**
   * Called once before the first test (in `beforeAll`, 60 s timeout). The database must be
   * migrated; it may hold other data, and the rows of earlier runs of the suite. Every test makes
   * its own companies with random ids and checks only its own rows; after the last test the suite
   * deletes what it wrote (`inspect.removeRows`) and checks that it is gone.
   *
   * The methods without a company (the purges, `jobIndex.sweep` and `pending`, the retention
   * list) see the whole database: the suite calls them only with times before `FAR_PAST_END`
   * (1 January 2000), where its own rows are and a host's never are. So they delete events, usage
   * entries and daily counts, audit entries, rate-limit counters and idempotency records of any
   * company dated before 2000, and mark for indexing the jobs whose public notice closed before
   * 2000: do not run the suite on a database whose real data goes back that far, and let nothing
   * else write rows dated before 2000 while it runs.
   * The tests store times from 1980 to 2037 with milliseconds (on MySQL use `DATETIME(3)`).
   */
  setup(): Promise<ConformanceInstance>;
}
