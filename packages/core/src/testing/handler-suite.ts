/**
 * The black-box suite of what an adapter must do for any hireport handler (the careers site, the
 * console, or the host's own), beside the public API: pass bodies read with the handler's limit or
 * unread as a stream, send text, bytes and streamed bodies, keep paths and query strings. Every
 * framework adapter runs it through a real server and Node's `fetch`.
 *
 * ```ts
 * runHandlerSuite({
 *   name: "express",
 *   async mount(handler) {
 *     const app = express();
 *     app.use("/site", hireportExpress(handler));
 *     const server = await listen(app);
 *     return { baseUrl: `http://127.0.0.1:${port}/site`, close: () => closeServer(server) };
 *   },
 * });
 * ```
 */
import { afterAll, describe, expect, it } from "vitest";
import type { ApiRequest, ApiResponse, HireportHandler } from "../base/http-types";
import { createFetchHandler } from "../http/fetch-bridge";

/** A running server that mounts one handler under `baseUrl`. */
export interface HandlerSuiteServer {
  /** Where the handler is mounted, no trailing slash: `http://127.0.0.1:3000/site`. */
  baseUrl: string;
  close(): Promise<void>;
}

export interface HandlerSuiteTarget {
  name: string;
  /** Serves `handler` on a free port under a path of the adapter's choosing (not the root). */
  mount(handler: HireportHandler): Promise<HandlerSuiteServer>;
}

const MIB = 1_048_576;

/** Bytes `0, 1, …, 255, 0, …` of a length: a body whose every byte is checkable. */
function pattern(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = i % 256;
  return bytes;
}

/** Reads a stream to its end, counting bytes and checking them against `pattern`. */
async function drain(stream: ReadableStream<Uint8Array>): Promise<{ size: number; intact: boolean }> {
  let size = 0;
  let intact = true;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const byte of value) {
      if (byte !== size % 256) intact = false;
      size += 1;
    }
  }
  return { size, intact };
}

/** A stream of `length` pattern bytes in chunks of 64 KiB, produced as it is read. */
function patternStream(length: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= length) {
        controller.close();
        return;
      }
      const chunk = new Uint8Array(Math.min(65_536, length - sent));
      for (let i = 0; i < chunk.length; i++) chunk[i] = (sent + i) % 256;
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

/** What a test handler saw of a request. */
interface Seen {
  method: string;
  path: string;
  query: Record<string, string>;
  body: "none" | "raw" | "stream" | "too_large" | "parsed";
  size: number;
  intact: boolean;
}

function json(status: number, body: unknown): ApiResponse {
  return { status, headers: { "content-type": "application/json; charset=utf-8" }, body: JSON.stringify(body) };
}

/** A handler that reports what it received, and answers `/bytes/{n}` and `/stream/{n}` with n pattern bytes. */
function echoHandler(streamBody: boolean): HireportHandler {
  const handle = async (request: ApiRequest): Promise<ApiResponse> => {
    const path = request.path.split("?")[0] ?? "";
    const sized = /\/(bytes|stream|empty)\/(\d+)$/.exec(path);
    if (sized) {
      const length = Number(sized[2]);
      const headers = { "content-type": "application/octet-stream", "x-length": String(length) };
      if (sized[1] === "empty") return { status: 304, headers: {}, body: "" };
      return { status: 200, headers, body: sized[1] === "bytes" ? pattern(length) : patternStream(length) };
    }
    const query = Object.fromEntries(new URLSearchParams(toSearch(request.query)));
    const seen: Seen = { method: request.method, path, query, body: "none", size: 0, intact: true };
    if (request.bodyTooLarge) seen.body = "too_large";
    else if (request.bodyStream) Object.assign(seen, { body: "stream" }, await drain(request.bodyStream));
    else if (request.rawBody !== undefined) {
      const bytes = typeof request.rawBody === "string" ? new TextEncoder().encode(request.rawBody) : request.rawBody;
      Object.assign(seen, { body: "raw" }, await drain(new Response(bytes as BodyInit).body as ReadableStream));
    } else if (request.body !== undefined) seen.body = "parsed";
    return json(200, seen);
  };
  const settings = { maxBodyBytes: MIB, streamBody };
  return { handle, fetch: createFetchHandler(handle, settings), settings };
}

function toSearch(query: ApiRequest["query"]): string {
  if (query === undefined) return "";
  if (query instanceof URLSearchParams) return query.toString();
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(name, item);
  }
  return params.toString();
}

/** Runs the handler suite against one adapter (vitest `describe`/`it` inside). */
export function runHandlerSuite(target: HandlerSuiteTarget): void {
  describe(`handler suite: ${target.name}`, () => {
    const servers: HandlerSuiteServer[] = [];
    afterAll(async () => {
      await Promise.all(servers.map((server) => server.close()));
    });
    async function mounted(streamBody: boolean): Promise<string> {
      const server = await target.mount(echoHandler(streamBody));
      servers.push(server);
      return server.baseUrl;
    }
    async function seen(response: Response): Promise<Seen> {
      expect(response.status).toBe(200);
      return (await response.json()) as Seen;
    }

    it("passes the path below the mount point and the query string", async () => {
      const base = await mounted(false);
      const answer = await seen(await fetch(`${base}/jobs/job_1?a=1&b=%C3%A9`));
      expect(answer).toMatchObject({ method: "GET", body: "none", query: { a: "1", b: "é" } });
      expect(answer.path.endsWith("/jobs/job_1")).toBe(true);
    });

    it("reads a body into rawBody up to maxBodyBytes, and reports a larger one as bodyTooLarge", async () => {
      const base = await mounted(false);
      const small = await seen(await fetch(`${base}/form`, { method: "POST", body: pattern(MIB) as BodyInit }));
      expect(small).toMatchObject({ body: "raw", size: MIB, intact: true });
      const large = await seen(await fetch(`${base}/form`, { method: "POST", body: pattern(MIB + 1) as BodyInit }));
      expect(large.body).toBe("too_large");
    });

    it("hands a streaming handler the body unread, whatever its size", async () => {
      const base = await mounted(true);
      const size = 3 * MIB + 7;
      const answer = await seen(
        await fetch(`${base}/upload`, {
          method: "POST",
          headers: { "content-type": "multipart/form-data; boundary=x" },
          body: pattern(size) as BodyInit,
        }),
      );
      expect(answer).toMatchObject({ body: "stream", size, intact: true });
    });

    it("sends byte bodies and streamed bodies whole, and no body for 304", async () => {
      const base = await mounted(false);
      for (const kind of ["bytes", "stream"]) {
        const response = await fetch(`${base}/${kind}/${2 * MIB + 3}`);
        expect(response.status).toBe(200);
        expect(response.headers.get("x-length")).toBe(String(2 * MIB + 3));
        expect(await drain(response.body as ReadableStream<Uint8Array>)).toEqual({ size: 2 * MIB + 3, intact: true });
      }
      const empty = await fetch(`${base}/empty/0`);
      expect(empty.status).toBe(304);
      expect(await empty.text()).toBe("");
    });
  });
}
