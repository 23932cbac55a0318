/**
 * `@hireport/fastify`: mounts the hireport public API, or any other hireport handler (the careers
 * site, the console), in a Fastify 5 app.
 *
 * ```ts
 * await fastify.register(hireportFastify, { api, prefix: "/api/public/v1" });
 * await fastify.register(hireportFastifyFiles, { api, prefix: "/files/cv" });
 * ```
 *
 * Both plugins keep Fastify's encapsulation: the body parser they install and the routes they add
 * live in their own scope, so the host's parsers, hooks and routes are untouched.
 */
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import { type ApiRequest, type ApiResponse, type HireportHandler, isEmptyBody, type PublicApi } from "@hireport/core";
import { type NodeBody, nodeAbortSignal, readNodeBody } from "@hireport/core/node";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
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

/** The request as core sees it; `url` is the target as the client sent it. */
function baseRequest(request: FastifyRequest, reply: FastifyReply, path: string, url: string): ApiRequest {
  const at = url.indexOf("?");
  return {
    method: request.method,
    path,
    query: new URLSearchParams(at === -1 ? "" : url.slice(at + 1)),
    headers: request.headers,
    ip: request.ip,
    signal: nodeAbortSignal(reply.raw),
  };
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

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * A hireport handler as a Fastify plugin: the public API (`/openapi.json` included) registered with
 * its base path as prefix, `fastify.register(hireportFastify, { api, prefix: "/api/public/v1" })`,
 * or the careers site or the console under the prefix the host picks.
 */
export const hireportFastify: FastifyPluginAsync<HireportFastifyOptions> = async (fastify, options) => {
  const { api } = options;
  const maxBytes = api.settings.maxBodyBytes;
  const prefix = fastify.prefix;
  // In this plugin's scope only: every body reaches the handler unparsed, which judges size, type
  // and JSON; a handler that streams its bodies gets the request unread.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser("*", async (_request: FastifyRequest, payload: IncomingMessage) =>
    api.settings.streamBody
      ? { bodyStream: Readable.toWeb(payload) as ReadableStream<Uint8Array> }
      : readNodeBody(payload, maxBytes),
  );
  const answer = async (request: FastifyRequest, reply: FastifyReply, url: string) => {
    const end = url.indexOf("?");
    const path = (end === -1 ? url : url.slice(0, end)).slice(prefix.length) || "/";
    const body = (request.body ?? {}) as NodeBody & Pick<ApiRequest, "bodyStream">;
    return send(reply, await api.handle({ ...baseRequest(request, reply, path, url), ...body }));
  };
  // Every answer under the prefix is the handler's, a target Fastify's router refuses included.
  addMount(fastify, { prefix, answer });
  const handler = (request: FastifyRequest, reply: FastifyReply) => answer(request, reply, originalUrl(request));
  fastify.route({ method: METHODS, url: "/", handler });
  fastify.route({ method: METHODS, url: "/*", handler });
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
  fastify.get("/*", (request, reply) => answer(request, reply, originalUrl(request)));
};
