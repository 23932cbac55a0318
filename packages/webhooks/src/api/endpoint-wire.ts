/**
 * The webhook endpoints and deliveries on the wire of the public API (snake_case, as every object of
 * docs/api-reference.md): the zod schemas the OpenAPI document publishes and the request bodies
 * are validated with, and the functions that turn the dispatcher's views into them. The rules of
 * an endpoint (its address, events, description, throttle) stay the endpoint manager's: the schemas
 * check only types, and name the manager's limits for the document.
 */
import { DELIVERY_STATUSES, EVENT_TYPES, WEBHOOK_ENDPOINT_STATUSES } from "@hireport/core/schemas";
import * as z from "zod";
import type { WebhookDelivery, WebhookDeliveryWithAttempts } from "../delivery/deliveries";
import type { WebhookEndpoint } from "../endpoints/endpoint-view";
import { MAX_DELIVERIES_PER_SECOND, MAX_DESCRIPTION_LENGTH } from "../endpoints/endpoints";
import { type DeliveryAttemptRecord, WEBHOOK_SIGNATURE_SCHEMES } from "../store/webhook-records";

const dateTime = (description: string) => z.iso.datetime().meta({ description });
const eventType = z.enum(EVENT_TYPES);

/** An endpoint as the API returns it: never its secret. */
export const webhookEndpointSchema = z
  .strictObject({
    id: z.string().meta({ description: "`we_…`", examples: ["we_01j9x2k3m4n5p6q7r8s9t0v1w2"] }),
    url: z.string().meta({ description: "The receiver's https address." }),
    description: z.string(),
    events: z.array(eventType).meta({ description: "The event kinds sent to it." }),
    status: z.enum(WEBHOOK_ENDPOINT_STATUSES).meta({
      description:
        "active; paused (by a person or a key, or after 50 failed attempts in a row); disabled (its receiver answered 410 Gone).",
    }),
    paused_reason: z
      .enum(["failures", "manual", "gone"])
      .nullable()
      .meta({ description: "Why it is not active: failures, manual, or gone (a 410 Gone); null while active." }),
    signature_scheme: z.enum(WEBHOOK_SIGNATURE_SCHEMES).meta({ description: "How deliveries are signed." }),
    ordered: z.boolean().meta({ description: "Deliveries go out one at a time, in the order of their events." }),
    max_per_second: z
      .int()
      .nullable()
      .meta({ description: "Most deliveries started in one second; null for no limit." }),
    consecutive_failures: z.int().meta({ description: "Failed attempts in a row; a success resets it." }),
    secret_hint: z.string().meta({ description: "The first characters of the current secret, to tell secrets apart." }),
    public_key: z
      .string()
      .nullable()
      .meta({ description: "standard-v1a: the ed25519 public key (`whpk_…`) receivers verify with; null otherwise." }),
    previous_secret_expires_at: dateTime(
      "During a rotation's grace period: when the old secret stops signing.",
    ).nullable(),
    created_at: dateTime("When the endpoint was created."),
    updated_at: dateTime("When it last changed."),
  })
  .meta({ description: "A webhook endpoint (a subscription). Its secret is shown once, on create and on rotate." });

/** An endpoint with its secret: the answer of create and rotate-secret, the only ones that show it. */
export const webhookEndpointWithSecretSchema = webhookEndpointSchema
  .extend({
    secret: z.string().meta({
      description:
        "whsec_… (service, standard-v1): give it to the receiver now, it is never shown again. For standard-v1a, the public key whpk_… (the private key never leaves the service).",
    }),
  })
  .meta({ description: "A webhook endpoint with its signing secret, shown this once." });

const createFields = {
  description: z
    .string()
    .optional()
    .meta({ description: `Free text, at most ${MAX_DESCRIPTION_LENGTH} characters.` }),
  signature_scheme: z
    .enum(WEBHOOK_SIGNATURE_SCHEMES)
    .optional()
    .meta({ description: "service (default), standard-v1 or standard-v1a: see the receiver guide." }),
  ordered: z.boolean().optional().meta({ description: "One delivery at a time, in event order. Default false." }),
  max_per_second: z
    .int()
    .nullable()
    .optional()
    .meta({
      description: `Most deliveries started per second, 1 to ${MAX_DELIVERIES_PER_SECOND}; null (default) for no limit.`,
    }),
};

/**
 * `POST /webhook-endpoints`: `{ url, events }` (the main shape), or the REST Hooks shape that
 * Zapier, Make and n8n send, `{ target_url, event }` (one event kind).
 */
export const webhookEndpointCreateBodySchema = z
  .strictObject({
    url: z
      .string()
      .optional()
      .meta({ description: "The receiver's https address. Give url and events, or target_url and event." }),
    events: z.array(eventType).optional().meta({ description: "The event kinds to send, at least one." }),
    target_url: z
      .string()
      .optional()
      .meta({ description: "REST Hooks: the receiver's address (instead of url), with event." }),
    event: eventType.optional().meta({ description: "REST Hooks: the one event kind to send (instead of events)." }),
    ...createFields,
  })
  .superRefine((body, context) => {
    const fail = (path: string, message: string) => context.addIssue({ code: "custom", path: [path], message });
    if (body.url !== undefined && body.target_url !== undefined) {
      fail("target_url", "Give url or target_url, not both.");
    } else if (body.target_url !== undefined) {
      if (body.events !== undefined) fail("events", "With target_url, give event (one kind), not events.");
      if (body.event === undefined) fail("event", "This field is required with target_url.");
    } else {
      if (body.url === undefined) fail("url", "This field is required (or target_url, with event).");
      if (body.event !== undefined) fail("event", "With url, give events (a list), not event.");
      if (body.events === undefined) fail("events", "This field is required with url.");
    }
  })
  .meta({
    description:
      "A new endpoint: url and events, or, as REST Hooks clients (Zapier, Make, n8n) subscribe, target_url and event.",
  });
export type WebhookEndpointCreateBody = z.output<typeof webhookEndpointCreateBodySchema>;

/** `PATCH /webhook-endpoints/{id}`: the fields sent are changed. */
export const webhookEndpointPatchBodySchema = z
  .strictObject({
    url: z.string().optional().meta({ description: "A new https address." }),
    events: z.array(eventType).optional().meta({ description: "The event kinds to send, at least one." }),
    ...createFields,
  })
  .meta({
    description:
      "Only the fields sent change. A new signature_scheme replaces the key material at once: rotate-secret then shows the new secret.",
  });
export type WebhookEndpointPatchBody = z.output<typeof webhookEndpointPatchBodySchema>;

/** One attempt of a delivery. */
export const webhookAttemptSchema = z.strictObject({
  attempted_at: dateTime("When the request was sent."),
  status_code: z
    .int()
    .nullable()
    .meta({ description: "The receiver's HTTP status; null when none came (timeout, refused)." }),
  duration_ms: z.number(),
  response_body: z.string().meta({ description: "The first 4 KiB of the receiver's answer." }),
  error: z.string().nullable(),
  succeeded: z.boolean(),
});

/** A delivery of an event to an endpoint, with its attempts. */
export const webhookDeliverySchema = z
  .strictObject({
    id: z.string().meta({ description: "`dlv_…`, also sent in the Service-Delivery header." }),
    endpoint_id: z.string(),
    event_id: z.string(),
    event_type: z.enum([...EVENT_TYPES, "webhook.test"]),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.int(),
    next_attempt_at: dateTime("When the next attempt is due (pending only).").nullable(),
    created_at: dateTime("When the delivery was created."),
    updated_at: dateTime("When it last changed."),
    attempt_log: z.array(webhookAttemptSchema).meta({ description: "Every attempt, oldest first." }),
  })
  .meta({ description: "A delivery of one event to one endpoint, with every attempt." });

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function endpointWire(endpoint: WebhookEndpoint): z.output<typeof webhookEndpointSchema> {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    events: [...endpoint.events],
    status: endpoint.status,
    paused_reason: endpoint.pausedReason,
    signature_scheme: endpoint.signatureScheme,
    ordered: endpoint.ordered,
    max_per_second: endpoint.maxPerSecond,
    consecutive_failures: endpoint.consecutiveFailures,
    secret_hint: endpoint.secretHint,
    public_key: endpoint.publicKey,
    previous_secret_expires_at: iso(endpoint.previousSecretExpiresAt),
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

export function attemptWire(attempt: DeliveryAttemptRecord): z.output<typeof webhookAttemptSchema> {
  return {
    attempted_at: attempt.attemptedAt.toISOString(),
    status_code: attempt.statusCode,
    duration_ms: attempt.durationMs,
    response_body: attempt.responseBody,
    error: attempt.error,
    succeeded: attempt.succeeded,
  };
}

export function deliveryWire(
  delivery: WebhookDelivery,
  attempts: readonly DeliveryAttemptRecord[],
): z.output<typeof webhookDeliverySchema> {
  return {
    id: delivery.id,
    endpoint_id: delivery.endpointId,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: iso(delivery.nextAttemptAt),
    created_at: delivery.createdAt.toISOString(),
    updated_at: delivery.updatedAt.toISOString(),
    attempt_log: attempts.map(attemptWire),
  };
}

export function deliveryWithAttemptsWire(
  delivery: WebhookDeliveryWithAttempts,
): z.output<typeof webhookDeliverySchema> {
  return deliveryWire(delivery, delivery.attemptLog);
}
