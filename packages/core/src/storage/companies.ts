import type { CompanyRecord } from "../model/domain";

export interface CompanyStore {
  /** MUST insert the company, or change the name of an existing one keeping its `createdAt`. */
  upsert(company: CompanyRecord): Promise<CompanyRecord>;
  get(id: string): Promise<CompanyRecord | null>;
  /**
   * The next number of a per-company sequence (`job`, `application`), starting at 1.
   * MUST never hand out the same number twice for a company and kind, also under concurrent calls
   * from several processes; inside a transaction, a rolled-back number MAY be reused. Core calls it
   * on the storage, before the change's transaction, so that the counter is not held until that
   * transaction commits: numbers of changes that fail are skipped, never reused.
   */
  nextSequence(companyId: string, kind: "job" | "application"): Promise<number>;
}
