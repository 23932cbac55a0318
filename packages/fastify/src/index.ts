/**
 * `@hireport/fastify`: mounts the hireport public API, or any other hireport handler (the careers
 * site, the console), in a Fastify 5 app.
 *
 * ```ts
 * await fastify.register(hireportFastify, { api, prefix: "/api/public/v1" });
 * await fastify.register(hireportFastifyFiles, { api, prefix: "/files/cv" });
 * fastify.get("/health", hireportFastifyHealth([api, dispatcher]));
 * ```
 *
 * Both plugins keep Fastify's encapsulation: the body parser they install and the routes they add
 * live in their own scope, so the host's parsers, hooks and routes are untouched.
 */
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import type { ApiRequest, ApiResponse, HireportHandler, PublicApi } from "@hireport/core";
import { answerHealth, type HealthSource, isEmptyBody } from "@hireport/core/http";
import { NodeApiRequest, type NodeBody, readNodeBody } from "@hireport/core/node";
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, RouteHandlerMethod } from "fastify";
import { addMount, originalUrl } from "./bad-urls";

export { type FrameworkErrors, hireportFrameworkErrors } from "./bad-urls";

export interface HireportFastifyOptions {
  /**
   * What to mount: the API from `createPublicApi` (its `limits.maxBodyBytes` is the body limit here
   * too), or another hireport handler such as the careers site or the console.
   */
  api: HireportHandler;
}

export interface HireportFastifyFilesOptions {
  /** The API from `createPublicApi`. */
  api: PublicApi;
}

/** What the plugin's body parser hands the handler. */
type HandlerBody = NodeBody & Pick<ApiRequest, "bodyStream">;

/**
 * The request as core sees it; `url` is the target as the client sent it. Fastify reads
 * X-Forwarded-Proto for `protocol` only under its `trustProxy` option.
 */
function baseRequest(request: FastifyRequest, reply: FastifyReply, path: string, url: string): NodeApiRequest {
  return new NodeApiRequest(
    { method: request.method, path, url, headers: request.headers, ip: request.ip },
    request,
    reply.raw,
  );
}

function send(reply: FastifyReply, answer: ApiResponse): FastifyReply {
  const { body } = answer;
  reply.code(answer.status).headers(answer.headers);
  if (isEmptyBody(answer)) return reply.send();
  if (typeof body === "string") return reply.send(body);
  if (body instanceof Uint8Array) return reply.send(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  // A stream (a file from a file store): piped, so a large file never sits in memory whole.
  return reply.send(Readable.fromWeb(body as NodeWebStream<Uint8Array>));
}

/**
 * Whether Fastify itself refused the request before the route (its content-type parsing, a QUERY
 * without a content type): the handler answers those. Any other error (a hook of the host's that
 * throws to refuse a request) goes on to the host's error handler, untouched.
 */
function refusedByFastify(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("FST_ERR_CTP_") || code === "FST_ERR_ROUTE_MISSING_CONTENT_TYPE");
}

/** Every method Fastify routes (TRACE and QUERY included; CONNECT never reaches a route). */
const routedMethods = (fastify: FastifyInstance): string[] =>
  fastify.supportedMethods.filter((method) => method !== "CONNECT");

/**
 * A method Fastify does not route (PROPFIND) reaches no route but the 404 handler of the plugin's
 * prefix: the handler answers it too. Only a plugin registered with its own `prefix` has a 404
 * handler of its own; without one, setting it would take over the host's.
 */
function ownNotFound(fastify: FastifyInstance, options: object, handler: RouteHandlerMethod): void {
  const { prefix } = options as { prefix?: unknown };
  if (typeof prefix === "string" && prefix !== "") fastify.setNotFoundHandler(handler);
}

/**
 * A hireport handler as a Fastify plugin: the public API (`/openapi.json` included) registered with
 * its base path as prefix, `fastify.register(hireportFastify, { api, prefix: "/api/public/v1" })`,
 * or the careers site or the console under the prefix the host picks.
 */
export const hireportFastify: FastifyPluginAsync<HireportFastifyOptions> = async (fastify, options) => {
  const { api } = options;
  const maxBytes = api.settings.maxBodyBytes;
  const prefix = fastify.prefix;
  /** The body as the handler wants it: read up to the limit, or unread as a stream. */
  const readBody = async (payload: IncomingMessage): Promise<HandlerBody> =>
    api.settings.streamBody
      ? { bodyStream: Readable.toWeb(payload) as ReadableStream<Uint8Array> }
      : readNodeBody(payload, maxBytes);
  // In this plugin's scope only: every body reaches the handler unparsed, which judges size, type
  // and JSON; a handler that streams its bodies gets the request unread.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser("*", async (_request: FastifyRequest, payload: IncomingMessage) => readBody(payload));
  const answer = async (request: FastifyRequest, reply: FastifyReply, url: string, read?: HandlerBody) => {
    const end = url.indexOf("?");
    const path = (end === -1 ? url : url.slice(0, end)).slice(prefix.length) || "/";
    const body = read ?? ((request.body ?? {}) as HandlerBody);
    return send(reply, await api.handle(Object.assign(baseRequest(request, reply, path, url), body)));
  };
  // Every answer under the prefix is the handler's, a target Fastify's router refuses included.
  addMount(fastify, { prefix, answer });
  const handler = (request: FastifyRequest, reply: FastifyReply) => answer(request, reply, originalUrl(request));
  // Every method Fastify routes: the handler answers 405 where it should.
  fastify.route({ method: routedMethods(fastify), url: "/", handler });
  fastify.route({ method: routedMethods(fastify), url: "/*", handler });
  ownNotFound(fastify, options, handler);
  // What Fastify refuses before a route runs (a Content-Type header it cannot parse, 415
  // FST_ERR_CTP_INVALID_MEDIA_TYPE; a QUERY without one, 400): the handler answers it, with the
  // body read here when nothing read it, so that core judges the request as on any other adapter.
  fastify.setErrorHandler(async (error, request, reply) => {
    if (!refusedByFastify(error)) throw error;
    const raw = request.raw;
    const unread = !raw.readableEnded && !raw.readableDidRead;
    const body = request.body !== undefined ? undefined : unread ? await readBody(raw) : { bodyUnreadable: true };
    return answer(request, reply, originalUrl(request), body);
  });
};

/**
 * The CV route behind each application's `resume_url`. Register it with the `filesPath` of
 * `createPublicApi` as prefix: `fastify.register(hireportFastifyFiles, { api, prefix: "/files/cv" })`.
 */
export const hireportFastifyFiles: FastifyPluginAsync<HireportFastifyFilesOptions> = async (fastify, options) => {
  const answer = async (request: FastifyRequest, reply: FastifyReply, url: string) => {
    const path = url.split("?")[0] ?? "";
    return send(reply, await options.api.handleFile(baseRequest(request, reply, path, url)));
  };
  addMount(fastify, { prefix: fastify.prefix, answer });
  // Every method, and whatever Fastify refuses before a route runs: core answers (405 but for GET).
  const handler = (request: FastifyRequest, reply: FastifyReply) => answer(request, reply, originalUrl(request));
  fastify.route({ method: routedMethods(fastify), url: "/*", handler });
  ownNotFound(fastify, options, handler);
  fastify.setErrorHandler(async (error, request, reply) => {
    if (!refusedByFastify(error)) throw error;
    return handler(request, reply);
  });
};

/**
 * A readiness route handler: `fastify.get("/health", hireportFastifyHealth(api))`, or with several
 * sources (`[api, dispatcher]`). Answers 200 with the health report as JSON when every check
 * passes, 503 when one fails, `cache-control: no-store`; error messages carry no addresses or
 * credentials. The route needs no key: mount it where only the probes reach it, or accept that the
 * report (check names, durations, lag) is public.
 */
export function hireportFastifyHealth(sources: HealthSource | readonly HealthSource[]): RouteHandlerMethod {
  return async (_request, reply) => send(reply, await answerHealth(sources));
}
