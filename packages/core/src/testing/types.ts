import type { Storage } from "../storage";

/**
 * Raw reads of the database behind a storage, past the storage's own read methods. The suite uses
 * them to check a write where it matters (a counter column, a cascade, a refused write that must
 * leave no row, personal data an erasure must leave nowhere). Every read is required: the suite
 * refuses to start without all of them rather than pass those checks unchecked. They run outside
 * any transaction, after the writes they check have settled.
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
}

/** What `setup` hands to the suite: the storage under test and how to clean up. */
export interface ConformanceInstance {
  storage: Storage;
  /**
   * Raw reads of the same database, past `storage`; see {@link ConformanceInspector}. Required: the
   * suite checks counters, cascades and the erasure of personal data with them, and fails before
   * its first test when they are missing.
   */
  inspect: ConformanceInspector;
  /** Called once after the last test (close pools, drop a temporary database). */
  teardown(): Promise<void>;
}

/** A storage implementation to check with {@link runStorageConformance}. */
export interface ConformanceTarget {
  /** Shown in the name of the outer `describe` block. */
  name: string;
  /**
   * Called once before the first test (in `beforeAll`, 60 s timeout). The database must be
   * migrated; it may hold other data: every test makes its own companies with random ids. The
   * methods without a company (`claimDueDeliveries`, the purge methods) see the whole database, so
   * nothing else may dispatch webhooks from it while the suite runs.
   * The tests store times from 1985 to 2037 with milliseconds (on MySQL use `DATETIME(3)`).
   */
  setup(): Promise<ConformanceInstance>;
}
