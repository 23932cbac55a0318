import { type ChangeOptions, type EventType, HireportError } from "@hireport/core";
import { type AuditInput, hostActor, notFound, recordAudit, unknownCompany } from "@hireport/core/extend";
import { EVENT_TYPES, isStorableText } from "@hireport/core/schemas";
import { newId, type StorageStores } from "@hireport/core/storage";
import type { ResolvedDispatcherOptions } from "../dispatcher/options";
import type { AddressPolicy } from "../network/address-policy";
import { createSecretBox } from "../signing/secret-encryption";
import { newSigningKey, publicKeyOf } from "../signing/signing-keys";
import {
  WEBHOOK_SIGNATURE_SCHEMES,
  type WebhookEndpointRecord,
  type WebhookSecret,
  type WebhookSignatureScheme,
} from "../store/webhook-records";
import { type EndpointStats, type EndpointStatsOptions, readEndpointStats } from "./endpoint-stats";
import { checkEndpointUrl } from "./endpoint-url";
import { toEndpointView, type WebhookEndpoint } from "./endpoint-view";

/** Longest endpoint description. */
export const MAX_DESCRIPTION_LENGTH = 500;

/** Highest `maxPerSecond` an endpoint may have. */
export const MAX_DELIVERIES_PER_SECOND = 10_000;

export interface CreateEndpointInput {
  companyId: string;
  /** The receiver's https address. */
  url: string;
  /** Event kinds to send, from the five of docs/api-reference.md, Events. */
  events: readonly EventType[];
  /** Free text shown to the company. @default "" */
  description?: string;
  /**
   * How deliveries are signed: `"service"` (the `…-Signature` header), `"standard-v1"` (Standard
   * Webhooks, HMAC-SHA256) or `"standard-v1a"` (Standard Webhooks, ed25519; hireport makes the key
   * pair and keeps the private key). See the receiver guide. @default "service"
   */
  signatureScheme?: WebhookSignatureScheme;
  /**
   * Ordered delivery: one delivery at a time, in the order the events were created; each waits
   * until the one before it has succeeded or been given up on, so a retry holds back the rest of
   * the endpoint's queue (see the README, Ordered delivery). @default false
   */
  ordered?: boolean;
  /**
   * The most deliveries started to the endpoint in one second of the clock, by all dispatchers on
   * the storage together: a whole number from 1 to 10 000, or null for no limit. @default null
   */
  maxPerSecond?: number | null;
}

export interface UpdateEndpointInput {
  url?: string;
  events?: readonly EventType[];
  description?: string;
  /**
   * A new signature scheme. Changing it replaces the endpoint's key material at once (no grace
   * period: the receiver must change how it verifies anyway): read the new secret with
   * `revealSecret`, or the new public key on the endpoint. The same scheme changes nothing.
   */
  signatureScheme?: WebhookSignatureScheme;
  /**
   * Turns ordered delivery on or off; it applies from the next claim (deliveries already being
   * sent finish as they started).
   */
  ordered?: boolean;
  /** A new throttle, or null to remove it; it applies from the next claim. */
  maxPerSecond?: number | null;
}

/** An endpoint together with what its receiver verifies with, shown this once. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  /**
   * `whsec_…` (schemes `"service"` and `"standard-v1"`): give it to the receiver now; it cannot be
   * read again. For `"standard-v1a"`, the public key `whpk_…` (not a secret; also
   * `endpoint.publicKey` and the JWKS): the private key never leaves hireport.
   */
  secret: string;
}

/**
 * Endpoint management. Every method is scoped to a company: another company's endpoint is not
 * found. Every change is recorded in the company's audit list (core's `api.audit`) with
 * `options.actor` (@default "host"), in the transaction of the change.
 */
export interface EndpointManager {
  /**
   * Adds an endpoint and makes its first secret. Audit: `webhook_endpoint.created`.
   * @throws `invalid` (422, with `fields`) for bad input, `not_found` (404) for a company hireport
   * does not know (register it first with `api.companies.upsert`), `endpoint_limit` (409) when the
   * company has `maxEndpointsPerCompany` endpoints already
   */
  create(input: CreateEndpointInput, options?: ChangeOptions): Promise<EndpointWithSecret>;
  /** Every endpoint of the company, as the storage orders them. */
  list(companyId: string): Promise<WebhookEndpoint[]>;
  /** Throws `not_found` when the company has no such endpoint. */
  get(companyId: string, id: string): Promise<WebhookEndpoint>;
  /**
   * How the endpoint's receiver answered over the last hours (24 by default), hour by hour: the
   * attempts, the share that succeeded, the mean and longest time of an attempt. One bounded read of
   * the store (`attemptStats`). The console's endpoint page charts it.
   * @throws `not_found` for an endpoint the company does not have, `invalid` for `hours` out of range
   */
  stats(companyId: string, id: string, options?: EndpointStatsOptions): Promise<EndpointStats>;
  /** Changes the fields given. Audit: `webhook_endpoint.updated` (the names of the fields given). */
  update(companyId: string, id: string, input: UpdateEndpointInput, options?: ChangeOptions): Promise<WebhookEndpoint>;
  /** Stops deliveries; new events still queue for the endpoint. Audit: `webhook_endpoint.paused` (once). */
  pause(companyId: string, id: string, options?: ChangeOptions): Promise<WebhookEndpoint>;
  /**
   * Starts deliveries again (the queued ones go out at once) and clears the failure count.
   * Audit: `webhook_endpoint.resumed`.
   */
  resume(companyId: string, id: string, options?: ChangeOptions): Promise<WebhookEndpoint>;
  /** Deletes the endpoint with its deliveries and attempts. Audit: `webhook_endpoint.deleted`. */
  delete(companyId: string, id: string, options?: ChangeOptions): Promise<void>;
  /**
   * A new current secret (a new key pair for `"standard-v1a"`); the old one keeps signing beside
   * it for `rotationGraceMs` (24 h): two signatures in each delivery's header, and for
   * `"standard-v1a"` both public keys in the JWKS. Audit: `webhook_endpoint.secret_rotated`.
   */
  rotateSecret(companyId: string, id: string, options?: ChangeOptions): Promise<EndpointWithSecret>;
  /**
   * The current signing secret, for a person allowed to see it (the console shows it to owners
   * only); for `"standard-v1a"`, the current public key (never the private key). Audit:
   * `webhook_endpoint.secret_revealed`: who saw it, when.
   */
  revealSecret(companyId: string, id: string, options?: ChangeOptions): Promise<EndpointWithSecret>;
}

function invalid(field: string, message: string): HireportError {
  return new HireportError("invalid", `The webhook endpoint is not valid: ${message}`, {
    fields: [{ field, message }],
  });
}

function endpointLimit(max: number): HireportError {
  return new HireportError(
    "endpoint_limit",
    `The company has ${max} webhook endpoints, the most it may have: delete one it no longer uses first.`,
  );
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

function checkOrdered(value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") throw invalid("ordered", "must be true or false");
  return value;
}

function checkMaxPerSecond(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_DELIVERIES_PER_SECOND) {
    throw invalid("maxPerSecond", `must be a whole number from 1 to ${MAX_DELIVERIES_PER_SECOND}, or null`);
  }
  return value;
}

function checkDescription(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value !== "string") throw invalid("description", "must be text");
  if (value.length > MAX_DESCRIPTION_LENGTH)
    throw invalid("description", `at most ${MAX_DESCRIPTION_LENGTH} characters`);
  if (!isStorableText(value)) throw invalid("description", "no NUL character (U+0000) or unpaired UTF-16 surrogate");
  return value;
}

function checkScheme(value: unknown): WebhookSignatureScheme {
  if (value === undefined) return "service";
  if (!WEBHOOK_SIGNATURE_SCHEMES.includes(value as WebhookSignatureScheme)) {
    throw invalid("signatureScheme", `must be one of ${WEBHOOK_SIGNATURE_SCHEMES.join(", ")}`);
  }
  return value as WebhookSignatureScheme;
}

/** What the receiver is given for a key: the secret itself, or the public key of a private one. */
function shownKey(scheme: WebhookSignatureScheme, key: string): string {
  return scheme === "standard-v1a" ? publicKeyOf(key) : key;
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

  /** The audit entry of an endpoint's change, at `now`, through `stores` (the change's transaction). */
  function audit(
    stores: Pick<StorageStores, "audit">,
    companyId: string,
    id: string,
    action: string,
    now: Date,
    options: ChangeOptions | undefined,
    details?: AuditInput["details"],
  ) {
    const entry: AuditInput = {
      companyId,
      actor: hostActor(options),
      action: `webhook_endpoint.${action}`,
      target: { type: "webhook_endpoint", id },
      ...(details ? { details } : {}),
    };
    return recordAudit(stores, entry, now);
  }

  /** Applies `change` and records `action`, in one transaction. */
  async function patch(
    companyId: string,
    id: string,
    change: Parameters<typeof webhooks.updateEndpoint>[2],
    action: string,
    options: ChangeOptions | undefined,
    details?: AuditInput["details"],
  ): Promise<WebhookEndpointRecord> {
    const record = await storage.transaction(async (tx) => {
      const updated = await tx.webhooks.updateEndpoint(companyId, id, change);
      if (updated) await audit(tx, companyId, id, action, change.updatedAt, options, details);
      return updated;
    });
    if (!record) throw notFound("webhook endpoint");
    return record;
  }

  const secrets = createSecretBox(options.encryptionKeys);
  const view = (record: WebhookEndpointRecord) => toEndpointView(secrets.openForView(record), clock.now());

  return {
    async create(input, changeOptions) {
      const companyId = checkCompany(input.companyId);
      if (!(await storage.companies.get(companyId))) throw unknownCompany(companyId);
      const url = await checkEndpointUrl(input.url, urlOptions);
      const events = checkEvents(input.events);
      const description = checkDescription(input.description);
      const signatureScheme = checkScheme(input.signatureScheme);
      const ordered = checkOrdered(input.ordered);
      const maxPerSecond = checkMaxPerSecond(input.maxPerSecond);
      const now = clock.now();
      const secret = newSigningKey(signatureScheme);
      const id = newId("we", now);
      const record: WebhookEndpointRecord = {
        id,
        companyId,
        url,
        description,
        events,
        status: "active",
        pausedReason: null,
        signatureScheme,
        ordered,
        maxPerSecond,
        secrets: [{ secret: secrets.seal(id, secret), expiresAt: null }],
        consecutiveFailures: 0,
        createdAt: now,
        updatedAt: now,
      };
      await storage.transaction(async (tx) => {
        // Counted in the transaction of the insert: a company at its limit gets no more.
        const existing = await tx.webhooks.listEndpoints(companyId);
        if (existing.length >= options.maxEndpointsPerCompany) throw endpointLimit(options.maxEndpointsPerCompany);
        await tx.webhooks.insertEndpoint(record);
        await audit(tx, companyId, record.id, "created", now, changeOptions, {
          events,
          signatureScheme,
          ordered,
          maxPerSecond,
        });
      });
      return { endpoint: view(record), secret: shownKey(signatureScheme, secret) };
    },

    async list(companyId) {
      return (await webhooks.listEndpoints(companyId)).map(view);
    },

    async get(companyId, id) {
      return view(await load(companyId, id));
    },

    async stats(companyId, id, statsOptions) {
      await load(companyId, id);
      return readEndpointStats(webhooks, companyId, id, clock.now(), statsOptions);
    },

    async update(companyId, id, input, changeOptions) {
      const record = await load(companyId, id);
      const change: Parameters<typeof webhooks.updateEndpoint>[2] = { updatedAt: clock.now() };
      if (input.url !== undefined) change.url = await checkEndpointUrl(input.url, urlOptions);
      if (input.events !== undefined) change.events = checkEvents(input.events);
      if (input.description !== undefined) change.description = checkDescription(input.description);
      if (input.signatureScheme !== undefined) {
        const scheme = checkScheme(input.signatureScheme);
        if (scheme !== record.signatureScheme) {
          change.signatureScheme = scheme;
          change.secrets = [{ secret: secrets.seal(id, newSigningKey(scheme)), expiresAt: null }];
        }
      }
      if (input.ordered !== undefined) change.ordered = checkOrdered(input.ordered);
      if (input.maxPerSecond !== undefined) change.maxPerSecond = checkMaxPerSecond(input.maxPerSecond);
      const fields = (["url", "events", "description", "signatureScheme", "ordered", "maxPerSecond"] as const).filter(
        (name) => change[name] !== undefined,
      );
      const details = {
        fields,
        ...(change.events ? { events: change.events } : {}),
        ...(change.signatureScheme ? { signatureScheme: change.signatureScheme } : {}),
        ...(change.ordered !== undefined ? { ordered: change.ordered } : {}),
        ...(change.maxPerSecond !== undefined ? { maxPerSecond: change.maxPerSecond } : {}),
      };
      return view(await patch(companyId, id, change, "updated", changeOptions, details));
    },

    async pause(companyId, id, changeOptions) {
      const record = await load(companyId, id);
      if (record.status === "paused") return view(record);
      const change = { status: "paused" as const, pausedReason: "manual" as const, updatedAt: clock.now() };
      return view(await patch(companyId, id, change, "paused", changeOptions));
    },

    async resume(companyId, id, changeOptions) {
      await load(companyId, id);
      const change = { status: "active" as const, pausedReason: null, consecutiveFailures: 0, updatedAt: clock.now() };
      const record = await patch(companyId, id, change, "resumed", changeOptions);
      wake();
      return view(record);
    },

    async delete(companyId, id, changeOptions) {
      const now = clock.now();
      const deleted = await storage.transaction(async (tx) => {
        const found = await tx.webhooks.deleteEndpoint(companyId, id);
        if (found) await audit(tx, companyId, id, "deleted", now, changeOptions);
        return found;
      });
      if (!deleted) throw notFound("webhook endpoint");
    },

    async revealSecret(companyId, id, changeOptions) {
      const record = await load(companyId, id);
      // Sealed at rest when the dispatcher has encryptionKeys: opened here (a SecretKeyError names the key otherwise).
      const opened = secrets.open(record);
      const current = opened.find((secret) => secret.expiresAt === null) ?? opened[0];
      if (!current) throw new Error(`hireport webhooks: endpoint ${id} has no signing secret.`);
      await audit(storage, companyId, id, "secret_revealed", clock.now(), changeOptions);
      return { endpoint: view(record), secret: shownKey(record.signatureScheme, current.secret) };
    },

    async rotateSecret(companyId, id, changeOptions) {
      const record = await load(companyId, id);
      const now = clock.now();
      const graceEnds = new Date(now.getTime() + options.rotationGraceMs);
      const secret = newSigningKey(record.signatureScheme);
      const kept: WebhookSecret[] = record.secrets
        .map((old) => (old.expiresAt === null ? { secret: old.secret, expiresAt: graceEnds } : old))
        .filter((old) => old.expiresAt !== null && old.expiresAt.getTime() > now.getTime());
      const next: WebhookSecret[] = [{ secret: secrets.seal(id, secret), expiresAt: null }, ...kept];
      const updated = await patch(companyId, id, { secrets: next, updatedAt: now }, "secret_rotated", changeOptions);
      return { endpoint: view(updated), secret: shownKey(updated.signatureScheme, secret) };
    },
  };
}
