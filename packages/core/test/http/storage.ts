/**
 * The storage the HTTP suite runs on: the in-memory storage of `@hireport/core/memory`, with the
 * webhook store of `@hireport/webhooks/memory` (a test-only link: the privacy test records webhook
 * attempts).
 *
 * This module is the suite's only link to a storage. Other packages run the same suite on their
 * storage by resolving this module to one of their own with the same exports (see
 * packages/kysely/test/core-http, which runs it on SQLite, Postgres and MariaDB). The harness calls
 * `openTestStorage` once per file, `createTestStorage` for every test API, `dispose` after each test
 * (once every API of the test is closed) and `closeTestStorage` after the file's last test.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Clock, FileStore } from "@hireport/core";
import { memoryFileStore } from "@hireport/core/memory";
import { diskFileStore } from "@hireport/core/node";
import { newId } from "@hireport/core/storage";
import type { WebhookStorage } from "@hireport/webhooks";
import { memoryWebhookStorage } from "@hireport/webhooks/memory";

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
  /** With the webhook store of `@hireport/webhooks`: the privacy test records webhook attempts. */
  storage: WebhookStorage;
  inspect: StoredCounts;
  /** Forgets what the test stored; called after the test, when its APIs are closed. */
  dispose(): Promise<void>;
}

/** A file store for one test, made with the test's clock, and reads past its own methods. */
export interface FileStoreUnderTest {
  fileStore: FileStore;
  /** Files plus what unfinished uploads left, counted past the store (rows, files on disk); null when it has no such read. */
  countStored: (() => Promise<number>) | null;
  /** Leaves what a `put` killed part way, started at `startedAt`, would leave; null for a store whose `put` leaves nothing. */
  leaveUnfinished: ((startedAt: Date) => Promise<void>) | null;
  /** Removes what the store holds; called at the end of the test. */
  dispose(): Promise<void>;
}

/**
 * The file stores the HTTP suite runs beside this storage, by name: here the memory store and a
 * folder on disk; a database package gives its own (its store in the same database).
 */
export function testFileStores(): Record<string, (clock: Clock) => Promise<FileStoreUnderTest>> {
  return {
    memory: async (clock) => ({
      fileStore: memoryFileStore({ clock }),
      countStored: null,
      leaveUnfinished: null,
      dispose: async () => undefined,
    }),
    disk: async (clock) => {
      const directory = await mkdtemp(join(tmpdir(), "hireport-http-files-"));
      const store = diskFileStore({ directory, clock });
      return {
        fileStore: store,
        async countStored() {
          let count = 0;
          for (const folder of await readdir(directory)) count += (await readdir(join(directory, folder))).length;
          return count;
        },
        async leaveUnfinished(startedAt) {
          await mkdir(join(directory, ".tmp"), { recursive: true });
          await writeFile(join(directory, ".tmp", `${newId("fil", startedAt)}.0123456789ab`), "%PDF-1.7 half a CV");
        },
        dispose: () => rm(directory, { recursive: true, force: true }),
      };
    },
  };
}

/** Prepares the storage for one test file; false when it is unavailable and the file is skipped. */
export async function openTestStorage(): Promise<boolean> {
  return true;
}

/** A storage with nothing in it for the current test. */
export async function createTestStorage(): Promise<TestStorage> {
  const storage = memoryWebhookStorage();
  return { storage, inspect: storage.raw, dispose: async () => undefined };
}

/** Releases what `openTestStorage` took (connections, tables) after the file's last test. */
export async function closeTestStorage(): Promise<void> {}
