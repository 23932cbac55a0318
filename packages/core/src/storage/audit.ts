import type { AuditRecord } from "../model/domain";
import type { KeysetPosition } from "./common";

export interface AuditStore {
  /** MUST store the entry as given. Called on the `tx` of the change it records, or on the storage. */
  append(entry: AuditRecord): Promise<void>;
  /** The company's entries, newest first (`createdAt`, then `id`, descending), strictly after `after`. */
  list(companyId: string, options: { after?: KeysetPosition; take: number }): Promise<AuditRecord[]>;
  /** Deletes entries created before `before`. Returns how many. */
  purge(before: Date): Promise<number>;
}
