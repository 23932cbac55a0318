/**
 * `kyselyFileStore` against the file-store conformance suite of `@hireport/core/testing`, on SQLite,
 * Postgres and MariaDB, each with its own random table prefix; plus what is particular to rows of
 * chunks: 256 KiB rows, checked through raw reads, and the purges of chunks a killed upload left.
 */
import { newId } from "@hireport/core/storage";
import { runFileStoreConformance } from "@hireport/core/testing";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { FILE_CHUNK_BYTES, kyselyFileStore } from "../src/index";
import { openTestDatabase, type TestDialect } from "./helpers/databases";
import { countFileRows, countOrphanChunks, leaveOrphanChunk } from "./helpers/file-rows";

const DIALECTS: TestDialect[] = ["sqlite", "postgres", "mysql"];

for (const dialect of DIALECTS) {
  const opened = await openTestDatabase(dialect);
  if (!opened) continue;
  const { db, prefix } = opened;
  await opened.migrate();
  const chunks = `${prefix}file_chunk`;
  /** Files of the company, plus chunk rows no file names (what a failed or killed put would leave). */
  const countStored = async (companyId: string) =>
    (await countFileRows(db, prefix, companyId)) + (await countOrphanChunks(db, prefix));
  const store = kyselyFileStore({ db, tablePrefix: prefix });

  runFileStoreConformance({
    name: `kyselyFileStore on ${dialect}`,
    async setup() {
      return {
        fileStore: store,
        countStored,
        leaveUnfinished: (startedAt) => leaveOrphanChunk(db, prefix, startedAt),
        teardown: async () => undefined,
      };
    },
  });

  describe(`kyselyFileStore on ${dialect}: chunk rows`, () => {
    afterAll(() => opened.drop());

    it("keeps the bytes in rows of 256 KiB, and delete removes them all", async () => {
      const companyId = newId("co");
      const bytes = new Uint8Array(FILE_CHUNK_BYTES * 2 + 10).map((_, i) => i % 251);
      const put = await store.put({ companyId, filename: "cv.pdf", contentType: "application/pdf", body: bytes });
      const rows = await db
        .selectFrom(chunks)
        .select(["seq", sql<number>`${sql.raw(dialect === "postgres" ? "octet_length" : "length")}(data)`.as("size")])
        .where("file_id", "=", put.id)
        .orderBy("seq")
        .execute();
      expect(rows.map((row) => [Number(row.seq), Number(row.size)])).toEqual([
        [0, FILE_CHUNK_BYTES],
        [1, FILE_CHUNK_BYTES],
        [2, 10],
      ]);
      expect(await store.delete(companyId, put.id)).toBe(true);
      const left = await db.selectFrom(chunks).select("seq").where("file_id", "=", put.id).execute();
      expect(left).toEqual([]);
    });

    it("purgeOrphanChunks removes the chunks of an upload that never finished, and nothing else", async () => {
      const companyId = newId("co");
      const kept = await store.put({
        companyId,
        filename: "a.txt",
        contentType: "text/plain",
        body: new Uint8Array(5),
      });
      await db
        .insertInto(chunks)
        .values({ file_id: newId("fil"), seq: 0, data: new Uint8Array([1, 2, 3]) })
        .execute();
      expect(await store.purgeOrphanChunks()).toBe(1);
      expect(await store.purgeOrphanChunks()).toBe(0);
      const got = await store.get(companyId, kept.id);
      expect(new Uint8Array(await new Response(got?.body).arrayBuffer())).toEqual(new Uint8Array(5));
      await store.delete(companyId, kept.id);
    });
  });
}
