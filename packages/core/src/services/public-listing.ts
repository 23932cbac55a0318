import { cursorScope } from "../model/cursor";
import type { JobRecord } from "../model/domain";
import { type Page, pageRequest, toPage } from "../model/paging";
import type { Runtime } from "../runtime/runtime";

/** Where a job stands on the public side. */
export type PublicJobLookup =
  /** Public now: its page, feeds and apply form. */
  | { state: "public"; job: JobRecord }
  /** Public once, no longer (closed, paused, hidden, back to draft, past its closing date): 410 Gone. */
  | { state: "gone"; job: JobRecord }
  /** Never public in this company, or no such job: 404. */
  | { state: "unknown" };

/** Which page of public jobs. */
export interface PublicJobListOptions {
  /** Page size, 1 to 100. @default 25 */
  limit?: number;
  /** The `nextCursor` of the previous page. */
  cursor?: string;
}

/**
 * The public side of jobs, behind the careers site and the host's own pages: the public listing
 * (through the storage's `jobs.list` with `publicOn`, keyset paged) and a job's public state. The
 * rule itself is `isPublicJob`, stated once in `public-jobs.ts`.
 */
export class PublicListing {
  readonly #runtime: Runtime;

  constructor(runtime: Runtime) {
    this.#runtime = runtime;
  }

  /** One page of the company's public jobs, newest first. */
  async list(companyId: string, options: PublicJobListOptions = {}): Promise<Page<JobRecord>> {
    const { storage, cursors, publicJobs } = this.#runtime;
    const request = await pageRequest(cursors, cursorScope("public_jobs", companyId, {}), options);
    const rows = await storage.jobs.list({
      companyId,
      publicOn: publicJobs.today(companyId),
      take: request.limit + 1,
      ...(request.after ? { after: request.after } : {}),
    });
    return toPage(cursors, request, rows, (job) => job.createdAt);
  }

  /** Whether the job is public now, was public once, or never was (or does not exist) in this company. */
  async find(companyId: string, id: string): Promise<PublicJobLookup> {
    const job = await this.#runtime.storage.jobs.get(companyId, id);
    if (!job) return { state: "unknown" };
    if (this.#runtime.publicJobs.isPublic(job)) return { state: "public", job };
    return job.publishedAt === null ? { state: "unknown" } : { state: "gone", job };
  }
}
