/**
 * hireport's Postgres routines: their names, their installation, and the error when one is missing.
 *
 * Each routine is named `{prefix}{base}_{hash}`, the hash being a short digest of its definition
 * (written with an empty prefix, so it is the same for every prefix). A changed definition gets a
 * new name: during a rolling deploy the processes of the previous version keep calling the
 * routines they know, which stay in place, while the new version's are installed beside them.
 * `migrateToLatest` installs them after the migrations; hosts with their own migrator call
 * `installRoutines`. Installing creates only what is missing, under an advisory lock, so it is
 * cheap to run on every deploy and safe to run from several processes at once.
 */
import { sql } from "kysely";
import type { StoreContext } from "../../context";
import type { AnyKysely } from "../types";
import { ROUTINE_DEFINITIONS, type RoutineBase, type RoutineNaming } from "./routine-sql";

/** One routine of this version under one prefix. */
export interface Routine {
  base: RoutineBase;
  /** The name, unquoted: `{prefix}{base}_{hash}`. */
  name: string;
  /** The schema it lives in (the `schema` option), or null for the search path's first. */
  schema: string | null;
  /** The statement that creates it. */
  create: string;
  /** The statement that drops it. */
  drop: string;
}

/** Longest identifier Postgres keeps (NAMEDATALEN - 1 bytes); longer ones are cut silently. */
const MAX_IDENTIFIER_BYTES = 63;
/** Postgres error code of an unknown function. */
const UNDEFINED_FUNCTION = "42883";

/** A double-quoted identifier: a prefix with capitals or odd characters stays as it is. */
export function quoteIdentifier(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

/** A short digest of a text (FNV-1a, 32 bits, as 8 hex digits): enough to tell two definitions apart. */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** A name qualified with hireport's schema when there is one (the `schema` option), else bare. */
function qualified(schema: string | null, name: string): string {
  return schema === null ? quoteIdentifier(name) : `${quoteIdentifier(schema)}.${quoteIdentifier(name)}`;
}

function naming(prefix: string, name: string, schema: string | null): RoutineNaming {
  return { name: qualified(schema, name), table: (table) => qualified(schema, `${prefix}${table}`) };
}

const byNames = new Map<string, Readonly<Record<RoutineBase, Routine>>>();

/** The routines of this version under `prefix` (in `schema`, when given), by base name. */
export function routinesOf(prefix: string, schema: string | null = null): Readonly<Record<RoutineBase, Routine>> {
  const key = `${schema ?? ""}\u0000${prefix}`;
  const cached = byNames.get(key);
  if (cached) return cached;
  const entries = (Object.keys(ROUTINE_DEFINITIONS) as RoutineBase[]).map((base): [RoutineBase, Routine] => {
    const definition = ROUTINE_DEFINITIONS[base];
    const hash = shortHash(definition.create(naming("", base, null)));
    const name = `${prefix}${base}_${hash}`;
    if (new TextEncoder().encode(name).length > MAX_IDENTIFIER_BYTES) {
      throw new Error(
        `@hireport/kysely: the routine name ${name} is longer than Postgres's ${MAX_IDENTIFIER_BYTES} bytes: use a shorter tablePrefix.`,
      );
    }
    return [
      base,
      {
        base,
        name,
        schema,
        create: definition.create(naming(prefix, name, schema)),
        drop: `drop function if exists ${qualified(schema, name)}(${definition.args})`,
      },
    ];
  });
  const routines = Object.freeze(Object.fromEntries(entries) as Record<RoutineBase, Routine>);
  byNames.set(key, routines);
  return routines;
}

/**
 * Creates the routines of this version under `prefix` (in `schema`, when given) where the database
 * lacks them, in one transaction holding an advisory lock of the prefix (inside the caller's
 * transaction when `db` is one). Routines of other versions are left alone.
 */
export async function installPostgresRoutines(db: AnyKysely, prefix: string, schema: string | null): Promise<void> {
  const routines = Object.values(routinesOf(prefix, schema));
  const where = schema === null ? sql`` : sql`${`${quoteIdentifier(schema)}.`}::text || `;
  const missing = async (on: AnyKysely) => {
    const { rows } = await sql<{ name: string }>`select n.name from unnest(${routines.map(
      (routine) => routine.name,
    )}::text[]) as n (name) where to_regproc(${where}quote_ident(n.name)) is null`.execute(on);
    return new Set(rows.map((row) => row.name));
  };
  if ((await missing(db)).size === 0) return;
  const install = async (trx: AnyKysely) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`hireport routines ${schema ?? ""} ${prefix}`}))`.execute(trx);
    const absent = await missing(trx);
    for (const routine of routines) if (absent.has(routine.name)) await sql.raw(routine.create).execute(trx);
  };
  if (db.isTransaction) await install(db);
  else await db.transaction().execute(install);
}

/** The statements creating (`up`) or dropping (`down`) the routines of this version under `prefix`. */
export function postgresRoutineStatements(prefix: string, direction: "up" | "down", schema: string | null): string[] {
  return Object.values(routinesOf(prefix, schema)).map((routine) =>
    direction === "up" ? routine.create : routine.drop,
  );
}

/** The name of one of this version's routines for the context's prefix, as an identifier. */
export function routineRef(ctx: StoreContext, base: RoutineBase) {
  const { name } = routinesOf(ctx.tablePrefix, ctx.schema)[base];
  return ctx.schema === null ? sql.id(name) : sql.id(ctx.schema, name);
}

/**
 * Runs a statement that calls one of this version's routines; when the database does not have it,
 * says how to install it instead of Postgres's bare "function does not exist".
 */
export async function withRoutine<T>(ctx: StoreContext, base: RoutineBase, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const { name } = routinesOf(ctx.tablePrefix, ctx.schema)[base];
    if (code === UNDEFINED_FUNCTION && String((error as Error).message).includes(name)) {
      const schema = ctx.schema === null ? "" : `, schema: ${JSON.stringify(ctx.schema)}`;
      const names = `{ tablePrefix: ${JSON.stringify(ctx.tablePrefix)}${schema} }`;
      throw new Error(
        `hireport: the database has no routine ${name} (${base} of this version of @hireport/kysely): run migrateToLatest(db, ${names}) when deploying this version, or installRoutines(db, ${names}) if you run the migrations with your own migrator.`,
        { cause: error },
      );
    }
    throw error;
  }
}
