/**
 * The host's side of the services (`api.jobs`, `api.applications`): the same writes as over HTTP,
 * with the same events, for code in the host's own process. Inputs are typed from the request
 * schemas and parsed again at run time (422 `invalid` with `fields`), so JavaScript callers get
 * the API's own checks; every list returns one {@link Page} shape.
 */
import * as z from "zod";
import { type ChangeOptions, hostActor } from "./actor";
import {
  APPLICATION_STAGES,
  type ApplicationRecord,
  JOB_LIST_FILTERS,
  type JobRecord,
  type NoteRecord,
  type StageChangeRecord,
} from "./domain";
import type { Page } from "./paging";
import {
  type ApplicationCreateInput,
  type ApplicationPatchInput,
  applicationCreateBodySchema,
  applicationPatchBodySchema,
} from "./schemas/application";
import { type JobCreateInput, type JobPatchInput, jobCreateBodySchema, jobPatchBodySchema } from "./schemas/job";
import type { ApplicationListOptions, ApplicationService } from "./services/applications";
import type { JobListOptions, JobService } from "./services/jobs";
import { parseBody } from "./validation";

const pageOptions = {
  limit: z.int().optional(),
  cursor: z.string().min(1).optional(),
  updatedSince: z.date().optional(),
};
const jobListOptionsSchema = z.strictObject({ status: z.enum(JOB_LIST_FILTERS).optional(), ...pageOptions });
const hiddenSchema = z.strictObject({ hidden: z.boolean() });
/** How a 422 for bad list options begins: "The list query is not valid. …". */
const LIST_OPTIONS = "The list query";
const applicationListOptionsSchema = z.strictObject({
  jobId: z.string().min(1).optional(),
  stage: z.enum(APPLICATION_STAGES).optional(),
  ...pageOptions,
});

/** The host's `api.jobs`. Each change emits its event (job.created, job.updated, job.closed) as over HTTP. */
export interface HostJobs {
  /** Creates a job (status `draft` unless given) and emits job.created. @throws `invalid` (422), `not_found` for an unknown company */
  create(companyId: string, input: JobCreateInput): Promise<JobRecord>;
  /** Changes the fields given and emits job.updated; a status reopens a closed job. @throws `invalid`, `not_found` */
  update(companyId: string, id: string, input: JobPatchInput): Promise<JobRecord>;
  /** Closes a job and emits job.closed; a closed job is returned unchanged. @throws `not_found` */
  close(companyId: string, id: string): Promise<JobRecord>;
  /** Hides an active job from the public pages and feeds (its `public_url` becomes null), or shows it again. */
  setHidden(companyId: string, id: string, hidden: boolean): Promise<JobRecord>;
  /** @throws `not_found` for an id of another company, as for a missing one */
  get(companyId: string, id: string): Promise<JobRecord>;
  /** One page, newest first. @throws `invalid` for bad options, `bad_request` for a cursor of another list */
  list(companyId: string, options?: JobListOptions): Promise<Page<JobRecord>>;
}

/** The host's `api.applications`. Each change emits application.created or application.updated as over HTTP. */
export interface HostApplications {
  /**
   * Adds a candidate (stage `new`, source `host` unless given) and emits application.created.
   * `options.actor` names who added it in the stage history. @throws `invalid`, `not_found`, `duplicate` (409)
   */
  create(companyId: string, input: ApplicationCreateInput, options?: ChangeOptions): Promise<ApplicationRecord>;
  /** Moves the stage, adds a note, sets tags or the star; emits application.updated when something changed. */
  update(
    companyId: string,
    id: string,
    input: ApplicationPatchInput,
    options?: ChangeOptions,
  ): Promise<ApplicationRecord>;
  /** Sets `scores.overall` (0 to 100, or null to clear) and emits application.updated. */
  setOverallScore(companyId: string, id: string, score: number | null): Promise<ApplicationRecord>;
  get(companyId: string, id: string): Promise<ApplicationRecord>;
  /** One page, newest first. @throws `not_found` when `jobId` names another company's job */
  list(companyId: string, options?: ApplicationListOptions): Promise<Page<ApplicationRecord>>;
  /** The stage history, oldest first, each move with who made it. */
  history(companyId: string, id: string): Promise<StageChangeRecord[]>;
  /** The recruiter notes, oldest first. */
  notes(companyId: string, id: string): Promise<NoteRecord[]>;
}

export function hostJobs(jobs: JobService): HostJobs {
  const host: HostJobs = {
    create: async (companyId, input) =>
      (await jobs.create(companyId, parseBody(jobCreateBodySchema, input, "The job"))).record,
    update: async (companyId, id, input) =>
      (await jobs.update(companyId, id, parseBody(jobPatchBodySchema, input, "The change"))).record,
    close: async (companyId, id) => (await jobs.close(companyId, id)).record,
    setHidden: async (companyId, id, hidden) => {
      const flag = parseBody(hiddenSchema, { hidden }, "The change").hidden;
      return (await jobs.setHidden(companyId, id, flag)).record;
    },
    get: (companyId, id) => jobs.get(companyId, id),
    // async: a bad option rejects the promise, it never throws synchronously.
    list: async (companyId, options = {}) =>
      jobs.list(companyId, parseBody(jobListOptionsSchema, options, LIST_OPTIONS) as JobListOptions),
  };
  return Object.freeze(host);
}

export function hostApplications(applications: ApplicationService): HostApplications {
  const host: HostApplications = {
    create: async (companyId, input, options) => {
      const body = parseBody(applicationCreateBodySchema, input, "The application");
      return (await applications.create(companyId, body, hostActor(options))).record;
    },
    update: async (companyId, id, input, options) => {
      const body = parseBody(applicationPatchBodySchema, input, "The change");
      return (await applications.update(companyId, id, body, hostActor(options))).record;
    },
    setOverallScore: async (companyId, id, score) => (await applications.setOverallScore(companyId, id, score)).record,
    get: (companyId, id) => applications.get(companyId, id),
    list: async (companyId, options = {}) =>
      applications.list(
        companyId,
        parseBody(applicationListOptionsSchema, options, LIST_OPTIONS) as ApplicationListOptions,
      ),
    history: (companyId, id) => applications.history(companyId, id),
    notes: (companyId, id) => applications.notes(companyId, id),
  };
  return Object.freeze(host);
}
