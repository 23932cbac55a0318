/** Who did something, in the three columns stage changes, notes and audit entries store it in. */
import type { Actor } from "@hireport/core";
import type { ActorColumns } from "../schema";

export function toActor(row: ActorColumns): Actor {
  return { type: row.actor_type as Actor["type"], id: row.actor_id, name: row.actor_name };
}

export function actorColumns(actor: Actor): ActorColumns {
  return { actor_type: actor.type, actor_id: actor.id, actor_name: actor.name };
}
