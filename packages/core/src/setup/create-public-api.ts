import { type ThrottleLimits, type ThrottleResult, throttle } from "../access/throttle";
import { UsageLog } from "../access/usage-log";
import { skillsMatchScore } from "../applications/scoring";
import { systemClock } from "../base/clock";
import type { ApiRequest, ApiResponse, FetchContext, HireportHandler } from "../base/http-types";
import type { Logger } from "../base/logger";
import type { Telemetry } from "../base/telemetry";
import { buildOpenApiDocument } from "../docs/openapi";
import { createApiAccess, registerApiAccess } from "../http/api-access";
import { routesWith } from "../http/extension";
import { createFetchHandler } from "../http/fetch-bridge";
import { serveFile } from "../http/file-route";
import { createHandlers } from "../http/handlers";
import { DEFAULT_HEALTH_TIMEOUT_MS, type HealthCheck, type HealthReport, runHealthChecks } from "../http/health";
import { createPipeline, errorResponse, toHireportError } from "../http/pipeline";
import { Router } from "../http/router";
import { ROUTES } from "../http/routes";
import { CursorCodec } from "../model/cursor";
import { newId } from "../model/ids";
import { PublicJobRules } from "../model/public-jobs";
import { RecentJobs } from "../runtime/recent-jobs";
import { ReferenceNumbers } from "../runtime/reference-numbers";
import type { Runtime } from "../runtime/runtime";
import { ApplicationService } from "../services/applications";
import { AuditLog } from "../services/audit-log";
import { CandidateService, type HostCandidates, hostCandidates } from "../services/candidates";
import { ChangeDetector, type HostChanges, hostChanges, resolveChangeDetection } from "../services/changes";
import { CompanyService } from "../services/companies";
import { EventFeedService, resolveEventFeedDays } from "../services/events";
import { JobService } from "../services/jobs";
import { KeyService } from "../services/keys";
import { PublicListing } from "../services/public-listing";
import {
  type ResolvedRetention,
  type RetentionCounts,
  RetentionService,
  resolveRetention,
} from "../services/retention";
import { FileTokens } from "../wire/file-tokens";
import { Serializer } from "../wire/serialize";
import {
  type HostApplications,
  type HostEvents,
  type HostJobs,
  type HostPublicJobs,
  hostApplications,
  hostEvents,
  hostJobs,
  hostPublicJobs,
} from "./host-api";
import type { CreatePublicApiOptions } from "./options";
import { resolveOptions } from "./resolve-options";

/** The object `createPublicApi` returns: the request handler and the host services. */
export interface PublicApi extends HireportHandler {
  /** Answers one API request. Never rejects: every failure becomes an error body (docs/api-reference.md, Errors). */
  handle(request: ApiRequest): Promise<ApiResponse>;
  /** Answers `GET {filesPath}/{token}`: the CV behind a signed `resume_url`. Never rejects. */
  handleFile(request: ApiRequest): Promise<ApiResponse>;
  /**
   * A Web `fetch` handler for the API and the CV route (Next.js, Hono, Bun, Deno); the client's
   * address is `context.ip` when given, else the first address of `X-Forwarded-For`.
   */
  fetch(request: Request, context?: FetchContext): Promise<Response>;
  /** The OpenAPI 3.1 document of the API, generated from the schemas that validate requests. */
  openapi(): Record<string, unknown>;
  /**
   * The HTML reference page rendered from `openapi()`, as served at `GET {basePath}/reference`. Its
   * renderer (Preact and `preact-render-to-string`) is loaded on the first call, not when the API is
   * created, and the page is rendered once.
   */
  reference(): Promise<string>;
  /**
   * The resolved settings adapters need: where the API and the CV route live, the body limit; and
   * whether a `fileStore` was given (the careers site needs one for the CVs it takes).
   */
  readonly settings: Readonly<{
    basePath: string;
    filesPath: string;
    maxBodyBytes: number;
    streamBody: false;
    hasFileStore: boolean;
    /** The `publicJobPages` option: whether public jobs have pages (`public_url`). */
    publicJobPages: boolean;
  }>;
  companies: CompanyService;
  keys: KeyService;
  jobs: HostJobs;
  applications: HostApplications;
  /** The public side of jobs: the public listing, a job's public state, its page's address. */
  publicJobs: HostPublicJobs;
  /**
   * Counts one hit of a name the host chooses (`careers:apply:{ip}`) against per-minute and per-day
   * limits in the storage's rate-limit store, atomically; a refused hit counts in neither window. The
   * day is the calendar day in `limits.dayTimeZone` (UTC by default).
   */
  throttle(name: string, limits: ThrottleLimits): Promise<ThrottleResult>;
  usage: UsageLog;
  /** The company's audit list: who created or revoked which key, changed which webhook, erased which candidate. */
  audit: AuditLog;
  /** Candidates' personal data: export (an access request) and erase (an erasure request). */
  candidates: HostCandidates;
  /** The events feed of GET /events, for host code: every event type, oldest first, by position. */
  events: HostEvents;
  /**
   * The change detector: finds the changes of jobs and applications that hireport did not make (the
   * product's own screens, scripts, SQL on its declared tables) and emits their events through the
   * outbox, as the API's own changes do. Needs a storage that can tell changes (`storage.changes`:
   * `kyselyStorage` with a `declaredDomain`).
   */
  changes: HostChanges;
  /** Retention: `purge()` removes what is older than the periods of the `retention` option. */
  retention: {
    /**
     * Removes what is older than its period, in bounded batches; counts per kind. Every kind runs
     * even when one part fails (an application whose CV file the file store will not delete, say).
     * @throws `RetentionError` after the run when a part failed: its `counts` (what went) and `failures` (what did not)
     */
    purge(): Promise<RetentionCounts>;
    /** The periods in force (days; null keeps the kind). */
    readonly settings: ResolvedRetention;
  };
  /**
   * A report for readiness probes, never rejecting: the `storage` check (one cheap read through the
   * storage: the database answers), the `open` check (fails once `close()` was called, so a
   * load balancer drains the process) and the checks of the `health.checks` option, each with its
   * status, duration and cleaned error message. Serve it with `healthResponse` (200 or 503).
   */
  health(): Promise<HealthReport>;
  /** Stops taking requests (503), waits for those under way and writes the pending usage log. */
  close(): Promise<void>;
  /**
   * The `telemetry` option (undefined without one): the careers site and the console given this
   * API report their spans to it.
   */
  readonly telemetry: Telemetry | undefined;
}

/** The company id the storage check reads: no company has it. */
const HEALTH_PROBE_ID = "cmp_health_probe";

/**
 * Creates the public API (v1, docs/api-reference.md) over the given storage. Mount `handle` with an adapter
 * (`@hireport/express`, `@hireport/fastify`, `@hireport/next`) or use `fetch` directly.
 */
export function createPublicApi(options: CreatePublicApiOptions): PublicApi {
  const resolved = resolveOptions(options);
  const extensions = options.extensions ?? [];
  // Throws at creation when an extension's route clashes with another: never at the first request.
  const routes = routesWith(ROUTES, extensions);
  const retentionSettings = resolveRetention(options.retention);
  const eventFeedDays = resolveEventFeedDays(options.eventFeedDays);
  const clock = options.clock ?? systemClock;
  const logger: Logger = options.logger ?? console;
  const fileTokens = new FileTokens(options.fileTokenSecret, resolved.fileTokenTtlSeconds, clock);
  const publicJobs = new PublicJobRules(
    { siteUrl: resolved.publicSiteUrl, timeZone: resolved.closingTimeZone, pages: resolved.publicJobPages },
    () => clock.now(),
  );
  const runtime: Runtime = Object.freeze({
    storage: options.storage,
    clock,
    logger,
    limits: resolved.limits,
    serializer: new Serializer({
      publicBaseUrl: resolved.publicBaseUrl,
      filesPath: resolved.filesPath,
      fileTokens,
      publicJobs,
      hostServesResumes: options.resolveResume !== undefined,
    }),
    publicJobs,
    cursors: new CursorCodec(options.fileTokenSecret),
    fileTokens,
    scoring: options.scoring ?? skillsMatchScore,
    basePath: resolved.basePath,
    filesPath: resolved.filesPath,
    resolveResume: options.resolveResume,
    fileStore: options.fileStore,
    onEvent: options.onEvent,
    telemetry: options.telemetry ?? undefined,
    referenceNumbers: new ReferenceNumbers(options.storage.companies, resolved.maxReferenceBlock),
    recentJobs: new RecentJobs(),
  });

  const jobs = new JobService(runtime);
  const applications = new ApplicationService(runtime);
  const candidates = new CandidateService(runtime);
  const events = new EventFeedService(runtime, eventFeedDays);
  const retention = new RetentionService(runtime, candidates, retentionSettings, eventFeedDays);
  const changes = hostChanges(new ChangeDetector(runtime, resolveChangeDetection(options.changes)), logger);
  const usage = new UsageLog(runtime, resolved.usageBatchSize, resolved.usageFlushMs, resolved.usageLog);
  const pending = new Set<Promise<unknown>>();
  let openapiDocument: Record<string, unknown> | undefined;
  let referencePage: string | undefined;
  let closed = false;
  const stopGauge = runtime.telemetry?.observe("hireport.usage.pending", () => usage.pending);

  const openapi = (): Record<string, unknown> => {
    openapiDocument ??= buildOpenApiDocument({ serverUrl: resolved.basePath, extensions });
    return openapiDocument;
  };
  const reference = async (): Promise<string> => {
    if (referencePage === undefined) {
      // Loaded on the first request of the page: a host that never serves it never loads Preact.
      const { renderApiReference } = await import("../docs/reference-page");
      referencePage ??= renderApiReference(openapi());
    }
    return referencePage;
  };

  const healthChecks: readonly HealthCheck[] = [
    {
      name: "storage",
      // A read by primary key of a company that does not exist: one indexed lookup, nothing locked.
      run: async () => {
        await options.storage.companies.get(HEALTH_PROBE_ID);
      },
    },
    {
      name: "open",
      run: async () => {
        if (closed) throw new Error("The API is closing: close() was called.");
      },
    },
    ...(options.health?.checks ?? []),
  ];
  const healthTimeoutMs = options.health?.timeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS;

  const handlers = createHandlers(runtime, { jobs, applications, events });
  const handle = createPipeline({
    runtime,
    router: new Router(routes),
    handlers,
    usage,
    openapi,
    reference,
    closed: () => closed,
    pending,
  });

  async function handleFile(request: ApiRequest): Promise<ApiResponse> {
    try {
      return await serveFile(runtime, request);
    } catch (error) {
      const failure = toHireportError(error, logger, newId("req"));
      return errorResponse(failure);
    }
  }

  const api: PublicApi = {
    handle,
    handleFile,
    fetch: (request) => fetchHandler(request),
    openapi,
    reference,
    settings: Object.freeze({
      basePath: resolved.basePath,
      filesPath: resolved.filesPath,
      maxBodyBytes: resolved.limits.maxBodyBytes,
      streamBody: false,
      hasFileStore: options.fileStore !== undefined,
      publicJobPages: resolved.publicJobPages,
    }),
    companies: new CompanyService(runtime),
    keys: new KeyService(runtime),
    jobs: hostJobs(jobs),
    applications: hostApplications(applications),
    publicJobs: hostPublicJobs(new PublicListing(runtime), publicJobs),
    throttle: (name, limits) => throttle(runtime, name, limits),
    usage,
    audit: new AuditLog(runtime),
    candidates: hostCandidates(candidates),
    events: hostEvents(events),
    changes,
    retention: Object.freeze({ purge: () => retention.purge(), settings: retentionSettings }),
    health: () => runHealthChecks(healthChecks, { timeoutMs: healthTimeoutMs, logger, now: () => clock.now() }),
    telemetry: runtime.telemetry,
    async close() {
      closed = true;
      await changes.stop();
      stopGauge?.();
      while (pending.size > 0) await Promise.allSettled([...pending]);
      await usage.flush();
    },
  };
  // Requests under `filesPath` go to the CV route, everything else to the API (which strips `basePath`).
  const fetchHandler = createFetchHandler(
    (request) =>
      resolved.filesPath && request.path.startsWith(`${resolved.filesPath}/`) ? handleFile(request) : handle(request),
    api.settings,
  );
  const frozen = Object.freeze(api);
  registerApiAccess(frozen, createApiAccess({ runtime, handlers, usage, closed: () => closed, pending }));
  return frozen;
}
