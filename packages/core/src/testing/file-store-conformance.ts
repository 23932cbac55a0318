/**
 * The file-store conformance suite: every MUST rule of `FileStore` (`storage/files.ts`) checked
 * against an implementation, through its own methods and, where the target gives one, a raw count
 * of what it holds.
 *
 * ```ts
 * import { runFileStoreConformance } from "@hireport/core/testing";
 * runFileStoreConformance({
 *   name: "kysely on Postgres",
 *   async setup() {
 *     const db = createDb();
 *     await migrateToLatest(db);
 *     return { fileStore: kyselyFileStore({ db }), teardown: () => db.destroy() };
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
   * What the store holds of a company, counted past its own methods (rows, files in a folder), so
   * that a failed `put` is seen to leave nothing behind. Left out: that check is skipped.
   */
  countStored?(companyId: string): Promise<number>;
  /** Called once after the last test. */
  teardown(): Promise<void>;
}

export interface FileStoreConformanceTarget {
  /** Shown in the name of the outer `describe` block. */
  name: string;
  /** Called once before the first test (60 s timeout); each test uses companies with random ids. */
  setup(): Promise<FileStoreConformanceInstance>;
}

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

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Registers the file-store conformance suite (vitest `describe`/`it` inside). */
export function runFileStoreConformance(target: FileStoreConformanceTarget): void {
  describe(`file store conformance: ${target.name}`, () => {
    let instance: FileStoreConformanceInstance | null = null;
    const store = (): FileStore => {
      if (!instance) throw new Error("The file store target's setup() did not run or failed.");
      return instance.fileStore;
    };
    const expectStored = async (companyId: string, count: number) => {
      if (instance?.countStored) expect(await instance.countStored(companyId)).toBe(count);
    };
    beforeAll(async () => {
      instance = await target.setup();
    }, 60_000);
    afterAll(async () => {
      await instance?.teardown();
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
      await expectStored(companyId, 1);
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
      await expectStored(companyId, 0);
    });

    it("a stream that errors part way makes put reject and leaves nothing behind", async () => {
      const companyId = newId("co");
      await expect(
        store().put({ companyId, filename: "broken.pdf", contentType: "application/pdf", body: failing(MIB + 17) }),
      ).rejects.toThrow();
      await expectStored(companyId, 0);
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
      await expectStored(companyId, 12);
      for (const put of puts) await store().delete(companyId, put.id);
      await expectStored(companyId, 0);
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
  });
}
