import { keyActor } from "../access/actor";
import { expandScopes } from "../access/scopes";
import type { Actor, ApiKeyWithCompany } from "../model/domain";
import type { Page } from "../model/paging";
import { REPLICA } from "../runtime/read-options";
import type { Runtime } from "../runtime/runtime";
import type { ApplicationService, StageChangeAudit } from "../services/applications";
import type { EventFeedService } from "../services/events";
import type { JobService } from "../services/jobs";
import type { OperationId, RouteBody, RouteQuery } from "./routes";

/** What a handler receives: the admitted key, the path parameters, and the validated query and body. */
export interface HandlerContext<Q, B> {
  auth: ApiKeyWithCompany;
  params: Record<string, string>;
  query: Q;
  body: B;
  /** Who makes a change instead of the key (a handler served beside the API, `@hireport/mcp`). @default the key */
  actor?: Actor;
  /** An audit entry recorded with a stage move, in its transaction (`updateApplication`). @default none */
  stageAudit?: StageChangeAudit;
}

export interface HandlerResult {
  status: number;
  body: unknown;
  /** The application the answer holds, when it creates one: a stored `Idempotency-Key` answer names it (erasure). */
  subjectId?: string;
}

export interface Services {
  jobs: JobService;
  applications: ApplicationService;
  events: EventFeedService;
}

/** One handler per operation of the route table, typed by its route's query and body. */
export type Handlers = {
  [K in OperationId]: (context: HandlerContext<RouteQuery<K>, RouteBody<K>>) => Promise<HandlerResult>;
};

/** A page of a list (docs/api-reference.md, Paging and sync): the wire rows, `has_more` and `next_cursor`. */
function wirePage<W>(page: Page<unknown>, data: W[]): HandlerResult {
  return { status: 200, body: { data, has_more: page.hasMore, next_cursor: page.nextCursor } };
}

/** One function per operation; each runs after routing, admission, the scope check and validation. */
export function createHandlers(runtime: Runtime, services: Services): Handlers {
  const { serializer, limits } = runtime;
  const id = (context: { params: Record<string, string> }) => context.params.id as string;
  const companyId = (context: { auth: ApiKeyWithCompany }) => context.auth.company.id;
  const data = (status: number, wire: unknown): HandlerResult => ({ status, body: { data: wire } });

  return {
    async getMe({ auth }) {
      return data(200, {
        company: { id: auth.company.id, name: auth.company.name },
        key: { id: auth.key.id, name: auth.key.name, scopes: expandScopes(auth.key.scopes) },
        limits: { per_minute: limits.perMinute, per_day: limits.perDay },
      });
    },

    async listJobs(context) {
      const page = await services.jobs.list(companyId(context), context.query);
      return wirePage(
        page,
        page.data.map((job) => serializer.job(job)),
      );
    },

    async createJob(context) {
      return data(201, (await services.jobs.create(companyId(context), context.body)).wire);
    },

    async getJob(context) {
      return data(200, serializer.job(await services.jobs.get(companyId(context), id(context), REPLICA)));
    },

    async updateJob(context) {
      return data(200, (await services.jobs.update(companyId(context), id(context), context.body)).wire);
    },

    async closeJob(context) {
      return data(200, (await services.jobs.close(companyId(context), id(context))).wire);
    },

    async listApplications(context) {
      const page = await services.applications.list(companyId(context), context.query);
      return wirePage(page, await serializer.applications(page.data));
    },

    async createApplication(context) {
      const written = await services.applications.create(
        companyId(context),
        context.body,
        context.actor ?? keyActor(context.auth.key),
      );
      return { ...data(201, written.wire), subjectId: written.record.id };
    },

    async getApplication(context) {
      const application = await services.applications.get(companyId(context), id(context), REPLICA);
      return data(200, await serializer.application(application));
    },

    async updateApplication(context) {
      const written = await services.applications.update(
        companyId(context),
        id(context),
        context.body,
        context.actor ?? keyActor(context.auth.key),
        context.stageAudit,
      );
      return data(200, written.wire);
    },

    async listEvents(context) {
      const page = await services.events.list(companyId(context), context.auth.key.scopes, context.query);
      return wirePage(page, page.data);
    },
  };
}
