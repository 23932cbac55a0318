/**
 * A small `FileStore` for the privacy tests: files in a map, every delete recorded, and a switch that
 * makes the next deletes fail. The real stores (a folder, the database) are tested where they live.
 */
import type { FileStore } from "@hireport/core";
import type { StoredFileInfo } from "@hireport/core/storage";

export interface TestFileStore extends FileStore {
  /** The stored files, by id. */
  readonly files: Map<string, { info: StoredFileInfo; bytes: Uint8Array }>;
  /** Ids passed to `delete`, in order (a file deleted twice is here twice). */
  readonly deletes: string[];
  /** Makes `delete` reject until set back to false. */
  failDeletes: boolean;
}

async function readAll(body: ReadableStream<Uint8Array> | Uint8Array): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body;
  return new Uint8Array(await new Response(body).arrayBuffer());
}

export function testFileStore(): TestFileStore {
  const files = new Map<string, { info: StoredFileInfo; bytes: Uint8Array }>();
  let next = 0;
  const store: TestFileStore = {
    files,
    deletes: [],
    failDeletes: false,
    async put(file) {
      const bytes = await readAll(file.body);
      next += 1;
      const info: StoredFileInfo = {
        id: `fil_test${String(next).padStart(4, "0")}`,
        companyId: file.companyId,
        filename: file.filename,
        contentType: file.contentType,
        size: bytes.byteLength,
        createdAt: new Date(),
      };
      files.set(info.id, { info, bytes });
      return info;
    },
    async get(companyId, id) {
      const file = files.get(id);
      if (!file || file.info.companyId !== companyId) return null;
      return { info: file.info, body: new Blob([file.bytes as Uint8Array<ArrayBuffer>]).stream() };
    },
    async delete(companyId, id) {
      store.deletes.push(id);
      if (store.failDeletes) throw new Error("the file store is down");
      const file = files.get(id);
      if (!file || file.info.companyId !== companyId) return false;
      files.delete(id);
      return true;
    },
    async listCreatedBefore({ createdBefore, after, limit }) {
      const key = (info: StoredFileInfo) => `${String(info.createdAt.getTime()).padStart(16, "0")} ${info.id}`;
      const from = after ? `${String(after.createdAt.getTime()).padStart(16, "0")} ${after.id}` : "";
      return [...files.values()]
        .map((file) => file.info)
        .filter((info) => info.createdAt.getTime() < createdBefore.getTime() && key(info) > from)
        .sort((a, b) => (key(a) < key(b) ? -1 : 1))
        .slice(0, limit);
    },
    // Files are kept whole or not at all.
    purgeUnfinished: async () => 0,
  };
  return store;
}
