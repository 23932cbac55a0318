import { HireportError, notFound, unknownCompany } from "../base/errors";
import { JOB_FIELDS, jobFieldDefaults } from "../fields/job";
import { cursorScope } from "../model/cursor";
import type { JobFields, JobListFilter, JobRecord, JobStatus } from "../model/domain";
import { newId } from "../model/ids";
import { type Page, pageRequest, toPage } from "../model/paging";
import { REPLICA, type ReadOptions } from "../runtime/read-options";
import { type Emit, type Runtime, runChange, type Written } from "../runtime/runtime";
import type { JobCreateBody, JobPatchBody } from "../schemas/job";
import type { JobPatch } from "../storage";
import type { JobWire } from "../wire/serialize";

/** Storage statuses behind each value of the `status` filter of GET /jobs (paused jobs show only under `all`). */
const STATUS_FILTER: Record<JobListFilter, readonly JobStatus[] | undefined> = {
  open: ["active"],
  closed: ["closed"],
  draft: ["draft"],
  all: undefined,
};

/** Each declared Job field as [wire name, record name], for reading a request body. */
const WIRE_TO_RECORD = Object.entries(JOB_FIELDS).map(([name, spec]) => [spec.wire, name] as const);

/** The declared fields present in a parsed body, by record name. */
function toFields(body: JobPatchBody): Partial<JobFields> {
  const fields: Record<string, unknown> = {};
  for (const [wire, name] of WIRE_TO_RECORD) {
    const value = (body as Record<string, unknown>)[wire];
    if (value !== undefined) fields[name] = value;
  }
  return fields as Partial<JobFields>;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => item === b[i]);
  return a === b;
}

/** Checks that apply to the job as it will be, not to one body alone. */
function checkSalary(job: JobFields): void {
  if (job.salaryMin !== null && job.salaryMax !== null && job.salaryMin > job.salaryMax) {
    throw new HireportError("invalid", "The salary minimum is above the maximum.", {
      fields: [{ field: "salary_max", message: "Must be greater than or equal to salary_min." }],
    });
  }
}

/** Which jobs to list, and where the page starts. */
export interface JobListOptions {
  /** open (active), closed, draft or all (paused jobs show only under all). @default "all" */
  status?: JobListFilter;
  /** Only jobs changed at or after this time. */
  updatedSince?: Date;
  /** Page size, 1 to 100. @default 25 */
  limit?: number;
  /** The `nextCursor` of the previous page, with the same filters. */
  cursor?: string;
}

/**
 * Jobs: create, change, close, read and list, behind the HTTP handlers and the host's `api.jobs`
 * alike. Inputs arrive validated (by the route table's schemas, or by the host facade); each
 * write returns its record and the wire object it emitted, built once.
 */
export class JobService {
  readonly #runtime: Runtime;

  constructor(runtime: Runtime) {
    this.#runtime = runtime;
  }

  /** Creates a job (default status `draft`) and emits job.created. */
  async create(companyId: string, body: JobCreateBody): Promise<Written<JobRecord, JobWire>> {
    const { storage } = this.#runtime;
    if (!(await storage.companies.get(companyId))) throw unknownCompany(companyId);
    const fields: JobFields = { ...jobFieldDefaults(), ...toFields(body) };
    checkSalary(fields);
    // Numbered before the transaction, so the company's counter row is not held until commit
    // (every job of the company would queue on it); a job that fails to be created leaves a gap.
    const sequence = await this.#runtime.referenceNumbers.next(companyId, "job");
    return runChange(this.#runtime, async (tx, emit, now) => {
      const job: JobRecord = {
        ...fields,
        id: newId("job", now),
        companyId,
        reference: `JOB-${1000 + sequence}`,
        status: body.status,
        hidden: false,
        applicationsCount: 0,
        createdAt: now,
        updatedAt: now,
        closedAt: null,
        publishedAt: null,
      };
      if (this.#runtime.publicJobs.isPublic(job)) job.publishedAt = now;
      await tx.jobs.insert(job);
      return this.#emitted(emit, "job.created", job);
    });
  }

  /**
   * Changes the fields present in `body` and emits job.updated. A status moves a closed job back
   * to it (reopening). A change that changes nothing writes nothing and emits nothing.
   */
  async update(companyId: string, id: string, body: JobPatchBody): Promise<Written<JobRecord, JobWire>> {
    return runChange(this.#runtime, async (tx, emit, now) => {
      const current = await tx.jobs.get(companyId, id, { lock: true });
      if (!current) throw notFound("job");
      const patch: JobPatch = { updatedAt: laterThan(current, now) };
      let changed = false;
      for (const [field, value] of Object.entries(toFields(body)) as [keyof JobFields, unknown][]) {
        if (!sameValue(current[field], value)) {
          (patch as Record<string, unknown>)[field] = value;
          changed = true;
        }
      }
      if (body.status !== undefined && body.status !== current.status) {
        patch.status = body.status;
        if (current.status === "closed") patch.closedAt = null;
        changed = true;
      }
      if (!changed) return this.#unchanged(current);
      checkSalary({ ...current, ...patch } as JobFields);
      this.#publishedBy(current, patch, now);
      const job = await tx.jobs.update(companyId, id, patch);
      if (!job) throw notFound("job");
      return this.#emitted(emit, "job.updated", job);
    });
  }

  /** Closes a job and emits job.closed; closing a closed job returns it unchanged and emits nothing. */
  async close(companyId: string, id: string): Promise<Written<JobRecord, JobWire>> {
    return runChange(this.#runtime, async (tx, emit, now) => {
      const current = await tx.jobs.get(companyId, id, { lock: true });
      if (!current) throw notFound("job");
      if (current.status === "closed") return this.#unchanged(current);
      const job = await tx.jobs.update(companyId, id, {
        status: "closed",
        closedAt: now,
        updatedAt: laterThan(current, now),
      });
      if (!job) throw notFound("job");
      return this.#emitted(emit, "job.closed", job);
    });
  }

  /**
   * Hides an active job from public pages (its `public_url` becomes null) or shows it again.
   * Emits job.updated when it changes.
   */
  async setHidden(companyId: string, id: string, hidden: boolean): Promise<Written<JobRecord, JobWire>> {
    return runChange(this.#runtime, async (tx, emit, now) => {
      const current = await tx.jobs.get(companyId, id, { lock: true });
      if (!current) throw notFound("job");
      if (current.hidden === hidden) return this.#unchanged(current);
      const patch: JobPatch = { hidden, updatedAt: laterThan(current, now) };
      this.#publishedBy(current, patch, now);
      const job = await tx.jobs.update(companyId, id, patch);
      if (!job) throw notFound("job");
      return this.#emitted(emit, "job.updated", job);
    });
  }

  /** The whole stored job, every JobInput field included; throws not_found for another company's id. */
  async get(companyId: string, id: string, options?: ReadOptions): Promise<JobRecord> {
    const job = await this.#runtime.storage.jobs.get(companyId, id, options?.replica ? REPLICA : undefined);
    if (!job) throw notFound("job");
    return job;
  }

  /** One page of the company's jobs, newest first. */
  async list(companyId: string, options: JobListOptions): Promise<Page<JobRecord>> {
    const { storage, cursors } = this.#runtime;
    const status = options.status ?? "all";
    const scope = cursorScope("jobs", companyId, { status, updated_since: options.updatedSince?.toISOString() });
    const request = await pageRequest(cursors, scope, options);
    const statuses = STATUS_FILTER[status];
    const rows = await storage.jobs.list({
      companyId,
      take: request.limit + 1,
      ...(statuses ? { statuses } : {}),
      ...(options.updatedSince ? { updatedSince: options.updatedSince } : {}),
      ...(request.after ? { after: request.after } : {}),
    });
    return toPage(cursors, request, rows, (job) => job.createdAt);
  }

  async #emitted(
    emit: Emit,
    type: "job.created" | "job.updated" | "job.closed",
    job: JobRecord,
  ): Promise<Written<JobRecord, JobWire>> {
    const wire = this.#runtime.serializer.job(job);
    await emit(type, job.companyId, wire);
    // The version an application was last checked against is replaced (its write would see that too).
    this.#runtime.recentJobs.forget(job.companyId, job.id);
    return { record: job, wire };
  }

  /** Sets `publishedAt` in the patch when it makes a job public for the first time. */
  #publishedBy(current: JobRecord, patch: JobPatch, now: Date): void {
    if (current.publishedAt !== null) return;
    if (this.#runtime.publicJobs.isPublic({ ...current, ...patch } as JobRecord)) patch.publishedAt = now;
  }

  #unchanged(job: JobRecord): Written<JobRecord, JobWire> {
    return { record: job, wire: this.#runtime.serializer.job(job) };
  }
}

/**
 * The `updatedAt` of a change to `current`: now, or a millisecond after the version it replaces
 * when the clock has not moved past it (two changes in one millisecond, another process's clock
 * behind). A job's `updatedAt` thus names one version: the write of an application checks it to
 * know that the job it checked the application against is still the current one.
 */
function laterThan(current: JobRecord, now: Date): Date {
  const after = current.updatedAt.getTime() + 1;
  return now.getTime() >= after ? now : new Date(after);
}
