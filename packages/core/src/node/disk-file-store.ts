/**
 * The `FileStore` contract in a folder on disk (Node only: `@hireport/core/node`). Each file is one
 * file on disk, `{directory}/{company}/{id}`: a small header (its info as JSON) and then the bytes.
 * A `put` writes a temporary file in `{directory}/.tmp`, flushes it to disk and renames it into
 * place, so a file is either whole or absent, whatever happens to the process.
 */
import { randomBytes } from "node:crypto";
import { type FileHandle, mkdir, open, readdir, rename, rm, stat, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Clock } from "../base/clock";
import { idFloor, newId } from "../model/ids";
import type { FileStore, StoredFileInfo } from "../storage";

export interface DiskFileStoreOptions {
  /** The folder that holds the files; created when missing. Keep it out of any web server's reach. */
  directory: string;
  /** Time source of `createdAt`. @default the system clock */
  clock?: Clock;
}

/** A disk file store, and what it holds on disk (for tests and clean-up). */
export interface DiskFileStore extends FileStore {
  /** The absolute path of the folder. */
  readonly directory: string;
  /**
   * Removes the temporary files of `put` calls that started more than `olderThanMs` ago (left by a
   * process killed during a `put`): `purgeUnfinished` with that time, which `api.retention.purge()`
   * already runs. @default olderThanMs 3600000 (an hour)
   */
  purgeTemporary(olderThanMs?: number): Promise<number>;
}

/** What the trailer of a stored file holds. */
interface Trailer {
  v: 1;
  id: string;
  companyId: string;
  filename: string;
  contentType: string;
  size: number;
  createdAt: string;
}

const ID = /^fil_[0-9a-z]{26}$/;
/** A temporary file: the id of its `put`, a dot, random hex. */
const TEMPORARY = /^(fil_[0-9a-z]{26})\./;
/** The temporary folder's name, beside the companies' folders (whose base64url names have no dot). */
const TEMPORARY_FOLDER = ".tmp";
const LENGTH_BYTES = 4;
const READ_BYTES = 64 * 1024;

/** A folder name for a company id, whatever characters the id has. */
function companyFolder(companyId: string): string {
  return Buffer.from(companyId, "utf8").toString("base64url") || "_";
}

/** The company id a folder name stands for (the inverse of `companyFolder`). */
function companyOfFolder(folder: string): string {
  return folder === "_" ? "" : Buffer.from(folder, "base64url").toString("utf8");
}

/**
 * Whether an id made at `createdAt` comes strictly after `after` in the order `createdAt`, then
 * `id`. A file's id carries the time of its `put`, which is its `createdAt` (one clock reading), so
 * the order of the names is the order of the files.
 */
function nameIsAfter(id: string, after: { createdAt: Date; id: string }): boolean {
  const next = idFloor("fil", new Date(after.createdAt.getTime() + 1));
  return id >= next || (id >= idFloor("fil", after.createdAt) && id > after.id);
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === "ENOENT";
}

/** The names in a folder; none when it does not exist (yet) or is not a folder. */
async function listOrEmpty(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw error;
  }
}

/** The trailer of an open stored file: its info, and where the bytes end. */
async function readTrailer(handle: FileHandle): Promise<Trailer | null> {
  const { size } = await handle.stat();
  if (size < LENGTH_BYTES) return null;
  const length = Buffer.alloc(LENGTH_BYTES);
  await handle.read(length, 0, LENGTH_BYTES, size - LENGTH_BYTES);
  const textLength = length.readUInt32BE(0);
  if (textLength > size - LENGTH_BYTES) return null;
  const text = Buffer.alloc(textLength);
  await handle.read(text, 0, textLength, size - LENGTH_BYTES - textLength);
  const trailer = JSON.parse(text.toString("utf8")) as Trailer;
  return trailer.size === size - LENGTH_BYTES - textLength ? trailer : null;
}

function toInfo(trailer: Trailer): StoredFileInfo {
  return {
    id: trailer.id,
    companyId: trailer.companyId,
    filename: trailer.filename,
    contentType: trailer.contentType,
    size: trailer.size,
    createdAt: new Date(trailer.createdAt),
  };
}

/** Writes the bytes and the trailer to a temporary file, flushes it and renames it into place. */
async function writeAtomically(
  temporary: string,
  target: string,
  info: Omit<Trailer, "size">,
  body: ReadableStream<Uint8Array> | Uint8Array,
): Promise<number> {
  const handle = await open(temporary, "wx", 0o600);
  let size = 0;
  try {
    const write = async (chunk: Uint8Array) => {
      await handle.write(chunk, 0, chunk.byteLength, size);
      size += chunk.byteLength;
    };
    if (body instanceof Uint8Array) await write(body);
    else {
      const reader = body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        await write(value);
      }
    }
    const text = Buffer.from(JSON.stringify({ ...info, size }), "utf8");
    const length = Buffer.alloc(LENGTH_BYTES);
    length.writeUInt32BE(text.byteLength, 0);
    await handle.write(text, 0, text.byteLength, size);
    await handle.write(length, 0, LENGTH_BYTES, size + text.byteLength);
    await handle.sync();
    await handle.close();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
  try {
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return size;
}

/**
 * A `FileStore` in a folder: CVs uploaded through the careers site kept on the host's disk (or a
 * mounted volume shared by its processes). Writes are atomic (temporary file, flush, rename); reads
 * stream 64 KiB at a time and open the file only when the first bytes are read.
 */
export function diskFileStore(options: DiskFileStoreOptions): DiskFileStore {
  if (!options || typeof options.directory !== "string" || options.directory === "") {
    throw new TypeError("diskFileStore: option directory is required (a folder path).");
  }
  const directory = resolve(options.directory);
  const clock = options.clock ?? { now: () => new Date() };
  const temporaryFolder = join(directory, TEMPORARY_FOLDER);
  const pathOf = (companyId: string, id: string) => join(directory, companyFolder(companyId), id);

  /** The trailer of a file of this company, or null (missing, another company's, a bad id). */
  async function trailerOf(companyId: string, id: string): Promise<Trailer | null> {
    if (!ID.test(id)) return null;
    let handle: FileHandle;
    try {
      handle = await open(pathOf(companyId, id), "r");
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const found = await readTrailer(handle);
      return found && found.companyId === companyId && found.id === id ? found : null;
    } finally {
      await handle.close();
    }
  }

  const store: DiskFileStore = {
    directory,

    async put(file) {
      const now = clock.now();
      const id = newId("fil", now);
      const folder = join(directory, companyFolder(file.companyId));
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await mkdir(temporaryFolder, { recursive: true, mode: 0o700 });
      const temporary = join(temporaryFolder, `${id}.${randomBytes(6).toString("hex")}`);
      const info = {
        v: 1 as const,
        id,
        companyId: file.companyId,
        filename: file.filename,
        contentType: file.contentType,
        createdAt: now.toISOString(),
      };
      const size = await writeAtomically(temporary, join(folder, id), info, file.body);
      return toInfo({ ...info, size });
    },

    async get(companyId, id) {
      const found = await trailerOf(companyId, id);
      if (!found) return null;
      const path = pathOf(companyId, id);
      const end = found.size;
      let position = 0;
      // Every path closes the handle itself (the last bytes read, an error, a cancel, a cancel
      // while it is being opened): a handle left to the garbage collector is a file descriptor
      // held for an unknown time, and Node warns about it (DEP0137).
      let handle: FileHandle | null = null;
      let cancelled = false;
      const release = async () => {
        const open = handle;
        handle = null;
        await open?.close().catch(() => undefined);
      };
      const body = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            try {
              if (position >= end) {
                controller.close();
                return;
              }
              if (!handle) {
                const opened = await open(path, "r");
                if (cancelled) {
                  await opened.close().catch(() => undefined);
                  return;
                }
                handle = opened;
              }
              const buffer = Buffer.alloc(Math.min(READ_BYTES, end - position));
              const { bytesRead } = await handle.read(buffer, 0, buffer.byteLength, position);
              if (cancelled) return;
              if (bytesRead === 0) throw new Error(`The file ${id} ended early.`);
              position += bytesRead;
              const chunk = new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead);
              if (position < end) {
                controller.enqueue(chunk);
                return;
              }
              // The last bytes: closed now, not on a read that may never come.
              await release();
              controller.enqueue(chunk);
              controller.close();
            } catch (error) {
              await release();
              if (cancelled) return;
              controller.error(
                isMissing(error) ? new Error(`The file ${id} was deleted while it was being read.`) : error,
              );
            }
          },
          async cancel() {
            cancelled = true;
            await release();
          },
        },
        // Nothing is opened or read before the reader asks: a body nobody reads holds no file open.
        { highWaterMark: 0 },
      );
      return { info: toInfo(found), body };
    },

    async delete(companyId, id) {
      if (!(await trailerOf(companyId, id))) return false;
      try {
        await unlink(pathOf(companyId, id));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },

    async listCreatedBefore({ createdBefore, after, limit }) {
      const below = idFloor("fil", createdBefore);
      const candidates: { companyId: string; id: string }[] = [];
      for (const folder of await listOrEmpty(directory)) {
        if (folder === TEMPORARY_FOLDER) continue;
        const companyId = companyOfFolder(folder);
        if (companyFolder(companyId) !== folder) continue;
        const names = await listOrEmpty(join(directory, folder));
        for (const id of names) {
          if (ID.test(id) && id < below && (!after || nameIsAfter(id, after))) candidates.push({ companyId, id });
        }
      }
      candidates.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const page: StoredFileInfo[] = [];
      // Only the page's files are opened; one deleted since the folder was read is skipped.
      for (const { companyId, id } of candidates) {
        if (page.length >= limit) break;
        const found = await trailerOf(companyId, id);
        if (found) page.push(toInfo(found));
      }
      return page;
    },

    async purgeUnfinished(startedBefore) {
      const names = await listOrEmpty(temporaryFolder);
      const below = idFloor("fil", startedBefore);
      let removed = 0;
      for (const name of names) {
        const path = join(temporaryFolder, name);
        // The name holds the id its put drew at the start; a foreign name goes by its last change.
        const id = TEMPORARY.exec(name)?.[1];
        const started = id
          ? id < below
          : ((await stat(path).catch(() => null))?.mtimeMs ?? Infinity) < startedBefore.getTime();
        if (!started) continue;
        try {
          await unlink(path);
          removed += 1;
        } catch (error) {
          if (!isMissing(error)) throw error;
        }
      }
      return removed;
    },

    purgeTemporary(olderThanMs = 3_600_000) {
      return store.purgeUnfinished(new Date(clock.now().getTime() - olderThanMs));
    },
  };
  return Object.freeze(store);
}
