import type { Clock, FileStore } from "@hireport/core";
import { idFloor, newId, type StoredFileInfo, type StoredFileQuery } from "@hireport/core/storage";
import type { Kysely } from "kysely";
import { createContext, type Db, type StoreContext } from "./context";
import { strategyFor } from "./dialects/detect";
import type { DialectKind } from "./dialects/types";
import type { FileTable } from "./schema";
import { checkSchemaOption } from "./schema-plugin";
import { afterPosition } from "./stores/keyset";
import { findRow, selectAll } from "./stores/rows";
import { fromDb, readNumber } from "./values";

/** Bytes per chunk row: far below every database's packet limit (MariaDB's default is 16 MiB). */
export const FILE_CHUNK_BYTES = 256 * 1024;

export interface KyselyFileStoreOptions<DB> {
  /** The host's Kysely instance, migrated with `migrateToLatest` (the `file` and `file_chunk` tables). */
  db: Kysely<DB>;
  /** Prefix of hireport's tables; the same as for the storage and the migrations. @default "hireport_" */
  tablePrefix?: string;
  /** Postgres only: the schema of hireport's tables; the same as for the storage and the migrations. @default none */
  schema?: string;
  /** The SQL dialect, for third-party dialects (see `kyselyStorage`). @default found from the adapter */
  dialect?: DialectKind;
  /** Time source of a file's id and `createdAt`. @default the system clock */
  clock?: Clock;
}

/** Collects a stream's bytes into chunks of exactly `FILE_CHUNK_BYTES` (the last one shorter). */
async function* chunksOf(body: ReadableStream<Uint8Array> | Uint8Array): AsyncGenerator<Uint8Array> {
  if (body instanceof Uint8Array) {
    for (let offset = 0; offset < body.byteLength; offset += FILE_CHUNK_BYTES) {
      yield body.subarray(offset, Math.min(body.byteLength, offset + FILE_CHUNK_BYTES));
    }
    return;
  }
  const buffer = new Uint8Array(FILE_CHUNK_BYTES);
  let filled = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let offset = 0;
      while (offset < value.byteLength) {
        const take = Math.min(FILE_CHUNK_BYTES - filled, value.byteLength - offset);
        buffer.set(value.subarray(offset, offset + take), filled);
        filled += take;
        offset += take;
        if (filled === FILE_CHUNK_BYTES) {
          yield buffer.slice();
          filled = 0;
        }
      }
    }
  } finally {
    reader.releaseLock();
  }
  if (filled > 0) yield buffer.slice(0, filled);
}

/** A driver's bytes (Buffer on every driver hireport supports) as a plain Uint8Array. */
function toBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  throw new Error("@hireport/kysely: a file chunk came back as something other than bytes.");
}

function toInfo(row: FileTable): StoredFileInfo {
  return {
    id: row.id,
    companyId: row.company_id,
    filename: row.filename,
    contentType: row.content_type,
    size: readNumber(row.size),
    createdAt: fromDb(row.created_at),
  };
}

/**
 * The `FileStore` contract of `@hireport/core` in the host's own database (SQLite, Postgres,
 * MySQL/MariaDB): CVs uploaded through the careers site live beside the applications, backed up
 * with them. Bytes are kept in rows of 256 KiB, written one by one as the upload is read (no
 * transaction is held open while a client sends), and the file's row last: a file is found only
 * once all its bytes are there, and a failed upload deletes the chunks it wrote. Reads stream one
 * chunk per query, holding no connection between them.
 *
 * A process killed in the middle of a `put` can leave chunk rows no file names; they are never
 * read, and `purgeUnfinished` (which `api.retention.purge()` runs) removes those of uploads that
 * started before its time: the file id, drawn when the upload starts, carries that time.
 */
export function kyselyFileStore<DB>(
  options: KyselyFileStoreOptions<DB>,
): FileStore & { purgeOrphanChunks(): Promise<number> } {
  const db = options.db as unknown as Db;
  const clock = options.clock ?? { now: () => new Date() };
  const strategy = strategyFor(db, options.dialect);
  const tablePrefix = options.tablePrefix ?? "hireport_";
  checkSchemaOption(options.schema, tablePrefix, strategy.kind);
  const ctx: StoreContext = createContext({
    db,
    schema: options.schema ?? null,
    strategy,
    tablePrefix,
    asyncRateLimitCommit: false,
  });
  const chunkTable = ctx.table("file_chunk");
  const fileTable = ctx.table("file");

  const deleteChunks = (fileId: string) => ctx.db.deleteFrom(chunkTable).where("file_id", "=", fileId).execute();

  async function put(file: Parameters<FileStore["put"]>[0]): Promise<StoredFileInfo> {
    const id = newId("fil", clock.now());
    let seq = 0;
    let size = 0;
    try {
      for await (const chunk of chunksOf(file.body)) {
        await ctx.db.insertInto(chunkTable).values({ file_id: id, seq, data: chunk }).execute();
        seq += 1;
        size += chunk.byteLength;
      }
      const createdAt = clock.now();
      await ctx.db
        .insertInto(fileTable)
        .values({
          id,
          company_id: file.companyId,
          filename: file.filename,
          content_type: file.contentType,
          size,
          chunk_count: seq,
          created_at: ctx.toDb(createdAt),
        })
        .execute();
      // An upload that outlasted retention's grace period may have lost chunks to `purgeUnfinished`
      // (which spares chunks once their file row exists): such a file is removed, never kept broken.
      const stored = await ctx.db
        .selectFrom(chunkTable)
        .select((eb) => eb.fn.countAll().as("n"))
        .where("file_id", "=", id)
        .executeTakeFirstOrThrow();
      if (Number(stored.n) !== seq) {
        await ctx.db.deleteFrom(fileTable).where("id", "=", id).execute();
        throw new Error(
          `@hireport/kysely: the upload ${id} lasted longer than retention's grace period and lost chunks to purgeUnfinished.`,
        );
      }
      return { id, companyId: file.companyId, filename: file.filename, contentType: file.contentType, size, createdAt };
    } catch (error) {
      await deleteChunks(id).catch(() => undefined);
      throw error;
    }
  }

  async function get(companyId: string, id: string) {
    const row = await findRow(ctx, "file", { id, company_id: companyId });
    if (!row) return null;
    const chunks = readNumber(row.chunk_count);
    let next = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (next >= chunks) {
          controller.close();
          return;
        }
        const chunk = await ctx.db
          .selectFrom(chunkTable)
          .select("data")
          .where("file_id", "=", id)
          .where("seq", "=", next)
          .executeTakeFirst();
        if (!chunk) {
          controller.error(new Error(`The file ${id} was deleted while it was being read.`));
          return;
        }
        next += 1;
        controller.enqueue(toBytes(chunk.data));
      },
    });
    return { info: toInfo(row), body };
  }

  async function remove(companyId: string, id: string): Promise<boolean> {
    const result = await ctx.db
      .deleteFrom(fileTable)
      .where("id", "=", id)
      .where("company_id", "=", companyId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    await deleteChunks(id);
    return true;
  }

  /** Deletes chunk rows no file names, of uploads that started before `startedBefore` (or all). */
  async function deleteOrphanChunks(startedBefore: Date | null): Promise<number> {
    let query = ctx.db
      .deleteFrom(chunkTable)
      .where((eb) =>
        eb.not(
          eb.exists(eb.selectFrom(fileTable).select("id").whereRef(`${fileTable}.id`, "=", `${chunkTable}.file_id`)),
        ),
      );
    if (startedBefore) query = query.where("file_id", "<", idFloor("fil", startedBefore));
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  return Object.freeze({
    put,
    get,
    delete: remove,

    async listCreatedBefore({ createdBefore, after, limit }: StoredFileQuery) {
      let query = selectAll(ctx, "file", "f", "created").where("f.created_at", "<", ctx.toDb(createdBefore));
      if (after) {
        query = query.where((eb) =>
          afterPosition(ctx, eb, "f.created_at", "f.id", { at: after.createdAt, id: after.id }, "asc"),
        );
      }
      const rows = await query
        .orderBy("f.created_at", "asc")
        .orderBy("f.id", "asc")
        .limit(Math.max(0, limit))
        .$castTo<FileTable>()
        .execute();
      return rows.map(toInfo);
    },

    // An upload's chunks carry its id, whose time is when the upload started.
    purgeUnfinished: (startedBefore: Date) => deleteOrphanChunks(startedBefore),

    /**
     * Deletes every chunk row no file names, whenever its upload started. Run it only when no
     * upload is under way (a chunk of an upload in progress has no file row yet either);
     * `purgeUnfinished` is the one that is safe at any time.
     */
    purgeOrphanChunks: () => deleteOrphanChunks(null),
  });
}
