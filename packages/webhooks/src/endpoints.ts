import {
  EVENT_TYPES,
  type EventType,
  HireportError,
  isStorableText,
  notFound,
  type WebhookEndpointRecord,
  type WebhookSecret,
} from "@hireport/core";
import type { AddressPolicy } from "./address-policy";
import { checkEndpointUrl } from "./endpoint-url";
import { toEndpointView, type WebhookEndpoint } from "./endpoint-view";
import { newId, newSigningSecret } from "./ids";
import type { ResolvedDispatcherOptions } from "./options";

/** Longest endpoint description. */
export const MAX_DESCRIPTION_LENGTH = 500;

export interface CreateEndpointInput {
  companyId: string;
  /** The receiver's https address. */
  url: string;
  /** Event kinds to send, from the five of spec section 6. */
  events: readonly EventType[];
  /** Free text shown to the company. @default "" */
  description?: string;
}

export interface UpdateEndpointInput {
  url?: string;
  events?: readonly EventType[];
  description?: string;
}

/** An endpoint together with a secret that is shown this once. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  /** `whsec_…`: give it to the receiver now; it cannot be read again. */
  secret: string;
}

/** Endpoint management. Every method is scoped to a company: another company's endpoint is not found. */
export interface EndpointManager {
  create(input: CreateEndpointInput): Promise<EndpointWithSecret>;
  /** Every endpoint of the company, as the storage orders them. */
  list(companyId: string): Promise<WebhookEndpoint[]>;
  /** Throws `not_found` when the company has no such endpoint. */
  get(companyId: string, id: string): Promise<WebhookEndpoint>;
  update(companyId: string, id: string, input: UpdateEndpointInput): Promise<WebhookEndpoint>;
  /** Stops deliveries; new events still queue for the endpoint. */
  pause(companyId: string, id: string): Promise<WebhookEndpoint>;
  /** Starts deliveries again (the queued ones go out at once) and clears the failure count. */
  resume(companyId: string, id: string): Promise<WebhookEndpoint>;
  /** Deletes the endpoint with its deliveries and attempts. */
  delete(companyId: string, id: string): Promise<void>;
  /** A new current secret; the old one keeps signing beside it for `rotationGraceMs` (24 h). */
  rotateSecret(companyId: string, id: string): Promise<EndpointWithSecret>;
}

function invalid(field: string, message: string): HireportError {
  return new HireportError("invalid", `The webhook endpoint is not valid: ${message}`, {
    fields: [{ field, message }],
  });
}

function checkEvents(value: unknown): EventType[] {
  if (!Array.isArray(value) || value.length === 0) throw invalid("events", "choose at least one event kind");
  const events: EventType[] = [];
  value.forEach((item, index) => {
    if (!EVENT_TYPES.includes(item as EventType)) {
      throw invalid(`events.${index}`, `must be one of ${EVENT_TYPES.join(", ")}`);
    }
    if (!events.includes(item as EventType)) events.push(item as EventType);
  });
  return events;
}

function checkDescription(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value !== "string") throw invalid("description", "must be text");
  if (value.length > MAX_DESCRIPTION_LENGTH)
    throw invalid("description", `at most ${MAX_DESCRIPTION_LENGTH} characters`);
  if (!isStorableText(value)) throw invalid("description", "no NUL character (U+0000) or unpaired UTF-16 surrogate");
  return value;
}

function checkCompany(companyId: unknown): string {
  if (typeof companyId !== "string" || companyId === "") throw invalid("companyId", "a company id is required");
  return companyId;
}

export interface EndpointManagerContext {
  options: ResolvedDispatcherOptions;
  policy: AddressPolicy | null;
  /** Wakes the delivery loop (after a resume). */
  wake: () => void;
}

export function createEndpointManager({ options, policy, wake }: EndpointManagerContext): EndpointManager {
  const { storage, clock } = options;
  const webhooks = storage.webhooks;
  const urlOptions = { policy, resolve: options.resolveHost };

  async function load(companyId: string, id: string): Promise<WebhookEndpointRecord> {
    const record = await webhooks.getEndpoint(companyId, id);
    if (!record) throw notFound("webhook endpoint");
    return record;
  }

  async function patch(
    companyId: string,
    id: string,
    change: Parameters<typeof webhooks.updateEndpoint>[2],
  ): Promise<WebhookEndpointRecord> {
    const record = await webhooks.updateEndpoint(companyId, id, change);
    if (!record) throw notFound("webhook endpoint");
    return record;
  }

  const view = (record: WebhookEndpointRecord) => toEndpointView(record, clock.now());

  return {
    async create(input) {
      const companyId = checkCompany(input.companyId);
      const url = await checkEndpointUrl(input.url, urlOptions);
      const events = checkEvents(input.events);
      const description = checkDescription(input.description);
      const now = clock.now();
      const secret = newSigningSecret();
      const record: WebhookEndpointRecord = {
        id: newId("we", now),
        companyId,
        url,
        description,
        events,
        status: "active",
        pausedReason: null,
        secrets: [{ secret, expiresAt: null }],
        consecutiveFailures: 0,
        createdAt: now,
        updatedAt: now,
      };
      await webhooks.insertEndpoint(record);
      return { endpoint: view(record), secret };
    },

    async list(companyId) {
      return (await webhooks.listEndpoints(companyId)).map(view);
    },

    async get(companyId, id) {
      return view(await load(companyId, id));
    },

    async update(companyId, id, input) {
      await load(companyId, id);
      const change: Parameters<typeof webhooks.updateEndpoint>[2] = { updatedAt: clock.now() };
      if (input.url !== undefined) change.url = await checkEndpointUrl(input.url, urlOptions);
      if (input.events !== undefined) change.events = checkEvents(input.events);
      if (input.description !== undefined) change.description = checkDescription(input.description);
      return view(await patch(companyId, id, change));
    },

    async pause(companyId, id) {
      const record = await load(companyId, id);
      if (record.status === "paused") return view(record);
      return view(await patch(companyId, id, { status: "paused", pausedReason: "manual", updatedAt: clock.now() }));
    },

    async resume(companyId, id) {
      await load(companyId, id);
      const record = await patch(companyId, id, {
        status: "active",
        pausedReason: null,
        consecutiveFailures: 0,
        updatedAt: clock.now(),
      });
      wake();
      return view(record);
    },

    async delete(companyId, id) {
      if (!(await webhooks.deleteEndpoint(companyId, id))) throw notFound("webhook endpoint");
    },

    async rotateSecret(companyId, id) {
      const record = await load(companyId, id);
      const now = clock.now();
      const graceEnds = new Date(now.getTime() + options.rotationGraceMs);
      const secret = newSigningSecret();
      const kept: WebhookSecret[] = record.secrets
        .map((old) => (old.expiresAt === null ? { secret: old.secret, expiresAt: graceEnds } : old))
        .filter((old) => old.expiresAt !== null && old.expiresAt.getTime() > now.getTime());
      const secrets: WebhookSecret[] = [{ secret, expiresAt: null }, ...kept];
      const updated = await patch(companyId, id, { secrets, updatedAt: now });
      return { endpoint: view(updated), secret };
    },
  };
}
