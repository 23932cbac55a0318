/**
 * The file-store conformance suite: every MUST rule of `FileStore` (`storage/files.ts`) checked
 * against an implementation, through its own methods and a raw count of what it holds.
 *
 * ```ts
 * import { runFileStoreConformance } from "@hireport/core/testing";
 * runFileStoreConformance({
 *   name: "kysely on Postgres",
 *   async setup() {
 *     const db = createDb();
 *     await migrateToLatest(db);
 *     return {
 *       fileStore: kyselyFileStore({ db }),
 *       // The company's file rows, and the chunk rows no file row names.
 *       countStored: (companyId) => countStoredRows(db, companyId),
 *       teardown: () => db.destroy(),
 *     };
 *   },
 * });
 * ```
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileStore, StoredFileInfo } from "../storage";
import { newId } from "./fixtures";

export interface FileStoreConformanceInstance {
  fileStore: FileStore;
  /**
   * What the store holds of a company, counted past its own methods (rows, files in a folder,
   * objects under a key prefix), plus every piece an unfinished `put` of any company left (a
   * temporary file, chunk rows no file names: they name no company). The suite counts a company
   * of its own before and after a `put` that fails, and a company with no file, to see that a
   * failed `put` leaves nothing behind. Required: the suite fails before its first test without it,
   * rather than pass those checks without checking anything. For a store that keeps nothing but
   * complete files (as in memory), its complete files of the company.
   */
  countStored(companyId: string): Promise<number>;
  /**
   * Leaves what a process killed in the middle of a `put` that started at `startedAt` would leave
   * (a temporary file, chunk rows no file names), written past the store's own methods; `countStored`
   * must count it for every company. Left out (a store whose `put` leaves nothing, as in memory):
   * the check of `purgeUnfinished` on such leftovers is skipped.
   */
  leaveUnfinished?(startedAt: Date): Promise<void>;
  /** Called once after the last test. */
  teardown(): Promise<void>;
}

export interface FileStoreConformanceTarget {
  /** Shown in the name of the outer `describe` block. */
  name: string;
  /**
   * Called once before the first test (60 s timeout). The store may hold other files: each test
   * uses companies with random ids, reads only its own files, and deletes them; after the last test
   * the suite deletes, through `delete`, every file it made that is still there.
   *
   * What it cannot keep to its own: `purgeUnfinished` is called with times up to the present (the
   * store stamps a `put` with its own clock), so it removes what unfinished uploads of every company
   * left, uploads under way included, and the counts of unfinished pieces cover the whole store.
   * Nothing else may upload to the store while the suite runs: point it at a store (a table
   * prefix, a folder, a bucket) that no live application writes to meanwhile.
   */
  setup(): Promise<FileStoreConformanceInstance>;
}

const WHY_COUNT =
  "The file-store conformance suite counts what the store holds past its own methods to see that a " +
  "failed or cut-off put leaves nothing behind; without that count those checks would pass without " +
  "checking anything. Return `countStored(companyId)` from setup() next to `fileStore` and `teardown`.";

const KIB = 1024;
const MIB = 1024 * KIB;

/** Bytes whose every value depends on its position and a seed: a shifted or dropped byte shows. */
function pattern(length: number, seed = 0): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + seed + (i >> 8)) % 256;
  return bytes;
}

/** `bytes` as a stream of chunks of the given sizes, cycling, produced as it is read. */
function chunked(bytes: Uint8Array, sizes: readonly number[]): ReadableStream<Uint8Array> {
  let offset = 0;
  let turn = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) {
        controller.close();
        return;
      }
      const size = sizes[turn++ % sizes.length] ?? 1;
      const end = Math.min(bytes.byteLength, offset + size);
      controller.enqueue(bytes.slice(offset, end));
      offset = end;
    },
  });
}

/** A stream that gives `before` bytes, then errors. */
function failing(before: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= before) {
        controller.error(new Error("the upload broke off"));
        return;
      }
      const size = Math.min(64 * KIB, before - sent);
      controller.enqueue(pattern(size, sent));
      sent += size;
    },
  });
}

/**
 * `bytes` as a stream that stops after `pauseAfter` bytes until `resume()` is called: an upload
 * under way. Nothing is read ahead (a high-water mark of 0), so `started` settles only when the
 * store has taken every byte before the pause and asks for more.
 */
function paused(
  bytes: Uint8Array,
  pauseAfter: number,
): { body: ReadableStream<Uint8Array>; started: Promise<void>; resume(): void } {
  let resume: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    resume = resolve;
  });
  let reached: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    reached = resolve;
  });
  let offset = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (offset === pauseAfter) {
          reached();
          await gate;
        }
        if (offset >= bytes.byteLength) {
          controller.close();
          return;
        }
        const end = Math.min(bytes.byteLength, offset < pauseAfter ? pauseAfter : bytes.byteLength, offset + 64 * KIB);
        controller.enqueue(bytes.slice(offset, end));
        offset = end;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, started, resume: () => resume() };
}

/** Waits `ms` milliseconds, so that the next write has a later time. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether `a` comes strictly before `b`, oldest first: `createdAt`, then `id` in code-unit order. */
function comesBefore(a: StoredFileInfo, b: StoredFileInfo): boolean {
  const diff = a.createdAt.getTime() - b.createdAt.getTime();
  return diff < 0 || (diff === 0 && a.id < b.id);
}

/**
 * Every page of `listCreatedBefore` with `limit` from the position `from` on, checked as it comes:
 * the range, in order.
 */
async function everyPage(
  store: FileStore,
  createdBefore: Date,
  limit: number,
  from: { createdAt: Date; id: string },
): Promise<StoredFileInfo[]> {
  const all: StoredFileInfo[] = [];
  let after = from;
  for (let pages = 0; pages < 10_000; pages++) {
    const page = await store.listCreatedBefore({ createdBefore, limit, after });
    expect(page.length).toBeLessThanOrEqual(limit);
    const last = page.at(-1);
    if (!last) return all;
    for (const info of page) {
      expect(info.createdAt.getTime()).toBeLessThan(createdBefore.getTime());
      const previous = all.at(-1) ?? { ...from, companyId: "", filename: "", contentType: "", size: 0 };
      expect(comesBefore(previous, info), `${previous.id} then ${info.id}`).toBe(true);
      all.push(info);
    }
    after = { createdAt: last.createdAt, id: last.id };
  }
  throw new Error("listCreatedBefore never ran out of pages.");
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Registers the file-store conformance suite (vitest `describe`/`it` inside). Throws a TypeError
 * before the first test when the target's `setup` returns no `countStored`.
 */
export function runFileStoreConformance(target: FileStoreConformanceTarget): void {
  describe(`file store conformance: ${target.name}`, () => {
    let instance: FileStoreConformanceInstance | null = null;
    /** Every file a test stored, to delete after the last test whatever a failed test left. */
    const made: StoredFileInfo[] = [];
    const store = (): FileStore => {
      if (!instance) throw new Error("The file store target's setup() did not run or failed.");
      const fileStore = instance.fileStore;
      return {
        put: async (file) => {
          const info = await fileStore.put(file);
          made.push(info);
          return info;
        },
        get: (companyId, id) => fileStore.get(companyId, id),
        delete: (companyId, id) => fileStore.delete(companyId, id),
        listCreatedBefore: (query) => fileStore.listCreatedBefore(query),
        purgeUnfinished: (startedBefore) => fileStore.purgeUnfinished(startedBefore),
      };
    };
    const countStored = (companyId: string): Promise<number> => {
      if (!instance) throw new Error("The file store target's setup() did not run or failed.");
      return instance.countStored(companyId);
    };
    /** What unfinished puts of every company left: the count of a company that has no file. */
    const unfinished = () => countStored(newId("co"));
    /** The complete files of a company, counted past the store: its count less the unfinished pieces. */
    const filesOf = async (companyId: string) => (await countStored(companyId)) - (await unfinished());
    beforeAll(async () => {
      instance = await target.setup();
      if (typeof (instance as Partial<FileStoreConformanceInstance>).countStored !== "function") {
        throw new TypeError(
          `File store conformance "${target.name}": setup() returned no \`countStored\`. ${WHY_COUNT}`,
        );
      }
    }, 60_000);
    afterAll(async () => {
      try {
        const fileStore = instance?.fileStore;
        if (fileStore) for (const info of made) await fileStore.delete(info.companyId, info.id);
      } finally {
        await instance?.teardown();
      }
    }, 60_000);

    it("put keeps the bytes, the name and the type; get gives them back with the same info", async () => {
      const companyId = newId("co");
      const bytes = pattern(256 * 3 + 5);
      const put = await store().put({
        companyId,
        filename: "Lebenslauf Zoë Ünal – 履歴書 🚀.pdf",
        contentType: "application/pdf",
        body: bytes,
      });
      expect(put).toMatchObject({
        companyId,
        filename: "Lebenslauf Zoë Ünal – 履歴書 🚀.pdf",
        contentType: "application/pdf",
        size: bytes.byteLength,
      });
      expect(put.id).toMatch(/^fil_/);
      expect(put.createdAt).toBeInstanceOf(Date);
      const got = await store().get(companyId, put.id);
      expect(got?.info).toEqual(put);
      expect(same(await readAll(got?.body as ReadableStream<Uint8Array>), bytes)).toBe(true);
      expect(await filesOf(companyId)).toBe(1);
      await store().delete(companyId, put.id);
    });

    it("put reads a stream to its end: 10 MiB in uneven chunks comes back byte for byte", async () => {
      const companyId = newId("co");
      const bytes = pattern(10 * MIB + 3, 7);
      const put = await store().put({
        companyId,
        filename: "cv.docx",
        contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        body: chunked(bytes, [1, 7 * KIB, 300 * KIB, 64 * KIB + 1, 2 * MIB]),
      });
      expect(put.size).toBe(bytes.byteLength);
      const got = await store().get(companyId, put.id);
      expect(got?.info.size).toBe(bytes.byteLength);
      expect(same(await readAll(got?.body as ReadableStream<Uint8Array>), bytes)).toBe(true);
      expect(await store().delete(companyId, put.id)).toBe(true);
    });

    it("an empty file round-trips", async () => {
      const companyId = newId("co");
      const put = await store().put({
        companyId,
        filename: "empty.txt",
        contentType: "text/plain",
        body: chunked(new Uint8Array(0), [1]),
      });
      expect(put.size).toBe(0);
      const got = await store().get(companyId, put.id);
      expect((await readAll(got?.body as ReadableStream<Uint8Array>)).byteLength).toBe(0);
      await store().delete(companyId, put.id);
    });

    it("a file of another company is not found, not deleted, and stays", async () => {
      const companyId = newId("co");
      const other = newId("co");
      const put = await store().put({ companyId, filename: "a.txt", contentType: "text/plain", body: pattern(10) });
      expect(await store().get(other, put.id)).toBeNull();
      expect(await store().delete(other, put.id)).toBe(false);
      expect((await store().get(companyId, put.id))?.info).toEqual(put);
      expect(await store().get(companyId, newId("fil"))).toBeNull();
      await store().delete(companyId, put.id);
    });

    it("delete answers true once, also when called concurrently, and the file is gone", async () => {
      const companyId = newId("co");
      const put = await store().put({
        companyId,
        filename: "b.txt",
        contentType: "text/plain",
        body: pattern(2 * MIB),
      });
      const results = await Promise.all(Array.from({ length: 4 }, () => store().delete(companyId, put.id)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store().delete(companyId, put.id)).toBe(false);
      expect(await store().get(companyId, put.id)).toBeNull();
      expect(await filesOf(companyId)).toBe(0);
    });

    it("a stream that errors part way makes put reject and leaves nothing behind", async () => {
      const companyId = newId("co");
      // Pieces other puts left (of any company) stay as they are: only this put's must not add any.
      const before = await unfinished();
      await expect(
        store().put({ companyId, filename: "broken.pdf", contentType: "application/pdf", body: failing(MIB + 17) }),
      ).rejects.toThrow();
      expect(await countStored(companyId)).toBe(before);
      expect(await unfinished()).toBe(before);
    });

    it("files put at once get distinct ids and keep their own bytes", async () => {
      const companyId = newId("co");
      const puts: StoredFileInfo[] = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          store().put({
            companyId,
            filename: `cv-${i}.pdf`,
            contentType: "application/pdf",
            body: chunked(pattern(300 * KIB + i, i), [64 * KIB]),
          }),
        ),
      );
      expect(new Set(puts.map((put) => put.id)).size).toBe(12);
      for (const [i, put] of puts.entries()) {
        const got = await store().get(companyId, put.id);
        expect(got?.info.filename).toBe(`cv-${i}.pdf`);
        expect(same(await readAll(got?.body as ReadableStream<Uint8Array>), pattern(300 * KIB + i, i))).toBe(true);
      }
      expect(await filesOf(companyId)).toBe(12);
      for (const put of puts) await store().delete(companyId, put.id);
      expect(await filesOf(companyId)).toBe(0);
    });

    it("a reader that cancels part way releases what it held: many abandoned reads, then a whole one", async () => {
      const companyId = newId("co");
      const bytes = pattern(3 * MIB + 1, 3);
      const put = await store().put({ companyId, filename: "c.pdf", contentType: "application/pdf", body: bytes });
      for (let i = 0; i < 25; i++) {
        const got = await store().get(companyId, put.id);
        const reader = got?.body.getReader();
        await reader?.read();
        await reader?.cancel();
      }
      const got = await store().get(companyId, put.id);
      expect(same(await readAll(got?.body as ReadableStream<Uint8Array>), bytes)).toBe(true);
      expect(await store().delete(companyId, put.id)).toBe(true);
    }, 30_000);

    it("listCreatedBefore pages through the complete files of every company made before the time, oldest first, each once", async () => {
      const companyA = newId("co");
      const companyB = newId("co");
      const mine = new Set([companyA, companyB]);
      const puts: StoredFileInfo[] = [];
      for (const [i, companyId] of [companyA, companyB, companyA, companyB, companyA].entries()) {
        if (i > 0) await pause(5);
        puts.push(
          await store().put({ companyId, filename: `cv-${i}.txt`, contentType: "text/plain", body: pattern(i) }),
        );
      }
      const [a1, b1, a2, b2, a3] = puts as [
        StoredFileInfo,
        StoredFileInfo,
        StoredFileInfo,
        StoredFileInfo,
        StoredFileInfo,
      ];
      expect(comesBefore(b2, a3) && b2.createdAt.getTime() < a3.createdAt.getTime()).toBe(true);
      // The pages start a millisecond before this test's first file, so that the walk reads this
      // test's files however many older ones the store holds.
      const from = { createdAt: new Date(a1.createdAt.getTime() - 1), id: "" };
      const ours = async (createdBefore: Date, limit: number) =>
        (await everyPage(store(), createdBefore, limit, from)).filter((info) => mine.has(info.companyId));
      // Without `after`, a page starts at the oldest file of the store: none comes after this test's first.
      const [oldest] = await store().listCreatedBefore({ createdBefore: a2.createdAt, limit: 1 });
      expect(oldest && !comesBefore(a1, oldest), `${oldest?.id} is the oldest, not ${a1.id}`).toBe(true);

      // Strictly before the time: the file made at it is not listed.
      expect(await ours(a3.createdAt, 2)).toEqual([a1, b1, a2, b2]);
      expect(await ours(a3.createdAt, 1)).toEqual([a1, b1, a2, b2]);
      expect(await ours(new Date(a3.createdAt.getTime() + 1), 3)).toEqual(puts);
      expect(await ours(a1.createdAt, 5)).toEqual([]);
      // After a position: strictly after it.
      const page = await store().listCreatedBefore({
        createdBefore: new Date(a3.createdAt.getTime() + 1),
        after: { createdAt: b2.createdAt, id: b2.id },
        limit: 10,
      });
      expect(page.filter((info) => mine.has(info.companyId))).toEqual([a3]);
      // Deleted: gone from the list.
      await store().delete(companyB, b1.id);
      const later = new Date(a3.createdAt.getTime() + 60_000);
      expect(await ours(later, 2)).toEqual([a1, a2, b2, a3]);

      // An upload under way is not listed until it is complete.
      const upload = paused(pattern(600 * KIB, 5), 300 * KIB);
      const putting = store().put({
        companyId: companyA,
        filename: "late.pdf",
        contentType: "application/pdf",
        body: upload.body,
      });
      await upload.started;
      expect(await ours(later, 10)).toEqual([a1, a2, b2, a3]);
      upload.resume();
      const late = await putting;
      expect(await ours(new Date(late.createdAt.getTime() + 1), 10)).toEqual([a1, a2, b2, a3, late]);
      for (const info of [a1, a2, b2, a3, late]) await store().delete(info.companyId, info.id);
      expect(await ours(new Date(late.createdAt.getTime() + 1), 10)).toEqual([]);
    });

    it("purgeUnfinished leaves complete files and uploads that started at or after the time alone", async () => {
      const companyId = newId("co");
      const kept = await store().put({
        companyId,
        filename: "kept.pdf",
        contentType: "application/pdf",
        body: pattern(70_000, 1),
      });
      const bytes = pattern(700 * KIB + 3, 9);
      // More than one 256 KiB chunk is written before the upload pauses.
      const upload = paused(bytes, 600 * KIB);
      const putting = store().put({
        companyId,
        filename: "slow.pdf",
        contentType: "application/pdf",
        body: upload.body,
      });
      await upload.started;
      // The upload started after `kept` was made: it must survive.
      await store().purgeUnfinished(kept.createdAt);
      upload.resume();
      const slow = await putting;
      const got = await store().get(companyId, slow.id);
      expect(same(await readAll(got?.body as ReadableStream<Uint8Array>), bytes)).toBe(true);
      // Complete files are never touched, however old: both were made before this time.
      await store().purgeUnfinished(new Date(slow.createdAt.getTime() + 1));
      const again = await store().get(companyId, kept.id);
      expect(same(await readAll(again?.body as ReadableStream<Uint8Array>), pattern(70_000, 1))).toBe(true);
      expect((await store().get(companyId, slow.id))?.info).toEqual(slow);
      expect(await filesOf(companyId)).toBe(2);
      for (const info of [kept, slow]) expect(await store().delete(companyId, info.id)).toBe(true);
    }, 30_000);

    it("an upload cut off by purgeUnfinished rejects and leaves nothing, or completes whole: never a file with bytes missing", async () => {
      const companyId = newId("co");
      const bytes = pattern(700 * KIB + 5, 11);
      const upload = paused(bytes, 600 * KIB);
      const putting = store().put({
        companyId,
        filename: "slower.pdf",
        contentType: "application/pdf",
        body: upload.body,
      });
      const outcome = putting.then(
        (info) => ({ info }),
        (error: unknown) => ({ error }),
      );
      await upload.started;
      // Made after the upload started: a time after its start, as the store tells it.
      const marker = await store().put({
        companyId,
        filename: "marker.txt",
        contentType: "text/plain",
        body: pattern(1),
      });
      await store().purgeUnfinished(new Date(marker.createdAt.getTime() + 1));
      upload.resume();
      const result = await outcome;
      if ("info" in result) {
        const got = await store().get(companyId, result.info.id);
        expect(same(await readAll(got?.body as ReadableStream<Uint8Array>), bytes)).toBe(true);
        await store().delete(companyId, result.info.id);
      }
      // The purge took every unfinished piece older than the marker: none of the cut-off upload's is left.
      expect(await unfinished()).toBe(0);
      expect(await countStored(companyId)).toBe(1);
      expect(await store().delete(companyId, marker.id)).toBe(true);
      expect(await countStored(companyId)).toBe(0);
    }, 30_000);

    it("purgeUnfinished removes what a killed put left when it started before the time, and only that", async (context) => {
      const leave = instance?.leaveUnfinished;
      if (!leave) {
        context.skip(
          "setup() returned no leaveUnfinished: the store's put is taken to leave nothing when it is killed (as in memory)",
        );
        return;
      }
      const companyId = newId("co");
      const probe = await store().put({
        companyId,
        filename: "probe.txt",
        contentType: "text/plain",
        body: pattern(3),
      });
      const at = probe.createdAt;
      // What is left already (other puts' pieces, of any company) goes with the first purge below.
      const before = await unfinished();
      await leave.call(instance, new Date(at.getTime() - 3_600_000));
      await leave.call(instance, at);
      expect(await unfinished()).toBe(before + 2);
      expect(await store().purgeUnfinished(at)).toBeGreaterThanOrEqual(1);
      expect(await unfinished()).toBe(1);
      expect(await store().purgeUnfinished(at)).toBe(0);
      expect(await store().purgeUnfinished(new Date(at.getTime() + 1))).toBeGreaterThanOrEqual(1);
      expect(await unfinished()).toBe(0);
      expect((await store().get(companyId, probe.id))?.info).toEqual(probe);
      expect(await store().delete(companyId, probe.id)).toBe(true);
    });
  });
}
