import type { ApiRequest, ApiResponse } from "../base/http-types";
import type { RefusalReason, RequestOutcome, RequestSurface, Telemetry } from "../base/telemetry";
import type { ApiKeyWithCompany } from "../model/domain";
import { OPENAPI_PATH, REFERENCE_PATH, ROUTES } from "./routes";

/** The route templates of the API: a request's `route` is one of them once it matched. */
const ROUTE_TEMPLATES: ReadonlySet<string> = new Set([
  ...ROUTES.map((route) => route.path),
  OPENAPI_PATH,
  REFERENCE_PATH,
]);

/** What the pipeline learns of a request while it answers it. */
interface RequestLog {
  route: string;
  auth: ApiKeyWithCompany | null;
}

/** The method as spans report it: as sent, upper case, cut to 10 characters. */
function methodOf(request: ApiRequest): string {
  return String(request?.method ?? "")
    .toUpperCase()
    .slice(0, 10);
}

/** The rate limit that refused a 429, read from its error body. */
function refusal(response: ApiResponse): RefusalReason | null {
  if (response.status !== 429 || typeof response.body !== "string") return null;
  if (response.body.includes('"code":"daily_limit"')) return "daily_limit";
  return response.body.includes('"code":"rate_limited"') ? "rate_limited" : null;
}

/**
 * Answers a request under its server span (active while it runs, so events it emits carry its
 * trace context), then ends the span with what `outcome` reports. The one place where request
 * spans start and end: the API's pipeline, the careers site and the console all come here.
 */
async function traced(
  telemetry: Telemetry,
  surface: RequestSurface,
  request: ApiRequest,
  answer: () => Promise<ApiResponse>,
  outcome: (response: ApiResponse | undefined) => Omit<RequestOutcome, "status">,
): Promise<ApiResponse> {
  const span = telemetry.startRequest(methodOf(request), { surface, headers: request?.headers ?? {} });
  let response: ApiResponse | undefined;
  try {
    response = await span.run(answer);
    return response;
  } finally {
    // The handlers never reject; should one, its caller answers 500.
    span.end({ ...outcome(response), status: response?.status ?? 500 });
  }
}

/**
 * Answers an API request under its server span, then records its metrics. Used by the pipeline
 * only when the host passed `telemetry`.
 */
export function tracedAnswer(
  telemetry: Telemetry,
  answer: (request: ApiRequest, requestId: string, log: RequestLog) => Promise<ApiResponse>,
  request: ApiRequest,
  requestId: string,
  log: RequestLog,
): Promise<ApiResponse> {
  return traced(
    telemetry,
    "api",
    request,
    () => answer(request, requestId, log),
    (response) => ({
      route: log.route,
      routed: ROUTE_TEMPLATES.has(log.route),
      companyId: log.auth?.company.id ?? null,
      keyId: log.auth?.key.id ?? null,
      refused: response ? refusal(response) : null,
    }),
  );
}

/**
 * What the careers site or the console notes of a request while it answers it, for its span: ids
 * only, never a person's name, e-mail address or CV, never a secret.
 */
export interface SpanNotes {
  /** The route template (`/jobs/{id}/apply`) once the request matched one; null for no route. */
  route: string | null;
  companyId: string | null;
  jobId: string | null;
  applicationId: string | null;
  /** The change a console form asks for, named as its audit entry (`key.created`). */
  action: string | null;
  /** The console user's id, when the host gives one. */
  userId: string | null;
}

/**
 * Answers a request of the careers site or the console under a server span, when the API they were
 * given has `telemetry` (`api.telemetry`); without it, just answers. `answer` fills the notes the
 * span reports as it learns them.
 */
export function traceRequest(
  telemetry: Telemetry | undefined,
  surface: Exclude<RequestSurface, "api">,
  request: ApiRequest,
  answer: (notes: SpanNotes) => Promise<ApiResponse>,
): Promise<ApiResponse> {
  const notes: SpanNotes = {
    route: null,
    companyId: null,
    jobId: null,
    applicationId: null,
    action: null,
    userId: null,
  };
  if (telemetry === undefined) return answer(notes);
  return traced(
    telemetry,
    surface,
    request,
    () => answer(notes),
    () => ({
      route: notes.route ?? String(request?.path ?? "").slice(0, 200),
      routed: notes.route !== null,
      companyId: notes.companyId,
      keyId: null,
      refused: null,
      jobId: notes.jobId,
      applicationId: notes.applicationId,
      action: notes.action,
      userId: notes.userId,
    }),
  );
}
