/**
 * The storage the HTTP suite runs on: the in-memory storage of `@hireport/core/memory`.
 *
 * This module is the suite's only link to a storage. Other packages run the same suite on their
 * storage by resolving this module to one of their own with the same exports (see
 * packages/kysely/test/core-http, which runs it on SQLite, Postgres and MariaDB). The harness calls
 * `openTestStorage` once per file, `createTestStorage` for every test API, `dispose` after each test
 * (once every API of the test is closed) and `closeTestStorage` after the file's last test.
 */
import type { Storage } from "@hireport/core";
import { memoryStorage } from "@hireport/core/memory";

/**
 * Reads of what is stored, past the storage's own read methods (a raw read of the state or of the
 * database tables), for the counts the HTTP tests check.
 */
export interface StoredCounts {
  /** The stored `applications_count` of a job, or null when the company has no such job. */
  jobApplicationsCount(companyId: string, jobId: string): Promise<number | null>;
  /** Application rows of the company; of one job when `jobId` is given. */
  countApplications(companyId: string, jobId?: string): Promise<number>;
  /** Event (outbox) rows of the company. */
  countEvents(companyId: string): Promise<number>;
  /** Key rows of the company, revoked and expired ones included. */
  countKeys(companyId: string): Promise<number>;
  /** Usage-log rows of the company. */
  countUsage(companyId: string): Promise<number>;
  /** Idempotency rows of the API key, finished or not. */
  countIdempotencyRecords(keyId: string): Promise<number>;
  /** Note rows of the application. */
  countNotes(companyId: string, applicationId: string): Promise<number>;
  /**
   * Where `text` occurs, case-insensitively, in any text of any table of the storage (on a
   * database: every text column of every table its catalog lists): one entry per column holding it.
   */
  findText(text: string): Promise<string[]>;
}

/** One storage for one test API. */
export interface TestStorage {
  storage: Storage;
  inspect: StoredCounts;
  /** Forgets what the test stored; called after the test, when its APIs are closed. */
  dispose(): Promise<void>;
}

/** Prepares the storage for one test file; false when it is unavailable and the file is skipped. */
export async function openTestStorage(): Promise<boolean> {
  return true;
}

/** A storage with nothing in it for the current test. */
export async function createTestStorage(): Promise<TestStorage> {
  const storage = memoryStorage();
  return { storage, inspect: storage.raw, dispose: async () => undefined };
}

/** Releases what `openTestStorage` took (connections, tables) after the file's last test. */
export async function closeTestStorage(): Promise<void> {}
