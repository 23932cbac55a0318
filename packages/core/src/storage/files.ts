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

export interface FileStore {
  /**
   * Stores the bytes and returns what was stored. MUST read `body` to its end; when it fails or the
   * stream errors, MUST leave nothing behind and reject.
   */
  put(file: NewStoredFile): Promise<StoredFileInfo>;
  /** The file and its bytes, or null when there is none with this id in this company. */
  get(companyId: string, id: string): Promise<{ info: StoredFileInfo; body: ReadableStream<Uint8Array> } | null>;
  /** Removes the file; true when there was one. MUST be safe to call twice. */
  delete(companyId: string, id: string): Promise<boolean>;
}
