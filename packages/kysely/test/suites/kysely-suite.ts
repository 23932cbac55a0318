/**
 * The tests of @hireport/kysely on one dialect: the conformance suites of @hireport/core and of the
 * webhook store (@hireport/webhooks), then this
 * package's own tests (schema and routines, raw-SQL checks of what is stored, keyset paging and
 * statement counts, transactions and races with several connections and two OS processes, webhook
 * claims beside outbox writes, query plans, and the v1 API through `api.handle()`).
 */

import { runStorageConformance } from "@hireport/core/testing";
import type { WebhookStorage } from "@hireport/webhooks";
import { runWebhookStoreConformance } from "@hireport/webhooks/testing";
import type { CompiledQuery } from "kysely";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { kyselyStorage, migrateToLatest } from "../../src/index";
import { kyselyConformanceInspector } from "../../src/testing";
import { kyselyWebhookStorage } from "../../src/webhooks";
import {
  type AnyDb,
  createDb,
  dropTables,
  openTestDatabase,
  randomPrefix,
  type TestDialect,
} from "../helpers/databases";
import { defineHttpTests } from "./http-suite";
import { definePagingTests } from "./paging-tests";
import { definePlanTests } from "./plan-tests";
import { defineRaceTests } from "./race-tests";
import { defineRoundTripTests } from "./round-trip-tests";
import { defineSchemaTests } from "./schema-tests";
import type { SuiteContext } from "./suite-context";
import { defineTransactionTests } from "./transaction-tests";
import { defineWebhookTests } from "./webhook-tests";

/** The process time zone of every dialect test: far from UTC, with daylight saving time. */
export const TEST_TIME_ZONE = "America/New_York";

export async function defineKyselySuite(dialect: TestDialect): Promise<void> {
  process.env.TZ = TEST_TIME_ZONE;
  const queries: CompiledQuery[] = [];
  const opened = await openTestDatabase(dialect, { onQuery: (event) => queries.push(event.query) });
  // Skipped suites are still collected: their bodies must not need the database.
  const db = opened?.db ?? null;
  const prefix = opened?.prefix ?? "";
  const sqliteFile = opened?.sqliteFile ?? "";

  describe.skipIf(!db)(`@hireport/core conformance on ${dialect}`, () => {
    // Its own tables: the suite's claims and purges see the whole database.
    const conformancePrefix = randomPrefix();
    runStorageConformance({
      name: `kysely on ${dialect}`,
      async setup() {
        const conformanceDb = db as AnyDb;
        const result = await migrateToLatest(conformanceDb, { tablePrefix: conformancePrefix });
        if (result.error) throw result.error;
        return {
          storage: kyselyStorage({ db: conformanceDb, tablePrefix: conformancePrefix }),
          inspect: kyselyConformanceInspector({ db: conformanceDb, tablePrefix: conformancePrefix }),
          teardown: () => dropTables(conformanceDb, conformancePrefix),
        };
      },
    });
    const webhookPrefix = randomPrefix();
    runWebhookStoreConformance({
      name: `kysely on ${dialect}`,
      async setup() {
        const conformanceDb = db as AnyDb;
        const result = await migrateToLatest(conformanceDb, { tablePrefix: webhookPrefix });
        if (result.error) throw result.error;
        return {
          storage: kyselyWebhookStorage({ db: conformanceDb, tablePrefix: webhookPrefix }),
          inspect: kyselyConformanceInspector({ db: conformanceDb, tablePrefix: webhookPrefix }),
          teardown: () => dropTables(conformanceDb, webhookPrefix),
        };
      },
    });
  });

  describe.skipIf(!db)(`@hireport/kysely on ${dialect}`, () => {
    const suite: SuiteContext = {
      dialect,
      prefix,
      sqliteFile,
      queries,
      database: db as AnyDb,
      // None when the suite is skipped (no database): its tests never run.
      storage: db ? kyselyWebhookStorage({ db, tablePrefix: prefix }) : (undefined as unknown as WebhookStorage),
      racers: [],
      extra: [],
      racer: (i) => suite.racers[i % suite.racers.length] as WebhookStorage,
      t: (name) => `${prefix}${name}`,
      async countQueries(fn) {
        const start = queries.length;
        await fn();
        return queries.slice(start);
      },
    };

    beforeAll(async () => {
      const result = await migrateToLatest(suite.database, { tablePrefix: prefix });
      expect(result.error).toBeUndefined();
      if (dialect === "sqlite") {
        suite.racers = [suite.storage, suite.storage, suite.storage];
      } else {
        for (let i = 0; i < 3; i += 1) suite.extra.push(await createDb(dialect, { sqliteFile, poolSize: 8 }));
        suite.racers = suite.extra.map((other) => kyselyWebhookStorage({ db: other, tablePrefix: prefix }));
      }
    });

    afterAll(async () => {
      for (const other of suite.extra) await other.destroy();
      await opened?.drop();
    });

    defineSchemaTests(suite);
    defineRoundTripTests(suite);
    definePagingTests(suite);
    defineTransactionTests(suite);
    defineRaceTests(suite);
    defineHttpTests({ db: () => suite.database, others: () => suite.extra, prefix });
    definePlanTests({
      dialect,
      db: () => suite.database,
      storage: () => suite.storage,
      prefix,
      lastQuery: () => queries.at(-1),
      queries: () => queries,
    });
    defineWebhookTests(suite);
  });
}
