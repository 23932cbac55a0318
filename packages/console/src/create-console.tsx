import { type ApiRequest, type ApiResponse, type HireportHandler, isHireportError } from "@hireport/core";
import {
  createFetchHandler,
  type FetchContext,
  type SpanNotes,
  toSearchParams,
  traceRequest,
} from "@hireport/core/http";
import { newId } from "@hireport/core/storage";
import { createCall } from "./call";
import { checkCsrfToken, sameOrigin } from "./csrf";
import { createOnceGuard } from "./once";
import { type ConsoleOptions, type ConsolePrincipal, canChange, canSeeSecrets, resolveOptions } from "./options";
import { MessagePage } from "./pages/layout";
import { formOf } from "./request";
import { html, newNonce, redirect } from "./responses";
import { fillPath, matchRoutes, routeTemplate } from "./routes";
import { openPortalLink, type PortalLinkInput, portalLink, sessionCookie, sessionOf } from "./session";

/** Largest form the console reads. */
const MAX_BODY_BYTES = 64 * 1024;

/** What `createConsole` returns: a handler any hireport adapter mounts, and portal links. */
export interface HireportConsole extends HireportHandler {
  /** Answers one request below the mount path. Never rejects. */
  handle(request: ApiRequest): Promise<ApiResponse>;
  fetch(request: Request, context?: FetchContext): Promise<Response>;
  readonly settings: Readonly<{ maxBodyBytes: number; streamBody: false }>;
  /**
   * A signed, short-lived link (`{basePath}/portal?token=…`, a path: put your origin before it)
   * that signs its opener in as `principal` for `sessionTtlSeconds`, with a cookie scoped to the
   * console's path: for an iframe in the host's page, or a link from another app. Make one per
   * page view, for a person the host has signed in itself.
   */
  portalLink(input: PortalLinkInput): Promise<string>;
}

/**
 * The company's side of hireport as pages: API keys, usage, webhooks and deliveries, the audit
 * list. Mount it with an adapter under any path (`basePath`):
 * `app.use("/settings/api", hireportExpress(createConsole({ api, dispatcher, authorize, basePath: "/settings/api", secret })))`.
 */
export function createConsole(input: ConsoleOptions): HireportConsole {
  const options = resolveOptions(input);
  const { logger } = options;
  const once = createOnceGuard(options);

  function message(
    nonce: string,
    status: number,
    title: string,
    text: string,
    back = false,
    headers: Record<string, string> = {},
  ): ApiResponse {
    const page = <MessagePage options={options} nonce={nonce} title={title} message={text} back={back} />;
    return html(options, nonce, page, status, headers);
  }

  async function principalOf(request: ApiRequest): Promise<ConsolePrincipal | null> {
    const session = await sessionOf(options, request);
    if (session) return session;
    return (await options.authorize(request)) ?? null;
  }

  async function openLink(request: ApiRequest, nonce: string): Promise<ApiResponse> {
    const token = toSearchParams(request.query).get("token");
    const principal = token ? await openPortalLink(options, token) : null;
    if (!principal) {
      return message(nonce, 401, "This link cannot be used", "It has expired or is not valid: ask for a new one.");
    }
    // The token leaves the address bar at once: the session goes on with the cookie alone.
    return redirect(options, "/keys", undefined, { "set-cookie": await sessionCookie(options, request, principal) });
  }

  /**
   * The checks of a change: the form, its origin, its CSRF token, the role. The refusal, or the
   * form's fields and its one-time id when it may go on.
   */
  function checkChange(
    request: ApiRequest,
    principal: ConsolePrincipal,
    form: URLSearchParams | null,
    needs: "change" | "secrets",
    nonce: string,
  ): ApiResponse | { form: URLSearchParams; formId: string } {
    if (!form) return message(nonce, 400, "This form cannot be read", "Send the form again from its page.", true);
    if (!sameOrigin(request, options.allowedOrigins)) {
      return message(nonce, 403, "Refused", "This change did not come from a page of this site.", true);
    }
    const formId = checkCsrfToken(options.secret, principal, form.get("_csrf"), options.clock.now());
    if (!formId) {
      return message(
        nonce,
        403,
        "Refused",
        "The form has expired or did not come from this site: reload the page and try again.",
        true,
      );
    }
    const allowed = needs === "secrets" ? canSeeSecrets(principal) : canChange(principal);
    if (!allowed) {
      const who = needs === "secrets" ? "an owner" : "an owner or an admin";
      return message(nonce, 403, "Not allowed", `Only ${who} of the company can do this.`, true);
    }
    return { form, formId };
  }

  /** Answers a request; `notes` get what its span reports (the span of a POST, when the API has telemetry). */
  async function respond(request: ApiRequest, nonce: string, notes: SpanNotes): Promise<ApiResponse> {
    let path = request.path.split("?")[0] ?? "";
    if (options.basePath && (path === options.basePath || path.startsWith(`${options.basePath}/`))) {
      path = path.slice(options.basePath.length);
    }
    path = `/${path.replace(/^\/+|\/+$/g, "")}`;
    const method = request.method.toUpperCase();
    if (path === "/portal" && method === "GET") return openLink(request, nonce);

    const principal = await principalOf(request);
    if (!principal) {
      return message(nonce, 401, "Sign in first", "Sign in to the application to manage its API keys and webhooks.");
    }
    notes.companyId = principal.companyId;
    // The user's id alone: their name is personal data.
    notes.userId = typeof principal.actor === "object" ? (principal.actor.id ?? null) : null;
    if (path === "/" && method === "GET") return redirect(options, "/keys");
    const matches = matchRoutes(path);
    if (matches.length === 0) return message(nonce, 404, "Not found", "There is no such page here.", true);
    const found = matches.find((match) => match.route.method === method);
    if (!found) {
      const allow = [...new Set(matches.map((match) => match.route.method))].join(", ");
      return message(nonce, 405, "Not allowed", "This page does not take that method.", true, { allow });
    }
    const { route, params } = found;
    notes.route = routeTemplate(route.path);
    notes.action = route.action ?? null;
    const call = (form: URLSearchParams) =>
      createCall({ options, request, params, query: toSearchParams(request.query), form, principal, nonce });
    if (method !== "POST") return route.handle(call(new URLSearchParams()));
    const checked = checkChange(request, principal, formOf(request), route.needs ?? "change", nonce);
    if (!("formId" in checked)) return checked;
    const { repeat } = route;
    if (!repeat) return route.handle(call(checked.form));
    return once.run(
      principal.companyId,
      checked.formId,
      path,
      () => route.handle(call(checked.form)),
      () => redirect(options, fillPath(repeat, params), "already-done"),
    );
  }

  /** Answers a request; a POST (a change) under a server span when the API has telemetry. */
  function handle(request: ApiRequest): Promise<ApiResponse> {
    const traced = String(request?.method ?? "").toUpperCase() === "POST" ? options.api.telemetry : undefined;
    return traceRequest(traced, "console", request, (notes) => answerRequest(request, notes));
  }

  async function answerRequest(request: ApiRequest, notes: SpanNotes): Promise<ApiResponse> {
    const nonce = newNonce();
    try {
      return await respond(request, nonce, notes);
    } catch (error) {
      if (isHireportError(error) && error.code === "not_found") {
        return message(nonce, 404, "Not found", "There is no such record in your company.", true);
      }
      if (isHireportError(error) && (error.code === "bad_request" || error.code === "invalid")) {
        return message(nonce, error.status, "That did not work", error.message, true);
      }
      const reference = newId("err");
      logger.error("hireport console: a request failed", {
        reference,
        error: String(error),
        stack: (error as Error)?.stack,
      });
      return message(nonce, 500, "Something went wrong", `Try again in a moment. Reference: ${reference}.`, true);
    }
  }

  const settings = Object.freeze({ maxBodyBytes: MAX_BODY_BYTES, streamBody: false as const });
  return Object.freeze({
    handle,
    fetch: createFetchHandler(handle, settings),
    settings,
    portalLink: (link: PortalLinkInput) => portalLink(options, link),
  });
}
