/**
 * `@hireport/express`: mounts the hireport public API in an Express 4 or 5 app.
 *
 * ```ts
 * app.use("/api/public/v1", hireportExpress(api));
 * app.use("/files/cv", hireportExpressFiles(api));
 * ```
 *
 * Routing, authentication, validation and every answer live in `@hireport/core`; this file only
 * turns an Express request into an `ApiRequest` and an `ApiResponse` into the Node response.
 */
import type { ApiRequest, ApiResponse, PublicApi } from "@hireport/core";
import { type NodeBody, nodeAbortSignal, readNodeBody } from "@hireport/core/node";
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from "express";

/**
 * What `hireportExpress` returns: the request handler and an error handler that answers, in the
 * spec's words, the body-parser errors (malformed JSON, a body over `express.json()`'s limit) of
 * requests under the mount path. `app.use(path, handlers)` mounts both.
 */
export type HireportExpressHandlers = [RequestHandler, ErrorRequestHandler];

type BodyParts = NodeBody & Pick<ApiRequest, "body">;

/** body-parser's error types that a client caused, and how core should see the body. */
function fromParserError(error: unknown): BodyParts | null {
  const { type, body } = (error ?? {}) as { type?: unknown; body?: unknown };
  if (type === "entity.too.large") return { bodyTooLarge: true };
  // Core parses the text again, to answer 400 with the same message as for any malformed JSON.
  if (type === "entity.parse.failed" && typeof body === "string" && body.trim()) return { rawBody: body };
  const unreadable = ["entity.parse.failed", "request.aborted", "charset.unsupported", "encoding.unsupported"];
  return typeof type === "string" && unreadable.includes(type) ? { bodyUnreadable: true } : null;
}

/** The body as core wants it: what a host parser left on `req.body`, or the raw bytes read here. */
function bodyOf(req: Request, maxBytes: number): BodyParts | Promise<BodyParts> {
  const method = req.method.toUpperCase();
  if (method === "GET" || method === "HEAD") return {};
  const parsed = req.readableEnded || (req as { _body?: boolean })._body === true;
  if (!parsed) return readNodeBody(req, maxBytes);
  if (Number(req.headers["content-length"]) > maxBytes) return { bodyTooLarge: true };
  return { body: req.body };
}

function query(url: string): URLSearchParams {
  const at = url.indexOf("?");
  return new URLSearchParams(at === -1 ? "" : url.slice(at + 1));
}

function send(res: Response, answer: ApiResponse): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(answer.status, answer.headers);
  res.end(answer.status === 204 || answer.status === 304 ? undefined : answer.body);
}

function baseRequest(req: Request, res: Response): ApiRequest {
  return {
    method: req.method,
    path: req.path,
    query: query(req.url),
    headers: req.headers,
    ip: req.ip ?? req.socket.remoteAddress,
    signal: nodeAbortSignal(res),
  };
}

/**
 * The public API as Express middleware. Mount it at the API's base path:
 * `app.use("/api/public/v1", hireportExpress(api))`. Works with or without `express.json()` before it.
 */
export function hireportExpress(api: PublicApi): HireportExpressHandlers {
  const maxBytes = api.settings.maxBodyBytes;
  const answer = async (req: Request, res: Response, next: NextFunction, body: BodyParts | Promise<BodyParts>) => {
    try {
      const request = baseRequest(req, res);
      send(res, await api.handle({ ...request, ...(await body) }));
    } catch (error) {
      // api.handle never rejects; this guards the adapter itself.
      if (!res.headersSent) next(error);
    }
  };
  const handler: RequestHandler = (req, res, next) => {
    void answer(req, res, next, bodyOf(req, maxBytes));
  };
  const parserErrors: ErrorRequestHandler = (error, req, res, next) => {
    const body = fromParserError(error);
    if (body === null) next(error);
    else void answer(req, res, next, body);
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
