/**
 * The one error class of hireport. Every failure that reaches a client is a `HireportError`; its
 * `code` maps to its HTTP status by the table of docs/api-reference.md, Errors.
 */

/**
 * Error codes and their HTTP status: the table of docs/api-reference.md, Errors, and `key_limit`,
 * which only host code meets (a key over the company's limit, see `api.keys.create`). `endpoint_limit`:
 * a webhook endpoint over the company's limit (`maxEndpointsPerCompany` of `@hireport/webhooks`).
 */
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
  endpoint_limit: 409,
  cursor_expired: 410,
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

/** Marks every HireportError, whichever copy of `@hireport/core` made it (ESM and CJS, two installs). */
const BRAND = Symbol.for("@hireport/core/HireportError");

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
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** The error body (docs/api-reference.md, Errors), with `fields` (422) and `required_scope` (403) where they apply. */
  toBody(): { error: Record<string, unknown> } {
    const error: Record<string, unknown> = { code: this.code, message: this.message };
    if (this.fields) error.fields = this.fields;
    if (this.requiredScope) error.required_scope = this.requiredScope;
    Object.assign(error, this.extra);
    return { error };
  }
}

/**
 * Whether a value is a HireportError. Checked by a brand rather than `instanceof`, so that it holds
 * for errors made by another copy of `@hireport/core` (its CommonJS build, or a second install).
 */
export function isHireportError(value: unknown): value is HireportError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/** The 404, worded the same for a missing record and another company's record. */
export function notFound(what: string): HireportError {
  return new HireportError("not_found", `No ${what} with this id in your company.`);
}

/** 404 for a company hireport does not know: host code names companies, so the message says what to do. */
export function unknownCompany(companyId: string): HireportError {
  return new HireportError(
    "not_found",
    `hireport knows no company with id ${JSON.stringify(companyId)}: register it first with api.companies.upsert({ id, name }).`,
  );
}
