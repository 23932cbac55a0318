// What the bare stacks of the cold-start bench do for GET /me: the key looked up by its SHA-256
// hash with its company (Kysely on pg), checked, the answer checked by a zod schema.
import { createHash } from "node:crypto";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import * as z from "zod";

const meSchema = z.object({
  company: z.object({ id: z.string(), name: z.string() }),
  key: z.object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(z.string()),
    created_at: z.string(),
    expires_at: z.string().nullable(),
  }),
});

/** `(authorization header) => { status, body }` over the tables of `prefix`. */
export function bareMe(connectionString, prefix) {
  const db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString, max: 4 }) }) });
  return async (authorization) => {
    const key = authorization?.startsWith("Bearer ") ? authorization.slice(7) : "";
    const hash = createHash("sha256").update(key).digest("hex");
    const row = await db
      .selectFrom(`${prefix}api_key as k`)
      .innerJoin(`${prefix}company as c`, "c.id", "k.company_id")
      .select([
        "k.id",
        "k.name",
        "k.scopes",
        "k.created_at",
        "k.expires_at",
        "k.revoked_at",
        "c.id as company_id",
        "c.name as company_name",
      ])
      .where("k.hash", "=", hash)
      .executeTakeFirst();
    if (!row || row.revoked_at !== null || (row.expires_at !== null && new Date(row.expires_at) <= new Date())) {
      return { status: 401, body: { error: { code: "invalid_key", message: "The API key is not valid." } } };
    }
    const body = meSchema.parse({
      company: { id: row.company_id, name: row.company_name },
      key: {
        id: row.id,
        name: row.name,
        scopes: JSON.parse(row.scopes),
        created_at: new Date(row.created_at).toISOString(),
        expires_at: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
      },
    });
    return { status: 200, body };
  };
}
