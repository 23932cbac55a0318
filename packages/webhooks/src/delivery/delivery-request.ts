import { sentPayload } from "@hireport/core/extend";
import type { ResolvedDispatcherOptions } from "../dispatcher/options";
import type { OutgoingRequest } from "../network/sender";
import { createSecretBox } from "../signing/secret-encryption";
import { signatureHeader } from "../signing/signature";
import { isKeyOf } from "../signing/signing-keys";
import { standardSignatureHeader } from "../signing/standard-signature";
import type { ClaimedDelivery, WebhookSecret, WebhookSignatureScheme } from "../store/webhook-records";

/**
 * The secrets that sign at `now`: the current one and those whose grace period has not ended; with
 * a `scheme`, only the key material of that scheme.
 */
export function liveSecrets(secrets: readonly WebhookSecret[], now: Date, scheme?: WebhookSignatureScheme): string[] {
  return secrets
    .filter((secret) => secret.expiresAt === null || secret.expiresAt.getTime() > now.getTime())
    .map((secret) => secret.secret)
    .filter((secret) => scheme === undefined || isKeyOf(scheme, secret));
}

/**
 * Signs a payload for the `…-Signature` header: `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`, one `v1`
 * entry per secret still signing at `now` (the current secret first, then rotated-out secrets in
 * their grace period). The scheme is `./signature`'s, the one `@hireport/webhooks/verify` checks.
 */
export function buildSignatureHeader(payload: string, secrets: readonly WebhookSecret[], now: Date): Promise<string> {
  return signatureHeader(payload, liveSecrets(secrets, now), Math.floor(now.getTime() / 1000));
}

/**
 * The headers that sign an attempt under the endpoint's scheme: `…-Signature` for `"service"`;
 * `webhook-id` (the delivery id, the same on every attempt), `webhook-timestamp` and
 * `webhook-signature` for the Standard Webhooks schemes (one entry per live key, current first).
 */
export async function signatureHeaders(
  scheme: WebhookSignatureScheme,
  headerName: string,
  id: string,
  payload: string,
  secrets: readonly WebhookSecret[],
  now: Date,
): Promise<Record<string, string>> {
  const keys = liveSecrets(secrets, now, scheme);
  const timestamp = Math.floor(now.getTime() / 1000);
  if (scheme === "service") return { [headerName]: await signatureHeader(payload, keys, timestamp) };
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": await standardSignatureHeader(id, timestamp, payload, keys),
  };
}

/** Builds the request of one attempt: the exact payload, to the endpoint's address, with the headers of docs/api-reference.md, Headers. */
export interface DeliveryRequestBuilder {
  /**
   * The request for `claimed`, signed at `now` (the attempt's time) with the endpoint's secrets,
   * opened with the dispatcher's `encryptionKeys`. @throws SecretKeyError when one cannot be opened
   */
  build(claimed: ClaimedDelivery, now: Date): Promise<OutgoingRequest>;
}

export function createDeliveryRequestBuilder(
  options: Pick<ResolvedDispatcherOptions, "headerPrefix" | "userAgent" | "encryptionKeys">,
): DeliveryRequestBuilder {
  const secrets = createSecretBox(options.encryptionKeys);
  const headerNames = {
    event: `${options.headerPrefix}-Event`,
    delivery: `${options.headerPrefix}-Delivery`,
    signature: `${options.headerPrefix}-Signature`,
  };
  return {
    async build({ delivery, endpoint, payload: stored }, now) {
      // The stored event may carry the trace context it was emitted under: receivers never see it.
      const payload = sentPayload(stored);
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "user-agent": options.userAgent,
        [headerNames.event]: delivery.eventType,
        [headerNames.delivery]: delivery.id,
        ...(await signatureHeaders(
          endpoint.signatureScheme,
          headerNames.signature,
          delivery.id,
          payload,
          secrets.open(endpoint),
          now,
        )),
      };
      return { url: endpoint.url, payload, headers };
    },
  };
}
