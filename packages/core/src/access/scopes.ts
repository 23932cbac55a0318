import { SCOPES, type Scope } from "../model/domain";

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
