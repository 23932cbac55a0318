import type { Actor, ApiRequest, Clock, Logger, PublicApi } from "@hireport/core";
import { systemClock } from "@hireport/core";
import type { IndexingService } from "@hireport/core/extend";
import type { JobIndexNotice } from "@hireport/core/storage";
import type { WebhookDispatcher } from "@hireport/webhooks";

/**
 * Who is asking, as the host's `authorize` (or a portal link) says. `owner` and `admin` may change
 * things; an owner also sees webhook signing secrets; any other role reads what is not secret and
 * changes nothing.
 */
export interface ConsolePrincipal {
  /** The company whose data the person sees. It must be registered (`api.companies.upsert`). */
  companyId: string;
  /** `"owner"`, `"admin"`, or any other role of the host (read only). */
  role: string;
  /** Who they are, recorded in the audit list with every change: a name, or an id and a name. */
  actor: string | { id: string | null; name: string };
}

/**
 * What the console reads of the job-indexing notifier (`createJobIndexing` of `@hireport/careers`
 * is one): its services and each job's last notice.
 */
export interface ConsoleJobIndexing {
  readonly services: readonly IndexingService[];
  notices(companyId: string, jobIds: readonly string[]): Promise<JobIndexNotice[]>;
}

/** How the console looks inside the host's pages. */
export interface ConsoleTheme {
  /** Colour of links, buttons and the chart's 2xx bars: a hex colour (`#0a66c2`). @default "#2457c5" */
  accentColor?: string;
  /** CSS `font-family` list. @default "system-ui, sans-serif" */
  fontFamily?: string;
  /** A stylesheet of the host's, loaded after the console's own styles (`https:` or a path from `/`). @default none */
  stylesheetUrl?: string;
  /** Shown as the heading of every page. @default "API and webhooks" */
  title?: string;
}

export interface ConsoleOptions {
  /** The public API of `createPublicApi`: its keys, usage log and audit list. */
  api: PublicApi;
  /** The webhook dispatcher of `createWebhookDispatcher`: its endpoints and delivery log. */
  dispatcher: WebhookDispatcher;
  /**
   * The job-indexing notifier (`createJobIndexing` of `@hireport/careers`): the console then has a
   * "Search engines" page, for owners and admins, listing the jobs with each service's last notice.
   * Null is the same as none. @default none (no such page)
   */
  indexing?: ConsoleJobIndexing | null;
  /**
   * The host's sign-in: who sends this request, from the host's own session (its cookie, its
   * headers), or null for nobody (the console answers 401). Called for every request that carries
   * no console session of a portal link.
   * @default () => null (only portal links sign people in)
   */
  authorize?: (request: ApiRequest) => ConsolePrincipal | null | Promise<ConsolePrincipal | null>;
  /**
   * Where the host mounts the console: `"/settings/api"` for
   * `app.use("/settings/api", hireportExpress(console))`. Links, redirects and the session cookie's
   * `Path` are built on it; request paths that start with it (Web runtimes pass whole paths) have
   * it stripped. Required.
   */
  basePath: string;
  /**
   * At least 32 characters, kept on the server: signs the forms' CSRF tokens, portal links and
   * portal sessions (HMAC-SHA256). Changing it signs everybody out of portal sessions.
   */
  secret: string;
  /**
   * Origins allowed to send the console's forms (`https://app.example.com`). Every change must come
   * from one of them (its `Origin` header), besides carrying its CSRF token.
   * @default the origin of the request's own `Host` header (set it when a proxy rewrites `Host`)
   */
  allowedOrigins?: readonly string[];
  /**
   * CSP `frame-ancestors`: who may show the console in a frame. The default allows the host's own
   * pages only (and sends `X-Frame-Options: SAMEORIGIN`); list the host app's origins to embed it in
   * an iframe on another origin (portal links then set a `SameSite=None; Secure; Partitioned` cookie).
   * @default ["'self'"]
   */
  frameAncestors?: readonly string[];
  /**
   * Whether the console's cookies (a portal link's session, the one-time cookie that carries a new
   * key or a revealed secret to the page after the form) get `Secure`. `"auto"`: when the request
   * came over https, as the adapter says (Express `req.protocol`, Fastify `request.protocol`, the
   * Web `Request`'s URL); behind a proxy that ends TLS, make the framework trust it (Express
   * `app.set("trust proxy", …)`, Fastify `trustProxy`) or set `true`. `false` is for plain http in
   * development only, and cannot be set when `frameAncestors` lists another origin (that cookie
   * must be `SameSite=None; Secure`).
   * @default "auto"
   */
  secureCookies?: boolean | "auto";
  /** Lifetime of the console session a portal link opens, in seconds. @default 3600 */
  sessionTtlSeconds?: number;
  /** Colours, font, a stylesheet of the host's and the heading. @default the console's own look */
  theme?: ConsoleTheme;
  /** Time source (CSRF tokens, portal links, the usage chart's days). @default the system clock */
  clock?: Clock;
  /** Where unexpected failures are logged (the page shows only a reference). @default console */
  logger?: Logger;
}

/** The options with their defaults applied, checked and frozen. */
export interface ResolvedConsoleOptions {
  readonly api: PublicApi;
  readonly dispatcher: WebhookDispatcher;
  readonly indexing: ConsoleJobIndexing | null;
  readonly authorize: NonNullable<ConsoleOptions["authorize"]>;
  /** No trailing slash; `""` when mounted at the root. */
  readonly basePath: string;
  readonly secret: string;
  readonly allowedOrigins: readonly string[] | null;
  readonly frameAncestors: readonly string[];
  readonly secureCookies: boolean | "auto";
  readonly sessionTtlSeconds: number;
  readonly theme: Readonly<Required<Omit<ConsoleTheme, "stylesheetUrl">> & { stylesheetUrl: string | null }>;
  readonly clock: Clock;
  readonly logger: Logger;
}

const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const FONT_FAMILY = /^[\w\s,'"-]{1,200}$/;

function fail(message: string): never {
  throw new TypeError(`createConsole: ${message}`);
}

function checkStylesheet(url: string | undefined): string | null {
  if (url === undefined) return null;
  if (url.startsWith("/") && !url.startsWith("//")) return url;
  try {
    if (new URL(url).protocol === "https:") return url;
  } catch {
    // Reported below.
  }
  return fail("theme.stylesheetUrl must be an https: address or a path starting with /");
}

/** Checks the options (a `TypeError` names the bad one) and applies the defaults. */
export function resolveOptions(options: ConsoleOptions): ResolvedConsoleOptions {
  if (!options || typeof options !== "object") fail("options are required");
  if (!options.api || typeof options.api.handle !== "function") fail("api must be the object createPublicApi returned");
  if (!options.dispatcher?.endpoints) fail("dispatcher must be the object createWebhookDispatcher returned");
  if (typeof options.secret !== "string" || options.secret.length < 32) fail("secret must be at least 32 characters");
  if (typeof options.basePath !== "string") fail('basePath is required: where the console is mounted, "/settings/api"');
  const basePath = options.basePath.replace(/\/+$/, "");
  if (basePath !== "" && (!basePath.startsWith("/") || /[?#\s]/.test(basePath))) {
    fail('basePath must be a path starting with /, such as "/settings/api"');
  }
  if (options.authorize !== undefined && typeof options.authorize !== "function") {
    fail("authorize must be a function (request) => { companyId, role, actor } | null");
  }
  const ttl = options.sessionTtlSeconds ?? 3600;
  if (!Number.isInteger(ttl) || ttl < 60 || ttl > 86_400) fail("sessionTtlSeconds must be 60 to 86400");
  const theme = options.theme ?? {};
  const accentColor = theme.accentColor ?? "#2457c5";
  if (!HEX_COLOUR.test(accentColor)) fail("theme.accentColor must be a hex colour such as #2457c5");
  const fontFamily = theme.fontFamily ?? "system-ui, sans-serif";
  if (!FONT_FAMILY.test(fontFamily)) fail("theme.fontFamily must be a CSS font-family list");
  const allowedOrigins = options.allowedOrigins ? [...options.allowedOrigins] : null;
  for (const origin of allowedOrigins ?? []) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {
      // Reported below.
    }
    if (!parsed || parsed.origin !== origin) fail(`allowedOrigins: ${JSON.stringify(origin)} is not an origin`);
  }
  const frameAncestors = [...(options.frameAncestors ?? ["'self'"])];
  if (frameAncestors.length === 0 || frameAncestors.some((source) => !/^[^\s;,]+$/.test(source))) {
    fail("frameAncestors must list CSP sources such as 'self' or https://app.example.com");
  }
  const secureCookies = options.secureCookies ?? "auto";
  if (secureCookies !== true && secureCookies !== false && secureCookies !== "auto") {
    fail('secureCookies must be true, false or "auto"');
  }
  if (secureCookies === false && frameAncestors.some((source) => source !== "'self'" && source !== "'none'")) {
    fail("secureCookies cannot be false when frameAncestors lists another origin (its cookie needs Secure)");
  }
  return Object.freeze({
    api: options.api,
    dispatcher: options.dispatcher,
    indexing: options.indexing ?? null,
    authorize: options.authorize ?? (() => null),
    basePath,
    secret: options.secret,
    allowedOrigins: allowedOrigins ? Object.freeze(allowedOrigins) : null,
    frameAncestors: Object.freeze(frameAncestors),
    secureCookies,
    sessionTtlSeconds: ttl,
    theme: Object.freeze({
      accentColor,
      fontFamily,
      stylesheetUrl: checkStylesheet(theme.stylesheetUrl),
      title: theme.title ?? "API and webhooks",
    }),
    clock: options.clock ?? systemClock,
    logger: options.logger ?? console,
  });
}

/** The principal's actor as core records it. */
export function actorOf(principal: ConsolePrincipal): Actor {
  const { actor } = principal;
  return typeof actor === "string"
    ? { type: "host", id: null, name: actor }
    : { type: "host", id: actor.id ?? null, name: actor.name };
}

/** Whether the role may change things (owners and admins). */
export function canChange(principal: ConsolePrincipal): boolean {
  return principal.role === "owner" || principal.role === "admin";
}

/** Whether the role may see webhook signing secrets (owners only). */
export function canSeeSecrets(principal: ConsolePrincipal): boolean {
  return principal.role === "owner";
}
