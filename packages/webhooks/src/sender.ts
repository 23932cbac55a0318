import { performance } from "node:perf_hooks";
import { Agent, request } from "undici";
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

async function readLimited(body: AsyncIterable<Uint8Array> & { destroy(): unknown }): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= RESPONSE_BODY_LIMIT) {
      body.destroy();
      break;
    }
  }
  return toStoredText(Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT));
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
    async send(outgoing, outerSignal) {
      const started = performance.now();
      const controller = new AbortController();
      // The error is made when the time is up, not for every request (an Error captures its stack).
      const timer = setTimeout(
        () => controller.abort(new Error(`No answer within ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
      const onOuterAbort = () => controller.abort(outerSignal?.reason);
      outerSignal?.addEventListener("abort", onOuterAbort, { once: true });
      const elapsed = () => Math.max(0, Math.round(performance.now() - started));
      if (options.policy && !outgoing.url.toLowerCase().startsWith("https:")) {
        clearTimeout(timer);
        outerSignal?.removeEventListener("abort", onOuterAbort);
        return {
          succeeded: false,
          statusCode: null,
          durationMs: 0,
          responseBody: "",
          error: "Refused to send: only https: addresses are allowed",
          retryAfter: null,
        };
      }
      try {
        const response = await request(outgoing.url, {
          method: "POST",
          headers: outgoing.headers,
          body: outgoing.payload,
          dispatcher: agent,
          signal: controller.signal,
        });
        const statusCode = response.statusCode;
        let responseBody = "";
        try {
          responseBody = await readLimited(response.body);
        } catch {
          // The status arrived in time; an answer body cut short by the deadline does not change it.
          response.body.destroy();
        }
        const durationMs = elapsed();
        const succeeded = statusCode >= 200 && statusCode < 300;
        let error: string | null = null;
        if (!succeeded) {
          error =
            statusCode >= 300 && statusCode < 400
              ? `HTTP ${statusCode}: redirects are not followed`
              : `HTTP ${statusCode}: the receiver did not answer 2xx`;
        }
        const header = response.headers["retry-after"];
        const retryAfter = (Array.isArray(header) ? header[0] : header) ?? null;
        return { succeeded, statusCode, durationMs, responseBody, error, retryAfter };
      } catch (error) {
        const reason = controller.signal.aborted ? controller.signal.reason : error;
        return {
          succeeded: false,
          statusCode: null,
          durationMs: elapsed(),
          responseBody: "",
          error: describeError(reason ?? error),
          retryAfter: null,
        };
      } finally {
        clearTimeout(timer);
        outerSignal?.removeEventListener("abort", onOuterAbort);
      }
    },

    async close() {
      await agent.close();
    },
  };
}
