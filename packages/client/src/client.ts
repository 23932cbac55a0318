import { type EventFeedOptions, EventFeedRun } from "./events-feed";
import { allItems, type PageAnswer, type SyncOptions, SyncRun } from "./paging";
import {
  type Call,
  type CallOptions,
  type ClientOptions,
  createTransport,
  type PatchOptions,
  type PostOptions,
} from "./transport";
import type {
  ApiOperationId,
  Application,
  ApplicationInput,
  ApplicationListParams,
  ApplicationPatchInput,
  EventEnvelope,
  EventListParams,
  Job,
  JobInput,
  JobListParams,
  JobPatchInput,
  Me,
  operations,
  Page,
  paths,
  SuccessBody,
  WebhookDelivery,
  WebhookDeliveryListParams,
  WebhookEndpoint,
  WebhookEndpointInput,
  WebhookEndpointPatchInput,
  WebhookEndpointWithSecret,
  WebhookTestResult,
} from "./types";

type HttpMethod = "get" | "post" | "patch" | "delete";

/** The path and method of `paths` whose operation is `operations[K]`: checked against the generated document. */
type RouteOf<K extends ApiOperationId> = {
  [P in keyof paths]: {
    [M in HttpMethod]: paths[P][M] extends operations[K]
      ? operations[K] extends paths[P][M]
        ? { path: P; method: Uppercase<M> }
        : never
      : never;
  }[HttpMethod];
}[keyof paths];

/** Where each operation lives. `satisfies` fails to compile when a path or method drifts from core's document. */
const ROUTES = {
  getMe: { path: "/me", method: "GET" },
  listJobs: { path: "/jobs", method: "GET" },
  createJob: { path: "/jobs", method: "POST" },
  getJob: { path: "/jobs/{id}", method: "GET" },
  updateJob: { path: "/jobs/{id}", method: "PATCH" },
  closeJob: { path: "/jobs/{id}/close", method: "POST" },
  listApplications: { path: "/applications", method: "GET" },
  createApplication: { path: "/applications", method: "POST" },
  getApplication: { path: "/applications/{id}", method: "GET" },
  updateApplication: { path: "/applications/{id}", method: "PATCH" },
  listEvents: { path: "/events", method: "GET" },
  listWebhookEndpoints: { path: "/webhook-endpoints", method: "GET" },
  createWebhookEndpoint: { path: "/webhook-endpoints", method: "POST" },
  getWebhookEndpoint: { path: "/webhook-endpoints/{id}", method: "GET" },
  updateWebhookEndpoint: { path: "/webhook-endpoints/{id}", method: "PATCH" },
  deleteWebhookEndpoint: { path: "/webhook-endpoints/{id}", method: "DELETE" },
  rotateWebhookEndpointSecret: { path: "/webhook-endpoints/{id}/rotate-secret", method: "POST" },
  pauseWebhookEndpoint: { path: "/webhook-endpoints/{id}/pause", method: "POST" },
  resumeWebhookEndpoint: { path: "/webhook-endpoints/{id}/resume", method: "POST" },
  testWebhookEndpoint: { path: "/webhook-endpoints/{id}/test", method: "POST" },
  listWebhookDeliveries: { path: "/webhook-endpoints/{id}/deliveries", method: "GET" },
  resendWebhookDelivery: { path: "/webhook-endpoints/{id}/deliveries/{delivery_id}/resend", method: "POST" },
  getEventSample: { path: "/event-samples/{type}", method: "GET" },
} as const satisfies { [K in ApiOperationId]: RouteOf<K> };

/** Options of `listAll`: the list's filters, plus the page size. */
export type ListAllParams<P> = Omit<P, "cursor" | "limit"> & {
  /** Page size, 1 to 100. @default 100 */
  limit?: number | undefined;
  /** Start after this cursor instead of at the newest record. @default none */
  cursor?: string | undefined;
};

/** The jobs of the key's company. */
export interface JobsResource {
  /** One page of jobs, newest first (GET /jobs). */
  list(params?: JobListParams, options?: CallOptions): Promise<Page<Job>>;
  /** Every job matching `params`, all pages, newest first: `for await (const job of client.jobs.listAll())`. */
  listAll(params?: ListAllParams<JobListParams>, options?: CallOptions): AsyncGenerator<Job, void, undefined>;
  /** The jobs changed at or after `since` (all statuses unless `status` says otherwise); then store `nextSince`. */
  sync(options?: SyncOptions & Pick<JobListParams, "status">, callOptions?: CallOptions): SyncRun<Job>;
  /** One job (GET /jobs/{id}). */
  get(id: string, options?: CallOptions): Promise<Job>;
  /** Creates a job; only `title` is required (POST /jobs). */
  create(input: JobInput, options?: PostOptions): Promise<Job>;
  /** Changes the fields sent (PATCH /jobs/{id}). */
  update(id: string, input: JobPatchInput, options?: PatchOptions): Promise<Job>;
  /** Closes a job; closing a closed job changes nothing (POST /jobs/{id}/close). */
  close(id: string, options?: PostOptions): Promise<Job>;
}

/** The applications of the key's company. */
export interface ApplicationsResource {
  /** One page of applications, newest first (GET /applications). */
  list(params?: ApplicationListParams, options?: CallOptions): Promise<Page<Application>>;
  /** Every application matching `params`, all pages, newest first. */
  listAll(
    params?: ListAllParams<ApplicationListParams>,
    options?: CallOptions,
  ): AsyncGenerator<Application, void, undefined>;
  /** The applications changed at or after `since` (optionally of one job or stage); then store `nextSince`. */
  sync(
    options?: SyncOptions & Pick<ApplicationListParams, "job_id" | "stage">,
    callOptions?: CallOptions,
  ): SyncRun<Application>;
  /** One application, with the candidate's contact details and a short-lived CV link (GET /applications/{id}). */
  get(id: string, options?: CallOptions): Promise<Application>;
  /** Adds a candidate to a job (POST /applications); a repeat within 30 days is a 409 `duplicate`. */
  create(input: ApplicationInput, options?: PostOptions): Promise<Application>;
  /** Moves an application, adds a note, sets tags or the star (PATCH /applications/{id}). */
  update(id: string, input: ApplicationPatchInput, options?: PatchOptions): Promise<Application>;
}

/** The events feed: what the webhooks carry, for a system that cannot receive them (GET /events). */
export interface EventsResource {
  /** One page of events, oldest first; `next_cursor` is given on the last page too (GET /events). */
  list(params?: EventListParams, options?: CallOptions): Promise<Page<EventEnvelope>>;
  /**
   * Every event after `cursor`, oldest first, page after page until caught up; then store the
   * run's `cursor` and start the next run with it:
   * `const run = client.events.read({ cursor }); for await (const event of run) …; save(run.cursor)`.
   */
  read(feed?: EventFeedOptions, options?: CallOptions): EventFeedRun;
}

/**
 * The company's webhook endpoints (subscriptions), where the host mounts `@hireport/webhooks`'s
 * routes (elsewhere every call is a 404 `not_found`). Reads need `webhooks:read`, changes
 * `webhooks:write`.
 */
export interface WebhookEndpointsResource {
  /** Every endpoint of the company, without secrets (GET /webhook-endpoints). */
  list(options?: CallOptions): Promise<WebhookEndpoint[]>;
  /**
   * Subscribes: `{ url, events }`, or REST Hooks `{ target_url, event }` (POST /webhook-endpoints).
   * The answer's `secret` is shown this once.
   */
  create(input: WebhookEndpointInput, options?: PostOptions): Promise<WebhookEndpointWithSecret>;
  /** One endpoint (GET /webhook-endpoints/{id}). */
  get(id: string, options?: CallOptions): Promise<WebhookEndpoint>;
  /** Changes the fields sent (PATCH /webhook-endpoints/{id}). */
  update(id: string, input: WebhookEndpointPatchInput, options?: PatchOptions): Promise<WebhookEndpoint>;
  /** Unsubscribes: deletes the endpoint and its deliveries (DELETE /webhook-endpoints/{id}). */
  delete(id: string, options?: CallOptions): Promise<void>;
  /** A new signing secret, shown this once; the old one signs beside it for 24 hours (POST …/rotate-secret). */
  rotateSecret(id: string, options?: PostOptions): Promise<WebhookEndpointWithSecret>;
  /** Stops deliveries; events still queue (POST …/pause). */
  pause(id: string, options?: PostOptions): Promise<WebhookEndpoint>;
  /** Starts deliveries again, paused or disabled (POST …/resume). */
  resume(id: string, options?: PostOptions): Promise<WebhookEndpoint>;
  /** Sends a `webhook.test` event now and answers with its attempt (POST …/test). */
  test(id: string, options?: PostOptions): Promise<WebhookTestResult>;
  /** One page of the endpoint's deliveries, newest first, with their attempts (GET …/deliveries). */
  deliveries(id: string, params?: WebhookDeliveryListParams, options?: CallOptions): Promise<Page<WebhookDelivery>>;
  /** Sends one of the endpoint's deliveries again (POST …/deliveries/{delivery_id}/resend). */
  resend(id: string, deliveryId: string, options?: PostOptions): Promise<WebhookDelivery>;
  /** An example envelope of an event kind (GET /event-samples/{type}). */
  sample(type: EventEnvelope["type"], options?: CallOptions): Promise<EventEnvelope>;
}

/** What `createClient` returns. */
export interface HireportClient {
  /** The calling key, its company, its permissions and its limits (GET /me). */
  me(options?: CallOptions): Promise<Me>;
  jobs: JobsResource;
  applications: ApplicationsResource;
  events: EventsResource;
  webhookEndpoints: WebhookEndpointsResource;
}

function pathFor(template: string, id?: string, params: Record<string, string> = {}): string {
  let path = template;
  for (const [name, value] of Object.entries(id === undefined ? params : { ...params, id })) {
    if (typeof value !== "string" || value.length === 0) throw new TypeError(`The ${name} must be a non-empty string.`);
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  }
  return path;
}

function idempotencyKeyFor(options: PostOptions | undefined): string | undefined {
  const wanted = options?.idempotencyKey;
  if (wanted === false) return undefined;
  if (wanted === undefined) return globalThis.crypto.randomUUID();
  if (typeof wanted !== "string" || wanted.length === 0) {
    throw new TypeError("idempotencyKey must be a non-empty string, or false.");
  }
  return wanted;
}

/**
 * A client of the hireport public API for one key.
 *
 * ```ts
 * const client = createClient({ baseUrl: "https://hr.example.com/api/public/v1", key: process.env.HIREPORT_KEY! });
 * const job = await client.jobs.create({ title: "Backend Engineer" });
 * ```
 */
export function createClient(options: ClientOptions): HireportClient {
  const transport = createTransport(options);

  async function call<K extends ApiOperationId>(
    operation: K,
    parts: {
      id?: string;
      params?: Record<string, string>;
      query?: object | undefined;
      body?: unknown;
      options?: CallOptions | undefined;
    },
    extra: { idempotencyKey?: string | undefined; retryPatch?: boolean | undefined } = {},
  ): Promise<{ body: SuccessBody<K>; headers: Headers }> {
    const route = ROUTES[operation];
    const request: Call = {
      method: route.method,
      path: pathFor(route.path, parts.id, parts.params),
      query: parts.query as Record<string, unknown> | undefined,
      body: parts.body,
      idempotencyKey: extra.idempotencyKey,
      retryUnsafe:
        route.method === "GET" ||
        route.method === "DELETE" ||
        (route.method === "POST" && extra.idempotencyKey !== undefined) ||
        (route.method === "PATCH" && (extra.retryPatch ?? transport.options.retryPatch)),
      signal: parts.options?.signal,
    };
    const answer = await transport.send<SuccessBody<K>>(request);
    return { body: answer.body, headers: answer.headers };
  }

  const data = <T>(answer: { body: { data: T } }): T => answer.body.data;

  const jobs: JobsResource = {
    async list(params, options) {
      return (await call("listJobs", { query: params, options })).body;
    },
    listAll(params = {}, options) {
      const { cursor, ...filters } = params;
      return allItems<Job>(
        async (next) => call("listJobs", { query: { limit: 100, ...filters, cursor: next }, options }).then(toPage),
        cursor,
      );
    },
    sync(syncOptions = {}, callOptions) {
      const { since: _since, safetyMarginMs: _margin, limit, ...filters } = syncOptions;
      return new SyncRun<Job>(
        (updatedSince, cursor) =>
          call("listJobs", {
            query: { ...filters, limit: limit ?? 100, updated_since: updatedSince, cursor },
            options: callOptions,
          }).then(toPage),
        syncOptions,
      );
    },
    async get(id, options) {
      return data(await call("getJob", { id, options }));
    },
    async create(input, options) {
      return data(await call("createJob", { body: input, options }, { idempotencyKey: idempotencyKeyFor(options) }));
    },
    async update(id, input, options) {
      return data(await call("updateJob", { id, body: input, options }, { retryPatch: options?.retry }));
    },
    async close(id, options) {
      return data(await call("closeJob", { id, options }, { idempotencyKey: idempotencyKeyFor(options) }));
    },
  };

  const applications: ApplicationsResource = {
    async list(params, options) {
      return (await call("listApplications", { query: params, options })).body;
    },
    listAll(params = {}, options) {
      const { cursor, ...filters } = params;
      return allItems<Application>(
        async (next) =>
          call("listApplications", { query: { limit: 100, ...filters, cursor: next }, options }).then(toPage),
        cursor,
      );
    },
    sync(syncOptions = {}, callOptions) {
      const { since: _since, safetyMarginMs: _margin, limit, ...filters } = syncOptions;
      return new SyncRun<Application>(
        (updatedSince, cursor) =>
          call("listApplications", {
            query: { ...filters, limit: limit ?? 100, updated_since: updatedSince, cursor },
            options: callOptions,
          }).then(toPage),
        syncOptions,
      );
    },
    async get(id, options) {
      return data(await call("getApplication", { id, options }));
    },
    async create(input, options) {
      return data(
        await call("createApplication", { body: input, options }, { idempotencyKey: idempotencyKeyFor(options) }),
      );
    },
    async update(id, input, options) {
      return data(await call("updateApplication", { id, body: input, options }, { retryPatch: options?.retry }));
    },
  };

  const events: EventsResource = {
    async list(params, options) {
      return (await call("listEvents", { query: params, options })).body;
    },
    read(feed, options) {
      return new EventFeedRun((query) => call("listEvents", { query, options }).then(toPage), feed);
    },
  };

  const post = (options: PostOptions | undefined) => ({ idempotencyKey: idempotencyKeyFor(options) });
  const webhookEndpoints: WebhookEndpointsResource = {
    async list(options) {
      return data(await call("listWebhookEndpoints", { options }));
    },
    async create(input, options) {
      return data(await call("createWebhookEndpoint", { body: input, options }, post(options)));
    },
    async get(id, options) {
      return data(await call("getWebhookEndpoint", { id, options }));
    },
    async update(id, input, options) {
      return data(await call("updateWebhookEndpoint", { id, body: input, options }, { retryPatch: options?.retry }));
    },
    async delete(id, options) {
      await call("deleteWebhookEndpoint", { id, options });
    },
    async rotateSecret(id, options) {
      return data(await call("rotateWebhookEndpointSecret", { id, options }, post(options)));
    },
    async pause(id, options) {
      return data(await call("pauseWebhookEndpoint", { id, options }, post(options)));
    },
    async resume(id, options) {
      return data(await call("resumeWebhookEndpoint", { id, options }, post(options)));
    },
    async test(id, options) {
      return data(await call("testWebhookEndpoint", { id, options }, post(options)));
    },
    async deliveries(id, params, options) {
      return (await call("listWebhookDeliveries", { id, query: params, options })).body;
    },
    async resend(id, deliveryId, options) {
      return data(
        await call("resendWebhookDelivery", { id, params: { delivery_id: deliveryId }, options }, post(options)),
      );
    },
    async sample(type, options) {
      return data(await call("getEventSample", { params: { type }, options }));
    },
  };

  return Object.freeze({
    async me(options?: CallOptions) {
      return data(await call("getMe", { options }));
    },
    jobs: Object.freeze(jobs),
    applications: Object.freeze(applications),
    events: Object.freeze(events),
    webhookEndpoints: Object.freeze(webhookEndpoints),
  });
}

function toPage<T>(answer: { body: Page<T>; headers: Headers }): PageAnswer<T> {
  return { page: answer.body, headers: answer.headers };
}
