import type { ClaimOptions, WebhookStorage } from "../../src/index";

/** Storages are frozen: a proxy over an empty target, delegating all but some members to `target`. */
export function delegate<T extends object>(target: T, overrides: Record<string, unknown>): T {
  return new Proxy({} as T, {
    get(_empty, property) {
      if (typeof property === "string" && property in overrides) return overrides[property];
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * The storage as a host's own implementation written before `maxPerEndpoint` would be: its claim
 * ignores it, so one claim brings a whole queue for one endpoint.
 */
export function ignoringMaxPerEndpoint(storage: WebhookStorage): WebhookStorage {
  const base = storage.webhooks;
  const webhooks = delegate(base, {
    claimDueDeliveries: ({ maxPerEndpoint: _ignored, ...options }: ClaimOptions) => base.claimDueDeliveries(options),
  });
  return delegate(storage, { webhooks });
}
