/**
 * The webhook endpoints of the public API, as an extension of core's (`createPublicApi({ extensions:
 * [webhookEndpointsApi(dispatcher)] })`): subscriptions managed by an API key with `webhooks:read`
 * and `webhooks:write`, through the dispatcher's endpoint manager and delivery log (the console's
 * path: the same SSRF guard, endpoint limit, secrets and audit entries, here naming the key).
 */
import { type ChangeOptions, HireportError, isHireportError } from "@hireport/core";
import { eventCatalog, keyActor, notFound } from "@hireport/core/extend";
import {
  type ApiExtension,
  type ExtensionRoute,
  extensionRoute,
  type HandlerContext,
  querySpec,
} from "@hireport/core/http";
import {
  cursorParam,
  DELIVERY_STATUSES,
  EVENT_TYPES,
  eventEnvelopeSchema,
  limitParam,
  singleSchema,
} from "@hireport/core/schemas";
import * as z from "zod";
import type { WebhookDispatcher } from "../dispatcher/dispatcher";
import {
  attemptWire,
  deliveryWire,
  deliveryWithAttemptsWire,
  endpointWire,
  type WebhookEndpointCreateBody,
  webhookAttemptSchema,
  webhookDeliverySchema,
  webhookEndpointCreateBodySchema,
  webhookEndpointPatchBodySchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from "./endpoint-wire";

/** The OpenAPI tag of these routes. */
const TAG = "Webhook endpoints";

const NO_QUERY = querySpec(z.strictObject({}));

const deliveryListQuerySchema = z.strictObject({
  status: z.enum(DELIVERY_STATUSES).optional().meta({ description: "Only deliveries in this state." }),
  cursor: cursorParam,
  limit: limitParam,
});

/** Error statuses, as core states them for its own routes (see `RouteSpec.errorStatuses`). */
const READ = [400, 401, 403, 404, 405, 429, 500, 503] as const;
const LIST = [400, 401, 403, 405, 429, 500, 503] as const;
const ACTION = [400, 401, 403, 404, 405, 409, 422, 429, 500, 503] as const;

const endpointResponse = singleSchema(webhookEndpointSchema);
const secretResponse = singleSchema(webhookEndpointWithSecretSchema);
const deliveryResponse = singleSchema(webhookDeliverySchema);

/** The manager's field names (camelCase options) as the API's body names them. */
const FIELD_NAMES: Readonly<Record<string, string>> = {
  signatureScheme: "signature_scheme",
  maxPerSecond: "max_per_second",
};

/**
 * A refusal of the endpoint manager with the body's field names: snake_case, and for a REST Hooks
 * body `target_url` and `event` where the manager says `url` and `events.0`.
 */
function asApiError(error: unknown, restHook = false): unknown {
  if (!isHireportError(error) || !error.fields) return error;
  const rename = (field: string): string => {
    if (restHook && field === "url") return "target_url";
    if (restHook && /^events(\.\d+)?$/.test(field)) return "event";
    return FIELD_NAMES[field] ?? field;
  };
  const fields = error.fields.map((entry) => ({ ...entry, field: rename(entry.field) }));
  return new HireportError(error.code, error.message, { fields, headers: error.headers, extra: error.extra });
}

async function mapped<T>(work: () => Promise<T>, restHook = false): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asApiError(error, restHook);
  }
}

function createInput(body: WebhookEndpointCreateBody) {
  return {
    url: body.target_url ?? body.url ?? "",
    events: body.event !== undefined ? [body.event] : (body.events ?? []),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.signature_scheme !== undefined ? { signatureScheme: body.signature_scheme } : {}),
    ...(body.ordered !== undefined ? { ordered: body.ordered } : {}),
    ...(body.max_per_second !== undefined ? { maxPerSecond: body.max_per_second } : {}),
  };
}

/**
 * The routes of the webhook endpoints, for `createPublicApi({ extensions })`:
 *
 * - `GET /webhook-endpoints`, `POST /webhook-endpoints` (`{ url, events }`, or REST Hooks `{ target_url, event }`)
 * - `GET`, `PATCH`, `DELETE /webhook-endpoints/{id}`
 * - `POST /webhook-endpoints/{id}/rotate-secret`, `/pause`, `/resume`, `/test`
 * - `GET /webhook-endpoints/{id}/deliveries`, `POST /webhook-endpoints/{id}/deliveries/{delivery_id}/resend`
 * - `GET /event-samples/{type}`: an example envelope of each event kind (REST Hooks sample data)
 *
 * Reads need `webhooks:read`, changes `webhooks:write` (which includes read). Every change is
 * audited with the key as its actor. Give the API and the dispatcher the same storage.
 */
export function webhookEndpointsApi(dispatcher: WebhookDispatcher): ApiExtension {
  const { endpoints, deliveries } = dispatcher;
  const company = (context: HandlerContext<unknown, unknown>) => context.auth.company.id;
  const by = (context: HandlerContext<unknown, unknown>): ChangeOptions => ({ actor: keyActor(context.auth.key) });
  const id = (context: HandlerContext<unknown, unknown>) => context.params.id as string;
  const data = (status: number, wire: unknown) => ({ status, body: { data: wire } });
  // Built on the first request of a sample (the catalog converts every envelope schema): not at start-up.
  let samples: Map<string, Record<string, unknown>> | undefined;
  const sampleOf = (type: string) => {
    samples ??= new Map(eventCatalog().map((entry) => [entry.type as string, entry.example]));
    return (EVENT_TYPES as readonly string[]).includes(type) ? samples.get(type) : undefined;
  };

  const routes: ExtensionRoute[] = [
    extensionRoute({
      operationId: "listWebhookEndpoints",
      method: "GET",
      path: "/webhook-endpoints",
      scope: "webhooks:read",
      tag: TAG,
      summary: "List webhook endpoints",
      description:
        "Every endpoint of the company, in one page (a company has at most 20 unless the host changed the limit). Secrets are never shown here.",
      query: NO_QUERY,
      body: null,
      response: z.strictObject({
        data: z.array(webhookEndpointSchema),
        has_more: z.literal(false),
        next_cursor: z.null(),
      }),
      successStatus: 200,
      errorStatuses: LIST,
      async handle(context) {
        const list = await endpoints.list(company(context));
        return { status: 200, body: { data: list.map(endpointWire), has_more: false, next_cursor: null } };
      },
    }),
    extensionRoute({
      operationId: "createWebhookEndpoint",
      method: "POST",
      path: "/webhook-endpoints",
      scope: "webhooks:write",
      tag: TAG,
      summary: "Create a webhook endpoint (subscribe)",
      description:
        "Send url and events, or, as REST Hooks clients (Zapier, Make, n8n) subscribe, target_url and event. The address must be https and reach the public internet (private, loopback and link-local addresses are refused with 422 on url). The answer holds the signing secret, shown this once; keep the endpoint's id to unsubscribe (DELETE). A company at its endpoint limit gets 409 endpoint_limit. Audit: webhook_endpoint.created, by the key.",
      query: NO_QUERY,
      body: webhookEndpointCreateBodySchema,
      response: secretResponse,
      successStatus: 201,
      errorStatuses: [400, 401, 403, 405, 409, 413, 422, 429, 500, 503],
      async handle(context) {
        const restHook = context.body.target_url !== undefined;
        const { endpoint, secret } = await mapped(
          () => endpoints.create({ companyId: company(context), ...createInput(context.body) }, by(context)),
          restHook,
        );
        return data(201, { ...endpointWire(endpoint), secret });
      },
    }),
    extensionRoute({
      operationId: "getWebhookEndpoint",
      method: "GET",
      path: "/webhook-endpoints/{id}",
      scope: "webhooks:read",
      tag: TAG,
      summary: "Get a webhook endpoint",
      query: NO_QUERY,
      body: null,
      response: endpointResponse,
      successStatus: 200,
      errorStatuses: READ,
      async handle(context) {
        return data(200, endpointWire(await endpoints.get(company(context), id(context))));
      },
    }),
    extensionRoute({
      operationId: "updateWebhookEndpoint",
      method: "PATCH",
      path: "/webhook-endpoints/{id}",
      scope: "webhooks:write",
      tag: TAG,
      summary: "Change a webhook endpoint",
      description:
        "Only the fields sent change; max_per_second null removes the throttle. Audit: webhook_endpoint.updated, by the key.",
      query: NO_QUERY,
      body: webhookEndpointPatchBodySchema,
      response: endpointResponse,
      successStatus: 200,
      errorStatuses: [400, 401, 403, 404, 405, 413, 422, 429, 500, 503],
      async handle(context) {
        const body = context.body;
        const input = {
          ...(body.url !== undefined ? { url: body.url } : {}),
          ...(body.events !== undefined ? { events: body.events } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.signature_scheme !== undefined ? { signatureScheme: body.signature_scheme } : {}),
          ...(body.ordered !== undefined ? { ordered: body.ordered } : {}),
          ...(body.max_per_second !== undefined ? { maxPerSecond: body.max_per_second } : {}),
        };
        const updated = await mapped(() => endpoints.update(company(context), id(context), input, by(context)));
        return data(200, endpointWire(updated));
      },
    }),
    extensionRoute({
      operationId: "deleteWebhookEndpoint",
      method: "DELETE",
      path: "/webhook-endpoints/{id}",
      scope: "webhooks:write",
      tag: TAG,
      summary: "Delete a webhook endpoint (unsubscribe)",
      description:
        "Deletes the endpoint with its deliveries; REST Hooks clients unsubscribe this way. Audit: webhook_endpoint.deleted, by the key.",
      query: NO_QUERY,
      body: null,
      response: singleSchema(z.strictObject({ id: z.string(), deleted: z.literal(true) })),
      successStatus: 200,
      errorStatuses: READ,
      async handle(context) {
        await endpoints.delete(company(context), id(context), by(context));
        return data(200, { id: id(context), deleted: true });
      },
    }),
    extensionRoute({
      operationId: "rotateWebhookEndpointSecret",
      method: "POST",
      path: "/webhook-endpoints/{id}/rotate-secret",
      scope: "webhooks:write",
      tag: TAG,
      summary: "Rotate an endpoint's signing secret",
      description:
        "No body. A new secret, shown this once; the old one keeps signing beside it for 24 hours (two signatures in each delivery). Audit: webhook_endpoint.secret_rotated, by the key.",
      query: NO_QUERY,
      body: null,
      response: secretResponse,
      successStatus: 200,
      errorStatuses: ACTION,
      async handle(context) {
        const { endpoint, secret } = await endpoints.rotateSecret(company(context), id(context), by(context));
        return data(200, { ...endpointWire(endpoint), secret });
      },
    }),
    extensionRoute({
      operationId: "pauseWebhookEndpoint",
      method: "POST",
      path: "/webhook-endpoints/{id}/pause",
      scope: "webhooks:write",
      tag: TAG,
      summary: "Pause a webhook endpoint",
      description:
        "No body. Deliveries stop; new events still queue for it. Audit: webhook_endpoint.paused, by the key.",
      query: NO_QUERY,
      body: null,
      response: endpointResponse,
      successStatus: 200,
      errorStatuses: ACTION,
      async handle(context) {
        return data(200, endpointWire(await endpoints.pause(company(context), id(context), by(context))));
      },
    }),
    extensionRoute({
      operationId: "resumeWebhookEndpoint",
      method: "POST",
      path: "/webhook-endpoints/{id}/resume",
      scope: "webhooks:write",
      tag: TAG,
      summary: "Resume a webhook endpoint",
      description:
        "No body. A paused or disabled endpoint becomes active; its queued deliveries go out at once and its failure count is cleared. Audit: webhook_endpoint.resumed, by the key.",
      query: NO_QUERY,
      body: null,
      response: endpointResponse,
      successStatus: 200,
      errorStatuses: ACTION,
      async handle(context) {
        return data(200, endpointWire(await endpoints.resume(company(context), id(context), by(context))));
      },
    }),
    extensionRoute({
      operationId: "testWebhookEndpoint",
      method: "POST",
      path: "/webhook-endpoints/{id}/test",
      scope: "webhooks:write",
      tag: TAG,
      summary: "Send a test event",
      description:
        "No body. Sends a webhook.test event (data: { endpoint_id }) now, signed like any other, and answers with its delivery and attempt. Not retried; works on a paused endpoint too. Audit: webhook_endpoint.test_sent, by the key.",
      query: NO_QUERY,
      body: null,
      response: singleSchema(
        z.strictObject({
          result: z.enum(["succeeded", "failed"]).meta({ description: "Whether the receiver answered 2xx." }),
          delivery: webhookDeliverySchema,
          attempt: webhookAttemptSchema,
        }),
      ),
      successStatus: 200,
      errorStatuses: ACTION,
      async handle(context) {
        const sent = await dispatcher.sendTest(company(context), id(context), by(context));
        return data(200, {
          result: sent.attempt.succeeded ? "succeeded" : "failed",
          delivery: deliveryWire(sent.delivery, [sent.attempt]),
          attempt: attemptWire(sent.attempt),
        });
      },
    }),
    extensionRoute({
      operationId: "listWebhookDeliveries",
      method: "GET",
      path: "/webhook-endpoints/{id}/deliveries",
      scope: "webhooks:read",
      tag: TAG,
      summary: "List an endpoint's deliveries",
      description:
        "Newest first, each with every attempt. When has_more is true, pass next_cursor as cursor (with the same status) to get the next page.",
      query: querySpec(deliveryListQuerySchema),
      body: null,
      response: z.strictObject({
        data: z.array(webhookDeliverySchema),
        has_more: z.boolean(),
        next_cursor: z.string().nullable(),
      }),
      successStatus: 200,
      errorStatuses: READ,
      async handle(context) {
        const { status, cursor, limit } = context.query;
        const page = await deliveries.list(company(context), id(context), {
          limit,
          ...(status ? { status } : {}),
          ...(cursor ? { cursor } : {}),
        });
        return {
          status: 200,
          body: { data: page.data.map(deliveryWithAttemptsWire), has_more: page.hasMore, next_cursor: page.nextCursor },
        };
      },
    }),
    extensionRoute({
      operationId: "resendWebhookDelivery",
      method: "POST",
      path: "/webhook-endpoints/{id}/deliveries/{delivery_id}/resend",
      scope: "webhooks:write",
      tag: TAG,
      summary: "Send a delivery again",
      description:
        "No body. The delivery becomes pending and due now, whatever its state (after the endpoint is resumed, if it is paused); one whose retries were used up gets one more attempt. Audit: webhook_delivery.resent, by the key.",
      query: NO_QUERY,
      body: null,
      response: deliveryResponse,
      successStatus: 200,
      errorStatuses: ACTION,
      async handle(context) {
        const companyId = company(context);
        const deliveryId = context.params.delivery_id as string;
        const found = await deliveries.get(companyId, deliveryId);
        if (found.endpointId !== id(context)) throw notFound("webhook delivery");
        await deliveries.resend(companyId, deliveryId, by(context));
        return data(200, deliveryWithAttemptsWire(await deliveries.get(companyId, deliveryId)));
      },
    }),
    extensionRoute({
      operationId: "getEventSample",
      method: "GET",
      path: "/event-samples/{type}",
      scope: "webhooks:read",
      tag: TAG,
      summary: "A sample event",
      description: `An example envelope of the event kind (${EVENT_TYPES.join(", ")}), as a receiver gets it: the sample data REST Hooks clients (Zapier, Make, n8n) show while a trigger is set up. An unknown kind answers 404.`,
      query: NO_QUERY,
      body: null,
      response: singleSchema(eventEnvelopeSchema),
      successStatus: 200,
      errorStatuses: READ,
      async handle(context) {
        const type = context.params.type as string;
        const sample = sampleOf(type);
        if (!sample) throw notFound("event type");
        return data(200, sample);
      },
    }),
  ];

  const extension: ApiExtension = {
    name: "@hireport/webhooks",
    routes,
    tags: [
      {
        name: TAG,
        description:
          "Subscriptions to the webhooks: endpoints, their secrets and deliveries (REST Hooks for Zapier, Make and n8n). Served where the host mounts @hireport/webhooks.",
      },
    ],
    components: [
      ["WebhookEndpoint", webhookEndpointSchema],
      ["WebhookEndpointWithSecret", webhookEndpointWithSecretSchema],
      ["WebhookDelivery", webhookDeliverySchema],
      ["WebhookAttempt", webhookAttemptSchema],
    ],
  };
  return Object.freeze(extension);
}
