import type { ApiKeyWithCompany } from "./domain";
import type { ApiRequest, ApiResponse } from "./http-types";
import { OPENAPI_PATH, REFERENCE_PATH } from "./openapi";
import { ROUTES } from "./routes";
import type { RefusalReason, Telemetry } from "./telemetry";

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

/** The rate limit that refused a 429, read from its error body. */
function refusal(response: ApiResponse): RefusalReason | null {
  if (response.status !== 429 || typeof response.body !== "string") return null;
  if (response.body.includes('"code":"daily_limit"')) return "daily_limit";
  return response.body.includes('"code":"rate_limited"') ? "rate_limited" : null;
}

/**
 * Answers a request under its server span (active while it runs, so events it emits carry its
 * trace context), then ends the span and records its metrics. Used by the pipeline only when the
 * host passed `telemetry`.
 */
export async function tracedAnswer(
  telemetry: Telemetry,
  answer: (request: ApiRequest, requestId: string, log: RequestLog) => Promise<ApiResponse>,
  request: ApiRequest,
  requestId: string,
  log: RequestLog,
): Promise<ApiResponse> {
  const span = telemetry.startRequest(
    String(request?.method ?? "")
      .toUpperCase()
      .slice(0, 10),
  );
  let response: ApiResponse | undefined;
  try {
    response = await span.run(() => answer(request, requestId, log));
    return response;
  } finally {
    span.end({
      route: log.route,
      routed: ROUTE_TEMPLATES.has(log.route),
      // answer() never rejects; should it, the pipeline answers 500.
      status: response?.status ?? 500,
      companyId: log.auth?.company.id ?? null,
      keyId: log.auth?.key.id ?? null,
      refused: response ? refusal(response) : null,
    });
  }
}
