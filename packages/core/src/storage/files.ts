/**
 * Where CV files uploaded through the careers site are kept. Separate from {@link Storage}: a file
 * may live in the host's database (`@hireport/kysely`), in a folder, or in an object store, and is
 * not part of a storage transaction. The application row names its file by `resumeFileId`; the file
 * is written before the application and deleted when the application is refused or erased. A file
 * that no application names (the process died between the two writes, or a delete failed) is
 * removed by `api.retention.purge()` once it is older than a grace period: it pages through the
 * old files with `listCreatedBefore` and asks the storage which of them applications still name.
 */

/** What is known of a stored file besides its bytes. */
export interface StoredFileInfo {
  /** `fil_…`, chosen by the store. */
  id: string;
  companyId: string;
  /** The name the uploader's file had (for `Content-Disposition`), at most 255 characters. */
  filename: string;
  /** The media type read from the bytes (never from the name or the declared type). */
  contentType: string;
  /** Size in bytes. */
  size: number;
  createdAt: Date;
}

/** A file to store: its bytes as a stream or a buffer, with what the store keeps beside them. */
export interface NewStoredFile {
  companyId: string;
  filename: string;
  contentType: string;
  body: ReadableStream<Uint8Array> | Uint8Array;
}

/** A stored file as `get` returns it: what is known of it, and its bytes as a stream. */
export interface StoredFile {
  info: StoredFileInfo;
  body: ReadableStream<Uint8Array>;
}

/** Which files {@link FileStore.listCreatedBefore} lists: one page of the old files of every company. */
export interface StoredFileQuery {
  /** Only files whose `createdAt` is strictly before this time. */
  createdBefore: Date;
  /**
   * Only files strictly after this one in the list's order (`createdAt`, then `id`, oldest first):
   * the `createdAt` and `id` of the last file of the previous page. @default from the oldest file
   */
  after?: { createdAt: Date; id: string };
  /** How many files at most (1 or more). */
  limit: number;
}

/**
 * The file-store contract. `runFileStoreConformance` of `@hireport/core/testing` checks every MUST
 * rule against an implementation; `memoryFileStore` (`@hireport/core/memory`), `diskFileStore`
 * (`@hireport/core/node`) and `kyselyFileStore` (`@hireport/kysely`) pass it.
 */
export interface FileStore {
  /**
   * Stores the bytes and returns what was stored. MUST read `body` to its end and keep exactly its
   * bytes (a stream is read as it arrives, never required whole in memory by the contract); MUST
   * give the file a new id (`fil_…`) no other file of any company has, `size` the number of bytes
   * read and `createdAt` the time of the write, and keep `companyId`, `filename` and `contentType`
   * as given. When the stream errors or the write fails, MUST leave nothing behind (no partial
   * file a `get` could find) and reject.
   */
  put(file: NewStoredFile): Promise<StoredFileInfo>;
  /**
   * The file and its bytes, or null when there is none with this id in this company: a file of
   * another company MUST be treated exactly like a missing one. `info` MUST equal what `put`
   * returned (`createdAt` to the millisecond); `body` MUST stream exactly the stored bytes, and a
   * reader that cancels it part way MUST release what it held.
   */
  get(companyId: string, id: string): Promise<StoredFile | null>;
  /**
   * Removes the file; true when there was one in this company, false otherwise (another company's
   * file is left alone). MUST be safe to call twice, and concurrently.
   */
  delete(companyId: string, id: string): Promise<boolean>;
  /**
   * A page of the files of every company whose `createdAt` is strictly before `createdBefore`,
   * oldest first (`createdAt`, then `id` in binary order), strictly after `after`, at most
   * `limit`: each `info` as `get` gives it. Retention pages through them to find files no
   * application names. MUST list only complete files (what `get` finds: never a `put` still under
   * way or one that failed), without reading their bytes, and MUST return each file of the range
   * exactly once across the pages (a file deleted between pages is simply missing from the later
   * ones).
   */
  listCreatedBefore(query: StoredFileQuery): Promise<StoredFileInfo[]>;
  /**
   * Removes what `put` calls that never finished left behind (a process killed part way: a
   * temporary file, chunks no file names) when the `put` started strictly before `startedBefore`,
   * and returns how many pieces went (temporary files, chunk rows: a count for the logs). MUST
   * NOT touch any complete file, nor anything of a `put` that started at or after
   * `startedBefore` (it may be under way). Retention passes its grace period, so an upload that
   * lasts longer than that may be cut off: its `put` MUST then reject and leave nothing, or
   * complete whole, never keep a file with bytes missing. MUST be safe to call concurrently. A
   * store whose `put` can leave nothing behind returns 0.
   */
  purgeUnfinished(startedBefore: Date): Promise<number>;
}
