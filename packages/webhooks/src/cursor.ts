import { HireportError, type KeysetPosition } from "@hireport/core";

/** An opaque list cursor for a keyset position. */
export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify([position.at.toISOString(), position.id]), "utf8").toString("base64url");
}

/** Reads a cursor made by {@link encodeCursor}; throws `invalid` (field `cursor`) otherwise. */
export function decodeCursor(cursor: string): KeysetPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string") {
      const at = new Date(value[0]);
      if (!Number.isNaN(at.getTime())) return { at, id: value[1] };
    }
  } catch {
    // fall through
  }
  throw new HireportError("invalid", "The cursor is not valid.", {
    fields: [{ field: "cursor", message: "use the nextCursor of the previous page" }],
  });
}
