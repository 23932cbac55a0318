import { performance } from "node:perf_hooks";
import { Agent, type Dispatcher } from "undici";
import type { AddressPolicy } from "./address-policy";
import { createGuardedConnector, type HostResolver } from "./ssrf-guard";

/** How much of an answer is kept with the attempt. */
export const RESPONSE_BODY_LIMIT = 4096;

export interface OutgoingRequest {
  url: string;
  /** The exact envelope text; sent as its UTF-8 bytes. */
  payload: string;
  headers: Record<string, string>;
}

export interface SendResult {
  succeeded: boolean;
  /** The HTTP status, or null when no answer came. */
  statusCode: number | null;
  durationMs: number;
  /** The first 4 KiB of the answer, decoded as UTF-8. */
  responseBody: string;
  /** What went wrong, or null on success. */
  error: string | null;
  /** The answer's `Retry-After` header (a 429 or 503 may ask for a later retry), or null. */
  retryAfter: string | null;
}

export interface SenderOptions {
  policy: AddressPolicy | null;
  resolve: HostResolver;
  tls: { ca?: string | Buffer | Array<string | Buffer> } | undefined;
  timeoutMs: number;
}

/** Sends webhook requests over keep-alive connections (one undici pool per origin). */
export interface Sender {
  /** Never rejects: every failure is described in the result. */
  send(outgoing: OutgoingRequest, signal?: AbortSignal): Promise<SendResult>;
  /** Closes idle connections and waits for the open requests. */
  close(): Promise<void>;
}

/** Describes a failure the way it is stored with the attempt: code and message, with the cause's. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  let text = typeof code === "string" && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  const cause = error.cause;
  if (cause instanceof Error && !text.includes(cause.message)) text += ` (${describeError(cause)})`;
  return text;
}

/**
 * The answer as text every database stores: UTF-8 decoded with a character cut at the 4 KiB edge
 * dropped, invalid bytes and NUL (which Postgres text refuses) replaced by U+FFFD, and never more
 * than 4 KiB once encoded again.
 */
export function toStoredText(bytes: Uint8Array): string {
  let text = new TextDecoder("utf-8", { fatal: false }).decode(bytes, { stream: true }).replace(/\0/g, "\uFFFD");
  while (Buffer.byteLength(text, "utf8") > RESPONSE_BODY_LIMIT) text = text.slice(0, -1);
  if (/[\uD800-\uDBFF]$/.test(text)) text = text.slice(0, -1);
  return text;
}

/** A failure before any answer: no status, no body. */
function noAnswer(durationMs: number, error: string): SendResult {
  return { succeeded: false, statusCode: null, durationMs, responseBody: "", error, retryAfter: null };
}

/** The first value of a header as undici parsed it, or null. */
function firstValue(header: string | string[] | undefined): string | null {
  return (Array.isArray(header) ? header[0] : header) ?? null;
}

/**
 * Sends webhook requests over keep-alive connections (one undici pool per origin).
 *
 * Each request goes through undici's `dispatch` with a handler of its own rather than its
 * `request` API: no `AbortController` per request, no body stream to iterate, the answer's first
 * 4 KiB gathered as it arrives. A request costs the sending process less CPU this way than through
 * `request` with a deadline signal, and so does each delivery of the dispatcher (bench/RESULTS.md,
 * "Claims").
 */
export function createSender(options: SenderOptions): Sender {
  const agent = new Agent({
    connect: createGuardedConnector({
      policy: options.policy,
      resolve: options.resolve,
      tls: options.tls,
      timeoutMs: options.timeoutMs,
    }),
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 30_000,
  });

  return {
    send(outgoing, outerSignal) {
      const started = performance.now();
      const elapsed = () => Math.max(0, Math.round(performance.now() - started));
      if (options.policy && !outgoing.url.toLowerCase().startsWith("https:")) {
        return Promise.resolve(noAnswer(0, "Refused to send: only https: addresses are allowed"));
      }
      if (outerSignal?.aborted) return Promise.resolve(noAnswer(0, describeError(outerSignal.reason)));
      let target: URL;
      try {
        target = new URL(outgoing.url);
      } catch (error) {
        return Promise.resolve(noAnswer(0, describeError(error)));
      }
      return new Promise<SendResult>((resolve) => {
        let settled = false;
        /** undici's handle on the request, once it is written to a connection. */
        let controller: Dispatcher.DispatchController | undefined;
        /** Why the request was given up before undici handed over its controller. */
        let abandoned: Error | undefined;
        let statusCode: number | null = null;
        let retryAfter: string | null = null;
        const chunks: Buffer[] = [];
        let size = 0;

        const finish = (result: SendResult) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          outerSignal?.removeEventListener("abort", onOuterAbort);
          resolve(result);
        };
        /** An answer with its final status, as stored: what arrived of its first 4 KiB with it. */
        const answered = (status: number, responseBody: string): SendResult => {
          const succeeded = status >= 200 && status < 300;
          let error: string | null = null;
          if (!succeeded) {
            error =
              status >= 300 && status < 400
                ? `HTTP ${status}: redirects are not followed`
                : `HTTP ${status}: the receiver did not answer 2xx`;
          }
          return { succeeded, statusCode: status, durationMs: elapsed(), responseBody, error, retryAfter };
        };
        /**
         * A request cut short (the deadline, the caller's signal, a broken connection): a failure
         * with no status before one arrived; after, the status stands and the body is not kept.
         */
        const cutShort = (reason: unknown): SendResult =>
          statusCode === null ? noAnswer(elapsed(), describeError(reason)) : answered(statusCode, "");
        /** Stops the request (the deadline, the caller's signal) and answers with what is known. */
        const giveUp = (reason: unknown) => {
          if (settled) return;
          finish(cutShort(reason));
          const error = reason instanceof Error ? reason : new Error(describeError(reason));
          if (controller) controller.abort(error);
          else abandoned = error;
        };
        // The error is made when the time is up, not for every request (an Error captures its stack).
        const timer = setTimeout(
          () => giveUp(new Error(`No answer within ${options.timeoutMs} ms`)),
          options.timeoutMs,
        );
        const onOuterAbort = () => giveUp(outerSignal?.reason);
        outerSignal?.addEventListener("abort", onOuterAbort, { once: true });

        const handler: Dispatcher.DispatchHandler = {
          onRequestStart(requestController) {
            controller = requestController;
            // Given up while it waited for a connection: it is never written.
            if (abandoned !== undefined) requestController.abort(abandoned);
          },
          onResponseStart(_controller, status, headers) {
            if (status < 200) return; // 1xx: informational, the answer follows.
            statusCode = status;
            retryAfter = firstValue(headers["retry-after"]);
          },
          onResponseData(current, chunk) {
            if (settled) return;
            chunks.push(chunk);
            size += chunk.length;
            if (statusCode !== null && size >= RESPONSE_BODY_LIMIT) {
              finish(answered(statusCode, toStoredText(Buffer.concat(chunks, size).subarray(0, RESPONSE_BODY_LIMIT))));
              // The rest is not read: the connection is closed rather than drained.
              current.abort(new Error("Answer body past the stored 4 KiB"));
            }
          },
          onResponseEnd() {
            finish(
              statusCode === null
                ? noAnswer(elapsed(), "The answer ended without a status")
                : answered(statusCode, toStoredText(Buffer.concat(chunks, size))),
            );
          },
          onResponseError(_controller, error) {
            finish(cutShort(error));
          },
        };
        try {
          agent.dispatch(
            {
              origin: target.origin,
              path: `${target.pathname}${target.search}`,
              method: "POST",
              headers: outgoing.headers,
              body: outgoing.payload,
            },
            handler,
          );
        } catch (error) {
          finish(noAnswer(elapsed(), describeError(error)));
        }
      });
    },

    async close() {
      await agent.close();
    },
  };
}
