/**
 * Statements compiled once per shape: the reads on every API request (the lists, a record by id,
 * key admission) are built with Kysely's query builder the first time a shape is met, with a
 * placeholder for each value, and later runs only put the values in their places. Building and
 * compiling a query costs more than the rest of the store's work for a page of rows.
 *
 * Their SQL starts with {@link PREPARED_MARK}: on a pool wrapped by `hardenPgPool`, Postgres keeps
 * them as named prepared statements, parsed and planned once per connection.
 */
import { type Compilable, CompiledQuery, type RawBuilder } from "kysely";
import type { StoreContext } from "./context";

/** The comment that marks a statement worth preparing (see `hardenPgPool`). */
export const PREPARED_MARK = "/* hireport:prepared */ ";

const SLOT = "\u0000hireport-slot:";

/** One compiled shape: its SQL and, per parameter, the argument that fills it or a fixed value. */
interface Template {
  sql: string;
  parameters: readonly ({ arg: string } | { value: unknown })[];
}

/** The compiled shapes of one storage (shared by its transactions' contexts). */
export type CompiledShapes = Map<string, Template>;

/** The placeholders `build` receives: each argument's name in place of its value. */
export type Slots<A> = { readonly [K in keyof A]: A[K] };

/** Compiles `build` with a placeholder per argument and records where each one went. */
function compile<A extends object>(
  ctx: StoreContext,
  args: A,
  build: (slots: Slots<A>) => Compilable<unknown> | RawBuilder<unknown>,
): Template {
  const names = Object.keys(args);
  const slots = Object.fromEntries(names.map((name) => [name, `${SLOT}${name}`])) as unknown as Slots<A>;
  const built = build(slots);
  const compiled = "isRawBuilder" in built ? built.compile(ctx.db) : built.compile();
  const used = new Set<string>();
  const parameters = compiled.parameters.map((value) => {
    if (typeof value === "string" && value.startsWith(SLOT)) {
      const arg = value.slice(SLOT.length);
      used.add(arg);
      return { arg };
    }
    return { value };
  });
  // Every argument must land in a parameter of its own: one that did not (used in a branch, or
  // turned into SQL text) would be frozen into the shape with its first value.
  const lost = names.filter((name) => !used.has(name));
  if (lost.length > 0) throw new Error(`@hireport/kysely: the arguments ${lost.join(", ")} are not parameters.`);
  return { sql: `${PREPARED_MARK}${compiled.sql}`, parameters };
}

/**
 * Runs the statement that `build` makes with `args`, compiled once per `shape` and storage.
 * `shape` names everything that changes the statement's text (which filters are present, how many
 * values a list holds); `build` may only place the arguments it is given, never branch on them,
 * and every argument must be a parameter (dates already converted with `ctx.toDb`).
 */
export async function runCompiled<R, A extends object>(
  ctx: StoreContext,
  shape: string,
  args: A,
  build: (slots: Slots<A>) => Compilable<R> | RawBuilder<R>,
): Promise<R[]> {
  let template = ctx.compiled.get(shape);
  if (!template) {
    template = compile(ctx, args, build);
    ctx.compiled.set(shape, template);
  }
  const parameters = template.parameters.map((parameter) =>
    "arg" in parameter ? (args as Record<string, unknown>)[parameter.arg] : parameter.value,
  );
  const result = await ctx.db.executeQuery<R>(CompiledQuery.raw(template.sql, parameters));
  return result.rows;
}
