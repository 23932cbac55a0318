import type { Actor, ApiRequest, ApiResponse } from "@hireport/core";
import type { VNode } from "preact";
import { csrfToken } from "./csrf";
import { actorOf, type ConsolePrincipal, type ResolvedConsoleOptions } from "./options";
import type { PageContext } from "./pages/layout";
import { html, redirect } from "./responses";
import { openShown, type ShownKind, type ShownSecret, sealShown } from "./shown-once";

/** The confirmations a redirect after a change may show (`?done=…`): codes, never free text. */
export const DONE_MESSAGES = {
  "key-revoked": "The key was revoked: its next request answers 401.",
  "endpoint-created": "The endpoint was added. An owner can reveal its signing secret below.",
  "endpoint-updated": "The endpoint was saved.",
  "endpoint-deleted": "The endpoint was deleted.",
  "endpoint-paused": "The endpoint was paused: its events wait until it is resumed.",
  "endpoint-resumed": "The endpoint was resumed: its waiting events go out now.",
  "secret-rotated":
    "The signing secret was rotated; the previous one signs beside it for 24 hours. An owner can reveal the new one.",
  "delivery-resent": "The delivery was queued to be sent again.",
  "test-succeeded": "The test event was delivered.",
  "test-failed": "The test event was not accepted: see its attempt in the list.",
  "recovered-none": "No failed delivery to send again since that time.",
  recovered: "The failed deliveries since that time were queued to be sent again.",
  "recovered-more": "The first 10,000 failed deliveries were queued; recover again for the rest.",
  "already-done": "That form had already been sent: it was done once, not again.",
} as const;

export type DoneCode = keyof typeof DONE_MESSAGES;

/** One request to the console, signed in: what its handler needs. */
export interface Call {
  readonly options: ResolvedConsoleOptions;
  readonly request: ApiRequest;
  /** The path parameters of the route (`:id`). */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The form fields of a POST (empty for GET). */
  readonly form: URLSearchParams;
  readonly principal: ConsolePrincipal;
  readonly companyId: string;
  /** The options of a host change: who makes it. */
  readonly change: { actor: Actor };
  /** What the layout needs, with the notices of endpoints that are not active. */
  page(): Promise<PageContext>;
  /** An HTML page answer with this request's nonce (and extra headers: a cookie to clear). */
  render(page: VNode, status?: number, headers?: Record<string, string>): ApiResponse;
  /** 303 to a console path, with a confirmation. */
  redirect(path: string, done?: DoneCode): ApiResponse;
  /**
   * 303 to a console path that shows `secret` once: sealed in a short-lived cookie, with only a
   * random `shown` id in the URL (`shown-once.ts`).
   */
  redirectShowing(path: string, secret: ShownSecret): Promise<ApiResponse>;
  /**
   * The secret of `kind` sealed for this page by `redirectShowing` (when the query's `shown` id
   * matches), and the header that forgets it: a reload shows it no more. `shown` is false when the
   * URL names none.
   */
  shownSecret(
    kind: ShownKind,
  ): Promise<{ shown: boolean; secret: ShownSecret | null; headers: Record<string, string> }>;
}

export function createCall(input: {
  options: ResolvedConsoleOptions;
  request: ApiRequest;
  params: Record<string, string>;
  query: URLSearchParams;
  form: URLSearchParams;
  principal: ConsolePrincipal;
  nonce: string;
}): Call {
  const { options, principal, nonce } = input;
  return {
    ...input,
    companyId: principal.companyId,
    change: { actor: actorOf(principal) },
    async page() {
      const endpoints = await options.dispatcher.endpoints.list(principal.companyId);
      const code = input.query.get("done");
      const done = code && Object.hasOwn(DONE_MESSAGES, code) ? DONE_MESSAGES[code as DoneCode] : null;
      return {
        options,
        principal,
        nonce,
        csrf: csrfToken(options.secret, principal, options.clock.now()),
        stopped: endpoints.filter((endpoint) => endpoint.status !== "active"),
        done,
      };
    },
    render: (page, status = 200, headers = {}) => html(options, nonce, page, status, headers),
    redirect: (path, done) => redirect(options, path, done),
    async redirectShowing(path, secret) {
      const sealed = await sealShown(options, input.request, principal, secret);
      return redirect(options, path, undefined, { "set-cookie": sealed.setCookie }, { shown: sealed.id });
    },
    async shownSecret(kind) {
      const id = input.query.get("shown");
      const headers: Record<string, string> = {};
      if (!id) return { shown: false, secret: null, headers };
      const { secret, clear } = await openShown(options, input.request, principal, id, kind);
      if (clear) headers["set-cookie"] = clear;
      return { shown: true, secret, headers };
    },
  };
}
