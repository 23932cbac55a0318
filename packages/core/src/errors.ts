/**
 * The one error class of hireport. Every failure that reaches a client is a `HireportError`; its
 * `code` maps to the status table of spec section 7 (plus the few codes DESIGN.md section 4 adds).
 */

/** Error codes and their HTTP status. The first eleven are the spec's table (section 7). */
export const ERROR_STATUS = {
  bad_request: 400,
  missing_key: 401,
  invalid_key: 401,
  expired_key: 401,
  missing_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  duplicate: 409,
  idempotency_in_progress: 409,
  key_limit: 409,
  payload_too_large: 413,
  invalid: 422,
  rate_limited: 429,
  daily_limit: 429,
  server_error: 500,
  service_unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One entry of the `fields` list of a 422 body: a dotted path and what to fix. */
export interface FieldError {
  field: string;
  message: string;
}

export interface HireportErrorOptions {
  /** For 422: what to fix, one entry per field. */
  fields?: FieldError[];
  /** For 403 missing_scope: the permission the key lacks. */
  requiredScope?: string;
  /** Extra headers for the answer (Retry-After, Allow). */
  headers?: Record<string, string>;
  /** Extra members of the error object, for codes that carry more (duplicate: `existing_id`). */
  extra?: Record<string, unknown>;
  cause?: unknown;
}

export class HireportError extends Error {
  override readonly name = "HireportError";
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields: FieldError[] | undefined;
  readonly requiredScope: string | undefined;
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: HireportErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.fields = options.fields;
    this.requiredScope = options.requiredScope;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }

  /** The error body of spec 2.7, with `fields` (422) and `required_scope` (403) where they apply. */
  toBody(): { error: Record<string, unknown> } {
    const error: Record<string, unknown> = { code: this.code, message: this.message };
    if (this.fields) error.fields = this.fields;
    if (this.requiredScope) error.required_scope = this.requiredScope;
    Object.assign(error, this.extra);
    return { error };
  }
}

export function isHireportError(value: unknown): value is HireportError {
  return value instanceof HireportError;
}

/** The 404 of spec 7, worded the same for a missing record and another company's record. */
export function notFound(what: string): HireportError {
  return new HireportError("not_found", `No ${what} with this id in your company.`);
}
