import type { Clock } from "../base/clock";
import { readBytes } from "../http/read-bytes";
import { newId } from "../model/ids";
import type { FileStore, StoredFileInfo } from "../storage";

interface MemoryFile {
  info: StoredFileInfo;
  bytes: Uint8Array;
}

export interface MemoryFileStoreOptions {
  /** Time source of `createdAt`. @default the system clock */
  clock?: Clock;
}

/** A stream of `bytes` in chunks of 64 KiB, produced as it is read. */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) {
        controller.close();
        return;
      }
      const end = Math.min(bytes.byteLength, offset + 65_536);
      controller.enqueue(bytes.slice(offset, end));
      offset = end;
    },
  });
}

/** Oldest first: `createdAt`, then `id` in code-unit order. */
function byCreation(a: StoredFileInfo, b: StoredFileInfo): number {
  const diff = a.createdAt.getTime() - b.createdAt.getTime();
  if (diff !== 0) return diff;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Whether `info` comes strictly after the position in that order. */
function isAfter(info: StoredFileInfo, position: { createdAt: Date; id: string }): boolean {
  const diff = info.createdAt.getTime() - position.createdAt.getTime();
  return diff > 0 || (diff === 0 && info.id > position.id);
}

/**
 * The file-store contract in memory, for tests and demos: files live as long as the store. Every
 * MUST rule of `FileStore` holds (`runFileStoreConformance` checks it); a file is kept only once
 * its whole body was read, so a failed `put` leaves nothing.
 */
export function memoryFileStore(options: MemoryFileStoreOptions = {}): FileStore {
  const clock = options.clock ?? { now: () => new Date() };
  const files = new Map<string, MemoryFile>();
  const copyInfo = (info: StoredFileInfo): StoredFileInfo => ({ ...info, createdAt: new Date(info.createdAt) });
  return Object.freeze({
    async put(file) {
      const bytes = file.body instanceof Uint8Array ? file.body.slice() : await readBytes(file.body);
      const now = clock.now();
      const info: StoredFileInfo = {
        id: newId("fil", now),
        companyId: file.companyId,
        filename: file.filename,
        contentType: file.contentType,
        size: bytes.byteLength,
        createdAt: new Date(now.getTime()),
      };
      files.set(info.id, { info, bytes });
      return copyInfo(info);
    },
    async get(companyId, id) {
      const file = files.get(id);
      if (!file || file.info.companyId !== companyId) return null;
      return { info: copyInfo(file.info), body: streamOf(file.bytes) };
    },
    async delete(companyId, id) {
      const file = files.get(id);
      if (!file || file.info.companyId !== companyId) return false;
      files.delete(id);
      return true;
    },
    async listCreatedBefore({ createdBefore, after, limit }) {
      const before = createdBefore.getTime();
      return [...files.values()]
        .map((file) => file.info)
        .filter((info) => info.createdAt.getTime() < before && (!after || isAfter(info, after)))
        .sort(byCreation)
        .slice(0, Math.max(0, limit))
        .map(copyInfo);
    },
    // A file is kept only once its whole body was read: an unfinished put leaves nothing.
    async purgeUnfinished() {
      return 0;
    },
  } satisfies FileStore);
}
