/**
 * `@hireport/express`: mounts the hireport public API, or any other hireport handler (the careers
 * site, the console), in an Express 4 or 5 app.
 *
 * ```ts
 * app.use("/api/public/v1", hireportExpress(api));
 * app.use("/files/cv", hireportExpressFiles(api));
 * app.get("/health", hireportExpressHealth([api, dispatcher]));
 * ```
 *
 * Routing, authentication, validation and every answer live in `@hireport/core`; this file only
 * turns an Express request into an `ApiRequest` and an `ApiResponse` into the Node response.
 */
import { pipeline, Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import type { ApiRequest, ApiResponse, HireportHandler, Logger, PublicApi } from "@hireport/core";
import { answerHealth, type HealthSource, isEmptyBody } from "@hireport/core/http";
import { NodeApiRequest, type NodeBody, readNodeBody } from "@hireport/core/node";
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from "express";

/**
 * What `hireportExpress` returns: the request handler and an error handler that answers, with the
 * API's error body (docs/api-reference.md, Errors), the body-parser errors (malformed JSON, a body over `express.json()`'s limit) of
 * requests under the mount path. `app.use(path, handlers)` mounts both.
 */
export type HireportExpressHandlers = [RequestHandler, ErrorRequestHandler];

export interface HireportExpressOptions {
  /**
   * Where the adapter warns, once, that a body parser of the host (`express.json()`) reads the
   * handler's bodies before it. @default console
   */
  logger?: Pick<Logger, "warn">;
}

type BodyParts = NodeBody & Pick<ApiRequest, "body" | "bodyStream" | "hostBodyLimit">;

/** body-parser's error types that a client caused, and how core should see the body. */
function fromParserError(error: unknown): BodyParts | null {
  const { type, body, limit } = (error ?? {}) as { type?: unknown; body?: unknown; limit?: unknown };
  if (type === "entity.too.large") {
    return typeof limit === "number" ? { bodyTooLarge: true, hostBodyLimit: limit } : { bodyTooLarge: true };
  }
  // Core parses the text again, to answer 400 with the same message as for any malformed JSON.
  if (type === "entity.parse.failed" && typeof body === "string" && body.trim()) return { rawBody: body };
  const unreadable = ["entity.parse.failed", "request.aborted", "charset.unsupported", "encoding.unsupported"];
  return typeof type === "string" && unreadable.includes(type) ? { bodyUnreadable: true } : null;
}

/** Whether a body parser of the host read this request's body before the adapter. */
const readByHost = (req: Request): boolean => req.readableEnded || (req as { _body?: boolean })._body === true;

/**
 * The body as the handler wants it: what a host parser left on `req.body`, or the raw bytes read
 * here, or (for a handler that streams its bodies) the unread request as a Web stream.
 */
function bodyOf(req: Request, settings: HireportHandler["settings"]): BodyParts | Promise<BodyParts> {
  const method = req.method.toUpperCase();
  if (method === "GET" || method === "HEAD") return {};
  const maxBytes = settings.maxBodyBytes;
  const parsed = readByHost(req);
  if (!parsed && settings.streamBody) return { bodyStream: Readable.toWeb(req) as ReadableStream<Uint8Array> };
  if (!parsed) return readNodeBody(req, maxBytes);
  if (Number(req.headers["content-length"]) > maxBytes) return { bodyTooLarge: true };
  return { body: req.body };
}

/**
 * Said once per mount when a host parser got to a body first: its limit (100 KB for
 * `express.json()`) refuses bodies the API takes, and it decodes invalid UTF-8 into U+FFFD where
 * the API answers 400, so the same request would get another answer than without it.
 */
const PARSER_IN_FRONT =
  "hireport express: a body parser of the app (express.json() or another) read a request body before hireportExpress. " +
  "Its own size limit and decoding then apply (express.json() refuses bodies over 100 KB with 413 and turns invalid " +
  "UTF-8 into U+FFFD), so answers differ from the API's own (1 MiB, 400 for invalid UTF-8). Mount hireportExpress " +
  "before body parsers: app.use(path, hireportExpress(api)) first, then app.use(express.json()).";

function send(res: Response, answer: ApiResponse): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(answer.status, answer.headers);
  const { body } = answer;
  if (isEmptyBody(answer)) res.end();
  else if (typeof body === "string" || body instanceof Uint8Array) res.end(body);
  // A stream (a file from a file store): piped, so a large file never sits in memory whole. A
  // pipeline, not .pipe(): when the client goes away mid-file the source is destroyed too, which
  // cancels the file store's stream and closes its file.
  else pipeline(Readable.fromWeb(body as NodeWebStream<Uint8Array>), res, () => undefined);
}

/** The request as core sees it (Express reads X-Forwarded-Proto only under its `trust proxy` setting). */
function baseRequest(req: Request, res: Response): NodeApiRequest {
  const ip = req.ip ?? req.socket.remoteAddress;
  return new NodeApiRequest({ method: req.method, path: req.path, url: req.url, headers: req.headers, ip }, req, res);
}

/**
 * A hireport handler as Express middleware: the public API mounted at its base path
 * (`app.use("/api/public/v1", hireportExpress(api))`), or the careers site or the console at the
 * path the host picks. Mount it before the app's body parsers: it reads its bodies itself. Behind
 * `express.json()` it still answers, but with that parser's limit and decoding, and says so once
 * through `options.logger`.
 */
export function hireportExpress(api: HireportHandler, options: HireportExpressOptions = {}): HireportExpressHandlers {
  const logger = options.logger ?? console;
  let warned = false;
  const parserInFront = (req: Request, parserError: boolean): void => {
    if (warned || (!parserError && !readByHost(req))) return;
    warned = true;
    logger.warn(PARSER_IN_FRONT, { path: req.originalUrl });
  };
  const answer = async (req: Request, res: Response, next: NextFunction, body: BodyParts | Promise<BodyParts>) => {
    try {
      const request = baseRequest(req, res);
      send(res, await api.handle(Object.assign(request, await body)));
    } catch (error) {
      // api.handle never rejects; this guards the adapter itself.
      if (!res.headersSent) next(error);
    }
  };
  const handler: RequestHandler = (req, res, next) => {
    parserInFront(req, false);
    void answer(req, res, next, bodyOf(req, api.settings));
  };
  const parserErrors: ErrorRequestHandler = (error, req, res, next) => {
    const body = fromParserError(error);
    if (body === null) return next(error);
    parserInFront(req, true);
    void answer(req, res, next, body);
  };
  return [handler, parserErrors];
}

/**
 * The CV route behind each application's `resume_url`. Mount it at the `filesPath` of
 * `createPublicApi`: `app.use("/files/cv", hireportExpressFiles(api))` (or
 * `app.get("/files/cv/:token", ...)`); the token is the last segment of the path.
 */
export function hireportExpressFiles(api: PublicApi): RequestHandler {
  return (req, res, next) => {
    api.handleFile(baseRequest(req, res)).then(
      (answer) => send(res, answer),
      (error: unknown) => next(error),
    );
  };
}

/**
 * A readiness route: `app.get("/health", hireportExpressHealth(api))`, or with several sources
 * (`[api, dispatcher]`). Answers 200 with the health report as JSON when every check passes, 503
 * when one fails, `cache-control: no-store`; error messages carry no addresses or credentials.
 * The route needs no key: mount it where only the probes reach it, or accept that the report
 * (check names, durations, lag) is public.
 */
export function hireportExpressHealth(sources: HealthSource | readonly HealthSource[]): RequestHandler {
  return (_req, res, next) => {
    answerHealth(sources).then(
      (answer) => send(res, answer),
      (error: unknown) => next(error),
    );
  };
}
