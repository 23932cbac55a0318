import { EVENT_TYPES, type EventType, SCOPES, type Scope } from "../model/domain";

/** True when the granted scopes allow `required`: a `write` scope includes the matching `read`. */
export function hasScope(granted: readonly Scope[], required: Scope): boolean {
  if (granted.includes(required)) return true;
  if (required.endsWith(":read")) return granted.includes(required.replace(/:read$/, ":write") as Scope);
  return false;
}

/** The granted scopes with the implied `read` scopes added, in the order of `SCOPES` (GET /me shows these). */
export function expandScopes(granted: readonly Scope[]): Scope[] {
  return SCOPES.filter((scope) => hasScope(granted, scope));
}

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * The permission that reads events of a type (GET /events): `jobs:read` for `job.*`,
 * `applications:read` for `application.*` (their write scopes include them).
 */
export function eventReadScope(type: EventType): Scope {
  return type.startsWith("job.") ? "jobs:read" : "applications:read";
}

/** The event types a key's scopes read, in the order of `EVENT_TYPES`. */
export function readableEventTypes(granted: readonly Scope[]): EventType[] {
  return EVENT_TYPES.filter((type) => hasScope(granted, eventReadScope(type)));
}
