/**
 * Request targets Fastify cannot route: a path whose percent-encoding does not decode
 * (`/api/public/v1/jobs/abc%FFdef`). Fastify's router refuses them before any route, hook or
 * plugin runs, and answers with its own body (`FST_ERR_BAD_URL`); only the root instance's
 * `frameworkErrors` option hears of them. Under a hireport plugin's prefix the API's error body
 * (docs/api-reference.md, Errors) must hold, so:
 *
 * - each plugin records where it is mounted on the host's server (a symbol-keyed list, no
 *   module state), and the first one adds a `request` listener ahead of Fastify's, which gives such
 *   a target under a hireport prefix an encoding Fastify routes (`%` as `%25`) and keeps the
 *   original, which the plugin then hands to its handler: the handler answers as for any path;
 * - `fastify.inject()` and the extra servers of a `listen()` bound to several addresses bypass that
 *   listener: `hireportFrameworkErrors()`, given to `Fastify({ frameworkErrors })`, answers them.
 */
import type { IncomingMessage, Server } from "node:http";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from "fastify";

/** One hireport plugin's place: its full prefix and how it answers a request target under it. */
export interface Mount {
  prefix: string;
  answer(request: FastifyRequest, reply: FastifyReply, url: string): Promise<FastifyReply>;
}

const MOUNTS = Symbol.for("@hireport/fastify:mounts");
const ORIGINAL_URL = Symbol.for("@hireport/fastify:original-url");

type WithMounts = { [MOUNTS]?: Mount[] };
type WithOriginal = { [ORIGINAL_URL]?: string };

/** Whether the path of `url` (before `?`) holds a percent-encoding that does not decode. */
function undecodable(url: string): boolean {
  const end = url.indexOf("?");
  const path = end === -1 ? url : url.slice(0, end);
  if (!path.includes("%")) return false;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

/** The mount whose prefix holds `url`, the longest first. */
function mountFor(mounts: readonly Mount[] | undefined, url: string): Mount | undefined {
  let found: Mount | undefined;
  for (const mount of mounts ?? []) {
    const { prefix } = mount;
    const under = url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`) || prefix === "";
    if (under && (!found || prefix.length > found.prefix.length)) found = mount;
  }
  return found;
}

/**
 * Records a plugin's mount on the host's server; the first mount adds the listener that makes
 * undecodable targets under a hireport prefix routable (removed when the instance closes).
 */
export function addMount(fastify: FastifyInstance, mount: Mount): void {
  const server = fastify.server as Server & WithMounts;
  const existing = server[MOUNTS];
  if (existing) {
    existing.push(mount);
    return;
  }
  const mounts: Mount[] = [mount];
  server[MOUNTS] = mounts;
  const listener = (req: IncomingMessage & WithOriginal) => {
    const url = req.url ?? "";
    if (!url.includes("%") || !mountFor(mounts, url) || !undecodable(url)) return;
    const end = url.indexOf("?");
    req[ORIGINAL_URL] = url;
    req.url = end === -1 ? url.replaceAll("%", "%25") : `${url.slice(0, end).replaceAll("%", "%25")}${url.slice(end)}`;
  };
  server.prependListener("request", listener);
  fastify.addHook("onClose", async () => {
    server.off("request", listener);
    delete server[MOUNTS];
  });
}

/** The request target as the client sent it (before the listener above re-encoded it). */
export function originalUrl(request: FastifyRequest): string {
  return (request.raw as IncomingMessage & WithOriginal)[ORIGINAL_URL] ?? request.url;
}

/** Fastify's `frameworkErrors` option, as its type is. */
export type FrameworkErrors = NonNullable<FastifyServerOptions["frameworkErrors"]>;

/**
 * A `frameworkErrors` for `Fastify({ frameworkErrors: hireportFrameworkErrors() })`: an undecodable
 * request target under the prefix of a hireport plugin gets that plugin's answer (the API's 404
 * `not_found`, with `X-Request-Id`, logged in the usage log); every other framework error goes to
 * `fallback`, your own `frameworkErrors`, or gets Fastify's usual answer. Needed only for
 * `fastify.inject()` and for the extra servers of a `listen()` bound to several addresses (such as
 * `localhost`, IPv4 and IPv6): on the server Fastify creates, the plugins handle these themselves.
 */
export function hireportFrameworkErrors(fallback?: FrameworkErrors): FrameworkErrors {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const url = request.raw.url ?? "";
    const mount =
      error.code === "FST_ERR_BAD_URL" ? mountFor((request.server.server as WithMounts)[MOUNTS], url) : undefined;
    if (mount) return void mount.answer(request, reply, url);
    if (fallback) return fallback(error, request, reply);
    void reply.code(error.statusCode ?? 400).send(error);
  };
}
