/**
 * The records of the webhook store: endpoints, deliveries and attempts. Core keeps only what its
 * outbox reads and writes of them: `WebhookSubscription` (an endpoint as the fan-out sees it) and
 * `EventDelivery` (the row the fan-out writes), which the records here extend.
 */
import type { EventDelivery, WebhookSubscription } from "@hireport/core/storage";

/** Why an endpoint is paused or disabled. */
export type WebhookStopReason = "failures" | "manual" | "gone";

/**
 * How an endpoint's deliveries are signed (see the receiver guide):
 * - `"service"`: the `…-Signature` header, `t=<unix>,v1=<hex>` (HMAC-SHA256 keyed with the whole
 *   `whsec_…` string);
 * - `"standard-v1"`: Standard Webhooks 1.0 symmetric, `webhook-signature: v1,<base64>` (HMAC-SHA256
 *   keyed with the bytes of the base64 after `whsec_`);
 * - `"standard-v1a"`: Standard Webhooks 1.0 asymmetric, `webhook-signature: v1a,<base64>` (ed25519).
 */
export const WEBHOOK_SIGNATURE_SCHEMES = ["service", "standard-v1", "standard-v1a"] as const;
export type WebhookSignatureScheme = (typeof WEBHOOK_SIGNATURE_SCHEMES)[number];

export interface WebhookSecret {
  /**
   * `whsec_…` (an HMAC secret) or `whsk_…` (an ed25519 private key, for `"standard-v1a"`); or, when the dispatcher has `encryptionKeys`, its
   * sealed form (`enc:v1:<key id>:…`, AES-256-GCM), which only the dispatcher opens.
   */
  secret: string;
  /** Null for the current secret; for a rotated-out secret, the time it stops signing. */
  expiresAt: Date | null;
}

/** A webhook endpoint: core's `WebhookSubscription` (id, company, events, status) and the rest of its record. */
export interface WebhookEndpointRecord extends WebhookSubscription {
  url: string;
  description: string;
  /**
   * Why it is not active: `"failures"` when paused after failed attempts in a row, `"manual"` when
   * paused by the host, `"gone"` when disabled by a receiver's 410 Gone; null while active.
   */
  pausedReason: WebhookStopReason | null;
  /** How deliveries are signed. */
  signatureScheme: WebhookSignatureScheme;
  /**
   * Ordered delivery: the endpoint's deliveries go out one at a time, in the order their events
   * were created (`createdAt`, then id); each waits until the one before it has succeeded or been
   * given up on (failed), so a retrying one holds back the rest. False: up to the dispatcher's
   * `perEndpointConcurrency` at once, retries beside newer events.
   */
  ordered: boolean;
  /**
   * The most deliveries the dispatchers, together, start to the endpoint in one second of the
   * clock; null for no limit.
   */
  maxPerSecond: number | null;
  /** Current secret first, then rotated-out secrets still inside their grace period. */
  secrets: WebhookSecret[];
  /** Failed attempts in a row; a success resets it. */
  consecutiveFailures: number;
  updatedAt: Date;
}

/**
 * A delivery as the webhook store keeps it: core's `EventDelivery`, the row the outbox's fan-out
 * writes (or `sendTest`, held), whose status, attempts, next attempt time and lease the dispatcher
 * then changes. It adds no field.
 */
export interface DeliveryRecord extends EventDelivery {}

export interface DeliveryAttemptRecord {
  id: string;
  deliveryId: string;
  endpointId: string;
  attemptedAt: Date;
  /** HTTP status, or null when no answer came (timeout, refused, TLS). */
  statusCode: number | null;
  durationMs: number;
  /** The first 4 KiB of the answer body. */
  responseBody: string;
  /** What went wrong, or null on success. */
  error: string | null;
  succeeded: boolean;
}

/** A claimed delivery with what the dispatcher needs to send it. */
export interface ClaimedDelivery {
  delivery: DeliveryRecord;
  endpoint: WebhookEndpointRecord;
  /** The event's exact payload text. */
  payload: string;
}
