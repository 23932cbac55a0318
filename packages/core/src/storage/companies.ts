import type { CompanyRecord } from "../model/domain";

export interface CompanyStore {
  /** MUST insert the company, or change the name of an existing one keeping its `createdAt`. */
  upsert(company: CompanyRecord): Promise<CompanyRecord>;
  get(id: string): Promise<CompanyRecord | null>;
  /**
   * Reserves the next `count` numbers (`count` >= 1) of a per-company sequence (`job`,
   * `application`), which starts at 1, and returns the first of them: the caller owns `first` to
   * `first + count - 1`. MUST never hand out the same number twice for a company and kind, also
   * under concurrent calls from several processes; inside a transaction, a rolled-back number MAY
   * be reused. Core calls it on the storage, before the change's transaction, so that the counter
   * is not held until that transaction commits: numbers of changes that fail are skipped, never
   * reused. Core reserves several at once when a process numbers a company's jobs or applications
   * fast (see `maxReferenceBlock` of `createPublicApi`).
   */
  reserveSequence(companyId: string, kind: "job" | "application", count: number): Promise<number>;
}
