/**
 * The contract between hireport's handlers (the API, the careers site, the console) and the
 * framework adapters: one plain request object in, one plain response object out. No Web
 * `Request`/`Response` on this path.
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
   * The body, unread, as a Web stream: what adapters pass, instead of `rawBody`, to a handler whose
   * settings ask for it (`streamBody`), such as the careers site's CV upload. The handler reads it
   * with its own limits. The public API never asks for it.
   */
  bodyStream?: ReadableStream<Uint8Array>;
  /**
   * Set by an adapter that stopped reading a body because it passed the size limit: the request is
   * answered 413 payload_too_large (after authentication, so the answer is logged and counted).
   */
  bodyTooLarge?: boolean;
  /**
   * Set with `bodyTooLarge` when a body parser of the host, in front of the adapter, refused the
   * body with its own limit (bytes): the 413's message names that limit and whose it is.
   */
  hostBodyLimit?: number;
  /**
   * Set by an adapter when the body could not be read (the client went away mid-body, an encoding
   * the host's parser refused): the request is answered 400 bad_request and nothing runs.
   */
  bodyUnreadable?: boolean;
  /** Client address, stored in the usage log. */
  ip?: string;
  /**
   * The scheme the client reached the host with, as the adapter knows it: Express's `req.protocol`
   * and Fastify's `request.protocol` (both read `X-Forwarded-Proto` only when the host trusts its
   * proxy: Express `trust proxy`, Fastify `trustProxy`), the URL of a Web `Request`. Undefined when
   * unknown. The console makes its cookies `Secure` on `"https"`.
   */
  protocol?: "http" | "https";
  /** Aborted when the client goes away. */
  signal?: AbortSignal;
}

export interface ApiResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /**
   * JSON text for API answers, HTML or XML text for pages and feeds, bytes for a CV served from a
   * host file store, a stream for a file read from a file store; empty for redirects and 304.
   */
  body: string | Uint8Array | ReadableStream<Uint8Array>;
}

/** What an adapter needs to know of a handler. */
export interface HandlerSettings {
  /** Largest body the adapter reads into `rawBody`; more is reported as `bodyTooLarge`. */
  readonly maxBodyBytes: number;
  /**
   * Pass bodies as `bodyStream`, unread (and without a size check: the handler applies its own).
   * @default false
   */
  readonly streamBody?: boolean;
}

/** What the host knows of a Web `Request` that the request itself does not say reliably. */
export interface FetchContext {
  /**
   * The client's address as the host's platform or its own proxy establishes it; `null` when it
   * is not known. Given, it replaces the default: the first address of `X-Forwarded-For`, right
   * where the platform sets that header (Vercel does), but the client's own claim behind a proxy
   * that appends to it. The address is logged, and the careers site throttles applications by it.
   */
  ip: string | null;
}

/**
 * Anything an adapter (`@hireport/express`, `@hireport/fastify`, `@hireport/next`) can mount: the
 * public API of `createPublicApi`, the careers site, the console. `handle` never rejects.
 */
export interface HireportHandler {
  handle(request: ApiRequest): Promise<ApiResponse>;
  /**
   * The same handler for Web runtimes (Next.js, Hono, Bun, Deno). The client's address is
   * `context.ip` when given, else the first address of `X-Forwarded-For`.
   */
  fetch(request: Request, context?: FetchContext): Promise<Response>;
  readonly settings: HandlerSettings;
}
