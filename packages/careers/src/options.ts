import { tmpdir } from "node:os";
import type { ApiRequest, ApplicationRecord, Clock, CompanyRecord, JobRecord, Logger, PublicApi } from "@hireport/core";
import { systemClock } from "@hireport/core";
import { isCountryCode } from "@hireport/core/schemas";
import type { CareersRenderers } from "./pages/renderers";

/**
 * Which company a request is for: its id, or its id and the path segment that named it (a
 * careers site per company under one mount, `/c/acme/jobs`: `{ companyId: "co_acme", pathPrefix: "/acme" }`).
 */
export type CompanyMatch = string | { companyId: string; pathPrefix?: string };

/** How the careers site looks. Every value is checked at creation (or, from a function, per request). */
export interface CareersTheme {
  /** The name shown in the header and the title of every page. @default the company's name */
  name?: string;
  /** A logo shown in the header: an https address or a path from `/`. @default none */
  logoUrl?: string;
  /** Colour of links and buttons, a hex colour. @default "#2457c5" */
  accentColor?: string;
  /** A CSS `font-family` list. @default "system-ui, sans-serif" */
  fontFamily?: string;
  /** A stylesheet of the host's, loaded after the site's own styles: https or a path from `/`. @default none */
  stylesheetUrl?: string;
  /** The pages' `lang`. The site's own words are English. @default "en" */
  lang?: string;
}

/** Limits of the apply form and the public pages. */
export interface CareersLimits {
  /** Applications a client address may send per minute (every POST counts). @default 5 */
  perMinute?: number;
  /** Applications a client address may send per day (UTC). @default 50 */
  perDay?: number;
  /** Largest CV in bytes. @default 10485760 (10 MiB) */
  maxFileBytes?: number;
  /** Seconds a person needs at least between opening the form and sending it; quicker is refused. @default 3 */
  minFillSeconds?: number;
  /** Seconds a form stays valid after it was shown. @default 86400 (a day) */
  formTtlSeconds?: number;
  /** Jobs per page of `/jobs` and `/jobs.json` (at most 100). @default 25 */
  pageSize?: number;
  /** Most jobs the feeds and the sitemap list (job boards want every public job). @default 10000 */
  feedMaxJobs?: number;
  /** `Cache-Control: max-age` of `/jobs.json`, the feeds and the sitemap, in seconds. @default 300 */
  maxAgeSeconds?: number;
}

/** What `verifyHuman` is given: the request and the form's text fields (a CAPTCHA's answer among them). */
export interface VerifyHumanInput {
  request: ApiRequest;
  companyId: string;
  fields: Readonly<Record<string, string>>;
  ip: string | undefined;
}

/** What `onApplication` is told after a new application was stored (never for a refused or duplicate one). */
export interface ApplicationNotice {
  companyId: string;
  job: JobRecord;
  application: ApplicationRecord;
  /** The candidate's human-review link, to put in the confirmation the host sends. */
  humanReviewUrl: string;
}

/** Extra sources for the pages' Content-Security-Policy (a CAPTCHA's script and frame, a font host). */
export interface CareersCspSources {
  /** Added to `script-src` (which is `'none'` without any). @default none */
  script?: readonly string[];
  /** Added as `frame-src` (a CAPTCHA's frame). @default none */
  frame?: readonly string[];
  /** Added to `style-src`. @default none */
  style?: readonly string[];
  /** Added to `img-src`. @default none */
  img?: readonly string[];
  /** Added as `connect-src`. @default none */
  connect?: readonly string[];
  /** Added to `font-src`. @default none */
  font?: readonly string[];
}

export interface CareersOptions {
  /**
   * The public API of `createPublicApi`. It must have been given a `fileStore` (the CVs are kept
   * there): `createCareers` throws a `TypeError` without one.
   */
  api: PublicApi;
  /**
   * Which company's careers site a request is for: a fixed id (`() => "co_acme"`), the subdomain of
   * its `Host` header, or a path segment (return `{ companyId, pathPrefix }`). Null, or a company
   * hireport does not know, answers 404.
   */
  resolveCompany: (request: ApiRequest) => CompanyMatch | null | Promise<CompanyMatch | null>;
  /**
   * At least 32 characters, kept on the server: signs the apply form's tokens and the candidates'
   * human-review links (HS256). Changing it voids open forms and links.
   */
  secret: string;
  /**
   * The company's privacy notice, linked from the consent checkbox of the apply form (required: a
   * candidate agrees to it). An https address or a path from `/`, or a function of the company.
   */
  privacyNoticeUrl: string | ((company: CompanyRecord) => string);
  /**
   * The sentence of the apply form's consent checkbox, before its link to the privacy notice: one
   * text, or one per company.
   * @default "I agree that my application and CV are kept and used to consider me for this job, as the privacy notice describes."
   */
  consentText?: string | ((company: CompanyRecord) => string);
  /**
   * What the apply form tells candidates about how long their application is kept: one text, or
   * one per company.
   * @default a sentence from the application periods of the API's `retention` option (`api.retention.settings`), or, without any, that the company keeps it until it deletes it or the candidate asks it to
   */
  retentionText?: string | ((company: CompanyRecord) => string);
  /**
   * Where the host mounts the careers site (`"/careers"`), `""` at the root. Links are built on it,
   * and request paths that start with it (Web runtimes pass whole paths) have it stripped.
   * @default ""
   */
  basePath?: string;
  /** How the site looks: one theme, or one per company. @default the site's own look, the company's name */
  theme?: CareersTheme | ((company: CompanyRecord) => CareersTheme);
  /**
   * The company's country, for a job that has no `country` and whose `location` names none
   * (`"Leeds"`): an ISO 3166-1 alpha-2 code such as `"GB"`, or a function of the company (null for
   * none). The JobPosting data (`addressCountry`, `applicantLocationRequirements`) and the Indeed
   * feed (`<country>`) then carry it. A remote job whose location names a place that is no country
   * (`"Remote - Europe"`) is left without one.
   * @default none: such a job has no country, and (unless it is fully remote) its page's JobPosting no
   * `addressCountry`, which Google reports as an error: the site warns through `logger`, once per job.
   */
  defaultCountry?: string | ((company: CompanyRecord) => string | null);
  /** Replaces pages: each function returns the page (a preact element, or an HTML string it escaped itself). @default the site's own pages */
  render?: Partial<CareersRenderers>;
  /** Rate limits, sizes, times. */
  limits?: CareersLimits;
  /**
   * A CAPTCHA check (Turnstile, hCaptcha, reCAPTCHA): true lets the application through. Called
   * after the honeypot and the form token passed, before anything is stored. @default none
   */
  verifyHuman?: (input: VerifyHumanInput) => boolean | Promise<boolean>;
  /** Called after each new application (to send the candidate a confirmation). Failures are logged. @default none */
  onApplication?: (notice: ApplicationNotice) => void | Promise<void>;
  /**
   * Answer the CV links of applications (`GET {filesPath}/{token}` of the API) too, so that a site
   * mounted at the root of `publicBaseUrl` serves them without a route of their own.
   * @default true
   */
  serveFiles?: boolean;
  /** CSP `frame-ancestors`: who may show the pages in a frame. @default ["'self'"] */
  frameAncestors?: readonly string[];
  /** Sources added to the pages' Content-Security-Policy. @default none */
  cspSources?: CareersCspSources;
  /** Where CV uploads are kept while the form is read (removed at once after). @default the system's temporary folder */
  uploadDirectory?: string;
  /**
   * The IndexNow key of the site's job notices (`createJobIndexing`, docs/careers.md, Search engine
   * indexing): the site then answers `GET /{key}.txt` (below its mount) with the key, as IndexNow
   * checks. 8 to 128 characters of `a-z`, `A-Z`, `0-9` and `-`. @default none
   */
  indexNowKey?: string;
  /** Time source (form tokens, links). @default the system clock */
  clock?: Clock;
  /**
   * Where unexpected failures are logged (the page shows only a reference), and the warning, once per
   * job, about a job page whose JobPosting has no country (see `defaultCountry`). @default console
   */
  logger?: Logger;
}

/** An IndexNow key as the protocol has them: 8 to 128 characters of `a-z`, `A-Z`, `0-9` and `-`. */
export function checkIndexNowKey(key: unknown, option: string): string {
  if (typeof key !== "string" || !/^[a-zA-Z0-9-]{8,128}$/.test(key)) {
    throw new TypeError(`${option} must be 8 to 128 characters of a-z, A-Z, 0-9 and "-".`);
  }
  return key;
}

export interface ResolvedTheme {
  readonly name: string;
  readonly logoUrl: string | null;
  readonly accentColor: string;
  readonly fontFamily: string;
  readonly stylesheetUrl: string | null;
  readonly lang: string;
}

export interface ResolvedLimits {
  readonly perMinute: number;
  readonly perDay: number;
  readonly maxFileBytes: number;
  readonly minFillSeconds: number;
  readonly formTtlSeconds: number;
  readonly pageSize: number;
  readonly feedMaxJobs: number;
  readonly maxAgeSeconds: number;
}

/** The options with their defaults applied, checked and frozen. */
export interface ResolvedCareersOptions {
  readonly api: PublicApi;
  readonly resolveCompany: CareersOptions["resolveCompany"];
  readonly secret: string;
  readonly privacyNoticeUrl: (company: CompanyRecord) => string;
  /** The consent sentence, without its link (the form adds the link to the privacy notice). */
  readonly consentText: (company: CompanyRecord) => string | null;
  readonly retentionText: (company: CompanyRecord) => string;
  readonly basePath: string;
  readonly theme: (company: CompanyRecord) => ResolvedTheme;
  /** The company's default country (checked), or null. */
  readonly defaultCountry: (company: CompanyRecord) => string | null;
  readonly render: Partial<CareersRenderers>;
  readonly limits: ResolvedLimits;
  readonly verifyHuman: CareersOptions["verifyHuman"] | undefined;
  readonly onApplication: CareersOptions["onApplication"] | undefined;
  readonly serveFiles: boolean;
  readonly frameAncestors: readonly string[];
  readonly cspSources: Readonly<Required<{ [K in keyof CareersCspSources]: readonly string[] }>>;
  readonly uploadDirectory: string;
  readonly indexNowKey: string | null;
  readonly clock: Clock;
  readonly logger: Logger;
}

const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const FONT_FAMILY = /^[\w\s,'"-]{1,200}$/;
const LANG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;
const CSP_SOURCE = /^[^\s;,]+$/;

function fail(message: string): never {
  throw new TypeError(`createCareers: ${message}`);
}

/** An https address or a path from `/` (never `//host`, `javascript:` or `data:`). */
export function safeUrl(url: string | undefined, name: string): string | null {
  if (url === undefined) return null;
  if (typeof url === "string" && url.startsWith("/") && !url.startsWith("//")) return url;
  try {
    if (new URL(url).protocol === "https:") return url;
  } catch {
    // Reported below.
  }
  return fail(`${name} must be an https: address or a path starting with /, got ${JSON.stringify(url)}`);
}

function count(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  const result = value ?? fallback;
  if (!Number.isInteger(result) || result < min || result > max)
    fail(`limits.${name} must be a whole number from ${min} to ${max}`);
  return result;
}

/** A text option (one text, or one per company) as a function; `fallback` when it is not set. */
function textOption<T extends string | null>(
  value: string | ((company: CompanyRecord) => string) | undefined,
  name: string,
  fallback: (company: CompanyRecord) => T,
): (company: CompanyRecord) => string | T {
  if (value === undefined) return fallback;
  if (typeof value === "function") return value;
  if (typeof value !== "string" || value.trim() === "") fail(`${name} must be a non-empty text or a function`);
  return () => value;
}

/**
 * The apply form's words on how long applications are kept, from the application periods of the
 * API's `retention` option (days, per stage group; null keeps them).
 */
export function retentionSentence(periods: {
  readonly rejected: number | null;
  readonly withdrawn: number | null;
  readonly other: number | null;
}): string {
  const days = (count: number) => `${count} ${count === 1 ? "day" : "days"}`;
  const parts: string[] = [];
  if (periods.rejected !== null) parts.push(`${days(periods.rejected)} after it is turned down`);
  if (periods.withdrawn !== null) parts.push(`${days(periods.withdrawn)} after you withdraw it`);
  if (periods.other !== null) parts.push(`${days(periods.other)} after its last change while it is considered`);
  if (parts.length === 0) {
    return "The company keeps your application until it deletes it, or until you ask for it to be deleted.";
  }
  return `Your application and CV are deleted ${parts.join("; ")}. You can ask for them to be deleted sooner.`;
}

/** A theme with its defaults, checked (a `TypeError` names the bad value). */
export function resolveTheme(theme: CareersTheme, company: CompanyRecord): ResolvedTheme {
  const accentColor = theme.accentColor ?? "#2457c5";
  if (!HEX_COLOUR.test(accentColor)) fail("theme.accentColor must be a hex colour such as #2457c5");
  const fontFamily = theme.fontFamily ?? "system-ui, sans-serif";
  if (!FONT_FAMILY.test(fontFamily)) fail("theme.fontFamily must be a CSS font-family list");
  const lang = theme.lang ?? "en";
  if (!LANG.test(lang)) fail("theme.lang must be a language tag such as en or en-GB");
  return Object.freeze({
    name: theme.name ?? company.name,
    logoUrl: safeUrl(theme.logoUrl, "theme.logoUrl"),
    accentColor,
    fontFamily,
    stylesheetUrl: safeUrl(theme.stylesheetUrl, "theme.stylesheetUrl"),
    lang,
  });
}

/** A default country as given (a `TypeError` unless it is an ISO 3166-1 alpha-2 code), or null for none. */
export function checkCountry(code: string | null | undefined): string | null {
  if (code === null || code === undefined) return null;
  if (typeof code !== "string" || !isCountryCode(code)) {
    fail(`defaultCountry must be an ISO 3166-1 alpha-2 code in upper case, such as "GB", got ${JSON.stringify(code)}`);
  }
  return code;
}

/** Checks the options (a `TypeError` names the bad one) and applies the defaults. */
export function resolveOptions(options: CareersOptions): ResolvedCareersOptions {
  if (!options || typeof options !== "object") fail("options are required");
  if (!options.api || typeof options.api.publicJobs?.find !== "function") {
    fail("api must be the object createPublicApi returned");
  }
  if (options.api.settings?.hasFileStore !== true) {
    fail(
      "api has no fileStore: the careers site keeps each applicant's CV there. Pass createPublicApi a fileStore (kyselyFileStore({ db }) from @hireport/kysely, memoryFileStore() from @hireport/core/memory for tests, or your own FileStore).",
    );
  }
  if (options.api.settings?.publicJobPages === false) {
    fail(
      "api was created with publicJobPages: false, so its jobs have no public_url: the careers site is those pages. Leave publicJobPages out (or true) to serve the site.",
    );
  }
  if (typeof options.resolveCompany !== "function") {
    fail('resolveCompany is required: (request) => the company id, such as () => "co_acme"');
  }
  if (typeof options.secret !== "string" || options.secret.length < 32) fail("secret must be at least 32 characters");
  const privacy = options.privacyNoticeUrl;
  if (typeof privacy === "string") safeUrl(privacy, "privacyNoticeUrl");
  else if (typeof privacy !== "function")
    fail("privacyNoticeUrl is required: the address of the company's privacy notice");
  const basePath = (options.basePath ?? "").replace(/\/+$/, "");
  if (basePath !== "" && (!basePath.startsWith("/") || /[?#\s]/.test(basePath))) {
    fail('basePath must be a path starting with /, such as "/careers", or ""');
  }
  const limits = options.limits ?? {};
  const frameAncestors = [...(options.frameAncestors ?? ["'self'"])];
  if (frameAncestors.length === 0 || frameAncestors.some((source) => !CSP_SOURCE.test(source))) {
    fail("frameAncestors must list CSP sources such as 'self' or https://www.example.com");
  }
  const sources = options.cspSources ?? {};
  const cspList = (name: keyof CareersCspSources) => {
    const list = [...(sources[name] ?? [])];
    if (list.some((source) => !CSP_SOURCE.test(source))) fail(`cspSources.${name} must list CSP sources`);
    return Object.freeze(list);
  };
  const theme = options.theme ?? {};
  if (typeof theme !== "function") resolveTheme(theme, { id: "", name: "", createdAt: new Date(0) });
  const country = options.defaultCountry;
  if (typeof country !== "function") checkCountry(country);
  return Object.freeze({
    api: options.api,
    resolveCompany: options.resolveCompany,
    secret: options.secret,
    privacyNoticeUrl: (company: CompanyRecord) => {
      const url = typeof privacy === "function" ? privacy(company) : privacy;
      return safeUrl(url, "privacyNoticeUrl") as string;
    },
    consentText: textOption(options.consentText, "consentText", () => null),
    retentionText: textOption(options.retentionText, "retentionText", () =>
      retentionSentence(
        options.api.retention?.settings?.applications ?? { rejected: null, withdrawn: null, other: null },
      ),
    ),
    basePath,
    theme: (company: CompanyRecord) => resolveTheme(typeof theme === "function" ? theme(company) : theme, company),
    defaultCountry: (company: CompanyRecord) =>
      checkCountry(typeof country === "function" ? country(company) : country),
    render: Object.freeze({ ...(options.render ?? {}) }),
    limits: Object.freeze({
      perMinute: count("perMinute", limits.perMinute, 5, 1, 1_000_000),
      perDay: count("perDay", limits.perDay, 50, 1, 1_000_000_000),
      maxFileBytes: count("maxFileBytes", limits.maxFileBytes, 10 * 1024 * 1024, 1024, 100 * 1024 * 1024),
      minFillSeconds: count("minFillSeconds", limits.minFillSeconds, 3, 0, 3600),
      formTtlSeconds: count("formTtlSeconds", limits.formTtlSeconds, 86_400, 60, 30 * 86_400),
      pageSize: count("pageSize", limits.pageSize, 25, 1, 100),
      feedMaxJobs: count("feedMaxJobs", limits.feedMaxJobs, 10_000, 1, 1_000_000),
      maxAgeSeconds: count("maxAgeSeconds", limits.maxAgeSeconds, 300, 0, 86_400),
    }),
    verifyHuman: options.verifyHuman,
    onApplication: options.onApplication,
    serveFiles: options.serveFiles ?? true,
    frameAncestors: Object.freeze(frameAncestors),
    cspSources: Object.freeze({
      script: cspList("script"),
      frame: cspList("frame"),
      style: cspList("style"),
      img: cspList("img"),
      connect: cspList("connect"),
      font: cspList("font"),
    }),
    uploadDirectory: options.uploadDirectory ?? tmpdir(),
    indexNowKey: options.indexNowKey === undefined ? null : checkIndexNowKey(options.indexNowKey, "indexNowKey"),
    clock: options.clock ?? systemClock,
    logger: options.logger ?? console,
  });
}
