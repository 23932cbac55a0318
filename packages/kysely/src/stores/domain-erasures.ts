/**
 * Whether applications are erased, asked of the host's domain stores (the storage's `domain`
 * option) by the stores that store an answer or an attempt after an erasure may have run.
 */
import type { DomainStores } from "@hireport/core/storage";
import type { StoreContext } from "../context";
import { chunks } from "./erasure-redactions";

type Domain = (ctx: StoreContext) => DomainStores;

/**
 * `erasedAt` of the application `subjectId` of the company of the key `keyId`, read with a lock
 * (`applications.get` with `lock`), so that an erasure holding the row has committed and is seen;
 * null when it is not erased or not found.
 */
export async function lockedErasedAt(
  tx: StoreContext,
  domain: Domain,
  keyId: string,
  subjectId: string,
): Promise<Date | null> {
  const key = await tx.db
    .selectFrom(tx.tableAs("api_key", "k"))
    .select("k.company_id")
    .where("k.id", "=", keyId)
    .executeTakeFirst();
  if (!key) return null;
  const application = await domain(tx).applications.get(key.company_id, subjectId, { lock: true });
  return application?.erasedAt ?? null;
}

/** Of the events `eventIds`, those whose subject is an erased application of their company. */
export async function erasedSubjectEvents(
  tx: StoreContext,
  domain: Domain,
  eventIds: readonly string[],
): Promise<Set<string>> {
  const stores = domain(tx);
  const erased = new Set<string>();
  for (const part of chunks(eventIds)) {
    const rows = await tx.db
      .selectFrom(tx.tableAs("event", "e"))
      .select(["e.id", "e.company_id", "e.subject_id"])
      .where("e.id", "in", part)
      .where("e.subject_id", "is not", null)
      .execute();
    for (const row of rows) {
      if (row.subject_id === null) continue;
      const application = await stores.applications.get(row.company_id, row.subject_id);
      if (application?.erasedAt) erased.add(row.id);
    }
  }
  return erased;
}
