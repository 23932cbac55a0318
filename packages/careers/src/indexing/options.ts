import type { Clock, Logger, PublicApi, Storage } from "@hireport/core";
import { systemClock } from "@hireport/core";
import { checkIndexNowKey } from "../options";
import type { GoogleServiceAccount } from "./google-token";
import type { RetrySettings } from "./send";

/** The shared IndexNow endpoint: it passes every submission to all the engines that take part. */
export const DEFAULT_INDEXNOW_ENDPOINT = "https://api.indexnow.org/indexnow";
/** Google's Indexing API, publish call. */
export const DEFAULT_GOOGLE_PUBLISH_URL = "https://indexing.googleapis.com/v3/urlNotifications:publish";
/** Google's Indexing API, batch endpoint. */
export const DEFAULT_GOOGLE_BATCH_URL = "https://indexing.googleapis.com/batch";
/** Most publish calls Google takes in one batch. */
export const GOOGLE_MAX_BATCH = 100;

/** IndexNow (Bing, Yandex, Naver, Seznam, Yep): one POST per site of every changed job page. */
export interface IndexNowOptions {
  /**
   * The site's key: 8 to 128 characters of `a-z`, `A-Z`, `0-9` and `-`. Give the same key to
   * `createCareers({ indexNowKey })`, which serves it as `/{key}.txt`.
   */
  key: string;
  /** Where submissions go (any engine's IndexNow address). @default "https://api.indexnow.org/indexnow" */
  endpoint?: string;
  /**
   * The key file's address for a site (`origin` is the job pages' scheme, host and port), sent as
   * `keyLocation`. Job pages must sit under its folder, as IndexNow requires.
   * @default `${origin}/${key}.txt`: the careers site mounted at the root of its host
   */
  keyLocation?: (origin: string) => string;
}

/** Google's Indexing API, with a service account the site's Search Console property lists as an owner. */
export interface GoogleIndexingOptions {
  /** The service account's JSON key (its text, or the parsed object): `client_email`, `private_key`, `token_uri`. */
  serviceAccount: GoogleServiceAccount | string;
  /**
   * Publish calls a day, counted in the storage's rate-limit store so every process shares them.
   * The day is Google's: it starts at midnight Pacific Time (`America/Los_Angeles`, daylight saving
   * included), when Google renews the quota. When they run short, deletions go first, then new
   * jobs, then changes; the rest wait for the next day. @default 200 (Google's default quota)
   */
  dailyQuota?: number;
  /**
   * The publish call's address. Its path is also the path of every call in a batch.
   * @default "https://indexing.googleapis.com/v3/urlNotifications:publish"
   */
  publishUrl?: string;
  /** The batch endpoint's address. @default "https://indexing.googleapis.com/batch" */
  batchUrl?: string;
  /**
   * Publish calls sent together in one batch request, 1 to 100 (Google's most). Each call of a
   * batch still counts against `dailyQuota`, and each call's own answer decides its job's notice.
   * With 1, no batch is sent: each notice is a publish call of its own to `publishUrl`.
   * @default 100
   */
  batchSize?: number;
  /** Where access tokens are obtained. @default the service account's `token_uri` */
  tokenUrl?: string;
}

/** Retries of one call on a network error, a 429 or a 5xx answer. */
export interface IndexingRetryOptions {
  /** Retries after the first try. @default 3 */
  retries?: number;
  /** Wait before the first retry, in milliseconds (doubling after). @default 1000 */
  minTimeoutMs?: number;
  /** Longest wait between retries, in milliseconds. @default 30000 */
  maxTimeoutMs?: number;
}

export interface JobIndexingOptions {
  /** The API of `createPublicApi`: jobs, whether they are public, and their pages' addresses. */
  api: PublicApi;
  /** The same storage as the API's: its `jobIndex` (the outbox of job changes) and the notices. */
  storage: Pick<Storage, "jobIndex">;
  /** Tell IndexNow. Null is the same as none. @default none */
  indexNow?: IndexNowOptions | null;
  /** Tell Google's Indexing API. Null is the same as none. @default none */
  google?: GoogleIndexingOptions | null;
  /** How often `start()` looks for changed jobs and passed closing dates, in milliseconds. @default 30000 */
  pollIntervalMs?: number;
  /** Most jobs one run reads per service. @default 500 */
  batchSize?: number;
  /** Time a service has to answer one call, in milliseconds. @default 10000 */
  timeoutMs?: number;
  /** Retries of one call. @default { retries: 3, minTimeoutMs: 1000, maxTimeoutMs: 30000 } */
  retry?: IndexingRetryOptions;
  /**
   * After a run whose calls to a service failed in a way that may pass (network, 429, 5xx, after
   * their retries), the running loop leaves that service alone this long, in milliseconds; its
   * notices stay pending. @default 300000 (5 minutes)
   */
  backoffMs?: number;
  /** Time source. @default the system clock */
  clock?: Clock;
  /** Where failures of the loop itself are logged (a service's answers are recorded, not logged). @default console */
  logger?: Logger;
}

export interface ResolvedIndexNow {
  readonly key: string;
  readonly endpoint: string;
  readonly keyLocation: (origin: string) => string;
}

export interface ResolvedGoogle {
  readonly account: GoogleServiceAccount;
  readonly dailyQuota: number;
  readonly publishUrl: string;
  readonly batchUrl: string;
  readonly batchSize: number;
  readonly tokenUrl: string | undefined;
}

export interface ResolvedJobIndexingOptions {
  readonly api: PublicApi;
  readonly storage: Pick<Storage, "jobIndex">;
  readonly indexNow: ResolvedIndexNow | null;
  readonly google: ResolvedGoogle | null;
  readonly pollIntervalMs: number;
  readonly batchSize: number;
  readonly timeoutMs: number;
  readonly retry: RetrySettings;
  readonly backoffMs: number;
  readonly clock: Clock;
  readonly logger: Logger;
}

function count(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < min || chosen > max) {
    throw new TypeError(`createJobIndexing: ${name} must be a whole number from ${min} to ${max}.`);
  }
  return chosen;
}

function httpUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`createJobIndexing: ${name} must be an absolute http(s) address.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new TypeError(`createJobIndexing: ${name} must be an absolute http(s) address.`);
  }
  return url.href;
}

function serviceAccount(value: GoogleServiceAccount | string): GoogleServiceAccount {
  let account: unknown = value;
  if (typeof value === "string") {
    try {
      account = JSON.parse(value);
    } catch {
      // The text is never repeated: it holds the private key.
      throw new TypeError("createJobIndexing: google.serviceAccount is not JSON.");
    }
  }
  const fields = account as Partial<Record<keyof GoogleServiceAccount, unknown>> | null;
  if (
    typeof fields !== "object" ||
    fields === null ||
    typeof fields.client_email !== "string" ||
    typeof fields.private_key !== "string" ||
    (fields.token_uri !== undefined && typeof fields.token_uri !== "string")
  ) {
    throw new TypeError("createJobIndexing: google.serviceAccount needs client_email and private_key (text).");
  }
  return Object.freeze({
    client_email: fields.client_email,
    private_key: fields.private_key,
    ...(fields.token_uri === undefined
      ? {}
      : { token_uri: httpUrl(fields.token_uri, "google.serviceAccount.token_uri") }),
  });
}

export function resolveJobIndexingOptions(options: JobIndexingOptions): ResolvedJobIndexingOptions {
  const indexNow = options.indexNow ?? null;
  const google = options.google ?? null;
  const retry = options.retry ?? {};
  let resolvedIndexNow: ResolvedIndexNow | null = null;
  if (indexNow !== null) {
    const key = checkIndexNowKey(indexNow.key, "createJobIndexing: indexNow.key");
    resolvedIndexNow = Object.freeze({
      key,
      endpoint: httpUrl(indexNow.endpoint ?? DEFAULT_INDEXNOW_ENDPOINT, "indexNow.endpoint"),
      keyLocation: indexNow.keyLocation ?? ((origin: string) => `${origin}/${key}.txt`),
    });
  }
  return Object.freeze({
    api: options.api,
    storage: options.storage,
    indexNow: resolvedIndexNow,
    google:
      google === null
        ? null
        : Object.freeze({
            account: serviceAccount(google.serviceAccount),
            dailyQuota: count("google.dailyQuota", google.dailyQuota, 200, 1, 1_000_000),
            publishUrl: httpUrl(google.publishUrl ?? DEFAULT_GOOGLE_PUBLISH_URL, "google.publishUrl"),
            batchUrl: httpUrl(google.batchUrl ?? DEFAULT_GOOGLE_BATCH_URL, "google.batchUrl"),
            batchSize: count("google.batchSize", google.batchSize, GOOGLE_MAX_BATCH, 1, GOOGLE_MAX_BATCH),
            tokenUrl: google.tokenUrl === undefined ? undefined : httpUrl(google.tokenUrl, "google.tokenUrl"),
          }),
    pollIntervalMs: count("pollIntervalMs", options.pollIntervalMs, 30_000, 10, 86_400_000),
    batchSize: count("batchSize", options.batchSize, 500, 1, 10_000),
    timeoutMs: count("timeoutMs", options.timeoutMs, 10_000, 1, 600_000),
    retry: Object.freeze({
      retries: count("retry.retries", retry.retries, 3, 0, 20),
      minTimeoutMs: count("retry.minTimeoutMs", retry.minTimeoutMs, 1000, 0, 3_600_000),
      maxTimeoutMs: count("retry.maxTimeoutMs", retry.maxTimeoutMs, 30_000, 0, 3_600_000),
    }),
    backoffMs: count("backoffMs", options.backoffMs, 300_000, 0, 86_400_000),
    clock: options.clock ?? systemClock,
    logger: options.logger ?? console,
  });
}
