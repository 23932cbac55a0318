/**
 * The warning for a job page whose `JobPosting` has no country: a job that is not fully remote,
 * with no `country`, a `location` that names none and no `defaultCountry` for its company has no
 * `addressCountry` (and no `jobLocation` at all when nothing of its place is known), which Google's
 * report lists as an error. The host hears of it through the site's `logger`, once per job, not on
 * every page view. Fully remote work (`jobLocationType: TELECOMMUTE`) has no address, so no warning.
 */
import type { Logger } from "@hireport/core";
import type { JobView } from "./job-view";

/** Jobs one careers site remembers having warned about; past that it forgets them all and starts over. */
const REMEMBERED_JOBS = 10_000;

/** The jobs already warned about, kept per careers site (`createCareers`). */
export class CountryWarnings {
  readonly #warned = new Set<string>();
  readonly #logger: Pick<Logger, "warn">;

  constructor(logger: Pick<Logger, "warn">) {
    this.#logger = logger;
  }

  /** Warns about `job` if its JobPosting has no country and it was not warned about before. */
  check(job: JobView): void {
    if (job.location.remote || job.location.country !== null) return;
    const { companyId } = job.record;
    const key = `${companyId}\u0000${job.id}`;
    if (this.#warned.has(key)) return;
    if (this.#warned.size >= REMEMBERED_JOBS) this.#warned.clear();
    this.#warned.add(key);
    this.#logger.warn(
      `hireport careers: job ${job.id} names no country, so the JobPosting of its page has no addressCountry, ` +
        "which Google reports as an error. Set the job's country (an ISO 3166-1 alpha-2 code, such as GB), " +
        "or the company's country with the defaultCountry option of createCareers.",
      { companyId, jobId: job.id },
    );
  }
}
