/**
 * The contract between `@hireport/core` and the framework adapters: one plain request object in,
 * one plain response object out. No Web `Request`/`Response` on this path.
 */

/** Header values as Node gives them; names may be in any case. */
export type HeaderBag = Record<string, string | string[] | undefined>;

/** Query values as frameworks give them (`?a=1&a=2` may arrive as an array). */
export type QueryBag = Record<string, string | string[] | undefined>;

export interface ApiRequest {
  /** HTTP method, any case. */
  method: string;
  /**
   * Path below the API root, `/jobs/job_123`. A path that still starts with the `basePath`
   * option (`/api/public/v1/jobs`) is accepted too. A query string here is ignored: pass `query`.
   */
  path: string;
  /** Query parameters; a `URLSearchParams` is accepted as well. */
  query?: QueryBag | URLSearchParams;
  /** Request headers; a Web `Headers` object is accepted as well. */
  headers: HeaderBag | Headers;
  /**
   * The body already parsed by the host (`express.json()`, Fastify's parser). Leave undefined when
   * the body was not parsed and pass `rawBody` instead.
   */
  body?: unknown;
  /** The raw body bytes or text, when the host did not parse it. Core checks size and JSON. */
  rawBody?: string | Uint8Array;
  /**
   * Set by an adapter that stopped reading a body because it passed the size limit: the request is
   * answered 413 payload_too_large (after authentication, so the answer is logged and counted).
   */
  bodyTooLarge?: boolean;
  /**
   * Set by an adapter when the body could not be read (the client went away mid-body, an encoding
   * the host's parser refused): the request is answered 400 bad_request and nothing runs.
   */
  bodyUnreadable?: boolean;
  /** Client address, stored in the usage log. */
  ip?: string;
  /** Aborted when the client goes away. */
  signal?: AbortSignal;
}

export interface ApiResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** JSON text for API answers; bytes for a CV served from a host file store; empty for redirects. */
  body: string | Uint8Array;
}
