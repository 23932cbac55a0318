import type { Actor, ApiKeyRecord } from "../model/domain";

/** Options of host-side changes (`api.jobs.create(...)`, `api.applications.update(...)`). */
export interface ChangeOptions {
  /** Who made the change, shown in the stage history: a name, or a full actor. @default "host" */
  actor?: string | Actor;
}

export function hostActor(options: ChangeOptions | undefined): Actor {
  const actor = options?.actor;
  if (actor === undefined) return { type: "host", id: null, name: "host" };
  if (typeof actor === "string") return { type: "host", id: null, name: actor };
  return { ...actor };
}

export function keyActor(key: ApiKeyRecord): Actor {
  return { type: "api_key", id: key.id, name: key.name };
}
