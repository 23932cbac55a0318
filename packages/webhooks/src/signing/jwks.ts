/**
 * The JSON Web Key Set (RFC 7517) of a company's `"standard-v1a"` endpoints: the ed25519 public
 * keys (RFC 8037 `OKP`/`Ed25519`) their deliveries are signed with, for receivers to fetch, and a
 * handler that serves it through the contract the adapters mount.
 */
import {
  type ApiRequest,
  type ApiResponse,
  HireportError,
  type HireportHandler,
  isHireportError,
} from "@hireport/core";
import { createFetchHandler } from "@hireport/core/http";
import { liveSecrets } from "../delivery/delivery-request";
import type { WebhookEndpointRecord } from "../store/webhook-records";
import type { SecretBox } from "./secret-encryption";
import { publicKeyBytes, thumbprint } from "./signing-keys";
import { toBase64Url } from "./standard-signature";

/** One public key of the set. */
export interface WebhookJwk {
  kty: "OKP";
  crv: "Ed25519";
  /** The 32-byte public key, base64url without padding. */
  x: string;
  /**
   * `<endpoint id>.<RFC 7638 thumbprint of the key>`: a receiver keeps the keys whose `kid` starts
   * with its own endpoint's id and a dot.
   */
  kid: string;
  use: "sig";
  alg: "EdDSA";
}

/** `{ keys }`: what `dispatcher.jwks()` returns and `jwksHandler` serves. */
export interface WebhookJwks {
  keys: WebhookJwk[];
}

export interface JwksOptions {
  /** Only this endpoint's keys (its current key, and the previous one during a grace period). @default every endpoint of the company */
  endpointId?: string;
}

/**
 * The keys that sign at `now` for every `"standard-v1a"` endpoint among `records` (paused ones
 * too): the current key, then the rotated-out one until its grace period ends. Keys that do not
 * open with the dispatcher's `encryptionKeys` are left out.
 */
export function buildJwks(records: readonly WebhookEndpointRecord[], box: SecretBox, now: Date): WebhookJwks {
  const keys: WebhookJwk[] = [];
  for (const record of records) {
    if (record.signatureScheme !== "standard-v1a") continue;
    for (const privateKey of liveSecrets(box.openForView(record).secrets, now, "standard-v1a")) {
      const publicKey = publicKeyBytes(privateKey);
      if (!publicKey) continue;
      const kid = `${record.id}.${thumbprint(publicKey)}`;
      keys.push({ kty: "OKP", crv: "Ed25519", x: toBase64Url(publicKey), kid, use: "sig", alg: "EdDSA" });
    }
  }
  return { keys };
}

/** What `jwksHandler` needs of a dispatcher. */
export interface JwksSource {
  jwks(companyId: string, options?: JwksOptions): Promise<WebhookJwks>;
  readonly options: { readonly logger: Pick<Console, "error"> };
}

export interface JwksHandlerOptions {
  /**
   * The company whose keys are served: an id, or a function of the request (a path segment, the
   * host name) that returns null for "no such company" (answered 404 not_found).
   */
  companyId: string | ((request: ApiRequest) => string | null | Promise<string | null>);
  /** `Cache-Control: public, max-age=…` of the answer, in seconds. @default 300 */
  maxAgeSeconds?: number;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): ApiResponse => ({
  status,
  headers: { "content-type": "application/json; charset=utf-8", ...headers },
  body: JSON.stringify(body),
});

/**
 * A handler that answers `GET` (and `HEAD`) with the company's JWKS (`application/jwk-set+json`),
 * for `@hireport/express`, `@hireport/fastify`, `@hireport/next` or `fetch`. Mount it where the
 * receivers fetch it (`/.well-known/webhooks/jwks.json`, say); it answers the same on every path.
 * Other methods get 405 method_not_allowed; a failure is logged and answered 500 server_error.
 */
export function jwksHandler(dispatcher: JwksSource, options: JwksHandlerOptions): HireportHandler {
  const maxAge = options.maxAgeSeconds ?? 300;
  if (!Number.isInteger(maxAge) || maxAge < 0) throw new TypeError("maxAgeSeconds must be a whole number, 0 or more");
  const settings = { maxBodyBytes: 0 };
  async function handle(request: ApiRequest): Promise<ApiResponse> {
    try {
      const method = request.method.toUpperCase();
      if (method !== "GET" && method !== "HEAD") {
        throw new HireportError("method_not_allowed", "The key set is read with GET.", {
          headers: { allow: "GET, HEAD" },
        });
      }
      const companyId = typeof options.companyId === "string" ? options.companyId : await options.companyId(request);
      if (!companyId) throw new HireportError("not_found", "No key set here.");
      const body = JSON.stringify(await dispatcher.jwks(companyId));
      return {
        status: 200,
        headers: { "content-type": "application/jwk-set+json", "cache-control": `public, max-age=${maxAge}` },
        body: method === "HEAD" ? "" : body,
      };
    } catch (error) {
      if (isHireportError(error)) return json(error.status, error.toBody(), error.headers);
      dispatcher.options.logger.error("hireport webhooks: the JWKS request failed", {
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      return json(500, new HireportError("server_error", "Something went wrong on our side; retry.").toBody());
    }
  }
  return { handle, fetch: createFetchHandler(handle, settings), settings };
}
