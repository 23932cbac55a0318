/**
 * Where CV files uploaded through the careers site are kept. Separate from {@link Storage}: a file
 * may live in the host's database (`@hireport/kysely`), in a folder, or in an object store, and is
 * not part of a storage transaction. The application row names its file by `resumeFileId`; the file
 * is written before the application and deleted when the application is refused or erased.
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
}
