/**
 * The public-job rule, stated once: a job is public while its status is
 * `active`, the host has not hidden it, and its closing date has not passed. Only a public job has
 * a `public_url`, a page on the careers site, a place in the feeds and an apply form.
 *
 * The closing date is inclusive: a job closing on `2026-03-31` is public through the whole of that
 * day in the company's time zone (the `closingTimeZone` option of `createPublicApi`, UTC by
 * default) and leaves at the next midnight there.
 */

import type { JobRecord } from "./domain";
import { calendarDay, endOfDay, timeZoneName } from "./zone-days";

/** The fields of a job the rule reads. */
export type PublicJobFields = Pick<JobRecord, "status" | "hidden" | "closingDate">;

/**
 * Whether a job is public on `today` (`YYYY-MM-DD`, the calendar day in the company's time zone):
 * active, not hidden, and closing on `today` or later (or never).
 */
export function isPublicJob(job: PublicJobFields, today: string): boolean {
  return job.status === "active" && !job.hidden && (job.closingDate === null || job.closingDate >= today);
}

/**
 * The address of a job's page on a company's careers site: `{siteUrl}/jobs/{id}`. The API's
 * `public_url` and the careers site's links, feeds and structured data all come from here.
 */
export function publicJobUrl(job: Pick<JobRecord, "id">, siteUrl: string): string {
  return `${siteUrl}/jobs/${encodeURIComponent(job.id)}`;
}

/** Where a company's careers site lives, and its time zone, as `createPublicApi` was told. */
export interface PublicJobSettings {
  /** The root of the company's careers site, no trailing slash. */
  siteUrl(company: { id: string }): string;
  /** The company's IANA time zone, in which closing dates are read. */
  timeZone(company: { id: string }): string;
  /** Whether public jobs have pages: when false, no job has a `public_url`. @default true */
  pages?: boolean;
}

/**
 * The public-job rule at the current time, for one `createPublicApi` instance: what the API's
 * serializer, the public listing and the careers site ask.
 */
export class PublicJobRules {
  readonly #settings: PublicJobSettings;
  readonly #now: () => Date;
  /** Whether public jobs have pages (the `publicJobPages` option of `createPublicApi`). */
  readonly pages: boolean;

  constructor(settings: PublicJobSettings, now: () => Date) {
    this.#settings = settings;
    this.#now = now;
    this.pages = settings.pages ?? true;
  }

  /** The root of the company's careers site (`publicBaseUrl` unless the host maps companies to sites). */
  siteUrl(companyId: string): string {
    return this.#settings.siteUrl({ id: companyId });
  }

  /** The company's calendar day now (`YYYY-MM-DD`), in which closing dates are compared. */
  today(companyId: string): string {
    return calendarDay(this.#now(), this.#settings.timeZone({ id: companyId }));
  }

  /** Whether the job is public now. */
  isPublic(job: PublicJobFields & { companyId: string }): boolean {
    // The day is read only when a closing date could matter.
    if (job.status !== "active" || job.hidden) return false;
    return job.closingDate === null || isPublicJob(job, this.today(job.companyId));
  }

  /**
   * The job's `public_url`: its page on the company's careers site while it is public, else null
   * (always null for a host without job pages).
   */
  url(job: JobRecord): string | null {
    return this.pages && this.isPublic(job) ? publicJobUrl(job, this.siteUrl(job.companyId)) : null;
  }

  /** The instant a job with a closing date stops being public (the end of that day in the company's zone), or null. */
  validThrough(job: Pick<JobRecord, "closingDate" | "companyId">): Date | null {
    if (job.closingDate === null) return null;
    return endOfDay(job.closingDate, this.#settings.timeZone({ id: job.companyId }));
  }
}

/** Throws a TypeError unless `timeZone` is an IANA time zone this runtime knows (`Europe/London`, `UTC`). */
export function checkTimeZone(timeZone: unknown, option: string): string {
  if (typeof timeZone === "string" && timeZoneName(timeZone) !== null) return timeZone;
  throw new TypeError(
    `hireport: option ${option} must be an IANA time zone such as "Europe/London", got '${String(timeZone)}'.`,
  );
}
