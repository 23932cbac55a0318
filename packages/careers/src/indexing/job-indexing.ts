/**
 * The job-indexing notifier (docs/careers.md, Search engine indexing): tells IndexNow and Google's
 * Indexing API when a job page appears, changes or goes. It reads the job-indexing outbox of the
 * storage (`jobIndex`: every change of a job marks it in the change's transaction), so a notice
 * pending when the process stops is sent by the next one; a periodic sweep marks the jobs whose
 * closing date passed. Google's notices go in batches (google-batch.ts), each call counted against
 * the daily quota and recorded by its own answer. Each service's last notice of each job is
 * recorded, for `notices()` and the console.
 */
import { isHireportError, type JobRecord } from "@hireport/core";
import { createPollLoop, type IndexingService, publicJobUrl } from "@hireport/core/extend";
import type { IndexingAction, JobIndexNotice, JobIndexPending } from "@hireport/core/storage";
import { type BatchAnswer, BatchFormatError, batchBody, batchBoundary, parseBatchAnswer } from "./google-batch";
import { googleTokenSource, TokenError, type TokenSource } from "./google-token";
import { type JobIndexingOptions, type ResolvedGoogle, resolveJobIndexingOptions } from "./options";
import { answered, type SendOutcome, sendWithRetries } from "./send";

/** Most URLs IndexNow takes in one POST. */
const INDEXNOW_MAX_URLS = 10_000;
/** The rate-limit name under which Google's daily quota is counted. */
const GOOGLE_QUOTA_NAME = "hireport:indexing:google";
/** Google renews its daily quotas at midnight Pacific Time. */
const GOOGLE_QUOTA_TIME_ZONE = "America/Los_Angeles";

/** What one service did in one run. */
export interface IndexingServiceRun {
  /** Jobs whose notice the service took (2xx). */
  sent: number;
  /** Jobs whose notice the service refused for good (a 4xx other than 429): recorded, not retried. */
  failed: number;
  /** Jobs left pending: a network error, 429 or 5xx after the retries, or (Google) no quota left today. */
  waiting: number;
  /** Jobs with nothing to tell (never public, and not public now). */
  skipped: number;
}

/** What one `runOnce()` did. */
export interface IndexingRunResult {
  /** Jobs the closing-date sweep marked. */
  swept: number;
  indexnow: IndexingServiceRun | null;
  google: IndexingServiceRun | null;
}

export interface JobIndexing {
  /** The services configured, in the order they run. */
  readonly services: readonly IndexingService[];
  /** Starts the loop: a run every `pollIntervalMs`, at once on `wake()`. */
  start(): void;
  /** Stops the loop and waits for a run under way; what is pending stays in the storage. */
  stop(): Promise<void>;
  /** Asks the running loop for a run now (give it to `createPublicApi({ onEvent })` with the dispatcher's). */
  wake(): void;
  /** One run: the sweep, then every service's pending jobs. Runs never overlap. */
  runOnce(): Promise<IndexingRunResult>;
  /**
   * The stored notices of the company's jobs among `jobIds`: a `JobIndexNotice` (`service`, `seq`,
   * `action`, `notifiedAt`, `status`, `error`, `closesAt`) per job and service that has one (none for
   * a job no run has handled yet), in no set order. No secret is in them.
   */
  notices(companyId: string, jobIds: readonly string[]): Promise<JobIndexNotice[]>;
}

/** One job to tell a service of. */
interface Plan {
  pending: JobIndexPending;
  action: IndexingAction;
  url: string;
  closesAt: Date | null;
}

function emptyRun(): IndexingServiceRun {
  return { sent: 0, failed: 0, waiting: 0, skipped: 0 };
}

/**
 * Creates the notifier. Mount it in one process per database, as the webhook dispatcher: two
 * running at once would send some notices twice (harmless to the services, but it spends
 * Google's quota).
 */
export function createJobIndexing(input: JobIndexingOptions): JobIndexing {
  const options = resolveJobIndexingOptions(input);
  const { api, storage, clock, logger } = options;
  const services: IndexingService[] = [];
  if (options.indexNow) services.push("indexnow");
  if (options.google) services.push("google");
  const tokens: TokenSource | null = options.google
    ? googleTokenSource({
        account: options.google.account,
        tokenUrl: options.google.tokenUrl,
        now: () => clock.now(),
        retry: options.retry,
        timeoutMs: options.timeoutMs,
      })
    : null;
  const resumeAt = new Map<IndexingService, number>();

  async function readJob(companyId: string, jobId: string): Promise<JobRecord | null> {
    try {
      return await api.jobs.get(companyId, jobId);
    } catch (error) {
      if (isHireportError(error) && error.code === "not_found") return null;
      throw error;
    }
  }

  function record(plan: Plan, service: IndexingService, outcome: SendOutcome, now: Date): Promise<void> {
    const { pending } = plan;
    const before = pending.notice;
    if (outcome.retryable) {
      // Still pending: the covered count and the last action stay; the try is recorded.
      return storage.jobIndex.record({
        companyId: pending.companyId,
        jobId: pending.jobId,
        service,
        seq: before?.seq ?? 0,
        action: before?.action ?? null,
        notifiedAt: now,
        status: outcome.status,
        error: outcome.error,
        closesAt: before?.closesAt ?? null,
      });
    }
    return storage.jobIndex.record({
      companyId: pending.companyId,
      jobId: pending.jobId,
      service,
      seq: pending.seq,
      action: plan.action,
      notifiedAt: now,
      status: outcome.status,
      error: outcome.error,
      closesAt: plan.action === "updated" ? plan.closesAt : null,
    });
  }

  function count(run: IndexingServiceRun, outcome: SendOutcome, jobs: number): void {
    if (outcome.ok) run.sent += jobs;
    else if (outcome.retryable) run.waiting += jobs;
    else run.failed += jobs;
  }

  /** The jobs with something to tell; the others are recorded as covered at once. */
  async function plan(service: IndexingService, run: IndexingServiceRun): Promise<Plan[]> {
    const pending = await storage.jobIndex.pending(service, options.batchSize);
    const plans: Plan[] = [];
    for (const item of pending) {
      const job = await readJob(item.companyId, item.jobId);
      const isPublic = job !== null && api.publicJobs.isPublic(job);
      const before = item.notice;
      const action: IndexingAction | null = isPublic ? "updated" : before?.action === "updated" ? "deleted" : null;
      if (action === null) {
        // Never shown to the engines, and not public now: nothing to tell.
        run.skipped++;
        await storage.jobIndex.record({
          companyId: item.companyId,
          jobId: item.jobId,
          service,
          seq: item.seq,
          action: before?.action ?? null,
          notifiedAt: before?.notifiedAt ?? null,
          status: before?.status ?? null,
          error: before?.error ?? null,
          closesAt: null,
        });
        continue;
      }
      plans.push({
        pending: item,
        action,
        url: publicJobUrl({ id: item.jobId }, api.publicJobs.siteUrl(item.companyId)),
        closesAt: job !== null && isPublic ? api.publicJobs.validThrough(job) : null,
      });
    }
    return plans;
  }

  async function runIndexNow(): Promise<IndexingServiceRun> {
    const settings = options.indexNow;
    const run = emptyRun();
    if (!settings) return run;
    const plans = await plan("indexnow", run);
    const bySite = new Map<string, Plan[]>();
    for (const item of plans) {
      const origin = new URL(item.url).origin;
      const list = bySite.get(origin) ?? [];
      list.push(item);
      bySite.set(origin, list);
    }
    for (const [origin, all] of bySite) {
      for (let start = 0; start < all.length; start += INDEXNOW_MAX_URLS) {
        const group = all.slice(start, start + INDEXNOW_MAX_URLS);
        const body = JSON.stringify({
          host: new URL(origin).host,
          key: settings.key,
          keyLocation: settings.keyLocation(origin),
          urlList: group.map((item) => item.url),
        });
        const outcome = await sendWithRetries(
          () =>
            fetch(settings.endpoint, {
              method: "POST",
              headers: { "content-type": "application/json; charset=utf-8" },
              body,
              signal: AbortSignal.timeout(options.timeoutMs),
              redirect: "manual",
            }),
          options.retry,
        );
        const now = clock.now();
        for (const item of group) await record(item, "indexnow", outcome, now);
        count(run, outcome, group.length);
      }
    }
    return run;
  }

  /** Deletions first, then new jobs (never announced as updated), then changes; the oldest change first in each. */
  function googleOrder(plans: Plan[]): Plan[] {
    const rank = (item: Plan) => (item.action === "deleted" ? 0 : item.pending.notice?.action !== "updated" ? 1 : 2);
    return plans
      .map((item, index) => ({ item, index }))
      .sort((a, b) => rank(a.item) - rank(b.item) || a.index - b.index)
      .map(({ item }) => item);
  }

  /** The JSON body of a publish call. */
  function noticeBody(item: Plan): string {
    return JSON.stringify({ url: item.url, type: item.action === "updated" ? "URL_UPDATED" : "URL_DELETED" });
  }

  /** One publish call of its own (`google.batchSize` 1). */
  async function publishOne(google: ResolvedGoogle, item: Plan, token: string): Promise<SendOutcome[]> {
    const body = noticeBody(item);
    const outcome = await sendWithRetries(
      () =>
        fetch(google.publishUrl, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body,
          signal: AbortSignal.timeout(options.timeoutMs),
          redirect: "manual",
        }),
      options.retry,
    );
    return [outcome];
  }

  /**
   * One batch of publish calls: the outcome of each, in the order of `group`. A network error, 429
   * or 5xx of the whole batch (after its retries) or an answer that cannot be read leaves every
   * call pending; another failure of the whole batch is every call's failure.
   */
  async function publishBatch(google: ResolvedGoogle, group: readonly Plan[], token: string): Promise<SendOutcome[]> {
    const boundary = batchBoundary();
    const calls = group.map((item, n) => ({ id: `notice-${n + 1}`, body: noticeBody(item) }));
    const body = batchBody(new URL(google.publishUrl).pathname, calls, boundary);
    const whole = await sendWithRetries(
      () =>
        fetch(google.batchUrl, {
          method: "POST",
          headers: { "content-type": `multipart/mixed; boundary=${boundary}`, authorization: `Bearer ${token}` },
          body,
          signal: AbortSignal.timeout(options.timeoutMs),
          redirect: "manual",
        }),
      options.retry,
    );
    if (!whole.ok) return group.map(() => whole);
    let answers: BatchAnswer[];
    try {
      answers = parseBatchAnswer(whole.contentType, whole.body);
    } catch (error) {
      const reason = error instanceof BatchFormatError ? error.message : "The batch answer could not be read.";
      const unread: SendOutcome = { ...whole, ok: false, retryable: true, error: reason, body: "" };
      return group.map(() => unread);
    }
    const byId = new Map(answers.map((part) => [part.id, part]));
    return calls.map((call): SendOutcome => {
      const part = byId.get(call.id);
      if (!part) {
        const error = "The batch answer has no part for this call.";
        return { status: null, ok: false, retryable: true, error, body: "", contentType: null };
      }
      const ok = part.status >= 200 && part.status < 300;
      const retryable = part.status === 429 || part.status >= 500;
      const error = ok ? null : answered(part.status, part.body);
      return { status: part.status, ok, retryable, error, body: "", contentType: null };
    });
  }

  async function runGoogle(): Promise<IndexingServiceRun> {
    const settings = options.google;
    const run = emptyRun();
    if (!settings || !tokens) return run;
    const plans = googleOrder(await plan("google", run));
    let index = 0;
    while (index < plans.length) {
      let token: string;
      try {
        token = await tokens.token();
      } catch (error) {
        const reason = error instanceof TokenError ? error.message : "No access token.";
        logger.error("hireport indexing: Google refused the service account's token request", { reason });
        const outcome: SendOutcome = {
          status: error instanceof TokenError ? error.status : null,
          ok: false,
          retryable: true,
          error: reason,
          body: "",
          contentType: null,
        };
        await record(plans[index] as Plan, "google", outcome, clock.now());
        run.waiting += plans.length - index;
        break;
      }
      // Each call of a batch counts against the daily quota.
      const group: Plan[] = [];
      let quotaLeft = true;
      while (group.length < settings.batchSize && index + group.length < plans.length) {
        const quota = await api.throttle(GOOGLE_QUOTA_NAME, {
          perMinute: settings.dailyQuota,
          perDay: settings.dailyQuota,
          dayTimeZone: GOOGLE_QUOTA_TIME_ZONE,
        });
        if (!quota.allowed) {
          quotaLeft = false;
          break;
        }
        group.push(plans[index + group.length] as Plan);
      }
      const outcomes =
        group.length === 0
          ? []
          : settings.batchSize === 1
            ? await publishOne(settings, group[0] as Plan, token)
            : await publishBatch(settings, group, token);
      index += group.length;
      const now = clock.now();
      let unwell = false;
      for (const [n, item] of group.entries()) {
        const outcome = outcomes[n] as SendOutcome;
        if (outcome.status === 401) tokens.forget();
        await record(item, "google", outcome, now);
        count(run, outcome, 1);
        if (outcome.retryable) unwell = true;
      }
      if (!quotaLeft || unwell) {
        // No quota left today, or the service is unwell: the rest wait, untouched, for a later run.
        run.waiting += plans.length - index;
        break;
      }
    }
    return run;
  }

  let current: Promise<IndexingRunResult> | null = null;

  async function runAll(respectBackoff: boolean): Promise<IndexingRunResult> {
    const now = clock.now();
    const swept = await storage.jobIndex.sweep(now, options.batchSize);
    const result: IndexingRunResult = { swept, indexnow: null, google: null };
    for (const service of services) {
      if (respectBackoff && (resumeAt.get(service) ?? 0) > clock.now().getTime()) continue;
      const run = service === "indexnow" ? await runIndexNow() : await runGoogle();
      result[service] = run;
      if (run.waiting > 0 && run.sent === 0) resumeAt.set(service, clock.now().getTime() + options.backoffMs);
      else resumeAt.delete(service);
    }
    return result;
  }

  /** Runs one after the other: a run asked for while one is under way starts when it ends. */
  function runExclusive(respectBackoff: boolean): Promise<IndexingRunResult> {
    const previous = current ?? Promise.resolve(null);
    const next = previous.then(
      () => runAll(respectBackoff),
      () => runAll(respectBackoff),
    );
    current = next;
    next
      .finally(() => {
        if (current === next) current = null;
      })
      .catch(() => undefined);
    return next;
  }

  const poll = createPollLoop({
    async pass() {
      await runExclusive(true);
    },
    intervalMs: options.pollIntervalMs,
    onError: (error) => logger.error("hireport indexing: a run failed", { error: String(error) }),
  });

  return Object.freeze({
    services: Object.freeze([...services]),
    start: () => poll.start(),
    stop: () => poll.stop(),
    wake: () => poll.wake(),
    runOnce: () => runExclusive(false),
    notices: (companyId: string, jobIds: readonly string[]) => storage.jobIndex.notices(companyId, jobIds),
  });
}
