/**
 * What Next's server does around route handlers, in small: an HTTP server that turns each Node
 * request into a Web `Request` (with the client's address in X-Forwarded-For, as Vercel sends it),
 * picks the route file's exported method, and streams the `Response` back. This package's tests use
 * it, and so do the careers site's (which imports this module).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { RouteHandler } from "../../src/index";

/** The exported method of the route file that serves `path`, or null for a 404. */
export type RouteFor = (path: string, method: string) => RouteHandler | null | undefined;

/**
 * The body stream as Next's Node server builds it (`NodeNextRequest.stream()`): 'data' listeners
 * feeding a `ReadableStream`. Cancelling it does not destroy the socket; the rest keeps flowing
 * and is dropped, so an early 413 still reaches the client.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Buffer) => {
        if (open) controller.enqueue(new Uint8Array(chunk));
      });
      req.on("end", () => {
        if (open) controller.close();
      });
      req.on("error", (error) => {
        if (open) controller.error(error);
        open = false;
      });
    },
    cancel() {
      open = false;
    },
  });
}

/** Serves one request with the route handler `route` picks; a handler that throws answers 500. */
export async function serveNext(req: IncomingMessage, res: ServerResponse, route: RouteFor): Promise<void> {
  const aborted = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) aborted.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  headers.set("x-forwarded-for", req.socket.remoteAddress ?? "");
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const request = new Request(`http://${req.headers.host}${req.url}`, {
    method,
    headers,
    signal: aborted.signal,
    ...(hasBody ? { body: bodyStream(req), duplex: "half" } : {}),
  } as RequestInit);
  const handler = route(new URL(request.url).pathname, method);
  if (!handler) {
    res.writeHead(404).end();
    return;
  }
  try {
    const response = await handler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    const reader = response.body?.getReader();
    for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) res.write(read.value);
    res.end();
  } catch {
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
}

/** A local server (127.0.0.1, a free port) that serves route handlers as {@link serveNext} does. */
export async function startNextServer(route: RouteFor): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    void serveNext(req, res, route);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
