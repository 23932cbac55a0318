/**
 * One API call: the request, its retries (p-retry) and the mapping of the answer. Fetch only, no
 * Node-only API, so it runs on Node 20+, Deno, Bun and Workers.
 *
 * Retry rules (README "Retries"):
 * - 429 (rate_limited, daily_limit): retried for every method, after the `Retry-After` seconds; a
 *   429 means the API did nothing (the limit is checked before the request runs, and a refused
 *   request does not count). A `Retry-After` longer than `maxRetryAfterSeconds` is not waited for:
 *   the error is thrown at once with its `retryAfter`.
 * - 409 idempotency_in_progress: an earlier attempt with the same Idempotency-Key is still running;
 *   retried after `Retry-After`, and then answered with that attempt's replayed answer.
 * - 500, 502, 503, 504 and network failures (including `timeoutMs`): retried with backoff only when
 *   sending the request twice is harmless: GET; POST with an Idempotency-Key (every POST gets one
 *   unless the caller turns it off: generated once and reused on every attempt); PATCH only when the
 *   caller opts in (`retryPatch`), because a PATCH that adds a note would add it twice.
 * - Every other status is final at once.
 */
import type { Options as RetryOptions } from "p-retry";
import { HireportApiError, HireportNetworkError } from "./errors";

/** What `onRetry` is told before a failed attempt is sent again. */
export interface RetryEvent {
  method: string;
  path: string;
  /** The attempt that failed, from 1. */
  attempt: number;
  /** Why: the API's error (429, 409, 5xx) or the network failure (a `HireportNetworkError`). */
  error: HireportApiError;
  /** Milliseconds waited for `Retry-After` before the backoff delay; 0 when the answer had none. */
  retryAfterMs: number;
}

/** What `onResponse` is told about every answer (each attempt's, errors included). */
export interface ResponseEvent {
  method: string;
  path: string;
  attempt: number;
  status: number;
  /** The answer's `X-Request-Id`. */
  requestId: string | undefined;
  /** True when the API replayed the stored answer of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
  /** The Idempotency-Key the request carried, if any. */
  idempotencyKey: string | undefined;
}

/** Options of `createClient`. */
export interface ClientOptions {
  /**
   * The API root as your provider publishes it, ending in `/api/public/v1`:
   * `https://hr.example.com/api/public/v1`.
   */
  baseUrl: string;
  /** The API key (`svc_live_…`). Keep it on a server. */
  key: string;
  /**
   * The `fetch` to send requests with (a wrapper for logging or tests, undici's with a custom
   * agent). @default globalThis.fetch
   */
  fetch?: typeof fetch;
  /** Retries after the first attempt; 0 turns retrying off. @default 3 */
  retries?: number;
  /** Backoff before the first retry, in milliseconds; each next one doubles, with jitter. @default 500 */
  minRetryDelayMs?: number;
  /** Longest backoff between two attempts, in milliseconds. @default 8000 */
  maxRetryDelayMs?: number;
  /**
   * Longest `Retry-After` (429, 409 idempotency_in_progress) the client waits for before retrying,
   * in seconds. A longer one (a `daily_limit` that resets at midnight UTC) is thrown at once as a
   * `HireportApiError` with `retryAfter`, for your own scheduling. @default 60
   */
  maxRetryAfterSeconds?: number;
  /**
   * Retry PATCH requests after 5xx answers and network failures too. Off by default: a PATCH with a
   * `note` adds the note again when it is sent again. Each call can override it (`{ retry }`).
   * (429 is retried for every method: the API did nothing.) @default false
   */
  retryPatch?: boolean;
  /** Time limit of one attempt (answer included), in milliseconds; 0 for none. A timeout counts as a network failure. @default 30000 */
  timeoutMs?: number;
  /** Send the key in `X-Service-Key` instead of `Authorization: Bearer`. @default "authorization" */
  keyHeader?: "authorization" | "x-service-key";
  /** Extra headers on every request (a `User-Agent` naming your integration). @default {} */
  headers?: Record<string, string>;
  /** Called before each retry: log it, count it. @default none */
  onRetry?: (event: RetryEvent) => void;
  /** Called on every answer, errors included: the request id, whether it was a replay. @default none */
  onResponse?: (event: ResponseEvent) => void;
}

/** Per-call options of every method. */
export interface CallOptions {
  /** Cancels the call, retries and waits included; the promise rejects with the signal's reason. @default none */
  signal?: AbortSignal;
}

/** Per-call options of POST methods. */
export interface PostOptions extends CallOptions {
  /**
   * The request's Idempotency-Key: your own (an order id, a UUID you stored) to make the call safe
   * to repeat across process restarts; `false` to send none, which also turns off retries after 5xx
   * answers and network failures. @default a new crypto.randomUUID() per call, reused by its retries
   */
  idempotencyKey?: string | false;
}

/** Per-call options of PATCH methods. */
export interface PatchOptions extends CallOptions {
  /** Retry this PATCH after 5xx answers and network failures. @default the client's `retryPatch` */
  retry?: boolean;
}

type Method = "GET" | "POST" | "PATCH" | "DELETE";

export interface Call {
  method: Method;
  /** Below the API root, ids already encoded. */
  path: string;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
  idempotencyKey?: string | undefined;
  /** May the request be sent again after a 5xx answer or a network failure? */
  retryUnsafe: boolean;
  signal?: AbortSignal | undefined;
}

export interface Answer<T> {
  body: T;
  status: number;
  headers: Headers;
}

export interface Transport {
  send<T>(call: Call): Promise<Answer<T>>;
  readonly options: ResolvedOptions;
}

interface ResolvedOptions {
  baseUrl: string;
  key: string;
  fetch: typeof fetch;
  retries: number;
  minRetryDelayMs: number;
  maxRetryDelayMs: number;
  maxRetryAfterSeconds: number;
  retryPatch: boolean;
  timeoutMs: number;
  keyHeader: "authorization" | "x-service-key";
  headers: Record<string, string>;
  onRetry: ((event: RetryEvent) => void) | undefined;
  onResponse: ((event: ResponseEvent) => void) | undefined;
}

const RETRIED_5XX: ReadonlySet<number> = new Set([500, 502, 503, 504]);

type PRetry = typeof import("p-retry").default;
let pRetryModule: Promise<PRetry> | undefined;

/**
 * p-retry is ESM-only: loaded with a dynamic `import()` on the first call, which works from this
 * package's CommonJS build too (a static import would become a `require` there).
 */
function loadPRetry(): Promise<PRetry> {
  pRetryModule ??= import("p-retry").then((module) => module.default);
  return pRetryModule;
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new TypeError(`createClient: ${name} must be a number of 0 or more.`);
  }
  return value;
}

export function resolveOptions(options: ClientOptions): ResolvedOptions {
  if (!options || typeof options !== "object") throw new TypeError("createClient: pass { baseUrl, key }.");
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new TypeError("createClient: baseUrl must be an absolute URL, such as https://hr.example.com/api/public/v1.");
  }
  if (base.protocol !== "https:" && base.protocol !== "http:") {
    throw new TypeError("createClient: baseUrl must be an http or https URL.");
  }
  if (typeof options.key !== "string" || options.key.trim() === "") {
    throw new TypeError("createClient: key must be the API key (svc_live_…).");
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== "function") throw new TypeError("createClient: no fetch: pass options.fetch.");
  if (
    options.keyHeader !== undefined &&
    options.keyHeader !== "authorization" &&
    options.keyHeader !== "x-service-key"
  ) {
    throw new TypeError('createClient: keyHeader must be "authorization" or "x-service-key".');
  }
  const retries = nonNegative("retries", options.retries, 3);
  if (!Number.isInteger(retries)) throw new TypeError("createClient: retries must be a whole number.");
  return {
    baseUrl: `${base.origin}${base.pathname.replace(/\/+$/, "")}`,
    key: options.key.trim(),
    // Called unbound: some runtimes' fetch throws "Illegal invocation" when called as a method of another object.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    retries,
    minRetryDelayMs: nonNegative("minRetryDelayMs", options.minRetryDelayMs, 500),
    maxRetryDelayMs: nonNegative("maxRetryDelayMs", options.maxRetryDelayMs, 8000),
    maxRetryAfterSeconds: nonNegative("maxRetryAfterSeconds", options.maxRetryAfterSeconds, 60),
    retryPatch: options.retryPatch ?? false,
    timeoutMs: nonNegative("timeoutMs", options.timeoutMs, 30_000),
    keyHeader: options.keyHeader ?? "authorization",
    headers: { ...options.headers },
    onRetry: options.onRetry,
    onResponse: options.onResponse,
  };
}

function queryString(query: Record<string, unknown> | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    params.append(name, value instanceof Date ? value.toISOString() : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function parseBody(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Marks an error as final for p-retry's loop (our errors are never TypeErrors, which p-retry treats apart). */
class Final extends Error {
  constructor(readonly error: unknown) {
    super("final");
  }
}

export function createTransport(clientOptions: ClientOptions): Transport {
  const options = resolveOptions(clientOptions);

  function headersFor(call: Call): Record<string, string> {
    const headers: Record<string, string> = { accept: "application/json", ...options.headers };
    if (options.keyHeader === "x-service-key") headers["x-service-key"] = options.key;
    else headers.authorization = `Bearer ${options.key}`;
    if (call.body !== undefined) headers["content-type"] = "application/json";
    if (call.idempotencyKey !== undefined) headers["idempotency-key"] = call.idempotencyKey;
    return headers;
  }

  /** Whether a failed attempt may be sent again, and after how many ms of Retry-After. */
  function retryPlan(call: Call, error: unknown): { retry: boolean; retryAfterMs: number } {
    if (error instanceof HireportNetworkError) return { retry: call.retryUnsafe, retryAfterMs: 0 };
    if (!(error instanceof HireportApiError)) return { retry: false, retryAfterMs: 0 };
    const waits = error.status === 429 || (error.status === 409 && error.code === "idempotency_in_progress");
    if (waits) {
      const seconds = error.retryAfter ?? 1;
      return { retry: seconds <= options.maxRetryAfterSeconds, retryAfterMs: seconds * 1000 };
    }
    if (RETRIED_5XX.has(error.status) && call.retryUnsafe) {
      return { retry: true, retryAfterMs: Math.min(error.retryAfter ?? 0, options.maxRetryAfterSeconds) * 1000 };
    }
    return { retry: false, retryAfterMs: 0 };
  }

  async function attempt<T>(call: Call, url: string, number: number): Promise<Answer<T>> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(call.signal?.reason);
    call.signal?.addEventListener("abort", onAbort, { once: true });
    const timer =
      options.timeoutMs > 0
        ? setTimeout(
            () => controller.abort(new Error(`No answer within ${options.timeoutMs} ms (timeoutMs).`)),
            options.timeoutMs,
          )
        : undefined;
    const described = { method: call.method, path: call.path, attempts: number, idempotencyKey: call.idempotencyKey };
    let response: Response;
    let text: string;
    try {
      const init: RequestInit = { method: call.method, headers: headersFor(call), signal: controller.signal };
      if (call.body !== undefined) init.body = JSON.stringify(call.body);
      response = await options.fetch(url, init);
      text = await response.text();
    } catch (error) {
      // The caller's own cancellation is final; anything else means no (complete) answer came back.
      if (call.signal?.aborted) throw new Final(call.signal.reason);
      throw new HireportNetworkError(described, controller.signal.aborted ? controller.signal.reason : error);
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener("abort", onAbort);
    }
    const body = parseBody(text);
    options.onResponse?.({
      method: call.method,
      path: call.path,
      attempt: number,
      status: response.status,
      requestId: response.headers.get("x-request-id") ?? undefined,
      replayed: response.headers.get("idempotent-replayed") === "true",
      idempotencyKey: call.idempotencyKey,
    });
    if (response.ok) return { body: body as T, status: response.status, headers: response.headers };
    throw new HireportApiError({ ...described, status: response.status, body, headers: response.headers });
  }

  async function send<T>(call: Call): Promise<Answer<T>> {
    const url = `${options.baseUrl}${call.path}${queryString(call.query)}`;
    call.signal?.throwIfAborted();
    const pRetry = await loadPRetry();
    const retryOptions: RetryOptions = {
      retries: options.retries,
      factor: 2,
      minTimeout: options.minRetryDelayMs,
      maxTimeout: options.maxRetryDelayMs,
      randomize: true,
      shouldRetry: ({ error }) => retryPlan(call, error).retry,
      onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
        const plan = retryPlan(call, error);
        if (!plan.retry || retriesLeft <= 0) return;
        options.onRetry?.({
          method: call.method,
          path: call.path,
          attempt: attemptNumber,
          error: error as HireportApiError,
          retryAfterMs: plan.retryAfterMs,
        });
        if (plan.retryAfterMs > 0) await sleep(plan.retryAfterMs, call.signal);
      },
    };
    if (call.signal) Object.assign(retryOptions, { signal: call.signal });
    try {
      return await pRetry((number) => attempt<T>(call, url, number), retryOptions);
    } catch (error) {
      throw error instanceof Final ? error.error : error;
    }
  }

  return { send, options };
}
