/**
 * Raw reads and writes of `kyselyFileStore`'s tables under a prefix, past the store's own methods:
 * what the file-store tests count, and what a process killed in the middle of a `put` leaves.
 */
import { newId } from "@hireport/core/storage";
import { sql } from "kysely";
import type { AnyDb } from "./databases";

/** File rows, of one company when `companyId` is given. */
export async function countFileRows(db: AnyDb, prefix: string, companyId?: string): Promise<number> {
  let query = db.selectFrom(`${prefix}file`).select(sql<number>`count(*)`.as("n"));
  if (companyId !== undefined) query = query.where("company_id", "=", companyId);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** Chunk rows that no file row names (what an unfinished `put` leaves). */
export async function countOrphanChunks(db: AnyDb, prefix: string): Promise<number> {
  const files = `${prefix}file`;
  const chunks = `${prefix}file_chunk`;
  const row = await db
    .selectFrom(chunks)
    .select(sql<number>`count(*)`.as("n"))
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom(files).select("id").whereRef(`${files}.id`, "=", `${chunks}.file_id`))),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The first chunk of an upload that started at `startedAt` and never finished: one row, no file row. */
export async function leaveOrphanChunk(db: AnyDb, prefix: string, startedAt: Date): Promise<void> {
  await db
    .insertInto(`${prefix}file_chunk`)
    .values({ file_id: newId("fil", startedAt), seq: 0, data: new TextEncoder().encode("%PDF-1.7 half a CV") })
    .execute();
}
