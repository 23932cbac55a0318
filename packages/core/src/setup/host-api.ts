/**
 * The host's side of the services (`api.jobs`, `api.applications`): the same writes as over HTTP,
 * with the same events, for code in the host's own process. Inputs are typed from the request
 * schemas and parsed again at run time (422 `invalid` with `fields`), so JavaScript callers get
 * the API's own checks; every list returns one {@link Page} shape.
 */
import * as z from "zod";
import { type ChangeOptions, hostActor } from "../access/actor";
import {
  APPLICATION_STAGES,
  type ApplicationRecord,
  EVENT_TYPES,
  type EventType,
  JOB_LIST_FILTERS,
  type JobRecord,
  type NoteRecord,
  SCOPES,
  type StageChangeRecord,
} from "../model/domain";
import type { Page } from "../model/paging";
import type { PublicJobRules } from "../model/public-jobs";
import type { ReadOptions } from "../runtime/read-options";
import {
  type ApplicationCreateInput,
  type ApplicationPatchInput,
  applicationCreateBodySchema,
  applicationPatchBodySchema,
} from "../schemas/application";
import { type JobCreateInput, type JobPatchInput, jobCreateBodySchema, jobPatchBodySchema } from "../schemas/job";
import { parseBody } from "../schemas/validation";
import type {
  ApplicationCreateExtras,
  ApplicationListOptions,
  ApplicationService,
  HumanReviewResult,
} from "../services/applications";
import type { EventEnvelope, EventFeedService } from "../services/events";
import type { JobListOptions, JobService } from "../services/jobs";
import type { PublicJobListOptions, PublicJobLookup, PublicListing } from "../services/public-listing";

const pageOptions = {
  limit: z.int().optional(),
  cursor: z.string().min(1).optional(),
  updatedSince: z.date().optional(),
};
const jobListOptionsSchema = z.strictObject({ status: z.enum(JOB_LIST_FILTERS).optional(), ...pageOptions });
const hiddenSchema = z.strictObject({ hidden: z.boolean() });
const eventListOptionsSchema = z.strictObject({
  types: z.array(z.enum(EVENT_TYPES)).min(1).optional(),
  createdSince: z.date().optional(),
  limit: z.int().optional(),
  cursor: z.string().min(1).optional(),
});
/** How a 422 for bad list options begins: "The list query is not valid. …". */
const LIST_OPTIONS = "The list query";
const applicationListOptionsSchema = z.strictObject({
  jobId: z.string().min(1).optional(),
  stage: z.enum(APPLICATION_STAGES).optional(),
  ...pageOptions,
});

const resumeSchema = z.strictObject({
  filename: z.string().min(1),
  contentType: z
    .string()
    .regex(/^[\w.+-]+\/[\w.+-]+(?:\s*;\s*[\w.+-]+=[\w.+-]+)*$/, "A media type such as application/pdf."),
  body: z.custom<ReadableStream<Uint8Array> | Uint8Array>(
    (value) => value instanceof Uint8Array || (typeof value === "object" && value !== null && "getReader" in value),
    "A ReadableStream or a Uint8Array.",
  ),
});
const createExtrasSchema = z.object({
  resume: resumeSchema.optional(),
  publicJobOnly: z.boolean().optional(),
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
  /**
   * `options.replica` lets a storage with a read replica answer (a copy as old as its lag).
   * @throws `not_found` for an id of another company, as for a missing one
   */
  get(companyId: string, id: string, options?: ReadOptions): Promise<JobRecord>;
  /** One page, newest first. @throws `invalid` for bad options, `bad_request` for a cursor of another list */
  list(companyId: string, options?: JobListOptions): Promise<Page<JobRecord>>;
}

/** Options of `api.applications.create`: who adds the candidate, and what comes with the application. */
export interface ApplicationCreateOptions extends ChangeOptions, ApplicationCreateExtras {}

/** The host's `api.applications`. Each change emits application.created or application.updated as over HTTP. */
export interface HostApplications {
  /**
   * Adds a candidate (stage `new`, source `host` unless given) and emits application.created.
   * `options.actor` names who added it in the stage history; `options.resume` keeps a CV file in the
   * `fileStore` (deleted again when the application is refused); `options.publicJobOnly` refuses a
   * job that is not public (the careers site's form). @throws `invalid`, `not_found`, `duplicate` (409)
   */
  create(
    companyId: string,
    input: ApplicationCreateInput,
    options?: ApplicationCreateOptions,
  ): Promise<ApplicationRecord>;
  /**
   * Records the candidate's request for a person to review the application (candidates may ask for one): sets
   * `humanReviewRequestedAt` once, adds a note with its time to the history (by `options.actor`) and
   * emits application.updated; asking again changes nothing (`requested: false`). @throws `not_found`
   * for an unknown application, and for one whose candidate data was erased (it records nothing)
   */
  requestHumanReview(
    companyId: string,
    id: string,
    options?: ChangeOptions,
  ): Promise<{ application: ApplicationRecord } & HumanReviewResult>;
  /** Moves the stage, adds a note, sets tags or the star; emits application.updated when something changed. */
  update(
    companyId: string,
    id: string,
    input: ApplicationPatchInput,
    options?: ChangeOptions,
  ): Promise<ApplicationRecord>;
  /** Sets `scores.overall` (0 to 100, or null to clear) and emits application.updated. */
  setOverallScore(companyId: string, id: string, score: number | null): Promise<ApplicationRecord>;
  /**
   * `options.replica` lets a storage with a read replica answer (a copy as old as its lag).
   * @throws `not_found` for an id of another company, as for a missing one
   */
  get(companyId: string, id: string, options?: ReadOptions): Promise<ApplicationRecord>;
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
    get: (companyId, id, options) => jobs.get(companyId, id, options),
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
      const extras = parseBody(
        createExtrasSchema,
        { resume: options?.resume, publicJobOnly: options?.publicJobOnly },
        "The options object",
      );
      return (await applications.create(companyId, body, hostActor(options), extras as ApplicationCreateExtras)).record;
    },
    requestHumanReview: async (companyId, id, options) => {
      const { record, requested } = await applications.requestHumanReview(companyId, id, hostActor(options));
      return { application: record, requested };
    },
    update: async (companyId, id, input, options) => {
      const body = parseBody(applicationPatchBodySchema, input, "The change");
      return (await applications.update(companyId, id, body, hostActor(options))).record;
    },
    setOverallScore: async (companyId, id, score) => (await applications.setOverallScore(companyId, id, score)).record,
    get: (companyId, id, options) => applications.get(companyId, id, options),
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

/**
 * The host's `api.publicJobs`: the public side of jobs, as the careers site sees it. A job is public
 * while it is active, not hidden and its closing date has not passed (in the company's time zone,
 * the day itself included).
 */
export interface HostPublicJobs {
  /** One page of the company's public jobs, newest first. @throws `invalid` for a bad page size, `bad_request` for a cursor of another list */
  list(companyId: string, options?: PublicJobListOptions): Promise<Page<JobRecord>>;
  /** Whether a job is public now (`public`), was public once (`gone`: 410), or never was in this company (`unknown`: 404). */
  find(companyId: string, id: string): Promise<PublicJobLookup>;
  /** Whether the job is public now. */
  isPublic(job: JobRecord): boolean;
  /** The job's page on its company's careers site (`public_url`) while it is public, else null. */
  url(job: JobRecord): string | null;
  /** The root of the company's careers site (the `publicSiteUrl` option, else `publicBaseUrl`). */
  siteUrl(companyId: string): string;
  /** When a job with a closing date stops being public: the end of that day in the company's time zone; null without one. */
  validThrough(job: JobRecord): Date | null;
}

export function hostPublicJobs(listing: PublicListing, rules: PublicJobRules): HostPublicJobs {
  const host: HostPublicJobs = {
    list: (companyId, options = {}) =>
      listing.list(companyId, parseBody(publicListOptionsSchema, options, "The list options") as PublicJobListOptions),
    find: (companyId, id) => listing.find(companyId, id),
    isPublic: (job) => rules.isPublic(job),
    url: (job) => rules.url(job),
    siteUrl: (companyId) => rules.siteUrl(companyId),
    validThrough: (job) => rules.validThrough(job),
  };
  return Object.freeze(host);
}

const publicListOptionsSchema = z.strictObject({ limit: pageOptions.limit, cursor: pageOptions.cursor });

/** Options of `api.events.list`: GET /events' query, typed. */
export interface EventListOptions {
  /** Only events of these types. @default every type */
  types?: EventType[];
  /** Only events created at or after this time (never before the feed's window). @default the window's start */
  createdSince?: Date;
  /** Page size, 1 to 100. @default 25 */
  limit?: number;
  /** `nextCursor` of the previous page (valid for `eventFeedDays`). */
  cursor?: string;
}

/** `api.events`: the events feed of GET /events for host code, every event type, oldest first. */
export interface HostEvents {
  /**
   * One page of the company's events, as GET /events serves them (the webhook envelopes, by
   * position, oldest first; erased applications' events read erased), for every event type.
   * Follow `nextCursor` to read on; an empty page keeps a cursor to poll from.
   * @throws `invalid` (422) for bad options, `bad_request` for a cursor of another list,
   * `cursor_expired` (410) for a cursor older than the window
   */
  list(companyId: string, options?: EventListOptions): Promise<Page<EventEnvelope>>;
}

export function hostEvents(events: EventFeedService): HostEvents {
  return Object.freeze({
    list: async (companyId: string, options: EventListOptions = {}) => {
      const parsed = parseBody(eventListOptionsSchema, options, LIST_OPTIONS);
      return events.list(companyId, SCOPES, {
        ...(parsed.types === undefined ? {} : { types: [...new Set(parsed.types)] }),
        ...(parsed.createdSince === undefined ? {} : { createdSince: parsed.createdSince }),
        limit: parsed.limit,
        ...(parsed.cursor === undefined ? {} : { cursor: parsed.cursor }),
      });
    },
  });
}
