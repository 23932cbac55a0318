import {
  type ApiRequest,
  type ApiResponse,
  type CompanyRecord,
  type HireportHandler,
  isHireportError,
  type JobRecord,
} from "@hireport/core";
import {
  createFetchHandler,
  type FetchContext,
  type SpanNotes,
  toSearchParams,
  traceRequest,
} from "@hireport/core/http";
import { newId } from "@hireport/core/storage";
import { handleApply } from "./apply/handle-apply";
import { discardBody } from "./apply/read-submission";
import { CountryWarnings } from "./country-warnings";
import { indeedFeed } from "./feeds/indeed";
import { rssFeed } from "./feeds/rss";
import { sitemap } from "./feeds/sitemap";
import { jobView } from "./job-view";
import { type CareersOptions, type ResolvedCareersOptions, resolveOptions, resolveTheme } from "./options";
import { emptyApplyValues } from "./pages/apply-fields";
import type { ApplyFormProps } from "./pages/renderers";
import { publicJobJson } from "./public-json";
import { pathBelow } from "./request";
import { cacheable, DOCUMENT_CSP, etagOf, json, jsonError, notModified, redirect } from "./responses";
import { contextOf, htmlAnswer, render, type Site, StyleCache, siteFor } from "./site";
import { jobPosting, scriptJson } from "./structured-data";
import { CareersTokens } from "./tokens";
import { watchBody } from "./unread-body";

/** The largest body the site reads when an adapter has to read it first (a JSON application with its CV). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** How long a human-review link works. */
const REVIEW_LINK_SECONDS = 365 * 86_400;
/** Stands in for the form token while a job page's `ETag` is computed: the token differs per answer. */
const TOKEN_PLACEHOLDER = "hireport-form-token-placeholder-7f3c9a";
/** Who asks for a human review, in the application's history. */
const CANDIDATE_ACTOR = { type: "host", id: null, name: "Candidate (careers site)" } as const;

/** What `createCareers` returns: a handler any hireport adapter mounts, and links for the host's own messages. */
export interface HireportCareers extends HireportHandler {
  /** Answers one request below the mount path. Never rejects. */
  handle(request: ApiRequest): Promise<ApiResponse>;
  fetch(request: Request, context?: FetchContext): Promise<Response>;
  readonly settings: Readonly<{ maxBodyBytes: number; streamBody: true }>;
  /** A signed token for a job's apply form, for a host that builds its own form (field `form_token`). */
  formToken(input: { companyId: string; jobId: string }): Promise<string>;
  /** The candidate's human-review link of an application (absolute), for the confirmation the host sends. */
  humanReviewUrl(input: { companyId: string; applicationId: string }): Promise<string>;
}

const DEFAULT_SITE_THEME = { name: "Careers" };

/** Where `resolveCompany` puts a request: the company, the link root of its pages, the path below it. */
interface SiteMatch {
  companyId: string;
  base: string;
  path: string;
}

/**
 * The public side of hireport for the public jobs of the company `resolveCompany` names: `/jobs`,
 * `/jobs.json`, `/jobs/{id}` (with JobPosting structured data), `POST /jobs/{id}/apply`,
 * `/feeds/jobs.xml` (Indeed), `/feeds/jobs.rss`, `/sitemap.xml`, the human-review link, and (at the
 * root of `publicBaseUrl`) the CV links. Mount it with an adapter: `app.use(hireportExpress(careers))`.
 */
export function createCareers(input: CareersOptions): HireportCareers {
  const options = resolveOptions(input);
  const { api, logger } = options;
  const tokens = new CareersTokens(options.secret);
  const styles = new StyleCache();
  const countryWarnings = new CountryWarnings(logger);
  const filesPath = api.settings.filesPath;

  /** A short page (404, 405, 429, 500) in the site's theme, or the default one. */
  function message(
    site: Site | null,
    status: number,
    title: string,
    text: string,
    headers: Record<string, string> = {},
  ): ApiResponse {
    const theme = site?.theme ?? resolveTheme(DEFAULT_SITE_THEME, { id: "", name: "Careers", createdAt: new Date(0) });
    const style = site ? { styles: site.styles, hash: site.styleHash } : styles.get(theme);
    const page = render(options, "message", {
      site: site ? contextOf(site) : null,
      theme,
      styles: style.styles,
      status,
      title,
      message: text,
    });
    return htmlAnswer(options, theme, style.hash, status, page, { "cache-control": "no-store", ...headers });
  }

  function notFound(site: Site | null): ApiResponse {
    return message(
      site,
      404,
      "Page not found",
      "There is no such page here. The job may have moved, or never existed.",
    );
  }

  /** An HTML page as a cacheable answer (ETag, Cache-Control, 304). */
  function page(request: ApiRequest, site: Site, status: number, rendered: ReturnType<typeof render>): ApiResponse {
    const answer = htmlAnswer(options, site.theme, site.styleHash, status, rendered);
    return cacheable(request, answer, "public, no-cache");
  }

  async function everyPublicJob(companyId: string): Promise<JobRecord[]> {
    const jobs: JobRecord[] = [];
    let cursor: string | undefined;
    while (jobs.length < options.limits.feedMaxJobs) {
      const batch = await api.publicJobs.list(companyId, { limit: 100, ...(cursor ? { cursor } : {}) });
      jobs.push(...batch.data);
      if (!batch.hasMore || !batch.nextCursor) break;
      cursor = batch.nextCursor;
    }
    return jobs.slice(0, options.limits.feedMaxJobs);
  }

  async function jobList(request: ApiRequest, site: Site): Promise<ApiResponse> {
    const cursor = toSearchParams(request.query).get("cursor") ?? undefined;
    let result: Awaited<ReturnType<typeof api.publicJobs.list>>;
    try {
      result = await api.publicJobs.list(site.company.id, {
        limit: options.limits.pageSize,
        ...(cursor ? { cursor } : {}),
      });
    } catch (error) {
      if (isHireportError(error) && error.code === "bad_request") return notFound(site);
      throw error;
    }
    const nextHref = result.nextCursor
      ? `${site.links.jobs}?${new URLSearchParams({ cursor: result.nextCursor })}`
      : null;
    const rendered = render(options, "jobList", {
      site: contextOf(site),
      jobs: result.data.map((job) => jobView(api.publicJobs, job, site.base, site.theme.lang, site.defaultCountry)),
      nextHref,
      firstHref: cursor ? site.links.jobs : null,
    });
    return page(request, site, 200, rendered);
  }

  /**
   * `/jobs.json`. A public job of the company proves the company is known (core makes jobs only for
   * a known company, and a company is never removed), so its row is read only when the answer does
   * not show one: an empty page or a refused request, which answer 404 for an unknown company.
   */
  async function jobsJson(request: ApiRequest, match: SiteMatch): Promise<ApiResponse> {
    const known = async () => (await companyOf(match.companyId)) !== null;
    const query = toSearchParams(request.query);
    const cors = { "access-control-allow-origin": "*", "access-control-expose-headers": "etag" };
    const limitText = query.get("limit");
    const limit = limitText === null ? options.limits.pageSize : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      if (!(await known())) return notFound(null);
      return jsonError(400, "bad_request", "limit must be a whole number from 1 to 100.", { headers: cors });
    }
    const cursor = query.get("cursor") ?? undefined;
    let result: Awaited<ReturnType<typeof api.publicJobs.list>>;
    try {
      result = await api.publicJobs.list(match.companyId, { limit, ...(cursor ? { cursor } : {}) });
    } catch (error) {
      if (isHireportError(error) && error.code === "bad_request") {
        if (!(await known())) return notFound(null);
        return jsonError(400, "bad_request", error.message, { headers: cors });
      }
      throw error;
    }
    if (result.data.length === 0 && !(await known())) return notFound(null);
    const body = {
      data: result.data.map((job) => publicJobJson(jobView(api.publicJobs, job, match.base))),
      has_more: result.hasMore,
      next_cursor: result.nextCursor,
    };
    const answer = json(200, body, cors);
    return cacheable(request, answer as { status: number; headers: Record<string, string>; body: string }, maxAge());
  }

  function maxAge(): string {
    return `public, max-age=${options.limits.maxAgeSeconds}`;
  }

  async function feed(request: ApiRequest, site: Site, kind: "indeed" | "rss" | "sitemap"): Promise<ApiResponse> {
    const jobs = (await everyPublicJob(site.company.id)).map((job) =>
      jobView(api.publicJobs, job, site.base, site.theme.lang, site.defaultCountry),
    );
    const now = options.clock.now();
    const body =
      kind === "indeed"
        ? indeedFeed({ publisher: site.theme.name, siteUrl: site.siteUrl, jobs, now })
        : kind === "rss"
          ? rssFeed({ title: site.theme.name, siteUrl: site.siteUrl, jobs, now })
          : sitemap({ siteUrl: site.siteUrl, jobs });
    const type = kind === "rss" ? "application/rss+xml; charset=utf-8" : "application/xml; charset=utf-8";
    // The build time changes every answer: the ETag is of the jobs the feed lists.
    const etag = etagOf(body.replace(/<lastBuildDate>[^<]*<\/lastBuildDate>/, ""));
    const headers = {
      "content-type": type,
      "content-security-policy": DOCUMENT_CSP,
      "x-content-type-options": "nosniff",
    };
    const answer = { status: 200, headers, body };
    return cacheable(request, answer, maxAge(), etag);
  }

  function formProps(site: Site, job: ReturnType<typeof jobView>, formToken: string): ApplyFormProps {
    return {
      action: job.applyHref,
      formToken,
      values: emptyApplyValues(),
      errors: {},
      notices: [],
      privacyNoticeUrl: options.privacyNoticeUrl(site.company),
      maxFileBytes: options.limits.maxFileBytes,
      questions: job.record.questions,
      answers: {},
      questionErrors: {},
      consentText: options.consentText(site.company),
      retentionText: options.retentionText(site.company),
      salaryText: job.salaryText,
    };
  }

  function jobPageOf(site: Site, job: ReturnType<typeof jobView>, form: ApplyFormProps) {
    // A JobPosting without addressCountry is an error in Google's report: the host hears of it once per job.
    countryWarnings.check(job);
    const structuredData = scriptJson(jobPosting(job, site.theme, site.siteUrl));
    return render(options, "jobPage", { site: contextOf(site), job, structuredData, form });
  }

  async function jobPage(request: ApiRequest, site: Site, id: string): Promise<ApiResponse> {
    const lookup = await api.publicJobs.find(site.company.id, id);
    if (lookup.state === "unknown") return notFound(site);
    const job = jobView(api.publicJobs, lookup.job, site.base, site.theme.lang, site.defaultCountry);
    if (lookup.state === "gone")
      return page(request, site, 410, render(options, "gone", { site: contextOf(site), job }));
    const answer = htmlAnswer(
      options,
      site.theme,
      site.styleHash,
      200,
      jobPageOf(site, job, formProps(site, job, TOKEN_PLACEHOLDER)),
    );
    // A weak tag of the page without its form token: the same page, a fresh token.
    const etag = `W/${etagOf(answer.body)}`;
    if (notModified(request, etag)) return cacheable(request, answer, "public, no-cache", etag);
    const token = await tokens.formToken(site.company.id, job.id, options.clock.now());
    return cacheable(
      request,
      { ...answer, body: answer.body.replaceAll(TOKEN_PLACEHOLDER, token) },
      "public, no-cache",
      etag,
    );
  }

  async function apply(request: ApiRequest, site: Site, id: string, notes: SpanNotes): Promise<ApiResponse> {
    const lookup = await api.publicJobs.find(site.company.id, id);
    if (lookup.state !== "unknown") notes.jobId = lookup.job.id;
    if (lookup.state !== "public") {
      await discardBody(request);
      if (lookup.state === "unknown") return notFound(site);
      const gone = render(options, "gone", {
        site: contextOf(site),
        job: jobView(api.publicJobs, lookup.job, site.base, site.theme.lang, site.defaultCountry),
      });
      return htmlAnswer(options, site.theme, site.styleHash, 410, gone, { "cache-control": "no-store" });
    }
    const job = jobView(api.publicJobs, lookup.job, site.base, site.theme.lang, site.defaultCountry);
    const noStore = { "cache-control": "no-store" };
    return handleApply({
      options,
      tokens,
      request,
      companyId: site.company.id,
      job,
      siteUrl: site.siteUrl,
      privacyNoticeUrl: options.privacyNoticeUrl(site.company),
      consentText: options.consentText(site.company),
      retentionText: options.retentionText(site.company),
      reviewToken: (applicationId) =>
        tokens.reviewToken({ companyId: site.company.id, applicationId }, options.clock.now(), REVIEW_LINK_SECONDS),
      created: (applicationId) => {
        notes.applicationId = applicationId;
      },
      answer: {
        form: async (status, form) =>
          htmlAnswer(options, site.theme, site.styleHash, status, jobPageOf(site, job, form), noStore),
        applied: (token) =>
          htmlAnswer(
            options,
            site.theme,
            site.styleHash,
            200,
            render(options, "applied", { site: contextOf(site), job, humanReviewHref: `${site.base}/review/${token}` }),
            noStore,
          ),
        gone: () =>
          htmlAnswer(
            options,
            site.theme,
            site.styleHash,
            410,
            render(options, "gone", { site: contextOf(site), job }),
            noStore,
          ),
        message: (status, title, text, headers) => message(site, status, title, text, headers),
      },
    });
  }

  async function review(
    request: ApiRequest,
    site: Site,
    token: string,
    method: string,
    notes: SpanNotes,
  ): Promise<ApiResponse> {
    const action = `${site.base}/review/${token}`;
    const answer = (state: "confirm" | "done" | "invalid", status: number) =>
      htmlAnswer(
        options,
        site.theme,
        site.styleHash,
        status,
        render(options, "review", { site: contextOf(site), state, action }),
        {
          "cache-control": "no-store",
          "referrer-policy": "no-referrer",
        },
      );
    if (method === "POST") await discardBody(request, 64 * 1024);
    const claims = await tokens.readReview(token, options.clock.now());
    if (!claims || claims.companyId !== site.company.id) return answer("invalid", 404);
    if (method !== "POST") return answer("confirm", 200);
    try {
      await api.applications.requestHumanReview(site.company.id, claims.applicationId, { actor: CANDIDATE_ACTOR });
      notes.applicationId = claims.applicationId;
    } catch (error) {
      // A decoy link (given for a duplicate application) names no application: the same answer.
      if (!isHireportError(error) || error.code !== "not_found") throw error;
    }
    return answer("done", 200);
  }

  /** The company the request is for (as `resolveCompany` names it), and the path below its site; null for none (404). */
  async function matchOf(request: ApiRequest, path: string): Promise<SiteMatch | null> {
    const match = await options.resolveCompany({ ...request, path });
    if (match === null || match === undefined) return null;
    const companyId = typeof match === "string" ? match : match.companyId;
    const prefix = (typeof match === "string" ? "" : (match.pathPrefix ?? "")).replace(/\/+$/, "");
    if (prefix && path !== prefix && !path.startsWith(`${prefix}/`)) return null;
    return { companyId, base: `${options.basePath}${prefix}`, path: path.slice(prefix.length) || "/" };
  }

  /** The stored company, or null when hireport does not know it (404). */
  async function companyOf(companyId: string): Promise<CompanyRecord | null> {
    try {
      return await api.companies.get(companyId);
    } catch (error) {
      if (isHireportError(error) && error.code === "not_found") return null;
      throw error;
    }
  }

  /** The IndexNow key file: the key alone, as the protocol's check reads it. */
  function indexNowKeyFile(): ApiResponse {
    return {
      status: 200,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=3600" },
      body: options.indexNowKey ?? "",
    };
  }

  function notAllowed(site: Site, allow: string): ApiResponse {
    return message(site, 405, "Not allowed", "This page does not take that method.", { allow });
  }

  /** Answers a request; `notes` get what its span reports (the span of a POST, when the API has telemetry). */
  async function respond(request: ApiRequest, notes: SpanNotes): Promise<ApiResponse> {
    const method = request.method.toUpperCase();
    const read = method === "GET" || method === "HEAD";
    const full = pathBelow(request, options.basePath);
    if (options.serveFiles && filesPath && full.startsWith(`${filesPath}/`)) {
      return api.handleFile({ ...request, path: full });
    }
    if (options.indexNowKey !== null && read && full === `/${options.indexNowKey}.txt`) return indexNowKeyFile();
    const match = await matchOf(request, full);
    const segments = match ? match.path.split("/").filter(Boolean) : [];
    const [first, second, third] = segments;
    // The one answer that can do without the company's row (see jobsJson).
    if (match && read && first === "jobs.json" && segments.length === 1) return jobsJson(request, match);
    const company = match && (await companyOf(match.companyId));
    if (!match || !company) {
      if (!read) await discardBody(request);
      return notFound(null);
    }
    notes.companyId = company.id;
    const site = siteFor(options, styles, company, match.base);
    let id: string | undefined;
    try {
      id = second === undefined ? undefined : decodeURIComponent(second);
    } catch {
      return notFound(site);
    }
    const only = async (allowed: "GET" | "POST" | "GET, POST", run: () => Promise<ApiResponse>) => {
      const ok = allowed === "GET, POST" ? read || method === "POST" : allowed === "GET" ? read : method === "POST";
      if (!ok) {
        await discardBody(request);
        return notAllowed(site, allowed === "GET" ? "GET, HEAD" : allowed);
      }
      return run();
    };
    if (segments.length === 0) return only("GET", async () => redirect(site.links.jobs));
    if (first === "jobs" && segments.length === 1) return only("GET", () => jobList(request, site));
    if (first === "jobs.json" && segments.length === 1) {
      if (method === "OPTIONS") {
        return {
          status: 204,
          headers: {
            "access-control-allow-origin": "*",
            "access-control-allow-methods": "GET, HEAD",
            "access-control-max-age": "86400",
          },
          body: "",
        };
      }
      return only("GET", () => jobsJson(request, match));
    }
    if (first === "jobs" && id && segments.length === 2) return only("GET", () => jobPage(request, site, id));
    if (first === "jobs" && id && third === "apply" && segments.length === 3) {
      if (read) return redirect(`${site.base}/jobs/${encodeURIComponent(id)}`);
      notes.route = "/jobs/{id}/apply";
      return only("POST", () => apply(request, site, id, notes));
    }
    if (first === "feeds" && segments.length === 2 && (second === "jobs.xml" || second === "jobs.rss")) {
      return only("GET", () => feed(request, site, second === "jobs.xml" ? "indeed" : "rss"));
    }
    if (first === "sitemap.xml" && segments.length === 1) return only("GET", () => feed(request, site, "sitemap"));
    if (first === "review" && id && segments.length === 2) {
      notes.route = "/review/{token}";
      return only("GET, POST", () => review(request, site, id, method, notes));
    }
    if (!read) await discardBody(request);
    return notFound(site);
  }

  /**
   * Answers a request; a POST (an application, a human-review request) under a server span when the
   * API has telemetry. The span reports ids alone, never what the candidate sent.
   */
  function handle(request: ApiRequest): Promise<ApiResponse> {
    const traced = String(request?.method ?? "").toUpperCase() === "POST" ? api.telemetry : undefined;
    return traceRequest(traced, "careers", request, (notes) => answerRequest(request, notes));
  }

  async function answerRequest(request: ApiRequest, notes: SpanNotes): Promise<ApiResponse> {
    // A body may be refused before its end (over a limit): the rest is dropped after the answer.
    const body = request.bodyStream ? watchBody(request.bodyStream) : null;
    try {
      const answer = await respond(body ? { ...request, bodyStream: body.stream } : request, notes);
      // Every answer of the site, the CV route's JSON errors and the redirects too.
      const headers = { ...answer.headers, "x-content-type-options": "nosniff" };
      return { ...answer, headers, ...(request.method.toUpperCase() === "HEAD" ? { body: "" } : {}) };
    } catch (error) {
      const reference = newId("err");
      logger.error("hireport careers: a request failed", {
        reference,
        error: String(error),
        stack: (error as Error)?.stack,
      });
      return message(null, 500, "Something went wrong", `Please try again in a moment. Reference: ${reference}.`);
    } finally {
      body?.dropRest();
    }
  }

  const settings = Object.freeze({ maxBodyBytes: MAX_BODY_BYTES, streamBody: true as const });
  return Object.freeze({
    handle,
    fetch: createFetchHandler(handle, settings),
    settings,
    formToken: ({ companyId, jobId }: { companyId: string; jobId: string }) =>
      tokens.formToken(companyId, jobId, options.clock.now()),
    async humanReviewUrl({ companyId, applicationId }: { companyId: string; applicationId: string }) {
      const token = await tokens.reviewToken({ companyId, applicationId }, options.clock.now(), REVIEW_LINK_SECONDS);
      return `${api.publicJobs.siteUrl(companyId)}/review/${token}`;
    },
  });
}

export type { ResolvedCareersOptions };
