/**
 * `@hireport/fastify`: mounts the hireport public API in a Fastify 5 app.
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
import type { ApiRequest, ApiResponse, PublicApi } from "@hireport/core";
import { type NodeBody, nodeAbortSignal, readNodeBody } from "@hireport/core/node";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";

export interface HireportFastifyOptions {
  /** The API from `createPublicApi`; its `limits.maxBodyBytes` is the body limit here too. */
  api: PublicApi;
}

export interface HireportFastifyFilesOptions {
  /** The API from `createPublicApi`. */
  api: PublicApi;
}

function baseRequest(request: FastifyRequest, reply: FastifyReply, path: string): ApiRequest {
  const at = request.url.indexOf("?");
  return {
    method: request.method,
    path,
    query: new URLSearchParams(at === -1 ? "" : request.url.slice(at + 1)),
    headers: request.headers,
    ip: request.ip,
    signal: nodeAbortSignal(reply.raw),
  };
}

function send(reply: FastifyReply, answer: ApiResponse): FastifyReply {
  const body = typeof answer.body === "string" ? answer.body : Buffer.from(answer.body);
  return reply
    .code(answer.status)
    .headers(answer.headers)
    .send(answer.body.length === 0 ? undefined : body);
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * The public API as a Fastify plugin, `/openapi.json` included. Register it with the API's base
 * path as prefix: `fastify.register(hireportFastify, { api, prefix: "/api/public/v1" })`.
 */
export const hireportFastify: FastifyPluginAsync<HireportFastifyOptions> = async (fastify, options) => {
  const { api } = options;
  const maxBytes = api.settings.maxBodyBytes;
  const prefix = fastify.prefix;
  // In this plugin's scope only: every body reaches core unparsed, which judges size, type and JSON.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser("*", (_request: FastifyRequest, payload: IncomingMessage) =>
    readNodeBody(payload, maxBytes),
  );
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url;
    const end = url.indexOf("?");
    const path = (end === -1 ? url : url.slice(0, end)).slice(prefix.length) || "/";
    const body = (request.body ?? {}) as NodeBody;
    return send(reply, await api.handle({ ...baseRequest(request, reply, path), ...body }));
  };
  fastify.route({ method: METHODS, url: "/", handler });
  fastify.route({ method: METHODS, url: "/*", handler });
};

/**
 * The CV route behind each application's `resume_url`. Register it with the `filesPath` of
 * `createPublicApi` as prefix: `fastify.register(hireportFastifyFiles, { api, prefix: "/files/cv" })`.
 */
export const hireportFastifyFiles: FastifyPluginAsync<HireportFastifyFilesOptions> = async (fastify, options) => {
  fastify.get("/*", async (request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    return send(reply, await options.api.handleFile(baseRequest(request, reply, path)));
  });
};
