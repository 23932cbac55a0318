import type { UsageRecord } from "../model/domain";
import type { KeysetPosition } from "./common";

export interface UsageListQuery {
  companyId: string;
  keyId?: string;
  /** Only entries with `createdAt >= since`. */
  since?: Date;
  /** Only entries with `createdAt < until`. */
  until?: Date;
  /** Only entries with exactly this status. */
  status?: number;
  /** Only entries whose status is in this class: 2 for 200 to 299 (`statusClassOf`). */
  statusClass?: number;
  /** Only entries of exactly this route (`/jobs/{id}`). */
  route?: string;
  /** Entries strictly older than this position (`at` is `createdAt`). */
  after?: KeysetPosition;
  take: number;
}

/** The requests of one company on one UTC day with one status class: a row of the usage roll-up. */
export interface UsageDayCount {
  /** The UTC day, `YYYY-MM-DD` (`utcDay`). */
  day: string;
  /** The first digit of the status (`statusClassOf`): 2 for 2xx. */
  statusClass: number;
  count: number;
}

export interface UsageDailyQuery {
  companyId: string;
  /** The first day, `YYYY-MM-DD`, inclusive. */
  from: string;
  /** The last day, `YYYY-MM-DD`, inclusive. */
  to: string;
}

export interface UsageStore {
  /**
   * MUST store every entry (core batches them). MUST also keep the daily roll-up that
   * {@link UsageStore.daily} reads: each entry with a `companyId` adds one to the count of its
   * company, its UTC day (`utcDay(createdAt)`) and its status class (`statusClassOf(status)`), in
   * the same statement or transaction as the entry itself (an entry is stored and counted, or
   * neither); entries without a company are stored and not counted. Concurrent calls, from several
   * processes too, MUST never lose a count.
   */
  appendMany(entries: readonly UsageRecord[]): Promise<void>;
  /** Newest first (`createdAt` then `id`, descending), every filter given applied. */
  list(query: UsageListQuery): Promise<UsageRecord[]>;
  /**
   * The company's roll-up rows from `from` to `to` (both inclusive), by day then status class,
   * ascending; days and classes without requests have no row. A count is the number of entries
   * appended for it, whether or not `purge` has deleted some of them since.
   */
  daily(query: UsageDailyQuery): Promise<UsageDayCount[]>;
  /**
   * Deletes entries created before `before` and the roll-up rows of days that ended at or before
   * it (`day < utcDay(before)`), and only those. With `limit`, MUST delete at most that many
   * entries (a batch of retention; the oldest first). Returns how many entries went.
   */
  purge(before: Date, limit?: number): Promise<number>;
}
