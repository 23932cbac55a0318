import type { ErrorCode, FieldError, Scope } from "./types";

/** What every client error knows about the call that failed. */
export interface CallDescription {
  /** `GET`, `POST` or `PATCH`. */
  method: string;
  /** The path below the API root, with the id filled in: `/jobs/job_123`. */
  path: string;
  /** How many times the request was sent (1 when it was not retried). */
  attempts: number;
}

/** The parts of an API answer that a {@link HireportApiError} is made of. */
export interface ApiErrorParts extends CallDescription {
  status: number;
  /** The parsed JSON body of the answer, or its text when it was not JSON. */
  body: unknown;
  headers: Headers;
  /** The Idempotency-Key the request carried, if any. */
  idempotencyKey?: string | undefined;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Seconds to wait from a `Retry-After` header: whole seconds, or an HTTP date (counted from
 * `now`). Undefined when there is none or it cannot be read.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The `code` of a {@link HireportApiError}: the API's own codes, and two of the client's. */
export type ClientErrorCode =
  | ErrorCode
  /** An answer that is not the API's error body (a proxy's 502 page). */
  | "unexpected_response"
  /** No answer came back at all (a {@link HireportNetworkError}). */
  | "network_error";

/**
 * The one error class of the client: every call that fails rejects with a `HireportApiError`
 * (once retries, if any, are over), so one `instanceof` check and one `switch` on `code` handle
 * them all. For an answer of the API that is not 2xx its fields are those of the error body
 * (docs/api-reference.md, Errors) in camelCase, plus the status and the request id to quote when asking for help. An answer
 * that is not the API's error body (a proxy's 502 page) has the code `unexpected_response`. When
 * no answer came back at all the error is its subclass {@link HireportNetworkError}: status 0,
 * code `network_error`. (A call cancelled through its own `signal` rejects with the signal's reason.)
 */
export class HireportApiError extends Error implements CallDescription {
  override readonly name: string = "HireportApiError";
  /** The HTTP status: 400, 401, 403, 404, 405, 409, 413, 422, 429, 500, 503, …; 0 when no answer came back. */
  readonly status: number;
  /** The stable error code (`missing_scope`, `duplicate`, `rate_limited`, …), `unexpected_response` or `network_error`. */
  readonly code: ClientErrorCode;
  /** 422 `invalid`: one entry per field to fix, with a dotted path (`candidate.email`). */
  readonly fields: FieldError[] | undefined;
  /** 403 `missing_scope`: the permission the key lacks. */
  readonly requiredScope: Scope | undefined;
  /** 409 `duplicate`: the id of the earlier application of the same e-mail to the same job. */
  readonly existingId: string | undefined;
  /** The answer's `X-Request-Id`: quote it when asking for help. */
  readonly requestId: string | undefined;
  /** Seconds the answer's `Retry-After` asked to wait (429, 409 idempotency_in_progress). */
  readonly retryAfter: number | undefined;
  readonly method: string;
  readonly path: string;
  readonly attempts: number;
  /** The parsed body of the answer (or its text when it was not JSON); undefined when none came back. */
  readonly body: unknown;
  /**
   * The Idempotency-Key the request was sent with (every POST, unless turned off): after a
   * `network_error` or a 5xx, send the call again with it to learn safely whether it was carried out.
   */
  readonly idempotencyKey: string | undefined;

  constructor(parts: ApiErrorParts, failure?: { code: "network_error"; message: string; cause: unknown }) {
    const error = asRecord(asRecord(parts.body).error);
    const known = typeof error.code === "string" && typeof error.message === "string";
    const message =
      failure?.message ??
      (known ? (error.message as string) : `The API answered ${parts.status} ${parts.method} ${parts.path}.`);
    super(message, failure ? { cause: failure.cause } : undefined);
    this.status = parts.status;
    this.code = failure?.code ?? (known ? (error.code as ErrorCode) : "unexpected_response");
    this.fields = Array.isArray(error.fields) ? (error.fields as FieldError[]) : undefined;
    this.requiredScope = typeof error.required_scope === "string" ? (error.required_scope as Scope) : undefined;
    this.existingId = typeof error.existing_id === "string" ? error.existing_id : undefined;
    this.requestId = parts.headers.get("x-request-id") ?? undefined;
    this.retryAfter = parseRetryAfter(parts.headers.get("retry-after"));
    this.method = parts.method;
    this.path = parts.path;
    this.attempts = parts.attempts;
    this.body = parts.body;
    this.idempotencyKey = parts.idempotencyKey;
  }
}

/**
 * A {@link HireportApiError} for a call that got no answer: the connection failed or broke, or an
 * attempt ran past `timeoutMs`, on the last attempt (a request that may be retried was retried
 * first). `status` is 0 and `code` is `network_error`; `cause` is what `fetch` threw. The request
 * may or may not have been carried out: a POST sent with an Idempotency-Key can be sent again with
 * the same key (`idempotencyKey`) to find out safely.
 */
export class HireportNetworkError extends HireportApiError {
  override readonly name: string = "HireportNetworkError";
  declare readonly code: "network_error";

  constructor(call: CallDescription & { idempotencyKey?: string | undefined }, cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    const parts = { ...call, status: 0, body: undefined, headers: new Headers() };
    super(parts, { code: "network_error", message: `No answer to ${call.method} ${call.path}: ${detail}`, cause });
  }
}
