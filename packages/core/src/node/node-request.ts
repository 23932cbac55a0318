import type { ServerResponse } from "node:http";
import type { ApiRequest, HeaderBag } from "../base/http-types";
import { nodeAbortSignal } from "./abort-signal";

/** What a Node adapter knows of a request when it hands it to a handler. */
export interface NodeRequestParts {
  method: string;
  /** The path below the mount point, `/jobs/job_123`. */
  path: string;
  /** The request target as the client sent it (`/jobs?limit=25`): only its query string is read. */
  url: string;
  headers: HeaderBag;
  ip: string | undefined;
}

/**
 * The framework's request, for the scheme it was reached with: Express's `req` and Fastify's
 * `request` both have a `protocol` that reads `X-Forwarded-Proto` only when the host trusts its proxy.
 */
export interface ProtocolSource {
  readonly protocol: string;
}

/**
 * The `ApiRequest` the Node adapters (Express, Fastify) hand to a handler. `protocol` and `signal`
 * are made when first read: core reads the signal before a write only, and the scheme only for the
 * console's cookies. A class rather than an object literal with getters: such a literal gets a
 * hidden class of its own on every request (its getters are new closures each time), which makes
 * every read of the request in the handler megamorphic and leaves maps for the major GC to collect.
 * Body fields (`rawBody`, `bodyTooLarge`, …) are assigned on the instance by the adapter.
 */
export class NodeApiRequest implements ApiRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: HeaderBag;
  readonly ip: string | undefined;
  readonly #source: ProtocolSource;
  readonly #response: ServerResponse;
  #signal: AbortSignal | undefined;

  constructor(parts: NodeRequestParts, source: ProtocolSource, response: ServerResponse) {
    this.method = parts.method;
    this.path = parts.path;
    const at = parts.url.indexOf("?");
    this.query = new URLSearchParams(at === -1 ? "" : parts.url.slice(at + 1));
    this.headers = parts.headers;
    this.ip = parts.ip;
    this.#source = source;
    this.#response = response;
  }

  get protocol(): "http" | "https" {
    return this.#source.protocol === "https" ? "https" : "http";
  }

  /** Aborted when the client closes the connection before the answer is written. */
  get signal(): AbortSignal {
    this.#signal ??= nodeAbortSignal(this.#response);
    return this.#signal;
  }
}
