/**
 * The storage of core's HTTP suite (packages/core/test/http) on a real database through
 * @hireport/kysely. The `core-http:<dialect>` projects resolve core's `test/http/storage.ts` to one
 * of the small entry modules beside this file, which export what `kyselyTestStorage` returns: the
 * same functions, with the same meaning.
 *
 * One database per test file: a random table prefix, migrated once in `openTestStorage`, dropped in
 * `closeTestStorage`, so files running in parallel never meet. Between tests `dispose` deletes every
 * row (the harness calls it once the test's APIs are closed), so each test starts empty, as it does
 * on the memory storage. Whether the dialect runs is decided by `connectOrSkip` (skipped with a loud
 * warning locally, a failure in CI).
 */

import type * as CoreTestStorage from "../../../core/test/http/storage";
import type { StoredCounts } from "../../../core/test/http/storage";
import { kyselyFileStore, TABLE_NAMES } from "../../src/index";
import { kyselyConformanceInspector } from "../../src/testing";
import { kyselyWebhookStorage } from "../../src/webhooks";
import { type AnyDb, openTestDatabase, type TestDatabase, type TestDialect } from "../helpers/databases";
import { countFileRows, countOrphanChunks, leaveOrphanChunk } from "../helpers/file-rows";

/** The process time zone of the dialect runs: far from UTC, with daylight saving time. */
const TEST_TIME_ZONE = "America/New_York";

/** The exports of core's `test/http/storage.ts`, which an entry module replaces. */
export type TestStorageModule = typeof CoreTestStorage;

function required<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`kyselyConformanceInspector() has no ${name}`);
  return value;
}

/** The counts the HTTP tests read, as raw SQL on the tables of `prefix`. */
function storedCounts(db: AnyDb, prefix: string): StoredCounts {
  const raw = kyselyConformanceInspector({ db, tablePrefix: prefix });
  return {
    jobApplicationsCount: required(raw.jobApplicationsCount, "jobApplicationsCount"),
    countApplications: required(raw.countApplications, "countApplications"),
    countEvents: required(raw.countEvents, "countEvents"),
    countKeys: required(raw.countKeys, "countKeys"),
    countUsage: required(raw.countUsage, "countUsage"),
    countIdempotencyRecords: required(raw.countIdempotencyRecords, "countIdempotencyRecords"),
    countNotes: required(raw.countNotes, "countNotes"),
    findText: required(raw.findText, "findText"),
  };
}

export function kyselyTestStorage(dialect: TestDialect): TestStorageModule {
  let opened: TestDatabase | null = null;

  const database = (): TestDatabase => {
    if (!opened) throw new Error(`The ${dialect} test database is not open: openTestStorage() runs first.`);
    return opened;
  };

  return {
    async openTestStorage() {
      process.env.TZ = TEST_TIME_ZONE;
      opened = await openTestDatabase(dialect, { asyncCommit: true });
      if (!opened) return false;
      await opened.migrate();
      return true;
    },

    async createTestStorage() {
      const { db: open, prefix } = database();
      return {
        storage: kyselyWebhookStorage({ db: open, tablePrefix: prefix }),
        inspect: storedCounts(open, prefix),
        async dispose() {
          // One transaction: one commit to wait for, not one per table.
          await open.transaction().execute(async (trx) => {
            for (const name of TABLE_NAMES) await trx.deleteFrom(`${prefix}${name}`).execute();
          });
        },
      };
    },

    testFileStores() {
      return {
        // The file store in the same database; the rows go with every row after the test.
        kysely: async (clock) => {
          const { db: open, prefix } = database();
          return {
            fileStore: kyselyFileStore({ db: open, tablePrefix: prefix, clock }),
            countStored: async () => (await countFileRows(open, prefix)) + (await countOrphanChunks(open, prefix)),
            leaveUnfinished: (startedAt) => leaveOrphanChunk(open, prefix, startedAt),
            dispose: async () => undefined,
          };
        },
      };
    },

    async closeTestStorage() {
      const open = opened;
      opened = null;
      await open?.drop();
    },
  };
}
