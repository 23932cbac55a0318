import { keyActor } from "./actor";
import { cursorScope } from "./cursor";
import type { ApiKeyWithCompany } from "./domain";
import type { QueryBag } from "./http-types";
import type { OperationId } from "./routes";
import type { Runtime } from "./runtime";
import { parseApplicationListQuery, parseJobListQuery } from "./schemas/query";
import { expandScopes } from "./scopes";
import type { ApplicationService } from "./services/applications";
import type { JobService } from "./services/jobs";
import type { KeysetPosition } from "./storage";

export interface HandlerContext {
  auth: ApiKeyWithCompany;
  params: Record<string, string>;
  query: QueryBag;
  body: unknown;
}

export interface HandlerResult {
  status: number;
  body: unknown;
}

export interface Services {
  jobs: JobService;
  applications: ApplicationService;
}

type Handler = (context: HandlerContext) => Promise<HandlerResult>;

/** Builds a page of spec 2.5 from `take = limit + 1` rows. */
async function page<T extends { id: string }, W>(
  runtime: Runtime,
  scope: string,
  rows: T[],
  limit: number,
  sortTime: (row: T) => Date,
  serialize: (row: T) => W | Promise<W>,
): Promise<HandlerResult> {
  const hasMore = rows.length > limit;
  const pageRows = rows.slice(0, limit);
  const last = pageRows[pageRows.length - 1];
  const position: KeysetPosition | null = hasMore && last ? { at: sortTime(last), id: last.id } : null;
  return {
    status: 200,
    body: {
      data: await Promise.all(pageRows.map(serialize)),
      has_more: hasMore,
      next_cursor: position ? await runtime.cursors.encode(scope, position) : null,
    },
  };
}

/** One function per operation of the route table; each runs after auth, rate limit and scope checks. */
export function createHandlers(runtime: Runtime, services: Services): Record<OperationId, Handler> {
  const { serializer, cursors, limits } = runtime;
  const id = (context: HandlerContext) => context.params.id as string;
  const companyId = (context: HandlerContext) => context.auth.company.id;

  return {
    async getMe({ auth }) {
      return {
        status: 200,
        body: {
          data: {
            company: { id: auth.company.id, name: auth.company.name },
            key: { id: auth.key.id, name: auth.key.name, scopes: expandScopes(auth.key.scopes) },
            limits: { per_minute: limits.perMinute, per_day: limits.perDay },
          },
        },
      };
    },

    async listJobs(context) {
      const query = parseJobListQuery(context.query);
      const scope = cursorScope("jobs", companyId(context), {
        status: query.status,
        updated_since: query.updatedSince?.toISOString(),
      });
      const after = query.cursor ? await cursors.decode(scope, query.cursor) : undefined;
      const rows = await services.jobs.list(companyId(context), {
        status: query.status,
        take: query.limit + 1,
        ...(query.updatedSince ? { updatedSince: query.updatedSince } : {}),
        ...(after ? { after } : {}),
      });
      return page(
        runtime,
        scope,
        rows,
        query.limit,
        (job) => job.createdAt,
        (job) => serializer.job(job),
      );
    },

    async createJob(context) {
      const job = await services.jobs.create(companyId(context), context.body);
      return { status: 201, body: { data: serializer.job(job) } };
    },

    async getJob(context) {
      const job = await services.jobs.get(companyId(context), id(context));
      return { status: 200, body: { data: serializer.job(job) } };
    },

    async updateJob(context) {
      const job = await services.jobs.update(companyId(context), id(context), context.body);
      return { status: 200, body: { data: serializer.job(job) } };
    },

    async closeJob(context) {
      const job = await services.jobs.close(companyId(context), id(context));
      return { status: 200, body: { data: serializer.job(job) } };
    },

    async listApplications(context) {
      const query = parseApplicationListQuery(context.query);
      const scope = cursorScope("applications", companyId(context), {
        job_id: query.jobId,
        stage: query.stage,
        updated_since: query.updatedSince?.toISOString(),
      });
      const after = query.cursor ? await cursors.decode(scope, query.cursor) : undefined;
      // A job filter names a job of the key's company: another company's job answers 404, never an empty page.
      if (query.jobId !== undefined) await services.jobs.get(companyId(context), query.jobId);
      const rows = await services.applications.list(companyId(context), {
        take: query.limit + 1,
        ...(query.jobId !== undefined ? { jobId: query.jobId } : {}),
        ...(query.stage !== undefined ? { stage: query.stage } : {}),
        ...(query.updatedSince ? { updatedSince: query.updatedSince } : {}),
        ...(after ? { after } : {}),
      });
      return page(
        runtime,
        scope,
        rows,
        query.limit,
        (application) => application.appliedAt,
        (application) => serializer.application(application),
      );
    },

    async createApplication(context) {
      const application = await services.applications.create(companyId(context), context.body, {
        actor: keyActor(context.auth.key),
      });
      return { status: 201, body: { data: await serializer.application(application) } };
    },

    async getApplication(context) {
      const application = await services.applications.get(companyId(context), id(context));
      return { status: 200, body: { data: await serializer.application(application) } };
    },

    async updateApplication(context) {
      const application = await services.applications.update(companyId(context), id(context), context.body, {
        actor: keyActor(context.auth.key),
      });
      return { status: 200, body: { data: await serializer.application(application) } };
    },
  };
}
