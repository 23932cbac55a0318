/**
 * The conformance suites as a host runs them: on a database that already holds its data and the
 * suites' earlier runs. Storage, webhook store and file store suites run twice in a row on one table
 * prefix seeded with another company's rows (`seedHostData`); afterwards every row of every hireport
 * table is as it was before the first run: the host's rows untouched, none of the suites' left.
 * SQLite, and Postgres (the suites' whole-database reads and deletes take other paths there).
 * Regression: a run left a few hundred companies with their rows behind, a second run failed on
 * the retention list, and two tests changed a host's rows (a job-index sweep at the present time
 * marked its jobs again, a claim an hour ahead leased its due deliveries).
 */
import { runFileStoreConformance, runStorageConformance } from "@hireport/core/testing";
import { runWebhookStoreConformance } from "@hireport/webhooks/testing";
import { afterAll, describe, expect, it } from "vitest";
import { kyselyFileStore, kyselyStorage } from "../src/index";
import { kyselyConformanceInspector } from "../src/testing";
import { kyselyWebhookStorage } from "../src/webhooks";
import { openTestDatabase, type TestDialect } from "./helpers/databases";
import { countFileRows, countOrphanChunks, leaveOrphanChunk } from "./helpers/file-rows";
import { rowCounts, seedHostData, snapshotTables } from "./helpers/host-data";

const DIALECTS: TestDialect[] = ["sqlite", "postgres"];

for (const dialect of DIALECTS) {
  const opened = await openTestDatabase(dialect);
  if (!opened) continue;
  const { db, prefix } = opened;
  await opened.migrate();
  const files = kyselyFileStore({ db, tablePrefix: prefix });
  const host = await seedHostData(kyselyWebhookStorage({ db, tablePrefix: prefix }), files);
  const before = await snapshotTables(db, prefix);
  const keep = async () => undefined;

  for (const run of [1, 2]) {
    const name = `kysely on ${dialect} with a host's data, run ${run}`;
    runStorageConformance({
      name,
      setup: async () => ({
        storage: kyselyStorage({ db, tablePrefix: prefix }),
        inspect: kyselyConformanceInspector({ db: db, tablePrefix: prefix }),
        teardown: keep,
      }),
    });
    runWebhookStoreConformance({
      name,
      setup: async () => ({
        storage: kyselyWebhookStorage({ db, tablePrefix: prefix }),
        inspect: kyselyConformanceInspector({ db: db, tablePrefix: prefix }),
        teardown: keep,
      }),
    });
    runFileStoreConformance({
      name,
      setup: async () => ({
        fileStore: files,
        countStored: async (companyId) =>
          (await countFileRows(db, prefix, companyId)) + (await countOrphanChunks(db, prefix)),
        leaveUnfinished: (startedAt) => leaveOrphanChunk(db, prefix, startedAt),
        teardown: keep,
      }),
    });
  }

  describe(`conformance suites on ${dialect}, twice on a database with a host's data`, () => {
    afterAll(() => opened.drop());

    it("left every row of the host as it was", async () => {
      const after = await snapshotTables(db, prefix);
      const changedOrGone = Object.fromEntries(
        Object.entries(before).map(([table, rows]) => [table, rows.filter((row) => !after[table]?.includes(row))]),
      );
      expect(changedOrGone).toEqual(Object.fromEntries(Object.keys(before).map((table) => [table, []])));
      expect((await files.get(host.companyId, host.file.id))?.info).toEqual(host.file);
    });

    it("left no row of their own in any table", async () => {
      const after = await snapshotTables(db, prefix);
      expect(rowCounts(after)).toEqual(rowCounts(before));
      expect(after).toEqual(before);
    });
  });
}
